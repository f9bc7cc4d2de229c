"""Read a record's status in any of the forms used in the wild, and map it to a state.

Forms: a ``Status: X`` line (also ``**Status:** X``, ``**Status**: X``, list
items ``* Status: X`` / ``- Status: X``), a ``## Status`` section whose first
paragraph is the status, YAML front matter ``status: X``, and a two-column
table row ``| Status | X |``. Line and table forms count only in the
preamble (before the first heading below the title), where records keep
their metadata; a ``Status:`` line deep in the prose is prose.

The first word decides the state (case-insensitive); the rest is detail,
kept for the new ``Status:`` line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum

from ..model import BlockKind, Document, Heading, LineSpan, Span

STATE_RANK: Mapping[str, int] = {"implemented": 3, "proposed": 2, "rejected": 0}
_OTHER_RANK = 1


class StatusForm(StrEnum):
    LINE = "Status line"
    BOLD = "bold Status line"
    LIST = "Status list item"
    SECTION = "Status section"
    FRONT_MATTER = "front matter"
    TABLE = "table row"


@dataclass(frozen=True, slots=True)
class StatusReading:
    """A status as written, and the lines (``lines``) of the construct it was read from.

    ``remove`` is the span to cut so that the construct disappears;
    ``replace`` is what goes in its place (a table whose header row was the
    status gets its next row promoted).
    """

    value: str
    form: StatusForm
    line: int
    remove: Span
    replace: str = ""

    @property
    def word(self) -> str:
        match = _FIRST_WORD.search(self.value)
        return match.group(0).lower() if match else ""

    def where(self, path: str) -> str:
        return f"{path}:{self.line} ({self.form})"


_FIRST_WORD = re.compile(r"[A-Za-z][A-Za-z\-]*")
_LINE = re.compile(
    r"^[ \t]*(?P<bullet>[*+-][ \t]+)?(?P<bold>\*\*|__)?status(?:\*\*|__)?[ \t]*:"
    r"(?:[ \t]*(?:\*\*|__))?[ \t]*(?P<value>\S.*?)[ \t]*$",
    re.IGNORECASE,
)
_FRONT_MATTER_STATUS = re.compile(r"^status[ \t]*:[ \t]*(?P<value>.*?)[ \t]*$", re.IGNORECASE)
_TABLE_ROW = re.compile(
    r"^[ \t]*\|?[ \t]*(?:\*\*|__)?status(?:\*\*|__)?[ \t]*\|"
    r"[ \t]*(?P<value>[^|]*?)[ \t]*\|?[ \t]*$",
    re.IGNORECASE,
)
_WRAPPERS = "*_` \t"


def state_of(reading: StatusReading, statuses: Mapping[str, str]) -> str | None:
    """The lifecycle state the first word maps to, or None when it is unknown."""
    return statuses.get(reading.word)


def detail_of(reading: StatusReading, state: str) -> str:
    """What the new ``Status: <state> (<detail>)`` line keeps of the original.

    ``implemented (pts 1-2)`` keeps ``pts 1-2``; ``Accepted`` keeps ``Accepted``;
    ``Superseded by ADR 0004`` keeps all of it.
    """
    value = reading.value.strip(_WRAPPERS)
    match = _FIRST_WORD.search(value)
    if match is None or match.group(0).lower() != state.lower():
        return value
    rest = value[match.end() :].strip(_WRAPPERS).lstrip(":;,\u2013\u2014- \t").strip()
    if rest.startswith("(") and rest.endswith(")") and rest.count("(") == 1:
        rest = rest[1:-1].strip()
    return rest


def rank(state: str) -> int:
    """How advanced a state is: implemented over proposed over rejected."""
    return STATE_RANK.get(state, _OTHER_RANK)


# --------------------------------------------------------------------------- reading


def read_status(doc: Document) -> StatusReading | None:
    """The record's status: the first construct in document order."""
    found = sorted(_candidates(doc), key=lambda r: r.line)
    return found[0] if found else None


def _candidates(doc: Document) -> Iterator[StatusReading]:
    yield from _front_matter(doc)
    yield from _section(doc)
    end = _preamble_end(doc)
    yield from _lines(doc, end)
    yield from _table_rows(doc, end)


def _preamble_end(doc: Document) -> int:
    """The last line before the first heading that is not the title."""
    title_seen = False
    for heading in doc.headings:
        if heading.level == 1 and not title_seen:
            title_seen = True
            continue
        return heading.line - 1
    return doc.line_count


