"""``docsync check`` and ``docsync fix`` as plain functions: results in, no printing."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType

from ..config import FILES_GATE, GATES, Config
from ..config import load as load_config
from ..errors import DocsyncError
from ..gates.links import check as links
from ..gates.registry import UNUSED_SUPPRESSION, by_code
from ..gates.wrap import check as wrap
from ..gates.wrap import fix as wrapfix
from ..model import Document, Finding
from ..report.selection import Selection
from ..report.suppressions import MARKER as SUPPRESSION_MARKER
from ..report.suppressions import FileSuppressions
from ..repository.gitrepo import changed_files, find_repo, staged_changes
from ..suggest import did_you_mean
from ..workspace.cache import TargetCache
from ..workspace.load import Documents, Progress, Workspace, load_workspace
from ..write.transaction import Transaction
from ..write.writer import ChangedMeanwhile, FileWrite, remove_stale_temps


@dataclass(frozen=True)
class CheckResult:
    files: int
    findings: tuple[Finding, ...]
    gates: tuple[str, ...]
    silenced: int = 0
    config: str = "(defaults)"
    hint: str | None = None

    @property
    def exit_code(self) -> int:
        return 1 if self.findings else 0


def _gates(requested: Sequence[str] | None, config: Config, selection: Selection) -> tuple[str, ...]:
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
) -> Filtered:
    """Findings split into those reported and those ``selection`` or an inline
    suppression silences; with ``report_unused``, S001 for each idle suppression."""
    rules = by_code()
    suppressions: dict[str, FileSuppressions] = {}

    def of(path: str) -> FileSuppressions:
        if path not in suppressions:
            doc = workspace.documents.get(path)
            suppressions[path] = FileSuppressions.of(doc) if doc is not None else FileSuppressions((), [])
        return suppressions[path]

    kept: list[Finding] = []
    silenced: list[Finding] = []
    for finding in findings:
        rule = rules.get(finding.rule)
        quiet = rule is not None and (
            not selection.reports(rule, finding.path) or of(finding.path).silences(rule, finding.line)
        )
        (silenced if quiet else kept).append(finding)
    if report_unused:
        every_gate = set(ran) >= set(GATES)
        unused_rule = rules[UNUSED_SUPPRESSION]
        for path in workspace.selected:
            if selection.reports(unused_rule, path):
                kept.extend(of(path).unused(path, ran, every_gate))
    return Filtered(tuple(sorted(kept, key=Finding.sort_key)), tuple(silenced))


def findings_for(workspace: Workspace, gates: Sequence[str]) -> list[Finding]:
    findings = list(workspace.problems)
    if "links" in gates:
        findings.extend(links.check_workspace(workspace))
    if "wrap" in gates:
        findings.extend(wrap.check_workspace(workspace))
    findings.extend(_tree_gates(workspace, gates))
    return sorted(findings, key=Finding.sort_key)


def _tree_gates(workspace: Workspace, gates: Sequence[str]) -> list[Finding]:
    """The record-tree gates (layout, refs)."""
    if "layout" not in gates and "refs" not in gates:
        return []  # not even imported: a links-only run has no use for them
    from ..gates import record_tree as record_gates

    return record_gates.check(workspace, gates)


def run_check(
    start: Path,
    paths: Sequence[str] | None = None,
    gates: Sequence[str] | None = None,
    config: Config | None = None,
    changed_since: str | None = None,
    progress: Progress | None = None,
    staged: bool = False,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] = (),
    report_unused: bool = False,
    within: str | None = None,
    stdin: tuple[str, str] | None = None,
) -> CheckResult:
    """Run the gates. ``changed_since`` (a revision, or ``""`` for the merge base with
    the default branch) narrows the run to files changed since then plus the files
    that link to them; ``staged`` to the paths the index changes (both sides of a
    rename, deletes too) plus the files that link to them. ``select`` replaces the
    config's selection and ``ignore`` adds to its (see :mod:`docsync.report.selection`);
    inline suppressions apply, and ``report_unused`` reports those that silence
    nothing. ``within`` (a folder) narrows the report to the files in it;
    ``stdin`` (path, text) checks that text as the file at path, alone, with the
    repository as its link context. ``progress`` hears how parsing goes (see
    :func:`load_workspace`)."""
    repo = find_repo(start)
    config = config or load_config(repo.root, start)
    selection = Selection.of(config, select, ignore)
    chosen = _gates(gates, config, selection)
    summarizer = links.Summarizer if "links" in chosen else None
    if stdin is not None:
        workspace = _with_text(load_workspace(start, None, replace(config, cache=False)), *stdin)
    else:
        workspace = load_workspace(start, paths, config, progress=progress, summarizer=summarizer)
    workspace = _inside(workspace, within)
    if changed_since is not None:
        workspace = narrow_to(workspace, changed_files(workspace.root, changed_since or None))
    if staged:
        workspace = narrow_to(workspace, staged_changes(workspace.root))
    found = filter_findings(
        workspace, findings_for(workspace, chosen), selection, chosen, report_unused
    )
    return CheckResult(
        workspace.files_checked,
        found.kept,
        chosen,
        len(found.silenced),
        config.origin,
        _convention_hint(workspace, found.kept) if config.origin == "(defaults)" else None,
    )


def _inside(workspace: Workspace, folder: str | None) -> Workspace:
    """The workspace reporting only on the files in ``folder`` (None: as it is)."""
    if folder is None:
        return workspace
    inside = tuple(p for p in workspace.selected if p.startswith(folder.rstrip("/") + "/"))
    chosen = set(inside)
    return replace(
        workspace, selected=inside, problems=tuple(p for p in workspace.problems if p.path in chosen)
    )


def _with_text(workspace: Workspace, path: str, text: str) -> Workspace:
    """The workspace with ``text`` as the file at ``path``, the only one reported on."""
    from collections import ChainMap

    from ..parse.markdown import parse

    doc = parse(path, text.replace("\r\n", "\n"))
    # not a Documents: the gates' result caches, keyed by file content, stay out of it
    documents: ChainMap[str, Document] = ChainMap({path: doc}, dict(workspace.documents))
    return replace(workspace, documents=documents, problems=(), selected=(path,))


HINT_MINIMUM = 20
"""Wrap findings from which a repository without config hears which convention it seems to follow."""


def _convention_hint(workspace: Workspace, findings: Sequence[Finding]) -> str | None:
    count = sum(1 for f in findings if f.gate == "wrap")
    if count < HINT_MINIMUM:
        return None
    from ..adopt.inspection import choose_wrap, workspace_wrap_counts

    counts = workspace_wrap_counts(workspace)
    mode = choose_wrap(counts)
    if mode == workspace.config.wrap:
        return None
    breaking = {c.mode: c.paragraphs for c in counts}
    shown = f'"{mode}"' if isinstance(mode, str) else str(mode)
    return (
        f"{count} wrap findings and no docsync config: the prose appears to follow wrap = {shown} "
        f"({breaking[mode]} paragraphs break it, {breaking[workspace.config.wrap]} break the "
        f'default "none"); run `docsync init` to write a config that says so.'
    )


def narrow_to(workspace: Workspace, changed: frozenset[str]) -> Workspace:
    """The workspace reporting only on ``changed`` and the files linking into it."""
    targets = _link_targets(workspace)
    selected = [
        path
        for path in workspace.selected
        if path in changed or not changed.isdisjoint(targets.get(path, ()))
    ]
    chosen = set(selected)
    return replace(
        workspace,
        selected=tuple(selected),
        problems=tuple(p for p in workspace.problems if p.path in chosen),
    )


def _link_targets(workspace: Workspace) -> dict[str, tuple[str, ...]]:
    """Where each selected document's links resolve, through a cache keyed by content."""
    documents = workspace.documents
    keys = documents.content_keys if isinstance(documents, Documents) else {}
    store = TargetCache.open(workspace.git_dir) if keys and workspace.config.cache else None
    found: dict[str, tuple[str, ...]] = {}
    wanted: set[str] = set()
    for path in workspace.selected:
        content = keys.get(path)
        key = TargetCache.key(path, content) if content is not None else None
        known = store.get(key) if store is not None and key is not None else None
        if known is None:
            doc = documents.get(path)
            known = _targets_of(doc) if doc is not None else ()
            if store is not None and key is not None:
                store.put(key, known)
        if key is not None:
            wanted.add(key)
        found[path] = known
    if store is not None:
        store.save(wanted)
    return found


