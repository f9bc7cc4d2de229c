"""The ``wrap = "none"`` gate in one pass per paragraph: where it may first be joined.

Under ``"none"`` a paragraph is reported once (W001), at its first line end
that may be joined, or not at all. :func:`~docsync.gates.wrap.scan.joined_finding`
answers that through the paragraph's reader (:func:`~docsync.gates.wrap.reading.reader_for`):
a map of the line-end zones, a :class:`~docsync.gates.wrap.rooms.Rooms`, a
:class:`~docsync.gates.wrap.reading.Reader`, a few method calls a character.
On a hard-wrapped tree that is every paragraph of more than one line, and
most of the gate's time.

:func:`first_join` is the same reading with nothing built that the answer
does not turn on. It checks the lines as the reader does (each line's text
is the source's, one line end between two lines, nothing but spaces before
it), asks the rooms only where a character's room can change the answer,
and builds the rooms only for a paragraph some link or protected span
touches. Every other shape of paragraph (a line whose source drops the
content's leading spaces, a line end that is not where the reader would
find it) goes to :func:`~docsync.gates.wrap.scan.joined_finding` itself.
``tests/test_wrap_joined.py`` requires both answers to be equal on every
paragraph of every case file and of generated documents.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from operator import itemgetter

from ...config import Config
from ...model import Document, Paragraph, Span
from .display import is_cjk
from .prose import DocumentIndex, Room
from .rooms import Rooms
from .scan import joined_finding, may_hold_field

_LINK_TEXT = int(Room.LINK_TEXT)
_CODE = int(Room.CODE)

JoinedRow = tuple[str, int, int, int]
ROW_ORDER = itemgetter(1, 2, 0)
"""The findings' order of rows (line, column, rule), as a C-level key."""


def _no_room(offset: int) -> int:
    return 0


def first_join(doc: Document, para: Paragraph, index: DocumentIndex) -> list[int] | None:
    """:func:`~docsync.gates.wrap.scan.joined_finding`, answered in one pass."""
    text = doc.text
    spans = para.line_spans
    pieces = para.content.split("\n")
    count = len(spans)
    if len(pieces) != count or count < 2:
        return joined_finding(doc, para, index)
    base, before = spans[0].start, spans[0].end
    if before < base or text[base:before] != pieces[0]:
        return joined_finding(doc, para, index)
    zones: list[tuple[int, int]] = []  # each line end: its newline, the next line's text
    for k in range(1, count):
        span = spans[k]
        after = span.start
        newline = text.find("\n", before, after)
        if newline < 0 or text.find("\n", newline + 1, after) >= 0 or span.end < after:
            return joined_finding(doc, para, index)
        if text[after : span.end] != pieces[k]:
            return joined_finding(doc, para, index)
        if newline > before and text[before:newline].strip(" \t"):
            return []  # the reader refuses it: nothing is reported
        zones.append((newline, after))
        before = span.end
    end = before
    if base >= end:
        return []
    room = _rooms_of(doc, para, index, base, end)
    # The reader refuses a paragraph whose first or last character is a gap. Only
    # the first line end can start at the region's start, only the last can end at its end.
    if (text[base] in " \t" or zones[0][0] == base) and room(base) <= _LINK_TEXT:
        return []
    if (text[end - 1] in " \t" or zones[-1][1] == end) and room(end - 1) <= _LINK_TEXT:
        return []
    if may_hold_field(para, text, spans):
        return None
    return _first(text, zones, room)


def _first(text: str, zones: list[tuple[int, int]], room: Callable[[int], int]) -> list[int] | None:
    """:func:`~docsync.gates.wrap.scan.joined_read`'s walk over the line ends."""
    for newline, after_line in zones:
        found = room(newline)
        if found == _CODE:
            return [newline]  # a line end inside a code span is joined as a space
        if found > _LINK_TEXT:
            if min(room(k) for k in range(newline, after_line)) <= _LINK_TEXT:
                return None  # part of the line end is a gap after all
            continue  # inside raw HTML or a link destination: neither gap nor join
        start = newline
        while text[start - 1] in " \t" and room(start - 1) <= _LINK_TEXT:
            start -= 1
        after = newline + 1
        while after < after_line and room(after) <= _LINK_TEXT:
            after += 1  # the rest of the line end's zone: the next line's prefix
        if after == after_line and text[after] in " \t\n":
            while _is_gap(text, zones, room, after):
                after += 1
        if text[start:newline].endswith("  ") or is_cjk(text[start - 1]) or is_cjk(text[after]):
            return None
        if start == newline and text[start - 1] == "\\":
            return None
        return [start]
    return []


def _is_gap(text: str, zones: list[tuple[int, int]], room: Callable[[int], int], offset: int) -> bool:
    """:meth:`~docsync.gates.wrap.reading.Reader.is_gap`, from the zones' bounds."""
    if text[offset] not in " \t" and not any(n <= offset < a for n, a in zones):
        return False
    return room(offset) <= _LINK_TEXT


def _rooms_of(
    doc: Document, para: Paragraph, index: DocumentIndex, start: int, end: int
) -> Callable[[int], int]:
    """The room of a character of ``[start, end)``: what a :class:`Rooms` answers.

    A character no link span, link text and protected span can cover is plain
    text (:meth:`Rooms.room` finds no mark over it); for the others the rooms
    are built, once, and asked."""
    starts = index.link_starts
    first = bisect.bisect_left(starts, start)
    last = bisect.bisect_left(starts, end, first)
    protected = para.protected
    if not protected and first == last:
        return _no_room
    links = doc.links[first:last]
    built: list[Callable[[int], int]] = []

    def room(offset: int) -> int:
        for link in links:
            text = link.text_span
            if link.span.start <= offset < link.span.end or (text is not None and text.start <= offset):
                break
        else:
            if not any(span.start <= offset < span.end for span in protected):
                return 0
        if not built:
            built.append(Rooms(doc, index, para, Span(start, end)).room)
        return built[0](offset)

    return room


def joined_rows(doc: Document, config: Config) -> list[JoinedRow]:
    """:func:`~docsync.gates.wrap.check.rows` under ``wrap = "none"``."""
    from .reading import analyse
    from .violations import in_scope, violations

    found: list[JoinedRow] = []
    index: DocumentIndex | None = None
    starts = doc.line_starts
    for para in doc.paragraphs:
        lines = para.lines
        if lines.last <= lines.first or not in_scope(para, config):
            continue
        if index is None:
            index = DocumentIndex.of(doc)
        measured = lines.last - lines.first + 1
        offsets = first_join(doc, para, index)
        if offsets is None:
            prose = analyse(doc, para, index, sentences=False)
            read = violations(doc, prose, config) if prose is not None else []
            told = [(v.rule, v.offset, v.measured) for v in read]
        else:
            told = [("W001", offset, measured) for offset in offsets]
        for rule, offset, count in told:
            k = bisect.bisect_right(starts, offset) - 1
            found.append((rule, k + 1, offset - starts[k] + 1, count))
    found.sort(key=ROW_ORDER)
    return found
