"""What both ``check`` and ``fix`` ask of the gates: which gates run, every finding they
make in a workspace, and which findings the selection and inline suppressions let through."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import attrgetter

from ..config import FILES_GATE, GATES, Config
from ..errors import DocsyncError
from ..gates.links import check as links
from ..gates.rules import UNUSED_SUPPRESSION, by_code
from ..gates.wrap import check as wrap
from ..model import FINDING_ORDER, Finding
from ..report.selection import Selection
from ..report.suppressions import MARKER as SUPPRESSION_MARKER
from ..report.suppressions import SUMMARY as SUPPRESSIONS
from ..report.suppressions import FileSuppressions, Found
from ..suggest import did_you_mean
from ..workspace.documents import Documents
from ..workspace.load import Workspace


def chosen_gates(requested: Sequence[str] | None, config: Config, selection: Selection) -> tuple[str, ...]:
    """The gates to run: ``--gate`` or config's, less those whose every rule is deselected.
    ``files`` is accepted and runs no gate: the file rules are always on."""
    chosen = tuple(requested) if requested else config.gates
    for name in chosen:
        if name not in (*GATES, FILES_GATE):
            known = (*GATES, FILES_GATE)
            hint = did_you_mean(name, known) or f" (gates: {', '.join(known)})"
            raise DocsyncError(f"unknown gate {name!r}{hint}")
    return selection.gates(tuple(g for g in chosen if g != FILES_GATE))


@dataclass(frozen=True)
class Filtered:
    kept: tuple[Finding, ...]
    silenced: tuple[Finding, ...]


def filter_findings(
    workspace: Workspace,
    findings: Sequence[Finding],
    selection: Selection,
    ran: Sequence[str] = (),
    report_unused: bool = False,
    ordered: bool = False,
) -> Filtered:
    """Findings split into those reported and those ``selection`` or an inline
    suppression silences; with ``report_unused``, S001 for each idle suppression.
    ``ordered``: ``findings`` are in :data:`FINDING_ORDER` already (as
    :func:`findings_for` makes them), so those kept are too, unless S001s join them."""
    rules = by_code()
    suppressions: dict[str, FileSuppressions] = {}

    def of(path: str) -> FileSuppressions:
        if path not in suppressions:
            suppressions[path] = _suppressions(workspace, path)
        return suppressions[path]

    kept: list[Finding] = []
    silenced: list[Finding] = []
    off = selection.off
    for path, group in groupby(findings, key=attrgetter("path")):
        if selection.everything and not of(path).ranges:
            kept.extend(f for f in group if f.rule not in off)  # nothing else deselected or suppressed
            continue
        for finding in group:
            if finding.rule in off:
                continue  # an opt-in rule nobody selected: not reported, not silenced
            rule = rules.get(finding.rule)
            quiet = rule is not None and (
                not selection.reports(rule, path) or of(path).silences(rule, finding.line)
            )
            (silenced if quiet else kept).append(finding)
    unsorted = not ordered
    if report_unused:
        unsorted = True
        every_gate = set(ran) >= set(GATES)
        unused_rule = rules[UNUSED_SUPPRESSION]
        for path in workspace.selected:
            if selection.reports(unused_rule, path):
                kept.extend(of(path).unused(path, ran, every_gate))
    return Filtered(tuple(sorted(kept, key=FINDING_ORDER) if unsorted else kept), tuple(silenced))


_MARKER_BYTES = SUPPRESSION_MARKER.encode()


def _suppressions(workspace: Workspace, path: str) -> FileSuppressions:
    """The file's suppressions. A file whose bytes hold no ``docsync-`` has none: its
    document, if still pickled, is not unpickled to learn that, nor are its kept
    summaries unpacked (the text is those bytes decoded as UTF-8, so the marker is
    in one iff in the other; a warm run knows it from the stat index). Else as the
    parse worker found them, if it did."""
    documents = workspace.documents
    if isinstance(documents, Documents):
        if documents.packed_without(path, _MARKER_BYTES):
            return FileSuppressions((), [])
        made = documents.made(SUPPRESSIONS).get(path)
        if isinstance(made, Found):  # found in the parse worker
            return FileSuppressions.made(made)
    doc = documents.get(path)
    return FileSuppressions.of(doc) if doc is not None else FileSuppressions((), [])


def findings_for(workspace: Workspace, gates: Sequence[str]) -> list[Finding]:
    findings = list(workspace.problems)
    if "links" in gates:
        findings.extend(links.check_workspace(workspace))
    if "wrap" in gates:
        findings.extend(wrap.check_workspace(workspace))
    findings.extend(_tree_gates(workspace, gates))
    return sorted(findings, key=FINDING_ORDER)


def _tree_gates(workspace: Workspace, gates: Sequence[str]) -> list[Finding]:
    """The record-tree gates (layout, refs)."""
    if "layout" not in gates and "refs" not in gates:
        return []  # not even imported: a links-only run has no use for them
    from ..gates import record_tree as record_gates

    return record_gates.check(workspace, gates)