def _targets_of(doc: Document) -> tuple[str, ...]:
    targets = set()
    for _, url in links.link_targets(doc):
        target = links.resolve_url(doc.path, url)
        if target is not None:
            targets.add(target[0])
    return tuple(sorted(targets))


@dataclass(frozen=True)
class FileFix:
    path: str
    before: str
    after: str

    def diff(self) -> str:
        return "".join(
            difflib.unified_diff(
                self.before.splitlines(keepends=True),
                self.after.splitlines(keepends=True),
                f"a/{self.path}",
                f"b/{self.path}",
            )
        )


@dataclass(frozen=True)
class FixResult:
    files: int
    fixes: tuple[FileFix, ...]
    skipped: tuple[Finding, ...]
    remaining: tuple[Finding, ...]
    changed_meanwhile: tuple[str, ...] = ()
    """Files that changed on disk while fix ran: not overwritten."""

    def exit_code(self, check_only: bool) -> int:
        if check_only:
            return 1 if self.fixes or self.skipped else 0
        return 1 if self.remaining or self.skipped or self.changed_meanwhile else 0


@dataclass(frozen=True)
class _PhaseResult:
    writes: tuple[FileWrite, ...]
    skipped: tuple[Finding, ...] = ()


def _wrap_phase(workspace: Workspace, gates: Sequence[str]) -> _PhaseResult:
    if "wrap" not in gates or workspace.config.wrap == "off":
        return _PhaseResult(())
    writes: list[FileWrite] = []
    skipped: list[Finding] = []
    for path in workspace.selected:
        doc = workspace.documents.get(path)
        if doc is None:
            continue
        result = wrapfix.fix_document(doc, workspace.config)
        skipped.extend(result.skipped)
        if result.changed:
            writes.append(FileWrite(path, result.text, doc.newline, doc.bom))
    return _PhaseResult(tuple(writes), tuple(skipped))