def _line_span(doc: Document, lines: LineSpan) -> Span:
    """The span of whole lines, with their newline, plus one following blank line."""
    start = doc.line_starts[lines.first - 1]
    last = lines.last
    if (
        last < doc.line_count
        and not doc.line_text(last + 1).strip()
        and _blank_before(doc, lines.first)
    ):
        last += 1
    end = doc.line_starts[last] if last < doc.line_count else len(doc.text)
    return Span(start, end)


def _blank_before(doc: Document, line: int) -> bool:
    return line == 1 or not doc.line_text(line - 1).strip()


def _protected_lines(doc: Document) -> set[int]:
    kinds = {
        BlockKind.FENCE,
        BlockKind.CODE,
        BlockKind.HTML,
        BlockKind.FRONT_MATTER,
        BlockKind.TABLE,
    }
    return {
        n for b in doc.blocks if b.kind in kinds for n in range(b.lines.first, b.lines.last + 1)
    }


def _lines(doc: Document, end: int) -> Iterator[StatusReading]:
    protected = _protected_lines(doc)
    prose = {
        n
        for p in doc.paragraphs
        if "blockquote" not in p.containers
        for n in range(p.lines.first, p.lines.last + 1)
    }
    for number in range(1, min(end, doc.line_count) + 1):
        if number in protected or number not in prose:
            continue
        match = _LINE.match(doc.line_text(number))
        if match is None:
            continue
        form = (
            StatusForm.LIST
            if match.group("bullet")
            else StatusForm.BOLD
            if match.group("bold")
            else StatusForm.LINE
        )
        yield StatusReading(
            match.group("value"), form, number, _line_span(doc, LineSpan(number, number))
        )
        return


def _section(doc: Document) -> Iterator[StatusReading]:
    for index, heading in enumerate(doc.headings):
        if heading.text.strip().rstrip(":").lower() != "status":
            continue
        after = (
            doc.headings[index + 1].line if index + 1 < len(doc.headings) else doc.line_count + 1
        )
        paragraph = next((p for p in doc.paragraphs if heading.line < p.lines.first < after), None)
        if paragraph is None:
            return
        value = " ".join(paragraph.content.split())
        yield StatusReading(
            value, StatusForm.SECTION, heading.line, _section_span(doc, heading, paragraph.lines)
        )
        return


def _section_span(doc: Document, heading: Heading, lines: LineSpan) -> Span:
    first = doc.position(heading.span.start)[0]
    return _line_span(doc, LineSpan(first, lines.last))


def _front_matter(doc: Document) -> Iterator[StatusReading]:
    block = next((b for b in doc.blocks if b.kind == BlockKind.FRONT_MATTER), None)
    if block is None:
        return
    inner = range(block.lines.first + 1, block.lines.last)
    for number in inner:
        match = _FRONT_MATTER_STATUS.match(doc.line_text(number))
        if match is None:
            continue
        value = match.group("value").strip("\"'")
        others = [n for n in inner if n != number and doc.line_text(n).strip()]
        lines = block.lines if not others else LineSpan(number, number)
        span = _line_span(doc, lines) if not others else _bare_lines(doc, lines)
        yield StatusReading(value, StatusForm.FRONT_MATTER, number, span)
        return


def _bare_lines(doc: Document, lines: LineSpan) -> Span:
    start = doc.line_starts[lines.first - 1]
    end = doc.line_starts[lines.last] if lines.last < doc.line_count else len(doc.text)
    return Span(start, end)


def _table_rows(doc: Document, end: int) -> Iterator[StatusReading]:
    for block in doc.blocks:
        if block.kind != BlockKind.TABLE or block.lines.first > end:
            continue
        for number in range(block.lines.first, block.lines.last + 1):
            match = _TABLE_ROW.match(doc.line_text(number))
            if match is not None and "|" in doc.line_text(number).strip().strip("|"):
                yield _table_reading(doc, block.lines, number, match.group("value"))
                return


def _table_reading(doc: Document, table: LineSpan, number: int, value: str) -> StatusReading:
    if number != table.first:
        return StatusReading(
            value, StatusForm.TABLE, number, _bare_lines(doc, LineSpan(number, number))
        )
    if table.last - table.first < 2:
        return StatusReading(value, StatusForm.TABLE, number, _line_span(doc, table))
    # The status row is the header: the first body row becomes the header.
    promoted = doc.line_text(table.first + 2) + "\n" + doc.line_text(table.first + 1) + "\n"
    span = _bare_lines(doc, LineSpan(table.first, table.first + 2))
    return StatusReading(value, StatusForm.TABLE, number, span, promoted)
