"""Read a record's status in any of the forms used in the wild, and map it to a state.

Forms: a ``Status: X`` line (also ``**Status:** X``, ``**Status**: X``, list
items ``* Status: X`` / ``- Status: X``), a ``## Status`` section whose first
paragraph is the status, YAML front matter ``status: X``, and a two-column
table row ``| Status | X |``. Line and table forms count in the preamble
(before the first heading below the title) and in a metadata section
(``## Metadata``, ``## Status``, ``## Info`` …), where records keep their
metadata; a ``Status:`` line deep in the prose is prose.

The longest configured phrase the value starts with decides the state
(case-insensitive: ``Last Call``, ``Partially Accepted``), else the first
word; the rest is detail, kept for the new ``Status:`` line. A Status
section whose first paragraph starts with no known phrase and reads as a
sentence is prose (:attr:`StatusForm.PROSE`): nothing of it is removed, and
the plan must say the status.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from ...config import DEFAULT_STATUSES
from ...model import BlockKind, Document, Heading, LineSpan, Span

STATE_RANK: Mapping[str, int] = {"implemented": 3, "proposed": 2, "rejected": 0}
_OTHER_RANK = 1


class StatusForm(StrEnum):
    LINE = "Status line"
    BOLD = "bold Status line"
    LIST = "Status list item"
    SECTION = "Status section"
    FRONT_MATTER = "front matter"
    TABLE = "table row"
    PROSE = "Status section in prose"
    METADATA = "metadata file"


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
    origin: str = ""  # the file it was read from, when not the record (a folder's kep.yaml)

    @property
    def word(self) -> str:
        match = _FIRST_WORD.search(self.value)
        return match.group(0).lower() if match else ""

    def phrase(self, statuses: Mapping[str, str]) -> str:
        """The configured phrase the value starts with (the longest), else the value's words up
        to its first punctuation (``To be reviewed.`` → ``to be reviewed``): the key that maps
        it in ``[statuses]``, as :func:`known_phrase` will read it."""
        return known_phrase(self.value, statuses) or unknown_phrase(self.value) or self.word

    def where(self, path: str) -> str:
        return f"{self.origin or path}:{self.line} ({self.form})"


_FIRST_WORD = re.compile(r"[A-Za-z][A-Za-z\-]*")
# Space inside a line: also a no-break space (U+00A0) and the other Unicode spaces, which
# records written in word processors or wikis carry (``| Status\u00a0\u00a0| Accepted\u00a0|``).
_SP = r"[^\S\r\n]"
_LINE = re.compile(
    rf"^{_SP}*(?P<bullet>[*+-]{_SP}+)?(?P<bold>\*\*|__)?status(?:\*\*|__)?{_SP}*:"
    rf"(?:{_SP}*(?:\*\*|__))?{_SP}*(?P<value>\S.*?){_SP}*$",
    re.IGNORECASE,
)
_FRONT_MATTER_STATUS = re.compile(r"^status[ \t]*:[ \t]*(?P<value>.*?)[ \t]*$", re.IGNORECASE)
_TABLE_ROW = re.compile(
    rf"^{_SP}*\|?{_SP}*(?:\*\*|__)?status(?:\*\*|__)?{_SP}*\|"
    rf"{_SP}*(?P<value>[^|]*?){_SP}*\|?{_SP}*$",
    re.IGNORECASE,
)
_WRAPPERS = "*_` \t"


# A Status section's first paragraph with more words than this, and no known phrase first, is prose.
PROSE_WORDS = 3
_WORDS = re.compile(r"[a-z][a-z\-]*")


def known_phrase(value: str, statuses: Mapping[str, str]) -> str | None:
    """The longest key of ``statuses`` that ``value`` starts with, whole words, case ignored."""
    words = _WORDS.findall(value.strip(_WRAPPERS).lower())
    for count in range(min(len(words), _longest(tuple(statuses))), 0, -1):
        phrase = " ".join(words[:count])
        if phrase in statuses:
            return phrase
    return None


# Where an unknown status phrase ends: punctuation, a digit, a bracket or a dash between words.
_PHRASE_END = re.compile(r"[.,;:!?()\[\]{}<>|/\d\u2013\u2014]|\s-+\s")
# An unknown phrase longer than this is a sentence: its first word is asked for.
PHRASE_WORDS = 4


def unknown_phrase(value: str) -> str:
    """The words of ``value`` up to its first punctuation, lower case (``On hold`` → ``on
    hold``); only its first word when that is more than :data:`PHRASE_WORDS` words."""
    head = _PHRASE_END.split(value.strip(_WRAPPERS), maxsplit=1)[0]
    words = _WORDS.findall(head.lower())
    return " ".join(words if len(words) <= PHRASE_WORDS else words[:1])


@lru_cache(maxsize=8)
def _longest(keys: tuple[str, ...]) -> int:
    return max((len(k.split()) for k in keys), default=1)


def state_of(reading: StatusReading, statuses: Mapping[str, str]) -> str | None:
    """The lifecycle state the phrase maps to, or None when it is unknown (or prose)."""
    if reading.form == StatusForm.PROSE:
        return None
    phrase = known_phrase(reading.value, statuses)
    return statuses[phrase] if phrase is not None else None


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


def read_status(
    doc: Document, statuses: Mapping[str, str] = DEFAULT_STATUSES, key: str = ""
) -> StatusReading | None:
    """The record's status: the first construct in document order (prose only if nothing else).

    ``key`` is the front-matter key the status is under, when not ``status`` (``stage``)."""
    found = sorted(_candidates(doc, statuses, key), key=lambda r: (r.form == StatusForm.PROSE, r.line))
    return found[0] if found else None


_META_SECTIONS = frozenset(
    {"metadata", "meta", "status", "info", "information", "details", "properties",
     "document information", "record", "summary"}
)  # fmt: skip


def _candidates(doc: Document, statuses: Mapping[str, str], key: str = "") -> Iterator[StatusReading]:
    yield from _front_matter(doc, _front_matter_key(key) if key else _FRONT_MATTER_STATUS)
    yield from _section(doc, statuses)
    lines = _metadata_lines(doc)
    yield from _lines(doc, lines)
    yield from _table_rows(doc, lines)


def _metadata_lines(doc: Document) -> set[int]:
    """The preamble's lines and those of metadata sections (``## Metadata``, ``## Status``)."""
    lines = set(range(1, min(_preamble_end(doc), doc.line_count) + 1))
    for index, heading in enumerate(doc.headings):
        if heading.text.strip().rstrip(":").strip().lower() not in _META_SECTIONS:
            continue
        after = (
            doc.headings[index + 1].line if index + 1 < len(doc.headings) else doc.line_count + 1
        )
        lines.update(range(heading.line + 1, after))
    return lines


