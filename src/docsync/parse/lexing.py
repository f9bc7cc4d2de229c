"""Where a program's comments are, as Pygments' lexer for its file name reads them.

The one module that imports Pygments (installed with rich). An id in a
comment is prose about the program; an id in a string literal or in the
code itself is something the program prints or reads, so whoever rewrites
ids asks here which is which. A file no lexer knows by name gets ``None``:
callers then treat the whole file as comment text, as before lexing.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pygments.lexers import get_lexer_for_filename
from pygments.lexers.special import TextLexer
from pygments.token import Comment
from pygments.util import ClassNotFound

from ..model import Span

__all__ = ["comment_spans"]


@cache
def _lexer(name: str) -> Any:
    try:
        lexer = get_lexer_for_filename(name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None
    # Plain text (*.txt) has no comments and no strings: it is prose, read as before.
    return None if isinstance(lexer, TextLexer) else lexer


def comment_spans(path: str, text: str) -> tuple[Span, ...] | None:
    """Spans of ``text`` that are comments (merged when adjacent); None when no lexer knows ``path``."""
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
