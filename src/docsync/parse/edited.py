"""A document after edits that only rewrite links, known without parsing it again.

A migration rewrites links' destinations and turns bare ids into links, then
parses each new text to verify it. Most of those edits provably change
nothing but what they name, and for them the new text's parse is the old
one with the offsets moved:

- a plain destination of an inline link or image, replaced by another plain
  one (plain: letters, digits and ``._~/#%+=-``, nothing a parser reads as
  syntax there or anywhere else);
- plain words in one line of a paragraph, outside every link, code span,
  formula and HTML, replaced by an inline link whose text and destination
  are plain, between neighbours that read nothing of them: a space, a line's
  end, or punctuation that ends no emphasis, image or escape (``!``, ``\\``,
  brackets, ``*``, ``_``, ``~``, ``$`` and backticks are not among them).

:func:`edited` is that parse, or None for any other edit (the caller then
parses the text). The tests compare it with the parse of every document
they rewrite.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate, pairwise

from ..model import (
    Definition,
    Document,
    Edit,
    Heading,
    Link,
    LinkKind,
    Paragraph,
    Span,
    line_starts_of,
    position_of,
)
from .constructors import (
    new_definition,
    new_document,
    new_heading,
    new_link,
    new_paragraph,
    new_span,
)

_WORDS = r"[A-Za-z0-9][A-Za-z0-9 ,.'?/+=%-]*"
_DESTINATION = r"[A-Za-z0-9._~/#%+=-]+"
_PLAIN_WORDS = re.compile(_WORDS)
_PLAIN_DESTINATION = re.compile(_DESTINATION)
_INSERTED = re.compile(rf"\[({_WORDS})\]\(({_DESTINATION})\)")
# The kinds as constants: reading a member off its enum class costs more than the test.
_INLINE = LinkKind.INLINE
_MOVABLE = frozenset({LinkKind.INLINE, LinkKind.IMAGE})
_BEFORE = frozenset(" \t\n(\"'")
_AFTER = frozenset(" \t\r\n.,;:)\"'?")


@lru_cache(maxsize=1 << 14)
def _plain_destination(text: str) -> bool:
    return _PLAIN_DESTINATION.fullmatch(text) is not None


@lru_cache(maxsize=1 << 14)
def _plain_words(text: str) -> bool:
    return _PLAIN_WORDS.fullmatch(text) is not None


class _Cut(Exception):
    """An edit holds one end of a span but not all of it."""


class _Moves:
    """Where an offset of the old text is in the new one, given the edits (in order)."""

    def __init__(self, edits: Sequence[Edit]) -> None:
        self.starts = [e.span.start for e in edits]
        self.ends = [e.span.end for e in edits]
        deltas = [len(e.replacement) - (e.span.end - e.span.start) for e in edits]
        self.shifts = [0, *accumulate(deltas)]  # after the first k edits
        self.first, self.last, self.total = self.starts[0], self.ends[-1], self.shifts[-1]

    def at(self, offset: int) -> int:
        if offset <= self.first:
            return offset
        if offset >= self.last:
            return offset + self.total
        k = bisect_right(self.ends, offset)  # the edits ending at or before it
        if self.starts[k] < offset:
            raise _Cut
        return offset + self.shifts[k]

    def span(self, span: Span) -> Span:
        if span.end <= self.first:
            return span
        return new_span(self.at(span.start), self.at(span.end))


def edited(doc: Document, path: str, text: str, edits: Sequence[Edit]) -> Document | None:
    """``text`` (``doc.text`` with ``edits``) as :func:`.markdown.parse` would parse it at
    ``path``, when every edit is one of those the module names; None otherwise."""
    ordered = sorted(edits, key=lambda e: e.span.start)
    if not ordered or any(a.span.end > b.span.start for a, b in pairwise(ordered)):
        return None
    kinds = _kinds(doc, ordered)
    if kinds is None:
        return None
    destinations, inserted = kinds
    moves = _Moves(ordered)
    try:
        paragraphs = _paragraphs(doc, ordered, destinations, moves)
        if paragraphs is None:
            return None
        starts = line_starts_of(text)
        links = [_moved_link(k, moves, starts, destinations) for k in doc.links]
        links += [_inserted_link(edit, words, destination, moves, starts) for edit, words, destination in inserted]
        if inserted:
            links.sort(key=_start)
        return new_document(
            path,
            text,
            doc.newline,
            doc.bom,
            starts,
            tuple(_moved_heading(h, moves) for h in doc.headings),
            doc.anchors,
            tuple(links),
            tuple(_moved_definition(d, moves, starts) for d in doc.definitions),
            tuple(map(moves.span, doc.code_spans)),
            doc.blocks,
            paragraphs,
            doc.used_labels,
            doc.footnote_ids,
            tuple(map(moves.span, doc.math_spans)),
        )
    except _Cut:
        return None


def _start(link: Link) -> int:
    return link.span.start


_Inserted = list[tuple[Edit, str, str]]


def _kinds(doc: Document, edits: Sequence[Edit]) -> tuple[dict[int, str], _Inserted] | None:
    """The edits that replace a destination (by where it starts: the new one), and those
    that insert a link (with its words and destination); None when an edit is neither,
    as the module says."""
    links = {
        k.dest_span.start: k
        for k in doc.links
        if k.dest_span is not None and k.kind in _MOVABLE
    }
    destinations: dict[int, str] = {}
    inserted: _Inserted = []
    text = doc.text
    for edit in edits:
        start, end = edit.span.start, edit.span.end
        link = links.get(start)
        if link is not None and link.dest_span is not None and link.dest_span.end == end:
            if text[start - 1] == "<" or not _plain_destination(link.destination):
                return None
            if not _plain_destination(edit.replacement):
                return None
            destinations[start] = edit.replacement
            continue
        found = _INSERTED.fullmatch(edit.replacement)
        if (
            found is None
            or not _plain_words(text[start:end])
            or (start > 0 and text[start - 1] not in _BEFORE)
            or (end < len(text) and text[end] not in _AFTER)
            or not _free(doc, start, end)
        ):
            return None
        inserted.append((edit, found.group(1), found.group(2)))
    return destinations, inserted


def _free(doc: Document, start: int, end: int) -> bool:
    """Whether words at ``[start, end)`` overlap no link (code, formulas and HTML are their
    paragraph's protected spans, which :func:`_content` reads)."""
    return not any(link.span.start < end and start < link.span.end for link in doc.links)


def _paragraphs(
    doc: Document, edits: Sequence[Edit], destinations: dict[int, str], moves: _Moves
) -> tuple[Paragraph, ...] | None:
    """The paragraphs moved, those with edits rewritten; None unless each edit lies within
    one line of a paragraph, and within a protected span only as an image's destination."""
    lines = [(s.start, s.end, p, i) for p, par in enumerate(doc.paragraphs) for i, s in enumerate(par.line_spans)]
    line_starts = [line[0] for line in lines]
    by_paragraph: dict[int, list[tuple[int, Edit]]] = {}
    for edit in edits:
        k = bisect_right(line_starts, edit.span.start) - 1
        if k < 0 or edit.span.end > lines[k][1]:
            return None
        by_paragraph.setdefault(lines[k][2], []).append((lines[k][3], edit))
    out: list[Paragraph] = []
    for p, paragraph in enumerate(doc.paragraphs):
        mine = by_paragraph.get(p)
        if mine is None:
            out.append(_moved_paragraph(paragraph, moves, paragraph.content))
            continue
        content = _content(doc.text, paragraph, mine, destinations)
        if content is None:
            return None
        out.append(_moved_paragraph(paragraph, moves, content))
    return tuple(out)


def _content(
    text: str, paragraph: Paragraph, edits: list[tuple[int, Edit]], destinations: dict[int, str]
) -> str | None:
    """The paragraph's content with ``edits`` (each with the line it is on); None when the
    content is not its lines as written, or an edit overlaps a protected span that does
    not hold it whole as a destination (an image's)."""
    lines = [text[s.start : s.end] for s in paragraph.line_spans]
    if "\n".join(lines) != paragraph.content:
        return None
    for i, edit in reversed(edits):
        start, end = edit.span.start, edit.span.end
        destination = start in destinations
        for span in paragraph.protected:
            if span.start < end and start < span.end and not (destination and span.start <= start and end <= span.end):
                return None
        base = paragraph.line_spans[i].start
        lines[i] = lines[i][: start - base] + edit.replacement + lines[i][end - base :]
    return "\n".join(lines)


def _moved_paragraph(paragraph: Paragraph, moves: _Moves, content: str) -> Paragraph:
    if content is paragraph.content and paragraph.line_spans[-1].end <= moves.first:
        return paragraph
    return new_paragraph(
        paragraph.lines,
        tuple(map(moves.span, paragraph.line_spans)),
        content,
        paragraph.containers,
        tuple(map(moves.span, paragraph.protected)),
    )


def _moved_link(link: Link, moves: _Moves, starts: tuple[int, ...], destinations: dict[int, str]) -> Link:
    old = link.dest_span
    replaced = destinations.get(old.start) if old is not None else None
    if link.span.end <= moves.first and replaced is None:
        return link
    span = moves.span(link.span)
    return new_link(
        link.kind,
        link.destination if replaced is None else replaced,
        *position_of(starts, span.start),
        span,
        moves.span(old) if old is not None else None,
        link.label,
        link.text,
        moves.span(link.text_span) if link.text_span is not None else None,
    )


def _inserted_link(edit: Edit, words: str, destination: str, moves: _Moves, starts: tuple[int, ...]) -> Link:
    start = moves.at(edit.span.start)
    text_span = new_span(start + 1, start + 1 + len(words))
    dest_start = text_span.end + 2
    return new_link(
        _INLINE,
        destination,
        *position_of(starts, start),
        new_span(start, start + len(edit.replacement)),
        new_span(dest_start, dest_start + len(destination)),
        None,
        words,
        text_span,
    )


def _moved_heading(heading: Heading, moves: _Moves) -> Heading:
    if heading.span.end <= moves.first:
        return heading
    return new_heading(heading.level, heading.text, heading.slug, heading.line, moves.span(heading.span))


def _moved_definition(definition: Definition, moves: _Moves, starts: tuple[int, ...]) -> Definition:
    if definition.span.end <= moves.first:
        return definition
    span = moves.span(definition.span)
    return new_definition(
        definition.label,
        definition.normalized_label,
        definition.destination,
        *position_of(starts, span.start),
        span,
        moves.span(definition.dest_span),
    )
