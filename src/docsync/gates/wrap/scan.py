"""The ``wrap`` gate's quick reading: a finding without the fix.

To report a paragraph the gate needs far less than the fixer: under a width,
whether each line wider than the width holds one break opportunity; under
``"none"``, the first line end that may be joined. The full reading
(:func:`~docsync.gates.wrap.reading.analyse`) builds every word and gap of
the paragraph, with its sentence ends, continuation prefix and guarded line
starts, which is what a re-wrap needs and most of the gate's time.

These functions answer from the same per-character facts (the reader of
:func:`~docsync.gates.wrap.reading.reader_for`: rooms, line-end zones) and
the same rules, looking only at what the verdict turns on. Each answers
only where the answer is certain and returns None otherwise (a line whose
every gap is doubtful, a hard break, a line start that could make a block of
its own); the caller then reads the paragraph in full. So a finding is
always what the full reading gives: ``tests/test_wrap_scan.py`` compares
both on every case file and on generated paragraphs.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Protocol

from ...model import Document, Paragraph, Span
from .boundaries import starts_block
from .display import is_cjk
from .fields import is_field_line
from .prose import DocumentIndex, Room
from .reading import Reader, reader_for

# The first characters of every line :data:`reading._OPENS_BLOCK_ALONE` can
# match: a line starting otherwise never has a break opportunity taken away.
_BLOCK_ALONE_STARTS = frozenset("*-_=`~<[")
_RULE_CHARACTERS = frozenset("*-_=")
_LABEL = re.compile(r"\[(?:[^\]\\]|\\.)+\]:", re.DOTALL)
_RUN = re.compile(r"[ \t]+")
_WORD_END = re.compile(r"[ \t\n]")


class Marked(Protocol):
    """What the quick reading asks of a paragraph's characters: a
    :class:`~docsync.gates.wrap.reading.Reader`, or a sketch of one."""

    @property
    def text(self) -> str: ...
    @property
    def region(self) -> Span: ...
    def room(self, offset: int) -> int: ...
    def plain(self, start: int, end: int) -> bool: ...


Prepared = tuple[tuple[Span, ...], Marked]
"""What :func:`~docsync.gates.wrap.reading.reader_for` gives for a paragraph it reads."""


def widest_read(
    doc: Document, para: Paragraph, prepared: Prepared, widths: Sequence[int], width: int
) -> int | None:
    """What every width from ``width`` up needs of the width verdict
    (:mod:`~docsync.gates.wrap.width`): the display
    width of the widest line (``widths``: each line's) when it is wider than
    ``width`` and certainly holds a break opportunity, 0 when no line is wider;
    None when that is not certain. The widest line holding a break is then
    that line, whatever the narrower ones hold."""
    spans, reader = prepared
    first = para.lines.first
    if len(spans) != len(widths) or starts_at_risk(reader, spans):
        return None
    if may_hold_field(para, reader.text, spans):
        return None
    wide: list[int] = []
    for k, span in enumerate(spans):
        if widths[k] <= width:
            continue
        start = doc.line_starts[first + k - 1]
        if not start <= span.start <= span.end <= start + len(doc.line_text(first + k)):
            return None
        wide.append(k)
    if not wide:
        return 0
    widest = max(wide, key=lambda k: widths[k])
    return widths[widest] if holds_break(reader, spans[widest]) else None


def holds_break(reader: Marked, span: Span) -> bool:
    """Whether the line ``span`` certainly holds a break opportunity that is
    not a line end: a run of plain spaces inside the line, after a word that
    ends in no backslash and no CJK text, before a word that starts no block."""
    text, end = reader.text, reader.region.end
    for run in _RUN.finditer(text, span.start, span.end):
        s, e = run.start(), run.end()
        if s == span.start or e == span.end:
            continue
        left = text[s - 1]
        if left == "\\" or is_cjk(left):
            continue
        stop = _WORD_END.search(text, e, end)
        q = stop.start() if stop is not None else end
        right = text[e:q]
        if is_cjk(right[0]) or starts_block(right):
            continue
        # the rooms last, asked of the marks: rarely more than the first run's
        if not reader.plain(s, e):
            continue
        if q < end and reader.room(q) > Room.LINK_TEXT:
            continue  # the word may run on through a sealed span
        return True
    return False


def starts_at_risk(reader: Marked, spans: tuple[Span, ...]) -> bool:
    """Whether a line whose start is fixed (the first, or one after a line end
    that may be kept) could be cut down to a lone block."""
    text = reader.text
    if _may_stand_alone(text, spans[0].start):
        return True
    kept = False
    for k in range(1, len(spans)):
        span = spans[k]
        kept = kept or _may_keep(text, spans[k - 1], span)
        if kept:
            start = span.start
            while start < span.end and text[start] in " \t":
                start += 1
            if start == span.end or _may_stand_alone(text, start):
                return True
    return False


def _may_stand_alone(text: str, start: int) -> bool:
    """Whether a line starting at ``start`` could, cut short, match
    :data:`reading._OPENS_BLOCK_ALONE`: only lines starting with a run of
    ``*-_=`` and nothing else, a fence, a tag, or a ``[label]:`` can."""
    first = text[start]
    if first not in _BLOCK_ALONE_STARTS:
        return False
    stop = _WORD_END.search(text, start)
    head = text[start : stop.start() if stop is not None else len(text)]
    if first in "*-_=":
        return set(head) <= _RULE_CHARACTERS
    if first in "`~":
        return head.startswith(first * 3)
    if first == "[":
        return _LABEL.match(text, start) is not None
    return True  # a tag: told only by the whole line


def _may_keep(text: str, before: Span, after: Span) -> bool:
    """Whether the line end between two lines could be a kept one (a hard
    break, CJK text beside it), judged generously from the raw text."""
    newline = core = text.index("\n", before.end)
    while core > before.start and text[core - 1] in " \t":
        core -= 1  # the line without its trailing spaces ends at core
    if newline - core >= 2 or core == before.start:
        return True
    last = text[core - 1]
    if last == "\\" or (last >= "\x80" and is_cjk(last)):
        return True
    head = after.start
    while head < after.end and text[head] in " \t":
        head += 1
    return head == after.end or (text[head] >= "\x80" and is_cjk(text[head]))


def joined_finding(doc: Document, para: Paragraph, index: DocumentIndex) -> list[int] | None:
    """Where ``para`` first breaks ``wrap = "none"``: the offset of its first line
    end that may be joined (W001), none when no line end may be; None when a line
    end before it may be kept (the caller reads the paragraph in full)."""
    prepared = reader_for(doc, para, index, sentences=False)
    if prepared is None:
        return []
    return joined_read(para, prepared)


def joined_read(para: Paragraph, prepared: tuple[tuple[Span, ...], Reader]) -> list[int] | None:
    """:func:`joined_finding` from the paragraph's reader."""
    spans, reader = prepared
    text = reader.text
    if may_hold_field(para, text, spans):
        return None  # a line end before a field line is kept: the full reading tells
    for before, after_line in itertools.pairwise(spans):
        newline = text.index("\n", before.end)
        room = reader.room(newline)
        if room == Room.CODE:
            return [newline]  # a line end inside a code span is joined as a space
        if room > Room.LINK_TEXT:
            zone = reader.rooms[newline - reader.region.start : after_line.start - reader.region.start]
            if min(zone) <= Room.LINK_TEXT:
                return None  # part of the line end is a gap after all
            continue  # inside raw HTML or a link destination: neither gap nor join
        start = newline
        while text[start - 1] in " \t" and reader.room(start - 1) <= Room.LINK_TEXT:
            start -= 1
        after = newline
        while reader.is_gap(after):
            after += 1
        if _kept(reader, start, newline) or is_cjk(text[after]):
            return None
        return [start]
    return []


def _kept(reader: Reader, start: int, newline: int) -> bool:
    """Whether the line end of the gap ``start``…``newline`` may be kept: two
    spaces or a backslash before it, or CJK text before it."""
    text = reader.text
    if text[start:newline].endswith("  ") or is_cjk(text[start - 1]):
        return True
    return start == newline and text[start - 1] == "\\"


def may_hold_field(para: Paragraph, text: str, spans: tuple[Span, ...]) -> bool:
    """Whether ``para`` may be a header paragraph (its first line may start with a
    header field), judged from the raw text alone (the full reading also asks that
    the key is plain text, and reads the fields)."""
    if "list" in para.containers:
        return False
    first = spans[0]
    start = first.start
    while start < first.end and text[start] in " \t":
        start += 1
    return is_field_line(text, start, first.end)
