"""Where a program's comments are, as Pygments' lexer for its file name reads them.

The one module that imports Pygments (installed with rich). An id in a
comment is prose about the program; an id in a string literal or in the
code itself is something the program prints or reads, so whoever rewrites
ids asks here which is which. A file no lexer knows by name gets ``None``:
callers then treat the whole file as comment text, as before lexing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fnmatch import fnmatchcase
from functools import cache, lru_cache
from typing import Any

from pygments.lexer import Lexer
from pygments.lexers import LEXERS, find_lexer_class
from pygments.lexers.special import TextLexer
from pygments.plugin import find_plugin_lexers
from pygments.token import Comment

from ..model import Span
from .lexer_plugins import none_declared

__all__ = ["comment_spans", "lexer_class"]

_GLOB_TAIL = re.compile(r"[^*?\[\]]*\Z")


@cache
def _globs() -> tuple[tuple[str, str, str | type[Lexer]], ...]:
    """Every file-name pattern Pygments knows, in its order, with its literal tail (the end
    of a name it matches) and its lexer: a name in the builtin table, or a plugin's class."""
    found: list[tuple[str, str, str | type[Lexer]]] = []
    for _module, name, _aliases, patterns, _mimetypes in LEXERS.values():
        found += [(glob, _tail(glob), name) for glob in patterns]
    for cls in _plugin_lexers():
        found += [(glob, _tail(glob), cls) for glob in cls.filenames]
    return tuple(found)


def _plugin_lexers() -> list[type[Lexer]]:
    """Pygments' plugin lexers, as ``find_plugin_lexers`` finds them; without reading every
    distribution's metadata where no distribution can declare one (see :mod:`.lexer_plugins`)."""
    return [] if none_declared() else list(find_plugin_lexers())


def _tail(glob: str) -> str:
    match = _GLOB_TAIL.search(glob)
    return match.group(0) if match else ""


@cache
def _by_tail() -> dict[str, list[tuple[int, str, str | type[Lexer]]]]:
    """:func:`_globs` by literal tail, each with its place in Pygments' order."""
    found: dict[str, list[tuple[int, str, str | type[Lexer]]]] = {}
    for place, (glob, tail, lexer) in enumerate(_globs()):
        found.setdefault(tail, []).append((place, glob, lexer))
    return found


def _matches(name: str) -> Iterator[tuple[type[Lexer], str]]:
    """Each lexer whose pattern matches ``name``, with the pattern, in Pygments' order.

    A pattern's literal tail (what follows its last ``*``, ``?`` or bracket)
    is outside every wildcard, so a name it matches ends with it: only the
    patterns whose tail is one of the name's endings (looked up, one per
    length) are compiled and matched as Pygments matches them (``fnmatch``,
    case-sensitive).
    """
    tails = _by_tail()
    ending = (tails.get(name[k:], ()) for k in range(len(name) + 1))
    for _place, glob, lexer in sorted(entry for entries in ending for entry in entries):
        if fnmatchcase(name, glob):
            yield (find_lexer_class(lexer) if isinstance(lexer, str) else lexer), glob


def lexer_class(name: str) -> type[Lexer] | None:
    """The lexer class Pygments' ``get_lexer_for_filename`` picks for the file name ``name``.

    The same choice (the highest priority, half a point more for a pattern
    without ``*``, then the class name; the last of equals), without
    compiling every one of its nine hundred patterns on the first call.
    """
    best: tuple[float, str] | None = None
    chosen: type[Lexer] | None = None
    for cls, glob in _matches(name):
        rating = (cls.priority + (0 if "*" in glob else 0.5), cls.__name__)
        if best is None or rating >= best:
            best, chosen = rating, cls
    return chosen


@cache
def _lexer(name: str) -> Any:
    cls = lexer_class(name)
    # Plain text (*.txt) has no comments and no strings: it is prose, read as before.
    if cls is None or issubclass(cls, TextLexer):
        return None
    made = _MADE.get(cls)
    if made is None:
        made = _MADE[cls] = cls(stripnl=False, ensurenl=False)
    return made


_MADE: dict[type[Lexer], Any] = {}
"""One lexer of each class for every file it reads: a lexer keeps no state between texts
(its options are the same for all), and making one takes a tenth of a millisecond."""


@lru_cache(maxsize=8)
def comment_spans(path: str, text: str) -> tuple[Span, ...] | None:
    """Spans of ``text`` that are comments (merged when adjacent); None when no lexer knows ``path``.

    Kept for the last few texts: a migration asks for one file's comments up to
    three times in a row (to rewrite its ids, then to report those left in code).
    """
    lexer = _lexer(path.rsplit("/", 1)[-1])
    if lexer is None:
        return None
    spans: list[Span] = []
    for index, kind, value in lexer.get_tokens_unprocessed(text):
        # A C preprocessor line is program text (its strings are compiled in), not a comment.
        if kind not in Comment or kind in Comment.Preproc or not value:
            continue
        if spans and spans[-1].end == index:
            spans[-1] = Span(spans[-1].start, index + len(value))
        else:
            spans.append(Span(index, index + len(value)))
    return tuple(spans)
