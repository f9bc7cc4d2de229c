"""Whether any installed distribution declares a Pygments lexer plugin, told cheaply.

Pygments' ``find_plugin_lexers`` asks ``importlib.metadata`` for every entry
point of every distribution on ``sys.path``: it imports ``email`` and
``zipfile``, lists each path entry, reads and parses each distribution's
``entry_points.txt`` and makes an object of each entry point (a tenth of a
second of a dry run's CPU, for the empty answer nearly every environment
gives). :func:`none_declared` reads the same files the same way and says
True only where that scan must find no ``pygments.lexers`` entry point and
raise nothing. Anything it does not follow to the letter (a distribution
finder besides the path finder, a path entry that is not a plain directory
of names, a name whose distribution ``importlib.metadata`` reads the metadata
of to name it, a file it cannot read or decode, a line the scan would fail
on, the group's name anywhere in a file) says False, and the real scan runs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from importlib.machinery import PathFinder

GROUP = "pygments.lexers"
_INFO = (".dist-info", ".egg-info")


def none_declared(path: Sequence[object] | None = None, finders: Iterable[object] | None = None) -> bool:
    """True when ``importlib.metadata.entry_points()`` (on ``path``, default
    ``sys.path``, with the distribution finders of ``finders``, default
    ``sys.meta_path``) holds no entry point of :data:`GROUP` and raises nothing."""
    found = [f for f in (sys.meta_path if finders is None else finders) if getattr(f, "find_distributions", None)]
    if found != [PathFinder]:
        return False
    return all(_none_in(entry) for entry in (sys.path if path is None else path))


def _none_in(entry: object) -> bool:
    """Whether the distributions ``importlib.metadata`` finds in ``entry`` declare none."""
    if type(entry) is not str:
        return False
    try:
        names = os.listdir(entry or ".")
    except FileNotFoundError:
        return True  # nothing there: read as a zip file it fails the same way, and is skipped
    except OSError:
        return False  # a file (maybe a zip), or unreadable: only the real scan knows
    if os.path.basename(entry).lower().endswith(".egg") and any(n.lower() == "egg-info" for n in names):
        return False  # an egg's metadata folder: named from its METADATA
    return all(_declares_none(entry, name) for name in names if name.lower().endswith(_INFO))


def _declares_none(entry: str, name: str) -> bool:
    """Whether the distribution in ``entry``/``name`` is named by its folder (as
    ``importlib.metadata`` names it without reading its metadata) and its
    ``entry_points.txt`` is missing or parses cleanly without :data:`GROUP`."""
    stem, ext = os.path.splitext(name)
    if ext not in _INFO or not stem.partition("-")[0]:
        return False
    try:
        with open(os.path.join(entry, name, "entry_points.txt"), "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return True  # read as no entry points
    except OSError:
        return False
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return GROUP not in text and _parses(text)


def _parses(text: str) -> bool:
    """Whether ``importlib.metadata`` reads every entry point of ``text`` without an
    error: each line in a section, neither blank nor a comment, holds a ``=``."""
    in_section = False
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            in_section = True
        elif in_section and "=" not in line:
            return False
    return True
