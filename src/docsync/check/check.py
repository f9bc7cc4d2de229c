"""``docsync check`` as a plain function: the gates' findings, selected, in a result; no printing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Config
from ..config import load as load_config
from ..gates.links import check as links
from ..gates.links.fragments import GATE as LINKS
from ..model import Finding
from ..report.selection import Selection
from ..repository.plumbing import changed_files, find_repo
from ..workspace.documents import Documents
from ..workspace.load import Progress, SummarizerFactory, Workspace, load_workspace
from .findings import chosen_gates, filter_findings, findings_for
from .scope import inside, narrow_to, with_text
from .staged import staged_workspace

if TYPE_CHECKING:
    from ..adopt.inspection import WrapCount


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
    rename, deletes too) plus the files that link to them, each file read as the
    index holds it (:mod:`.staged`). ``select`` replaces the
    config's selection and ``ignore`` adds to its (see :mod:`docsync.report.selection`);
    inline suppressions apply, and ``report_unused`` reports those that silence
    nothing. ``within`` (a folder) narrows the report to the files in it;
    ``stdin`` (path, text) checks that text as the file at path, alone, with the
    repository as its link context. ``progress`` hears how parsing goes (see
    :func:`load_workspace`)."""
    repo = find_repo(start)
    config = config or load_config(repo.root, start)
    selection = Selection.of(config, select, ignore)
    chosen = chosen_gates(gates, config, selection)
    if stdin is not None:
        workspace = with_text(load_workspace(start, None, replace(config, cache=False)), *stdin)
    else:
        workspace = load_workspace(
            start, paths, config, progress=progress, summarizers=_in_workers(chosen, config)
        )
    workspace = inside(workspace, within)
    if changed_since is not None:
        workspace = narrow_to(workspace, changed_files(workspace.root, changed_since or None))
    if staged:
        workspace = staged_workspace(workspace)
    found = filter_findings(
        workspace, findings_for(workspace, chosen), selection, chosen, report_unused, ordered=True
    )
    return CheckResult(
        workspace.files_checked,
        found.kept,
        chosen,
        len(found.silenced),
        config.origin,
        _convention_hint(workspace, found.kept) if _hinted(config) else None,
    )


def _in_workers(gates: Sequence[str], config: Config) -> dict[str, SummarizerFactory]:
    """The per-file work the parse workers do beside each parse, by name: each
    gate's that runs, every file's inline suppressions, and, without config,
    what the convention hint needs."""
    from ..gates.wrap import check as wrap
    from ..report import suppressions

    made: dict[str, SummarizerFactory] = {suppressions.SUMMARY: suppressions.Summarizer}
    if "links" in gates:
        made[LINKS] = links.Summarizer
    if "wrap" in gates:
        made[wrap.GATE] = wrap.Summarizer
        if _hinted(config):
            from ..gates.wrap import hint

            made[hint.HINT] = hint.Summarizer
    return made


def _hinted(config: Config) -> bool:
    return config.origin == "(defaults)" and config.wrap != "off"


HINT_MINIMUM = 20
"""Wrap findings from which a repository without config hears which convention it seems to follow."""


def _convention_hint(workspace: Workspace, findings: Sequence[Finding]) -> str | None:
    count = sum(1 for f in findings if f.gate == "wrap")
    if count < HINT_MINIMUM:
        return None
    from ..adopt.inspection import choose_wrap

    counts = _wrap_counts(workspace)
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


def _wrap_counts(workspace: Workspace) -> tuple[WrapCount, ...]:
    """Per candidate, the paragraphs that break it, as far as choosing between them
    needs: from the parse workers' counts (:mod:`docsync.gates.wrap.hint`) when
    every selected document has them and they rule ``"sentence"`` in or out;
    else counted exactly, as ``init`` counts."""
    from ..adopt.inspection import WrapCount, workspace_wrap_counts
    from ..gates.wrap.count import CANDIDATES
    from ..gates.wrap.hint import HINT, HintBreaks, sentence_ruled_out

    documents = workspace.documents
    made = documents.made(HINT) if isinstance(documents, Documents) else {}
    per_file = [made.get(path) for path in workspace.selected if path in documents]
    known = [f for f in per_file if isinstance(f, HintBreaks)]
    counts = sentence_ruled_out(known) if len(known) == len(per_file) else None
    if counts is None:
        return workspace_wrap_counts(workspace)
    files = [sum(1 for f in known if f.counts[i]) for i in range(len(CANDIDATES))]
    return tuple(WrapCount(mode, counts[i], files[i]) for i, mode in enumerate(CANDIDATES))
