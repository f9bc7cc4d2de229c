"""What the ``wrap`` gate reports for a paragraph, and which paragraphs it reads."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from ...config import Config
from ...model import Document, Paragraph
from .display import display_width, overflow_index
from .joined import first_join
from .plans import code_joins, plan_changes, plan_joined, plan_sentences
from .prose import DocumentIndex, Prose
from .prose import in_scope as in_scope  # read from here by the hint and the tests
from .reading import analyse
from .scan import joined_finding
from .sentences import keeps_sentences
from .sentences import sentence_then_text as sentence_then_text  # read from here by the hint
from .width import width_rows

GATE = "wrap"


@dataclass(frozen=True, slots=True)
class Violation:
    """One thing the gate reports: a rule code, where, and numbers for its message."""

    rule: str
    offset: int
    measured: int = 0


def _violations_joined(prose: Prose) -> list[Violation]:
    offsets = [gap.span.start for gap, _ in plan_changes(prose, plan_joined(prose))]
    offsets += [join.start for join in code_joins(prose)]
    lines = prose.paragraph.lines.last - prose.paragraph.lines.first + 1
    return [Violation("W001", min(offsets), lines)] if offsets else []


def _violations_sentences(prose: Prose) -> list[Violation]:
    found: list[Violation] = []
    for gap, line_ends in plan_changes(prose, plan_sentences(prose)):
        if line_ends:
            found.append(Violation("W003", gap.span.end))
        else:
            found.append(Violation("W004", gap.span.start))
    found += [Violation("W004", join.start) for join in code_joins(prose)]
    return found


def width_violations(doc: Document, prose: Prose, width: int, strict: bool) -> list[Violation]:
    breakable_lines = {
        doc.position(gap.span.start)[0] for gap in prose.gaps if gap.breakable and not gap.newline
    }
    found: list[Violation] = []
    for line in range(prose.paragraph.lines.first, prose.paragraph.lines.last + 1):
        if line in prose.fields:
            continue  # a header field keeps its line, however wide
        source = doc.line_text(line)
        measured = display_width(source)
        if measured <= width:
            continue
        offset = doc.line_starts[line - 1] + overflow_index(source, width)
        if line in breakable_lines:
            found.append(Violation("W002", offset, measured))
        elif strict:
            found.append(Violation("W005", offset, measured))
    return found


def violations(doc: Document, prose: Prose, config: Config) -> list[Violation]:
    """What the gate reports for one paragraph under ``config.wrap``."""
    mode = config.wrap
    if isinstance(mode, int):
        return width_violations(doc, prose, mode, config.wrap_strict)
    if mode == "none":
        return _violations_joined(prose)
    if mode == "sentence":
        return _violations_sentences(prose)
    return []


def may_violate(doc: Document, para: Paragraph, config: Config) -> bool:
    """False when ``para`` cannot break ``config.wrap``, judged from its raw lines alone.

    A cheap, conservative filter in front of :func:`analyse` (which reads every
    word): most paragraphs of a conforming repository are skipped without it.
    Under a width only a line wider than the width is ever reported, so the
    filter measures each line exactly as the gate does.
    """
    mode = config.wrap
    multiline = para.lines.last > para.lines.first
    if mode == "none":
        return multiline
    lines = [doc.line_text(n) for n in range(para.lines.first, para.lines.last + 1)]
    if isinstance(mode, int):
        return any(display_width(line) > mode for line in lines)
    if mode == "sentence":
        return multiline or any(sentence_then_text(line) for line in lines)
    return False


def prose_of(
    doc: Document, config: Config, conventions: Sequence[Config] | None = None
) -> list[Prose]:
    """The paragraphs ``config`` checks, read as words and gaps, in source order;
    paragraphs that cannot break ``config.wrap`` (or, given ``conventions``, any
    of theirs: measuring one reading against several) are left out."""
    candidates = [config] if conventions is None else conventions
    found: list[Prose] = []
    index = DocumentIndex.of(doc)
    sentences = any(c.wrap == "sentence" for c in candidates)
    for para in sorted(doc.paragraphs, key=lambda p: p.lines.first):
        if in_scope(para, config) and any(may_violate(doc, para, c) for c in candidates):
            prose = analyse(doc, para, index, sentences=sentences)
            if prose is not None:
                found.append(prose)
    return found


def document_violations(doc: Document, config: Config) -> list[Violation]:
    """What the gate reports for ``doc``, paragraph by paragraph in source order.

    Each paragraph is judged by the quick reading of :mod:`~docsync.gates.wrap.scan`
    where that is certain, and read in full (:func:`analyse`, :func:`violations`)
    where it is not: the findings are the full reading's, without building a
    re-wrap's worth of words and gaps for every paragraph that breaks the width.
    """
    if isinstance(config.wrap, int):
        starts = doc.line_starts
        return [Violation(rule, starts[line - 1] + column - 1, measured) for rule, line, column, measured in width_rows(doc, config)]
    index = DocumentIndex.of(doc)
    found: list[Violation] = []
    for para in sorted(doc.paragraphs, key=lambda p: p.lines.first):
        if not in_scope(para, config) or not may_violate(doc, para, config):
            continue
        quick = _quick(doc, para, index, config)
        if quick is None:
            prose = analyse(doc, para, index, sentences=config.wrap == "sentence")
            quick = violations(doc, prose, config) if prose is not None else []
        found.extend(quick)
    return found


_PRINTABLE_LINES = re.compile(r"[\n -~]*")


def paragraph_widths(doc: Document, para: Paragraph) -> list[int]:
    """The display width of each line of ``para`` (:func:`display_width`): of lines
    all printable ASCII, one column a character, told for the paragraph at once."""
    first, last = para.lines.first, para.lines.last
    starts, text = doc.line_starts, doc.text
    block = text[starts[first - 1] : starts[last] - 1 if last < len(starts) else len(text)]
    if _PRINTABLE_LINES.fullmatch(block) is None:
        return [display_width(doc.line_text(n)) for n in range(first, last + 1)]
    return [len(line.rstrip(" \t")) for line in block.split("\n")]


def _quick(
    doc: Document, para: Paragraph, index: DocumentIndex, config: Config
) -> list[Violation] | None:
    if config.wrap == "none":
        joined = joined_finding(doc, para, index)
        lines = para.lines.last - para.lines.first + 1
        return None if joined is None else [Violation("W001", at, lines) for at in joined]
    if config.wrap == "sentence":
        return [] if keeps_sentences(doc, para, index) else None
    return None


JoinedRow = tuple[str, int, int, int]
_ROW_ORDER = itemgetter(1, 2, 0)  # the findings' order of rows: line, column, rule


def joined_rows(doc: Document, config: Config) -> list[JoinedRow]:
    """:func:`~docsync.gates.wrap.check.rows` under ``wrap = "none"``."""
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
    found.sort(key=_ROW_ORDER)
    return found
