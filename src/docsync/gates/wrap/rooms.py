"""Which :class:`~docsync.gates.wrap.prose.Room` each character of a paragraph is in.

The rooms are painted by a fixed sequence of marks over the paragraph's
region: every textual link (longest first) seals its span and then opens
its text (not an image's: its alt text is compared exactly), then every
protected span of the paragraph makes a code span's characters code and
seals any other span that is not a link's. A later mark paints over an
earlier one.

:class:`Rooms` paints that map once for the full reading, which asks about
every character (:meth:`Rooms.paint`). The quick reading of the gate asks
about a few characters near a candidate break of an over-wide line only,
so :meth:`Rooms.room` and :meth:`Rooms.plain` answer from the marks
themselves, without painting: the same marks in the same order, so the
same answer (``tests/test_wrap_rooms.py`` compares both on every character
of every case file and of generated paragraphs).
"""

from __future__ import annotations

import bisect

from ...model import Document, Link, LinkKind, Paragraph, Span
from .prose import DocumentIndex, Room

_TEXTUAL = frozenset({LinkKind.INLINE, LinkKind.IMAGE, LinkKind.REFERENCE})
_SEALED = int(Room.SEALED)
_LINK_TEXT = int(Room.LINK_TEXT)
_CODE = int(Room.CODE)


def links_in(doc: Document, index: DocumentIndex, region: Span) -> list[Link]:
    """The textual links that start in ``region`` and end within it."""
    first = bisect.bisect_left(index.link_starts, region.start)
    last = bisect.bisect_left(index.link_starts, region.end)
    return [
        link
        for link in doc.links[first:last]
        if link.kind in _TEXTUAL and link.span.end <= region.end
    ]


def text_span(para: Paragraph, span: Span) -> Span:
    """The source span of a link's text.

    The model measures the text's length in paragraph-content characters, which
    are fewer than source characters when the text crosses a container prefix;
    map the end through the paragraph's lines instead.
    """
    lines = para.line_spans
    starts = [s.start for s in lines]
    k = max(0, bisect.bisect_right(starts, span.start) - 1)
    remaining = (span.end - span.start) + (span.start - lines[k].start)
    while k < len(lines) - 1 and remaining > lines[k].end - lines[k].start:
        remaining -= lines[k].end - lines[k].start + 1
        k += 1
    return Span(span.start, min(lines[k].start + remaining, lines[-1].end))


def _by_length(link: Link) -> int:
    return link.span.start - link.span.end


def _meets(span: Span, start: int, end: int) -> bool:
    """Whether ``span`` shares a character with ``[start, end)`` (not empty)."""
    return span.start < end and start < span.end and span.start < span.end


class Rooms:
    """The rooms of ``para``'s characters in ``region``, painted on demand."""

    __slots__ = ("_code_spans", "_links", "_painted", "_para", "_region", "_texts")

    def __init__(self, doc: Document, index: DocumentIndex, para: Paragraph, region: Span) -> None:
        self._para = para
        self._region = region
        self._code_spans = index.code_spans
        self._links = links_in(doc, index, region)
        self._texts: dict[int, Span | None] = {}
        self._painted: bytearray | None = None

    def _text(self, i: int) -> Span | None:
        """The source span the text of the ``i``-th link opens (None: it opens none)."""
        if i not in self._texts:
            link = self._links[i]
            opened = link.text_span is not None and link.kind != LinkKind.IMAGE
            self._texts[i] = text_span(self._para, link.text_span) if opened and link.text_span else None
        return self._texts[i]

    @property
    def painted(self) -> bool:
        """Whether the map is painted (then every answer is read from it)."""
        return self._painted is not None

    def paint(self) -> bytearray:
        """The room of every character of the region (painted once, then shared)."""
        if self._painted is not None:
            return self._painted
        region = self._region
        rooms = bytearray(region.end - region.start)

        def mark(span: Span, room: int) -> None:
            start, end = max(span.start, region.start), min(span.end, region.end)
            if start < end:
                rooms[start - region.start : end - region.start] = bytes([room]) * (end - start)

        link_spans: set[Span] = set()
        order = sorted(range(len(self._links)), key=lambda i: _by_length(self._links[i]))
        for i in order:
            link_spans.add(self._links[i].span)
            mark(self._links[i].span, _SEALED)
            opened = self._text(i)
            if opened is not None:
                mark(opened, _LINK_TEXT)
        for span in self._para.protected:
            if span in self._code_spans:
                mark(span, _CODE)
            elif span not in link_spans:
                mark(span, _SEALED)
        self._painted = rooms
        return rooms

    def _inside(self, start: int, end: int) -> bool:
        return self._region.start <= start < end <= self._region.end

    def plain(self, start: int, end: int) -> bool:
        """Whether every character of ``[start, end)`` is plain text (no mark covers one)."""
        if self._painted is not None or not self._inside(start, end):
            base = self._region.start
            return not any(self.paint()[start - base : end - base])
        for i, link in enumerate(self._links):  # _meets, written out: asked of every link
            span = link.span
            if span.start < end and start < span.end and span.start < span.end:
                return False
            if link.text_span is not None and link.text_span.start < end:
                opened = self._text(i)
                if opened is not None and opened.start < end and start < opened.end and opened.start < opened.end:
                    return False
        for span in self._para.protected:
            if span.start < end and start < span.end and span.start < span.end:
                return False
        return True

    def room(self, offset: int) -> int:
        """The room of the character at ``offset``: the last mark that covers it."""
        painted = self._painted
        if painted is not None:
            return painted[offset - self._region.start]
        if not self._inside(offset, offset + 1):
            return self.paint()[offset - self._region.start]
        links = self._links
        covering = [
            i
            for i, link in enumerate(links)
            if link.span.start <= offset < link.span.end
            or (link.text_span is not None and link.text_span.start <= offset and self._opens(i, offset))
        ]
        protected = [span for span in self._para.protected if span.start <= offset < span.end]
        if not covering and not protected:
            return 0
        found = 0
        for i in sorted(covering, key=lambda i: _by_length(links[i])):
            if links[i].span.contains(offset):
                found = _SEALED
            if self._opens(i, offset):
                found = _LINK_TEXT
        link_spans = {link.span for link in links}
        for span in protected:
            if span in self._code_spans:
                found = _CODE
            elif span not in link_spans:
                found = _SEALED
        return found

    def _opens(self, i: int, offset: int) -> bool:
        opened = self._text(i)
        return opened is not None and opened.contains(offset)