def _tree_phase(workspace: Workspace, gates: Sequence[str]) -> _PhaseResult:
    from ..gates import record_tree as record_gates

    return _PhaseResult(tuple(record_gates.fix(workspace, gates)))


def _links_phase(workspace: Workspace, gates: Sequence[str]) -> _PhaseResult:
    if "links" not in gates:
        return _PhaseResult(())
    from ..gates.links import fix as linkfix

    result = linkfix.fix(workspace)
    return _PhaseResult(result.writes, result.unfixable)


_PHASES = (
    (("wrap",), _wrap_phase),
    (("links",), _links_phase),
    (("layout", "refs"), _tree_phase),
)


def _unsuppressed(
    workspace: Workspace,
    writes: Sequence[FileWrite],
    gates: Sequence[str],
    selection: Selection,
) -> list[FileWrite]:
    """``writes`` without the changes that would fix a finding that is silenced:
    each changed stretch of lines holding such a finding is put back as it was."""
    if not writes:
        return []
    found = findings_for(workspace, gates)
    silenced: dict[str, set[int]] = {}
    for finding in filter_findings(workspace, found, selection).silenced:
        silenced.setdefault(finding.path, set()).add(finding.line)
    out: list[FileWrite] = []
    for write in writes:
        lines = silenced.get(write.path)
        if lines:
            write = replace(write, text=_kept_lines(_current_text(workspace, write.path), write.text, lines))
        if write.text != _current_text(workspace, write.path):
            out.append(write)
    return out


def _kept_lines(before: str, after: str, lines: set[int]) -> str:
    """``after``, except that each changed stretch of ``before`` touching ``lines`` stays."""
    old = before.splitlines(keepends=True)
    new = after.splitlines(keepends=True)
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        touched = tag != "equal" and any(i1 + 1 <= line <= max(i2, i1 + 1) for line in lines)
        out.extend(old[i1:i2] if tag == "equal" or touched else new[j1:j2])
    return "".join(out)


