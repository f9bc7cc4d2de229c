"""Where a program's comments are, as Pygments' lexer for its file name reads them.

The one module that imports Pygments (installed with rich). An id in a
comment is prose about the program; an id in a string literal or in the
code itself is something the program prints or reads, so whoever rewrites
ids asks here which is which. A file no lexer knows by name gets ``None``:
callers then treat the whole file as comment text, as before lexing.

Python sources (``.py``, ``.pyi``, ``.pyw``) are read by Python's own
tokenizer (:mod:`tokenize`), the language's reference, which finds the same
comments as Pygments' Python lexer: that lexer compiles a hundred patterns
before it reads its first file, which took most of a migration's reading of
its code files. A source the tokenizer rejects (not Python 3) is lexed by
Pygments, as any other file.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from fnmatch import fnmatchcase
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from ..model import Span
from .lexer_plugins import none_declared

if TYPE_CHECKING:
    from pygments.lexer import Lexer

__all__ = ["comment_spans", "lexer_class"]

_GLOB_TAIL = re.compile(r"[^*?\[\]]*\Z")


@cache
def _globs() -> tuple[tuple[str, str, str | type[Lexer]], ...]:
    """Every file-name pattern Pygments knows, in its order, with its literal tail (the end
    of a name it matches) and its lexer: a name in the builtin table, or a plugin's class."""
    from pygments.lexers import LEXERS  # imported once a file is not Python (see above)

    found: list[tuple[str, str, str | type[Lexer]]] = []
    for _module, name, _aliases, patterns, _mimetypes in LEXERS.values():
        found += [(glob, _tail(glob), name) for glob in patterns]
    for cls in _plugin_lexers():
        found += [(glob, _tail(glob), cls) for glob in cls.filenames]
    return tuple(found)


def _plugin_lexers() -> list[type[Lexer]]:
    """Pygments' plugin lexers, as ``find_plugin_lexers`` finds them; without reading every
    distribution's metadata where no distribution can declare one (see :mod:`.lexer_plugins`)."""
    from pygments.plugin import find_plugin_lexers

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
    from pygments.lexers import find_lexer_class

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
    from pygments.lexers.special import TextLexer

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
    name = path.rsplit("/", 1)[-1]
    if name.endswith(_PYTHON_SUFFIXES):
        found = _python_comments(text)
        if found is not None:
            return found
    lexer = _lexer(name)
    if lexer is None:
        return None
    from pygments.token import Comment

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


_PYTHON_SUFFIXES = (".py", ".pyi", ".pyw")
"""The names Pygments reads with its Python lexer that are surely Python 3 sources."""


def _python_comments(text: str) -> tuple[Span, ...] | None:
    """The comments :mod:`tokenize` finds in ``text`` (None when it finds an error), each to
    the end of its line, as Pygments' Python lexer has them (lines end at ``\\n``)."""
    at = text.find("\r")
    while at >= 0:  # a lone \r ends a line to the tokenizer, not to Pygments
        if not text.startswith("\n", at + 1):
            return None
        at = text.find("\r", at + 2)
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    spans: list[Span] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.ERRORTOKEN:
                return None  # not Python 3 (an unclosed quote, a stray ``$``): Pygments reads it
            if token.type == tokenize.COMMENT:
                row, column = token.start
                start = starts[row - 1] + column
                end = text.find("\n", start)
                spans.append(Span(start, len(text) if end < 0 else end))
    except (tokenize.TokenError, SyntaxError):
        return None
    return tuple(spans)
