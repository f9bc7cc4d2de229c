"""The one-line warnings about state files under ``.git/docsync/`` that a run ignored.

The core never prints: it notes here, and the command line prints the notes.
"""

from __future__ import annotations

import os
from pathlib import Path

_ignored: dict[str, str] = {}


def ignored(file: Path, why: str) -> None:
    """Note that the state file ``file`` was ignored, and why: the command line says so
    in one line (:func:`ignored_notes`); the core prints nothing."""
    _ignored.setdefault(os.fspath(file), why)


def ignored_notes() -> list[str]:
    """One line per state file ignored since the last call, for the command line."""
    notes = [
        f"warning: {_shown(name)}: ignored ({why}); docsync starts it afresh"
        for name, why in _ignored.items()
    ]
    _ignored.clear()
    return notes


def taken() -> list[tuple[str, str]]:
    """The notes made since the last call, as (file, why), cleared: for a part of the run
    that ends before the command line is built, whose notes it makes again then."""
    found = list(_ignored.items())
    _ignored.clear()
    return found


def _shown(name: str) -> str:
    at = name.replace(os.sep, "/").rfind("/.git/")
    return name[at + 1 :] if at >= 0 else name
