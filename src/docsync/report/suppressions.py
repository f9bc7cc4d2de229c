"""Inline suppressions, as markdownlint and rumdl write them, in HTML comments:

* ``<!-- docsync-disable-next-line L001 W001 -->``: the next line, or the whole
  paragraph that starts on it (a wrap finding sits on the line where a
  paragraph breaks, not always its first);
* ``<!-- docsync-disable-line L001 -->``: its own line;
* ``<!-- docsync-disable L001 -->`` … ``<!-- docsync-enable L001 -->``: the lines
  from the first comment to the one before the second (to the end without one);
* ``<!-- docsync-disable-file W001 -->``: the whole file.

Without codes a comment means every rule; a code may be a prefix (``L``) or a
gate name (``links``). ``docsync-enable`` without codes ends every open
``disable``; with codes it ends those codes' ranges, or, inside a ``disable``
of every rule, turns just those rules back on. Comments inside code (fences,
indented code, code spans) are text, not suppressions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..gates.rules import SUPPRESSIONS_GATE, UNUSED_SUPPRESSION, Rule, all_rules
from ..model import BlockKind, Document, Finding, Severity

if TYPE_CHECKING:
    from ..workspace.load import Workspace

MARKER = "docsync-"
_DIRECTIVE = re.compile(
    r"<!--[ \t]*docsync-(?P<kind>disable-next-line|disable-line|disable-file|disable|enable)"
    r"(?P<codes>(?:[ \t]+[A-Za-z][A-Za-z0-9]*)*)[ \t]*-->"
)


@dataclass(frozen=True, slots=True)
class Directive:
    kind: str
    codes: tuple[str, ...]
    line: int
    column: int

    @property
    def text(self) -> str:
        return " ".join([f"docsync-{self.kind}", *self.codes])


@dataclass(frozen=True, slots=True)
class _Range:
    """Lines ``first``..``last`` where ``code`` (None: every rule) is off, bar ``exceptions``."""

    directive: Directive
    code: str | None
    first: int
    last: int
    exceptions: tuple[tuple[str, int], ...] = ()


def _names(code: str, rule: Rule) -> bool:
    return code.lower() == rule.gate or rule.code.startswith(code.upper())


def _in_code(doc: Document, line: int, offset: int) -> bool:
    for block in doc.blocks:
        if block.kind in (BlockKind.FENCE, BlockKind.CODE) and block.lines.first <= line <= block.lines.last:
            return True
    return any(span.contains(offset) for span in doc.code_spans)


def directives(doc: Document) -> tuple[Directive, ...]:
    if MARKER not in doc.text:
        return ()
    found: list[Directive] = []
    for match in _DIRECTIVE.finditer(doc.text):
        line, column = doc.position(match.start())
        if not _in_code(doc, line, match.start()):
            found.append(Directive(match["kind"], tuple(match["codes"].split()), line, column))
    return tuple(found)


def _next_lines(doc: Document, line: int) -> tuple[int, int]:
    """The line after ``line``, or the paragraph that starts there."""
    for paragraph in doc.paragraphs:
        if paragraph.lines.first == line + 1:
            return paragraph.lines.first, paragraph.lines.last
    return line + 1, line + 1


def _ranges(doc: Document, found: Sequence[Directive]) -> list[_Range]:
    last_line = doc.line_count
    done: list[_Range] = []
    open_: list[_Range] = []
    for d in found:
        if d.kind == "disable-file":
            done += [_Range(d, c, 1, last_line) for c in d.codes or (None,)]
        elif d.kind == "disable-line":
            done += [_Range(d, c, d.line, d.line) for c in d.codes or (None,)]
        elif d.kind == "disable-next-line":
            first, last = _next_lines(doc, d.line)
            done += [_Range(d, c, first, last) for c in d.codes or (None,)]
        elif d.kind == "disable":
            open_ += [_Range(d, c, d.line, last_line) for c in d.codes or (None,)]
        else:
            open_ = _enable(open_, d, done)
    return done + open_


def _enable(open_: list[_Range], d: Directive, done: list[_Range]) -> list[_Range]:
    still: list[_Range] = []
    for r in open_:
        if _ends(r, d):
            done.append(_Range(r.directive, r.code, r.first, d.line - 1, r.exceptions))
        elif r.code is None:
            extra = tuple((c, d.line) for c in d.codes)
            still.append(_Range(r.directive, None, r.first, r.last, r.exceptions + extra))
        else:
            still.append(r)
    return still


def _ends(r: _Range, enable: Directive) -> bool:
    """Whether ``enable`` closes ``r``: it names no codes, or a code of ``r``'s."""
    if not enable.codes:
        return True
    code = r.code
    return code is not None and any(
        code.upper().startswith(c.upper()) or code.lower() == c.lower() for c in enable.codes
    )


def _covers(r: _Range, rule: Rule, line: int) -> bool:
    if not r.first <= line <= r.last:
        return False
    if r.code is not None:
        return _names(r.code, rule)
    return not any(_names(code, rule) and since <= line for code, since in r.exceptions)


