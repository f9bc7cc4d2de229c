"""A paragraph read as words and gaps: the reading the ``wrap`` gate and its fixer share."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...config import Config
from ...model import Document, Paragraph, Span


class Room(IntEnum):
    """What a character of paragraph text belongs to."""

    PLAIN = 0
    LINK_TEXT = 1  # whitespace here may be joined, never broken
    SEALED = 2  # raw HTML, autolinks, link destinations and labels: kept byte for byte
    CODE = 3  # code spans: line ends joined as one space, never broken


@dataclass(frozen=True, slots=True)
class Word:
    """A run of text between gaps; ``joins`` are line ends inside its code spans."""

    span: Span
    joins: tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class Gap:
    """Whitespace between two words, possibly holding a line end.

    ``kept``: holds a line end that must stay (hard break, CJK text on either
    side, a header field after it). ``breakable``: a line may start after it.
    ``sentence``: a sentence ends before it and a line may start after it.
    ``ends_field``: it follows a header field's text (a re-fill to a width
    keeps a line end there, and pulls no word up onto the field's line).
    """

    span: Span
    newline: bool
    kept: bool
    breakable: bool
    sentence: bool
    ends_field: bool = False


@dataclass(frozen=True, slots=True)
class Prose:
    """A paragraph read as words and gaps (``gaps[i]`` follows ``words[i]``)."""

    paragraph: Paragraph
    words: tuple[Word, ...]
    gaps: tuple[Gap, ...]
    first_column: int
    prefix: str | None  # what a new continuation line starts with; None if unknown
    lines: tuple[Span, ...]  # each physical line's paragraph text, as in the source
    fields: frozenset[int] = frozenset()  # the numbers of the lines that start a header field


@dataclass(frozen=True, slots=True)
class DocumentIndex:
    """Per-document lookups, built once so that reading each paragraph stays cheap."""

    link_starts: tuple[int, ...]
    code_spans: frozenset[Span]

    @classmethod
    def of(cls, doc: Document) -> DocumentIndex:
        return cls(tuple(link.span.start for link in doc.links), frozenset(doc.code_spans))


def in_scope(para: Paragraph, config: Config) -> bool:
    """Whether ``config`` asks for ``para`` to be checked (lists and quotes can opt out)."""
    if not config.wrap_lists and "list" in para.containers:
        return False
    return config.wrap_blockquotes or "blockquote" not in para.containers