def run_fix(
    start: Path,
    paths: Sequence[str] | None = None,
    gates: Sequence[str] | None = None,
    write: bool = True,
    config: Config | None = None,
    progress: Progress | None = None,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] = (),
    within: str | None = None,
    config_file: str | None = None,
) -> FixResult:
    """Fix what can be fixed safely; ``write=False`` only computes the fixes.

    Fixers run one after another (wrap, links, then the record tree), each on
    the repository as the previous one left it. Without ``write`` the later
    phases see the original files, and a file an earlier phase would change is
    left to that phase, so the report never shows two clashing fixes. A finding
    that is not reported (``select``/``ignore``, inline suppressions) is not fixed.
    ``within`` (a folder) narrows the fixes to the files in it. ``config_file``,
    the file ``config`` came from (``--config``), is journalled with the rest
    of the request, so ``fix --continue`` runs with the same config.
    """
    repo = find_repo(start)
    config = config or load_config(repo.root, start)
    selection = Selection.of(config, select, ignore)
    chosen = _gates(gates, config, selection)
    workspace = _inside(load_workspace(start, paths, config, progress=progress), within)
    originals: dict[str, str] = {}
    planned: dict[str, FileWrite] = {}
    skipped: list[Finding] = []
    redo = {
        "paths": paths and list(paths),
        "gates": gates and list(gates),
        "select": select and list(select),
        "ignore": list(ignore),
        "within": within,
        "config": config_file,
    }
    out = _FixWriter(workspace.root, redo)
    with out:
        for phase_gates, phase in _PHASES:
            result = phase(workspace, chosen)
            skipped.extend(filter_findings(workspace, result.skipped, selection).kept)
            writes = tuple(w for w in result.writes if within is None or w.path.startswith(within.rstrip("/") + "/"))
            if not selection.everything or any(_has_directives(workspace, w.path) for w in writes):
                ran = [g for g in phase_gates if g in chosen]
                writes = tuple(_unsuppressed(workspace, writes, ran, selection))
            fresh = [w for w in writes if (write or w.path not in planned) and w.path not in out.changed]
            for change in fresh:
                originals.setdefault(change.path, _current_text(workspace, change.path))
                planned[change.path] = change
            if write and fresh:
                out.write(workspace, fresh)
                workspace = _inside(load_workspace(start, paths, config, progress=progress), within)
    for path in out.changed:
        planned.pop(path, None)
    fixes = tuple(
        FileFix(path, originals[path], change.text)
        for path, change in sorted(planned.items())
        if originals[path] != change.text
    )
    remaining = filter_findings(workspace, findings_for(workspace, chosen), selection).kept if write else ()
    skipped_keys = {f.sort_key() for f in skipped}
    return FixResult(
        workspace.files_checked,
        fixes,
        tuple(skipped),
        tuple(f for f in remaining if f.sort_key() not in skipped_keys),
        tuple(out.changed),
    )


class _FixWriter:
    """Fix's writes, all phases in one journalled transaction begun at the first write.

    A file that changed on disk since fix read it is skipped (and named),
    never overwritten; any other failure rolls every phase back.
    """

    def __init__(self, root: Path, redo: Mapping[str, object]) -> None:
        self._root = root
        self._redo = redo
        self._txn: Transaction | None = None
        self.changed: list[str] = []

    def write(self, workspace: Workspace, changes: Sequence[FileWrite]) -> None:
        if self._txn is None:
            remove_stale_temps(self._root, workspace.listing.untracked)
            self._txn = Transaction.begin(self._root, "fix", self._redo, [])
        self._txn.cover(c.path for c in changes)
        for change in changes:
            try:
                self._txn.write(change, read=_current_text(workspace, change.path))
            except ChangedMeanwhile:
                self.changed.append(change.path)

    def __enter__(self) -> _FixWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._txn is not None:
            self._txn.__exit__(kind, exc, traceback)


def _has_directives(workspace: Workspace, path: str) -> bool:
    doc = workspace.documents.get(path)
    return doc is not None and SUPPRESSION_MARKER in doc.text


def _current_text(workspace: Workspace, path: str) -> str:
    doc = workspace.documents.get(path)
    if doc is not None:
        return doc.text
    full = workspace.root / path
    return full.read_text(encoding="utf-8") if full.is_file() else ""
