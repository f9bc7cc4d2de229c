"""The data types every stage shares. No I/O happens here.

A :class:`Document` is the result of parsing one Markdown file once. Gates and
rewriters read documents; nothing downstream re-parses Markdown or re-reads
the disk.

Offsets are character offsets into :attr:`Document.text` (the decoded file
with line endings normalised to ``\\n``); lines and columns are 1-based and
count characters, which is what editors and GitHub annotations expect.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import accumulate
from operator import add, attrgetter
from typing import Any, TypeVar

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open range ``[start, end)`` of character offsets."""

    start: int
    end: int

    def contains(self, offset: int) -> bool:
        return self.start <= offset < self.end


@dataclass(frozen=True, slots=True)
class LineSpan:
    """A range of 1-based physical lines, both ends included."""

    first: int
    last: int


class LinkKind(StrEnum):
    INLINE = "inline"
    IMAGE = "image"
    REFERENCE = "reference"
    DEFINITION = "definition"
    AUTOLINK = "autolink"
    HTML_HREF = "html-href"
    HTML_SRC = "html-src"


HTML_KINDS = frozenset({LinkKind.HTML_HREF, LinkKind.HTML_SRC})
"""The kinds of a link written as an HTML attribute (``href``, ``src``): its destination is
the attribute's value, HTML-escaped, not a Markdown destination."""


@dataclass(frozen=True, slots=True)
class Link:
    """One link-like construct as written in the source.

    ``destination`` is the destination exactly as written (angle brackets
    removed, backslash escapes and percent-encoding left alone), so that a
    rewriter can splice ``dest_span`` and a reporter can quote it. For a
    reference-style use, ``destination`` is the definition's and ``label``
    names it; ``dest_span`` then points into the definition.
    """

    kind: LinkKind
    destination: str
    line: int
    column: int
    span: Span
    dest_span: Span | None
    label: str | None = None
    text: str = ""
    text_span: Span | None = None


@dataclass(frozen=True, slots=True)
class Definition:
    """A reference definition ``[label]: destination "title"``."""

    label: str
    normalized_label: str
    destination: str
    line: int
    column: int
    span: Span
    dest_span: Span


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    text: str
    slug: str
    line: int
    span: Span


@dataclass(frozen=True, slots=True)
class Anchor:
    """An explicit HTML anchor: ``<a name="…">`` or ``<a id="…">``."""

    name: str
    line: int


class BlockKind(StrEnum):
    FENCE = "fence"
    CODE = "code"
    HTML = "html"
    FRONT_MATTER = "front-matter"
    TABLE = "table"
    HEADING = "heading"
    DEFINITION = "definition"
    FOOTNOTE = "footnote"
    MATH = "math"  # a $$ display-math block
    STANDALONE = "standalone"  # a line a docs site reads as structure (see markdown._STANDALONE)


