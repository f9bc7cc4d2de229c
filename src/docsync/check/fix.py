"""``docsync fix`` as a plain function: each gate's fix in turn, the silenced findings left
alone, every write in one journalled transaction; no printing."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

from ..config import Config
from ..config import load as load_config
from ..errors import DocsyncError
from ..gates.wrap import fix as wrapfix
from ..model import Finding
from ..parse.source import SourceError, decode
from ..report.selection import Selection
from ..report.suppressions import MARKER as SUPPRESSION_MARKER
from ..repository.gitrepo import worktree
from ..repository.plumbing import RepoPaths, find_repo
from ..workspace.load import Progress, Workspace, load_workspace
from ..workspace.parsing import NOT_UTF8
from ..write.transaction import Transaction
from ..write.writer import ChangedMeanwhile, FileWrite, remove_stale_temps
from .convention import unconfigured, wrap_left_off
from .findings import chosen_gates, filter_findings, findings_for
from .scope import inside, with_text


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
    hint: str | None = None
    """Why the wrap gate was left off, in a repository without config (:mod:`.convention`)."""

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


def _phase_writes(
    workspace: Workspace,
    phase_gates: Sequence[str],
    phase: Callable[[Workspace, Sequence[str]], _PhaseResult],
    chosen: Sequence[str],
    selection: Selection,
    wanted: Callable[[str], bool],
) -> tuple[tuple[FileWrite, ...], list[Finding]]:
    """One phase's writes to the files ``wanted`` holds, without the changes that would fix a
    silenced finding; and the findings it could not fix that are reported."""
    result = phase(workspace, chosen)
    skipped = filter_findings(workspace, result.skipped, selection).kept
    writes = tuple(w for w in result.writes if wanted(w.path))
    if not selection.everything or any(_has_directives(workspace, w.path) for w in writes):
        ran = [g for g in phase_gates if g in chosen]
        writes = tuple(_unsuppressed(workspace, writes, ran, selection))
    return writes, list(skipped)


def _left(remaining: Sequence[Finding], skipped: Sequence[Finding]) -> tuple[Finding, ...]:
    """The findings left after a fix, but those already reported as not fixable."""
    skipped_keys = {f.sort_key() for f in skipped}
    return tuple(f for f in remaining if f.sort_key() not in skipped_keys)


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
    chosen = chosen_gates(gates, config, selection)
    workspace = inside(load_workspace(start, paths, config, progress=progress, repo=repo), within)
    hint = wrap_left_off(workspace) if unconfigured(config) and "wrap" in chosen else None
    if hint is not None:  # no config, and the prose is not "none": nothing to re-wrap
        chosen = tuple(g for g in chosen if g != "wrap")
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
    undecodable = {p.path for p in workspace.problems if p.rule == NOT_UTF8}

    def inside_within(path: str) -> bool:
        """A file fix may write: inside ``within``, and UTF-8 (the writer refuses others)."""
        return (within is None or path.startswith(within.rstrip("/") + "/")) and path not in undecodable

    with ExitStack() as stack:
        out = _FixWriter(repo, redo, stack)
        for phase_gates, phase in _PHASES:
            writes, unfixable = _phase_writes(workspace, phase_gates, phase, chosen, selection, inside_within)
            skipped.extend(unfixable)
            fresh = [w for w in writes if (write or w.path not in planned) and w.path not in out.changed]
            for change in fresh:
                originals.setdefault(change.path, _current_text(workspace, change.path))
                planned[change.path] = change
            if write and fresh:
                out.write(workspace, fresh)
                workspace = inside(load_workspace(start, paths, config, progress=progress, repo=repo), within)
    for path in out.changed:
        planned.pop(path, None)
    fixes = tuple(
        FileFix(path, originals[path], change.text)
        for path, change in sorted(planned.items())
        if originals[path] != change.text
    )
    remaining = filter_findings(workspace, findings_for(workspace, chosen), selection).kept if write else ()
    return FixResult(
        workspace.files_checked, fixes, tuple(skipped), _left(remaining, skipped), tuple(out.changed), hint
    )


@dataclass(frozen=True)
class TextFix:
    """``fix -``: the text given, as every phase would fix it as the file at ``path``."""

    path: str
    before: str
    after: str
    newline: str
    bom: bool
    skipped: tuple[Finding, ...]
    remaining: tuple[Finding, ...]

    @property
    def file_fix(self) -> FileFix:
        return FileFix(self.path, self.before, self.after)

    def encoded(self, given: str) -> bytes:
        """The fixed text with ``given``'s line ends and byte-order mark, as a write keeps a file's."""
        return FileWrite(self.path, self.after, self.newline, self.bom).encoded(given.encode("utf-8"))

    def exit_code(self, check_only: bool) -> int:
        if check_only:
            return 1 if self.before != self.after or self.skipped else 0
        return 1 if self.remaining or self.skipped else 0


def fix_text(
    start: Path,
    path: str,
    text: str,
    gates: Sequence[str] | None = None,
    config: Config | None = None,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] = (),
) -> TextFix:
    """``text`` fixed as :func:`run_fix` would fix it as the file at ``path`` (a repository
    path), with the repository as its link context; nothing is written. The phases run
    one after another on the text, each on what the previous one made; a fix a phase
    would make to another file (the tree's index) is not made."""
    repo = find_repo(start)
    config = config or load_config(repo.root, start)
    selection = Selection.of(config, select, ignore)
    chosen = chosen_gates(gates, config, selection)
    try:
        body, newline, bom = decode(text.encode("utf-8"))  # as a file's bytes are read
    except SourceError as error:
        raise DocsyncError(f"stdin: {error.message} (line {error.line})") from None
    base = load_workspace(start, None, replace(config, cache=False), repo=repo)
    if unconfigured(config) and "wrap" in chosen and wrap_left_off(base) is not None:
        chosen = tuple(g for g in chosen if g != "wrap")  # as run_fix: the prose is not "none"
    workspace = with_text(base, path, body)
    before = workspace.documents[path].text
    skipped: list[Finding] = []
    for phase_gates, phase in _PHASES:
        writes, unfixable = _phase_writes(workspace, phase_gates, phase, chosen, selection, lambda p: p == path)
        skipped.extend(unfixable)
        if writes:
            workspace = with_text(base, path, writes[-1].text)
    remaining = filter_findings(workspace, findings_for(workspace, chosen), selection).kept
    after = workspace.documents[path].text
    return TextFix(path, before, after, newline, bom, tuple(skipped), _left(remaining, skipped))


class _FixWriter:
    """Fix's writes, all phases in one journalled transaction begun at the first write
    (entered on ``stack``, so it ends, or rolls back, with the run).

    A file that changed on disk since fix read it is skipped (and named),
    never overwritten; any other failure rolls every phase back.
    """

    def __init__(self, repo: RepoPaths, redo: Mapping[str, object], stack: ExitStack) -> None:
        self._root = repo.root
        self._repo = repo  # asked of git once, by run_fix
        self._redo = redo
        self._stack = stack
        self._txn: Transaction | None = None
        self.changed: list[str] = []

    def write(self, workspace: Workspace, changes: Sequence[FileWrite]) -> None:
        if self._txn is None:
            remove_stale_temps(self._root, workspace.listing.untracked)
            tree = worktree(self._root, self._repo)
            self._txn = self._stack.enter_context(Transaction.begin(self._root, "fix", self._redo, [], tree=tree))
        self._txn.cover(c.path for c in changes)
        self._txn.announce(changes)
        for change in changes:
            try:
                self._txn.write(change, read=_current_text(workspace, change.path))
            except ChangedMeanwhile:
                self.changed.append(change.path)


def _has_directives(workspace: Workspace, path: str) -> bool:
    doc = workspace.documents.get(path)
    return doc is not None and SUPPRESSION_MARKER in doc.text


def _current_text(workspace: Workspace, path: str) -> str:
    doc = workspace.documents.get(path)
    if doc is not None:
        return doc.text
    full = workspace.root / path
    return full.read_text(encoding="utf-8") if full.is_file() else ""
