"""``docsync migrate`` as the command line runs it: the request (journalled for ``--continue``),
the run, the plan file, the apply and what it says afterwards."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import output
from .arguments import repository_path
from .output import say
from .progress import ProgressBar

if TYPE_CHECKING:
    from ..migrate.apply.apply import Applied
    from ..migrate.apply.verdict import Verdict
    from ..migrate.model import Outcome
    from ..migrate.run import Session


@dataclass(frozen=True)
class MigrateRequest:
    """What a migrate run was asked to do; journalled, so ``--continue`` can run it again."""

    sources: tuple[str, ...]
    target: str | None
    plan_file: str | None
    adoption_record: bool
    today: str
    apply: bool
    commit: bool
    allow_dirty: bool

    @classmethod
    def asked(
        cls,
        sources: list[Path] | None,
        target: Path | None,
        plan: Path | None,
        *,
        adoption_record: bool,
        apply: bool,
        commit: bool,
        allow_dirty: bool,
    ) -> MigrateRequest:
        """The request the command line's arguments make, paths from the current directory."""
        return cls(
            sources=tuple(repository_path(s) for s in sources or ()),
            target=repository_path(target) if target else None,
            plan_file=str(plan.absolute()) if plan else None,
            adoption_record=adoption_record,
            today=date.today().isoformat(),
            apply=apply,
            commit=commit,
            allow_dirty=allow_dirty,
        )

    @classmethod
    def from_redo(cls, redo: Mapping[str, Any]) -> MigrateRequest:
        return cls(**{**redo, "sources": tuple(redo["sources"]), "apply": True})

    def redo(self) -> dict[str, Any]:
        return {**asdict(self), "sources": list(self.sources)}


def misuse(form: str, *, apply: bool, commit: bool, allow_dirty: bool) -> str | None:
    """What is wrong with these options together, if anything."""
    if form not in ("text", "json"):
        return f"--format must be text or json, not {form!r}"
    if (commit or allow_dirty) and not apply:
        return "--commit and --allow-dirty need --apply"
    return None


def migrate(request: MigrateRequest, write_plan: Path | None, form: str, verbose: bool) -> int:
    """Plan, and with ``--apply`` apply, the migration; the exit code."""
    from ..migrate import run as migration

    options = migration.Options(
        sources=request.sources,
        target=request.target,
        plan_file=Path(request.plan_file) if request.plan_file else None,
        adoption_record=request.adoption_record,
        today=date.fromisoformat(request.today),
        texts=request.apply,
        meanwhile=_import_output,
    )
    with ProgressBar(output.terminal_stderr(), enabled=form == "text") as progress:
        hook = progress if progress.can_show else None
        session, outcome = migration.run(Path.cwd(), replace(options, progress=hook), output.here_repo())
    for warning in outcome.warnings:
        say(f"docsync: warning: {warning}")
    _plan_file(options.plan_file, write_plan, outcome)
    applied, judged = _applied(session, request, outcome) if request.apply else (None, None)
    if form == "json":
        from ..migrate.show import as_json

        sys.stdout.write(as_json(outcome))
    else:
        _print_report(outcome, verbose)
    if applied is not None and applied.applied:
        for path in applied.forced:
            say(f"note: {path} is ignored by .gitignore; staged it deliberately (git add -f)")
        done = f"; commits {', '.join(c[:10] for c in applied.commits)}" if applied.commits else "; changes staged, not committed"
        say(f"migrated {len(outcome.plan.topics)} records{done}")
        if judged is not None:
            _print_verdict(judged)
    elif request.apply and not outcome.complete:
        say(f"docsync: refusing to apply: {len(outcome.problems)} unresolved items; nothing was changed")
    return outcome.exit_code


def _print_report(outcome: Outcome, verbose: bool) -> None:
    """The plan's report on stdout, as rich prints it; written at once where rich would
    write each line as it is (no colour, plain characters): a twentieth of the time. Where
    stdout is surely plain (not a terminal), neither the console nor rich is made for it."""
    from ..migrate.show import as_printed, report

    plain = output.plain_stdout_width()
    width = output.stdout.width if plain is None else plain
    lines = report(outcome, width=width, verbose=verbose)
    text = as_printed(lines, width) if plain is not None or output.uncoloured(output.stdout) else None
    if text is None:
        from ..migrate.show import rendered

        output.stdout.print(rendered(lines))
    elif plain is not None:
        output.write_plain(text)
    else:
        output.write_as_is(output.stdout, text)


def _import_output() -> None:
    """What shows the plan, imported while the files parse (the run calls it then)."""
    from ..migrate import show  # noqa: F401


def _plan_file(plan: Path | None, write_plan: Path | None, outcome: Outcome) -> None:
    """``--plan``'s file without the comments of answered problems; ``--write-plan``'s file."""
    if plan is None and write_plan is None:
        return
    from ..migrate.plan import planfile

    rewritten = write_plan is not None and plan is not None and write_plan.resolve() == plan.resolve()
    if plan is not None and not rewritten and planfile.refresh(plan, outcome.problems):
        say(f"{plan}: removed the comments of answered problems")
    if write_plan is not None:
        planfile.write(outcome.plan, write_plan)
        say(f"wrote the plan to {write_plan}")


def _applied(session: Session, request: MigrateRequest, outcome: Outcome) -> tuple[Applied, Verdict | None]:
    """The apply, and the check of what it wrote against the findings before it.
    Imported here: a dry run neither writes nor checks. Where the repository is and
    its files are what the run asked git (one question each), until the apply changes them."""
    from ..migrate.apply import verdict
    from ..migrate.apply.apply import apply as apply_outcome

    root, repo, listing = session.root, session.repo, session.listing
    ready = outcome.complete and not outcome.changes.empty
    earlier = verdict.before(root, outcome.changes, repo, listing) if ready else None
    applied = apply_outcome(
        root, outcome, commit=request.commit, allow_dirty=request.allow_dirty, redo=request.redo(),
        repo=repo, untracked=listing.untracked if listing is not None else None,
    )
    judged = verdict.after(root, outcome.changes, earlier, repo) if earlier and applied.applied else None
    return applied, judged


def _print_verdict(judged: Verdict) -> None:
    """After --apply: findings the migration caused (there should be none), older ones counted."""
    older = (
        f"; {judged.already} findings there before stay (docsync check lists them, docsync fix repairs what it can)"
        if judged.already
        else ""
    )
    from ..untrusted_text import visible

    err = output.stderr
    if not judged.caused:
        err.print(f"docsync check: no finding caused by the migration in the files it wrote{older}", markup=False)
        return
    err.print(f"docsync check: {len(judged.caused)} findings caused by the migration{older}:", markup=False)
    for finding in judged.caused[:10]:
        err.print(visible(f"  {finding.path}:{finding.line}:{finding.column}: {finding.rule} {finding.message}"), markup=False)