@dataclass(frozen=True, slots=True)
class Block:
    """A block whose source must be left alone by prose rewriters."""

    kind: BlockKind
    lines: LineSpan


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A paragraph of prose.

    ``line_spans`` holds, for each physical line, the span of its inline text
    (container prefixes such as ``> `` or list indentation excluded).
    ``containers`` names the enclosing containers from outermost to innermost
    (``"list"``, ``"blockquote"``, ``"footnote"``, ``"container"`` for a
    ``:::`` block, ``"admonition"`` for ``!!!``/``???``).
    """

    lines: LineSpan
    line_spans: tuple[Span, ...]
    content: str
    containers: tuple[str, ...]
    protected: tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class Document:
    """One parsed Markdown file."""

    path: str
    text: str
    newline: str
    bom: bool
    line_starts: tuple[int, ...]
    headings: tuple[Heading, ...]
    anchors: tuple[Anchor, ...]
    links: tuple[Link, ...]
    definitions: tuple[Definition, ...]
    code_spans: tuple[Span, ...]
    blocks: tuple[Block, ...]
    paragraphs: tuple[Paragraph, ...]
    used_labels: frozenset[str] = field(default_factory=frozenset)
    footnote_ids: tuple[str, ...] = ()  # as cmark-gfm makes them, without GitHub's prefix
    math_spans: tuple[Span, ...] = ()  # inline $…$ and $$…$$ formulas

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        return position_of(self.line_starts, offset)

    def line_text(self, line: int) -> str:
        start = self.line_starts[line - 1]
        end = self.line_starts[line] - 1 if line < len(self.line_starts) else len(self.text)
        return self.text[start:end]

    @property
    def line_count(self) -> int:
        return len(self.line_starts)


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Finding:
    gate: str
    rule: str
    path: str
    line: int
    column: int
    message: str
    suggestion: str | None = None
    severity: Severity = Severity.ERROR

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.rule)

    def __reduce__(self) -> tuple[type[Finding], tuple[Any, ...]]:
        """Pickled as its field values, made again by the class: a parse worker sends back
        100,000 findings of one file. (A frozen slots dataclass's own state methods call
        ``dataclasses.fields`` per instance, both ways: twice the time.)"""
        return Finding, _finding_values(self)


_finding_values = attrgetter("gate", "rule", "path", "line", "column", "message", "suggestion", "severity")


FINDING_ORDER: Callable[[Finding], tuple[str, int, int, str]] = attrgetter("path", "line", "column", "rule")
""":meth:`Finding.sort_key` as a sort key computed in C: a run of 100,000 findings sorts them twice."""


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``span`` of a document's text with ``replacement``."""

    span: Span
    replacement: str


def position_of(line_starts: tuple[int, ...], offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset, given where each line starts."""
    index = bisect.bisect_right(line_starts, offset) - 1
    return index + 1, offset - line_starts[index] + 1


def line_starts_of(text: str) -> tuple[int, ...]:
    """The offset where each line of ``text`` starts (after every ``\\n``, and 0)."""
    lengths = list(map(len, text.split("\n")))
    lengths.pop()
    return tuple(accumulate(map(add, lengths, [1] * len(lengths)), initial=0))


def apply_edits(text: str, edits: list[Edit] | tuple[Edit, ...]) -> str:
    """Splice non-overlapping edits into ``text``, leaving other bytes as they were."""
    ordered = sorted(edits, key=lambda e: (e.span.start, e.span.end))
    out: list[str] = []
    cursor = 0
    for edit in ordered:
        if edit.span.start < cursor:
            raise ValueError(f"overlapping edits at offset {edit.span.start}")
        out.append(text[cursor : edit.span.start])
        out.append(edit.replacement)
        cursor = edit.span.end
    out.append(text[cursor:])
    return "".join(out)


def constructor(cls: type[_T]) -> Callable[..., _T]:
    """A function that makes an instance of the frozen slots dataclass ``cls``
    from its field values (positional, with the class's defaults), as its
    ``__init__`` makes it, in a third of the time.

    The dataclass's ``__init__`` sets each field through ``object.__setattr__``
    (the class is frozen); this one writes each slot through its descriptor,
    which is what that call ends in. The parse builds a million model objects
    on a large tree. Generated the way dataclasses generates ``__init__``: one
    straight-line function per class (a field with a default factory calls it
    when left out). A class with a ``__post_init__`` gets its own constructor.
    """
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    if hasattr(cls, "__post_init__"):
        return cls
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_missing": dataclasses.MISSING}
    params, lines = [], ["    self = _new(_cls)"]
    for i, f in enumerate(fields):
        namespace[f"_set{i}"] = cls.__dict__[f.name].__set__
        value = f"a{i}"
        if f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory{i}"] = f.default_factory
            params.append(f"a{i}=_missing")
            value = f"_factory{i}() if a{i} is _missing else a{i}"
        elif f.default is dataclasses.MISSING:
            params.append(f"a{i}")
        else:
            namespace[f"_default{i}"] = f.default
            params.append(f"a{i}=_default{i}")
        lines.append(f"    _set{i}(self, {value})")
    exec(f"def make({', '.join(params)}):\n" + "\n".join(lines) + "\n    return self\n", namespace)
    made: Callable[..., _T] = namespace["make"]
    made.__qualname__ = f"constructor({cls.__name__})"
    return made
