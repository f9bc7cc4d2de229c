"""The ``wrap`` gate under a width, a document at a time: which lines are over it, then
which of those hold a place to break them.

Only a line wider than the width is ever reported, and on a real tree most lines
are not. So the lines are measured first, for the whole text at once, by regular
expressions (:func:`wide_lines`): a line of printable ASCII is as wide as its
characters, so only a line of more characters than the width can be too wide, and
only a line holding a tab or a character outside printable ASCII is measured one
character at a time. A document with no wide line is done there; a paragraph
none of whose lines is wide is never looked at.

A paragraph with a wide line is then asked, for each wide line alone, one of
three answers (:func:`_verdict`), from the same facts as the quick reading of
:mod:`~docsync.gates.wrap.scan` (the paragraph's lines as its reader checks them,
its rooms asked, never painted):

* the line certainly holds a break opportunity (W002): a run of spaces inside
  the line after a word that ends in neither a backslash nor CJK text, before a
  word that starts no block, plain text, the next word running on through no
  sealed span. The common case, a space between two words of plain text, is
  found by one regular expression (:data:`_EASY`) and the rooms are asked of it
  alone;
* the line certainly holds none (W005 under ``wrap_strict``, else nothing): no
  space or tab inside it is plain text. Every break opportunity that is not a
  line end starts at a plain space or tab of its line, so a line whose spaces
  are all inside link text, code or HTML, or that has none (a long URL), holds
  none. The full reading was asked for each such line before;
* not certain: the paragraph is read in full, as before
  (:func:`~docsync.gates.wrap.reading.analyse`).

Each finding is made as the row the workers send (rule, line, column, width),
from the line's number and measure: no per-line object, no position looked up.
``tests/test_wrap_scan.py`` and ``tests/test_wrap_rooms.py`` require the findings
to be the full reading's on every case file and on generated documents.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Sequence
from operator import itemgetter

from ...config import Config
from ...model import Document, Paragraph, Span
from .display import display_width, overflow_index
from .joined import Sketch, checked_lines, refused
from .prose import DocumentIndex, Room, in_scope
from .reading import analyse, reader_for
from .rooms import Rooms
from .scan import Marked, holds_break, may_hold_field, starts_at_risk

Row = tuple[str, int, int, int]
"""rule, line, column, and the line's display width (:data:`~docsync.gates.wrap.check.Row`)."""

Wide = tuple[int, int, int]
"""A line over the width: its number, its display width, and the column of its first
character past the width."""

_ROW_ORDER = itemgetter(1, 2, 0)
_LINK_TEXT = int(Room.LINK_TEXT)
_SPECIAL = re.compile(r"[^\n -~][^\n]*")
"""From a tab or a character outside printable ASCII to the end of its line."""
_RUN = re.compile(r"[ \t]+")
_WORD_END = re.compile(r"[ \t\n]")
_EASY = re.compile(r"(?<=[!-\[\]-~])[ \t]+(?=[A-Za-z])")
"""A run of spaces inside a line, after printable ASCII that is no backslash, before an
ASCII letter: such a word ends in no backslash and no CJK text, and a word starting
with a letter starts no block (:func:`~docsync.gates.wrap.boundaries.starts_block`)."""
_WIDEST_COLUMN = 4
"""The most display columns one character takes (a tab, :data:`~docsync.gates.wrap.display.TAB_STOP`)."""


@functools.lru_cache(maxsize=32)
def _longer_than(width: int) -> re.Pattern[str]:
    """A line end and the next line, when it has more than ``width`` characters (the
    search skips from line end to line end)."""
    return re.compile(rf"\n[^\n]{{{width + 1},}}")


def wide_lines(text: str, starts: Sequence[int], width: int) -> list[Wide]:
    """Every line of ``text`` (its lines starting at ``starts``) whose :func:`~docsync.gates.wrap.display.display_width` is over
    ``width``, in order. A line of printable ASCII is as wide as its characters without
    trailing spaces, so only a line of more characters than the width can be too wide;
    a line holding a tab or a character outside ASCII is at most :data:`_WIDEST_COLUMN`
    columns a character, and measured when that could put it over the width."""
    ends: dict[int, int] = {}
    first = text.find("\n")
    if (len(text) if first < 0 else first) > width:
        ends[0] = len(text) if first < 0 else first
    for match in _longer_than(width).finditer(text):
        ends[match.start() + 1] = match.end()
    lines: Iterable[int] = ends
    if not text.isascii() or "\t" in text:  # (isascii is told without reading the text)
        shortest = width // _WIDEST_COLUMN + 1
        for match in _SPECIAL.finditer(text):
            start = text.rfind("\n", 0, match.start()) + 1
            if match.end() - start >= shortest:
                ends[start] = match.end()
        lines = sorted(ends)
    found: list[Wide] = []
    for start in lines:
        line = text[start : ends[start]]
        if line.isascii() and line.isprintable():  # every character in " " to "~"
            measured, column = len(line.rstrip(" ")), width + 1
        else:
            measured, column = display_width(line), overflow_index(line, width) + 1
        if measured > width:
            found.append((bisect.bisect_right(starts, start), measured, column))
    return found