def _preamble_end(doc: Document) -> int:
    """The last line before the first heading that is not the title."""
    title_seen = False
    lead = lead_heading(doc)
    for heading in doc.headings:
        if (heading.level == 1 or heading is lead) and not title_seen:
            title_seen = True
            continue
        return heading.line - 1
    return doc.line_count


# A first heading with one of these names is a section (rust-lang/rfcs: ``# Summary``), not a title.
SECTION_NAMES = frozenset(
    {"summary", "abstract", "motivation", "context", "status", "introduction", "overview",
     "background", "problem", "description"}
)  # fmt: skip


def lead_heading(doc: Document) -> Heading | None:
    """The level-2 heading a document opens with (after its front matter): gRPC's proposals
    open with a setext level-2 title (``Title`` over ``---``), their sections level 1 or 2."""
    if not doc.headings or doc.headings[0].level != 2:
        return None
    first = doc.headings[0]
    if first.text.strip().rstrip(":").lower() in SECTION_NAMES:
        return None
    front = next((b.lines for b in doc.blocks if b.kind == BlockKind.FRONT_MATTER), None)
    start = front.last + 1 if front is not None and front.first == 1 else 1
    if any(doc.line_text(n).strip() for n in range(start, first.line)):
        return None
    return first


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


def _lines(doc: Document, lines: set[int]) -> Iterator[StatusReading]:
    protected = _protected_lines(doc)
    prose = {
        n
        for p in doc.paragraphs
        if "blockquote" not in p.containers
        for n in range(p.lines.first, p.lines.last + 1)
    }
    for number in sorted(lines):
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


def _section(doc: Document, statuses: Mapping[str, str]) -> Iterator[StatusReading]:
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
        if _is_prose(value, statuses) or _LINE.match(value):
            # A sentence, or a "Status: X" line the line form reads: the section stays as it is.
            keep = Span(heading.span.start, heading.span.start)
            yield StatusReading(value, StatusForm.PROSE, heading.line, keep)
            return
        yield StatusReading(
            value, StatusForm.SECTION, heading.line, _section_span(doc, heading, paragraph.lines)
        )
        return


def _is_prose(value: str, statuses: Mapping[str, str]) -> bool:
    return known_phrase(value, statuses) is None and len(value.split()) > PROSE_WORDS


def _section_span(doc: Document, heading: Heading, lines: LineSpan) -> Span:
    first = doc.position(heading.span.start)[0]
    return _line_span(doc, LineSpan(first, lines.last))


@lru_cache(maxsize=8)
def _front_matter_key(key: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(key)}[ \t]*:[ \t]*(?P<value>.*?)[ \t]*$", re.IGNORECASE)


def _front_matter(doc: Document, pattern: re.Pattern[str]) -> Iterator[StatusReading]:
    block = next((b for b in doc.blocks if b.kind == BlockKind.FRONT_MATTER), None)
    if block is None:
        return
    inner = range(block.lines.first + 1, block.lines.last)
    for number in inner:
        match = pattern.match(doc.line_text(number))
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


def _table_rows(doc: Document, lines: set[int]) -> Iterator[StatusReading]:
    for block in doc.blocks:
        if block.kind != BlockKind.TABLE or block.lines.first not in lines:
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
