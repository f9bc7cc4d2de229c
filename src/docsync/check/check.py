"""``docsync check`` as a plain function: the gates' findings, selected, in a result; no printing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..config import Config
from ..config import load as load_config
from ..gates.links import check as links
from ..gates.links.fragments import GATE as LINKS
from ..model import Finding
from ..report.selection import Selection
from ..repository.plumbing import Listing, RepoPaths, changed_files, find_repo
from ..workspace.load import Progress, SummarizerFactory, load_workspace
from .convention import LEAVE_OFF_FROM, unconfigured, wrap_left_off
from .findings import chosen_gates, filter_findings, findings_for
from .scope import inside, narrow_to, with_text
from .staged import staged_workspace


@dataclass(frozen=True)
class CheckResult:
    files: int
    findings: tuple[Finding, ...]
    gates: tuple[str, ...]
    silenced: int = 0
    config: str = "(defaults)"
    hint: str | None = None
    cache: bool = True
    """Whether the run's config lets docsync keep caches (its report among them)."""

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
    repo: RepoPaths | None = None,
    listing: Listing | None = None,
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
    :func:`load_workspace`). ``repo`` and ``listing``: where the repository is and its files,
    when the caller asked git already (:func:`docsync.migrate.apply.verdict.before`)."""
    repo = repo or find_repo(start)
    config = config or load_config(repo.root, start)
    selection = Selection.of(config, select, ignore)
    chosen = chosen_gates(gates, config, selection)
    if stdin is not None:
        workspace = with_text(load_workspace(start, None, replace(config, cache=False), repo=repo), *stdin)
    else:
        workspace = load_workspace(
            start, paths, config, progress=progress, summarizers=_in_workers(chosen, config), repo=repo,
            listing=listing,
        )
    workspace = inside(workspace, within)
    if changed_since is not None:
        workspace = narrow_to(workspace, changed_files(workspace.root, changed_since or None))
    if staged:
        workspace = staged_workspace(workspace)
    found = filter_findings(
        workspace, findings_for(workspace, chosen), selection, chosen, report_unused, ordered=True
    )
    kept, hint = found.kept, None
    if unconfigured(config) and sum(1 for f in kept if f.gate == "wrap") >= LEAVE_OFF_FROM:
        off = wrap_left_off(workspace)
        if off is not None:
            kept, hint = tuple(f for f in kept if f.gate != "wrap"), off
    return CheckResult(
        workspace.files_checked, kept, chosen, len(found.silenced), config.origin, hint, config.cache and stdin is None
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
        if unconfigured(config):
            from ..gates.wrap import hint

            made[hint.HINT] = lambda workspace: hint.Summarizer(workspace, needed_from=LEAVE_OFF_FROM)
    return made