@dataclass(frozen=True, slots=True)
class Found:
    """A document's suppressions as a parse worker sends them (see :class:`Summarizer`)."""

    directives: tuple[Directive, ...]
    ranges: tuple[_Range, ...]

    @classmethod
    def of(cls, doc: Document) -> Found:
        found = directives(doc)
        return cls(found, tuple(_ranges(doc, found)) if found else ())


SUMMARY = "suppressions"
"""The name :class:`Summarizer`'s results go by (:meth:`docsync.workspace.documents.Documents.made`)."""


class Summarizer:
    """:meth:`Found.of` in the parse workers, for the selected documents: a check
    then learns every file's suppressions without unpickling its document. What
    it finds depends on the document alone (and this code): the parse cache may
    keep it (:class:`docsync.workspace.summaries.Kept`)."""

    def __init__(self, workspace: Workspace) -> None:
        from ..workspace.cache import fingerprint
        from ..workspace.results import source_digest

        self._selected = frozenset(workspace.selected)
        self.context = f"{fingerprint()}|{source_digest(__file__)}"

    def __call__(self, doc: Document) -> Found | None:
        return Found.of(doc) if doc.path in self._selected else None

    def pack(self, result: object) -> object:
        assert isinstance(result, Found)
        return (
            tuple(_directive_data(d) for d in result.directives),
            tuple((_directive_data(r.directive), r.code, r.first, r.last, r.exceptions) for r in result.ranges),
        )

    def unpack(self, data: object) -> Found | None:
        """:meth:`pack`'s data back (checked as it is built)."""
        if data == ((), ()):  # most files have none
            return Found((), ())
        if not (isinstance(data, tuple) and len(data) == 2 and isinstance(data[0], tuple) and isinstance(data[1], tuple)):
            return None
        found = [_directive_of(d) for d in data[0]]
        ranges = [_range_of(r) for r in data[1]]
        if any(d is None for d in found) or any(r is None for r in ranges):
            return None
        return Found(tuple(d for d in found if d is not None), tuple(r for r in ranges if r is not None))


_DirectiveData = tuple[str, tuple[str, ...], int, int]


def _directive_data(d: Directive) -> _DirectiveData:
    return (d.kind, d.codes, d.line, d.column)


def _directive_of(data: object) -> Directive | None:
    if (
        isinstance(data, tuple)
        and len(data) == 4
        and type(data[0]) is str
        and isinstance(data[1], tuple)
        and all(type(c) is str for c in data[1])
        and type(data[2]) is int
        and type(data[3]) is int
    ):
        return Directive(data[0], data[1], data[2], data[3])
    return None


def _range_of(data: object) -> _Range | None:
    if not (isinstance(data, tuple) and len(data) == 5):
        return None
    directive, code, first, last, exceptions = data
    made = _directive_of(directive)
    if (
        made is None
        or not (code is None or type(code) is str)
        or type(first) is not int
        or type(last) is not int
        or not isinstance(exceptions, tuple)
        or not all(
            isinstance(e, tuple) and len(e) == 2 and type(e[0]) is str and type(e[1]) is int
            for e in exceptions
        )
    ):
        return None
    return _Range(made, code, first, last, exceptions)


@dataclass
class FileSuppressions:
    """The suppressions of one document, and which of them silenced something."""

    found: tuple[Directive, ...]
    ranges: list[_Range]
    used: set[tuple[Directive, str | None]] = field(default_factory=set)

    @classmethod
    def of(cls, doc: Document) -> FileSuppressions:
        return cls.made(Found.of(doc))

    @classmethod
    def made(cls, found: Found) -> FileSuppressions:
        """Fresh (nothing used yet) from what :meth:`Found.of` found."""
        return cls(found.directives, list(found.ranges))

    def silences(self, rule: Rule, line: int) -> bool:
        hit = False
        for r in self.ranges:
            if _covers(r, rule, line):
                self.used.add((r.directive, r.code))
                hit = True
        return hit

    def unused(self, path: str, ran: Iterable[str], every_gate: bool) -> Iterator[Finding]:
        """S001 for each directive (or code of one) that silenced nothing, among the
        codes of the gates that ran (a directive without codes: only when all ran)."""
        gates = set(ran)
        for d in self.found:
            if d.kind == "enable":
                continue
            idle = [c for c in d.codes or (None,) if (d, c) not in self.used]
            idle = [c for c in idle if (every_gate if c is None else _gate_ran(c, gates))]
            if idle and (d.codes or every_gate):
                shown = " ".join(c for c in idle if c) or "(every rule)"
                yield Finding(
                    SUPPRESSIONS_GATE,
                    UNUSED_SUPPRESSION,
                    path,
                    d.line,
                    d.column,
                    f"'{d.text}' silences no finding for {shown}; remove it",
                    severity=Severity.WARNING,
                )


def _gate_ran(code: str, gates: set[str]) -> bool:
    return any(_names(code, rule) and rule.gate in gates for rule in all_rules())
