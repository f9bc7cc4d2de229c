"""``docsync check`` and ``docsync fix`` as plain functions: results in, no printing."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from . import wrapfix
from .config import GATES, Config
from .config import load as load_config
from .errors import DocsyncError
from .gates import links, wrap
from .gitrepo import changed_files, find_repo, staged_changes
from .model import Document, Finding
from .workspace import Progress, Workspace, load_workspace
from .writer import FileWrite, write_all


@dataclass(frozen=True)
class CheckResult:
    files: int
    findings: tuple[Finding, ...]
    gates: tuple[str, ...]

    @property
    def exit_code(self) -> int:
        return 1 if self.findings else 0


def _gates(requested: Sequence[str] | None, config: Config) -> tuple[str, ...]:
    chosen = tuple(requested) if requested else config.gates
    unknown = [g for g in chosen if g not in GATES]
    if unknown:
        raise DocsyncError(f"unknown gate {unknown[0]!r} (gates: {', '.join(GATES)})")
    return chosen


def findings_for(workspace: Workspace, gates: Sequence[str]) -> list[Finding]:
    findings = list(workspace.problems)
    if "links" in gates:
        findings.extend(links.check_workspace(workspace))
    if "wrap" in gates:
        findings.extend(wrap.check_workspace(workspace))
    findings.extend(_tree_gates(workspace, gates))
    return sorted(findings, key=Finding.sort_key)


def _tree_gates(workspace: Workspace, gates: Sequence[str]) -> list[Finding]:
    """The record-tree gates (layout, refs), when the migrate package provides them."""
    if "layout" not in gates and "refs" not in gates:
        return []  # not even imported: a links-only run has no use for them
    try:
        from .records import gates as record_gates
    except ImportError:
        return []
    return record_gates.check(workspace, gates)


def run_check(
    start: Path,
    paths: Sequence[str] | None = None,
    gates: Sequence[str] | None = None,
    config: Config | None = None,
    changed_since: str | None = None,
    progress: Progress | None = None,
    staged: bool = False,
) -> CheckResult:
    """Run the gates. ``changed_since`` (a revision, or ``""`` for the merge base with
    the default branch) narrows the run to files changed since then plus the files
    that link to them; ``staged`` to the paths the index changes (both sides of a
    rename, deletes too) plus the files that link to them. ``progress`` hears how
    parsing goes (see :func:`load_workspace`)."""
    repo = find_repo(start)
    config = config or load_config(repo.root)
    chosen = _gates(gates, config)
    summarizer = links.Summarizer if "links" in chosen else None
    workspace = load_workspace(start, paths, config, progress=progress, summarizer=summarizer)
    if changed_since is not None:
        workspace = narrow_to(workspace, changed_files(workspace.root, changed_since or None))
    if staged:
        workspace = narrow_to(workspace, staged_changes(workspace.root))
    return CheckResult(workspace.files_checked, tuple(findings_for(workspace, chosen)), chosen)


def narrow_to(workspace: Workspace, changed: frozenset[str]) -> Workspace:
    """The workspace reporting only on ``changed`` and the files linking into it."""
    selected = [
        path
        for path in workspace.selected
        if path in changed or _links_into(workspace.documents.get(path), changed)
    ]
    chosen = set(selected)
    return replace(
        workspace,
        selected=tuple(selected),
        problems=tuple(p for p in workspace.problems if p.path in chosen),
    )


def _links_into(doc: Document | None, changed: frozenset[str]) -> bool:
    if doc is None:
        return False
    for _, url in links.link_targets(doc):
        target = links.resolve_url(doc.path, url)
        if target is not None and target[0] in changed:
            return True
    return False


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

    def exit_code(self, check_only: bool) -> int:
        if check_only:
            return 1 if self.fixes or self.skipped else 0
        return 1 if self.remaining or self.skipped else 0


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
    from .records import gates as record_gates

    return _PhaseResult(tuple(record_gates.fix(workspace, gates)))


def _links_phase(workspace: Workspace, gates: Sequence[str]) -> _PhaseResult:
    if "links" not in gates:
        return _PhaseResult(())
    from . import linkfix

    result = linkfix.fix(workspace)
    return _PhaseResult(result.writes, result.unfixable)


_PHASES = (_wrap_phase, _links_phase, _tree_phase)


def run_fix(
    start: Path,
    paths: Sequence[str] | None = None,
    gates: Sequence[str] | None = None,
    write: bool = True,
    config: Config | None = None,
    progress: Progress | None = None,
) -> FixResult:
    """Fix what can be fixed safely; ``write=False`` only computes the fixes.

    Fixers run one after another (wrap, links, then the record tree), each on
    the repository as the previous one left it. Without ``write`` the later
    phases see the original files, and a file an earlier phase would change is
    left to that phase, so the report never shows two clashing fixes.
    """
    repo = find_repo(start)
    config = config or load_config(repo.root)
    chosen = _gates(gates, config)
    workspace = load_workspace(start, paths, config, progress=progress)
    originals: dict[str, str] = {}
    planned: dict[str, FileWrite] = {}
    skipped: list[Finding] = []
    for phase in _PHASES:
        result = phase(workspace, chosen)
        skipped.extend(result.skipped)
        fresh = [w for w in result.writes if write or w.path not in planned]
        for change in fresh:
            originals.setdefault(change.path, _current_text(workspace, change.path))
            planned[change.path] = change
        if write and fresh:
            write_all(workspace.root, fresh)
            workspace = load_workspace(start, paths, config, progress=progress)
    fixes = tuple(
        FileFix(path, originals[path], change.text)
        for path, change in sorted(planned.items())
        if originals[path] != change.text
    )
    remaining = findings_for(workspace, chosen) if write else []
    skipped_keys = {f.sort_key() for f in skipped}
    return FixResult(
        workspace.files_checked,
        fixes,
        tuple(skipped),
        tuple(f for f in remaining if f.sort_key() not in skipped_keys),
    )


def _current_text(workspace: Workspace, path: str) -> str:
    doc = workspace.documents.get(path)
    if doc is not None:
        return doc.text
    full = workspace.root / path
    return full.read_text(encoding="utf-8") if full.is_file() else ""