def width_rows(doc: Document, config: Config) -> list[Row]:
    """:func:`~docsync.gates.wrap.check.rows` under a width, in the findings' order."""
    width = config.wrap
    assert isinstance(width, int)
    wide = wide_lines(doc.text, doc.line_starts, width)
    if not wide:
        return []
    numbers = [line for line, _, _ in wide]
    found: list[Row] = []
    index: DocumentIndex | None = None
    for para in doc.paragraphs:
        first = bisect.bisect_left(numbers, para.lines.first)
        if first == len(numbers) or numbers[first] > para.lines.last or not in_scope(para, config):
            continue
        index = index or DocumentIndex.of(doc)
        over = wide[first : bisect.bisect_right(numbers, para.lines.last, first)]
        rows = _verdict(doc, para, index, over, config.wrap_strict)
        found.extend(rows if rows is not None else _read_in_full(doc, para, index, over, config.wrap_strict))
    found.sort(key=_ROW_ORDER)
    return found


def paragraph_verdict(
    doc: Document, para: Paragraph, width: int, strict: bool = False, index: DocumentIndex | None = None
) -> list[Row] | None:
    """What :func:`width_rows` decides for ``para`` without the full reading: its rows,
    or None where it reads the paragraph in full."""
    first, last = para.lines.first, para.lines.last
    wide = [each for each in wide_lines(doc.text, doc.line_starts, width) if first <= each[0] <= last]
    return _verdict(doc, para, index or DocumentIndex.of(doc), wide, strict) if wide else []


def _read_in_full(
    doc: Document, para: Paragraph, index: DocumentIndex, wide: Sequence[Wide], strict: bool
) -> list[Row]:
    """The rows of ``para``'s ``wide`` lines from its full reading (what
    :func:`~docsync.gates.wrap.violations.width_violations` reports, the tests' reference)."""
    prose = analyse(doc, para, index, sentences=False)
    if prose is None:
        return []
    breakable = {doc.position(gap.span.start)[0] for gap in prose.gaps if gap.breakable and not gap.newline}
    rows: list[Row] = []
    for line, measured, column in wide:
        if line in prose.fields:
            continue  # a header field keeps its line, however wide
        if line in breakable:
            rows.append(("W002", line, column, measured))
        elif strict:
            rows.append(("W005", line, column, measured))
    return rows


def _verdict(
    doc: Document, para: Paragraph, index: DocumentIndex, wide: Sequence[Wide], strict: bool
) -> list[Row] | None:
    """The rows of ``para``'s ``wide`` lines; None when one is not certain."""
    checked = checked_lines(doc, para)
    if checked is False:
        return []  # the reader refuses the paragraph: nothing is reported
    if checked is True:  # the reader must tell
        prepared = reader_for(doc, para, index, sentences=False)
        if prepared is None:
            return []
        spans, reader = prepared
        return _read(doc, para, spans, reader, wide, strict)
    base, end, _ = checked
    starts = index.link_starts
    first = bisect.bisect_left(starts, base)
    region = Span(base, end)
    marked = para.protected or (first < len(starts) and starts[first] < end)
    sketch = Sketch(doc.text, region, Rooms(doc, index, para, region) if marked else None)
    if refused(doc.text, checked, sketch.room):
        return []
    return _read(doc, para, para.line_spans, sketch, wide, strict)


def _read(
    doc: Document, para: Paragraph, spans: tuple[Span, ...], marked: Marked, wide: Sequence[Wide], strict: bool
) -> list[Row] | None:
    first = para.lines.first
    if len(spans) != para.lines.last - first + 1 or starts_at_risk(marked, spans):
        return None
    if may_hold_field(para, marked.text, spans):
        return None
    starts, size = doc.line_starts, len(doc.line_starts)
    rows: list[Row] = []
    for line, measured, column in wide:
        span = spans[line - first]
        start = starts[line - 1]
        if not start <= span.start <= span.end <= (starts[line] - 1 if line < size else len(doc.text)):
            return None
        if _breaks(marked, span):
            rows.append(("W002", line, column, measured))
        elif not _unbreakable(marked, span):
            return None
        elif strict:
            rows.append(("W005", line, column, measured))
    return rows


def _breaks(marked: Marked, span: Span) -> bool:
    """:func:`~docsync.gates.wrap.scan.holds_break`, the common run first (:data:`_EASY`)."""
    text, end = marked.text, marked.region.end
    run = _EASY.search(text, span.start + 1, span.end)
    while run is not None:
        stop = _WORD_END.search(text, run.end(), end)
        after = end if stop is None else stop.start() + 1
        if marked.plain(run.start(), after):  # the run, the next word and the character after it
            return True
        if marked.plain(run.start(), run.end()) and (stop is None or marked.room(stop.start()) <= _LINK_TEXT):
            return True
        run = _EASY.search(text, run.end(), span.end)
    return holds_break(marked, span)


def _unbreakable(marked: Marked, span: Span) -> bool:
    """Whether the line ``span`` certainly holds no break opportunity but line ends:
    none of its spaces and tabs is plain text."""
    plain = marked.plain
    for run in _RUN.finditer(marked.text, span.start, span.end):
        if any(plain(k, k + 1) for k in range(run.start(), run.end())):
            return False
    return True
