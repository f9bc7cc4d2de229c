"""The command line. The only module that imports typer.

Each command loads what it needs, calls the core, hands the result to a
reporter and exits with the code the result computes. User, config and
environment errors (:class:`DocsyncError`) become one line on stderr and
exit code 2, in one place: :func:`_errors`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from datetime import date
from enum import StrEnum
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from . import __version__
from .adopt.hooks import DEFAULT_HOOK_REPO
from .check.run import CheckResult, FixResult, run_check, run_fix
from .config import Config
from .errors import DocsyncError, Interrupted, describe_os_error
from .gates.registry import all_rules, by_code
from .model import Finding
from .report import formats as report
from .repository.gitrepo import find_repo
from .workspace.load import relative_to_root
from .write.transaction import Pending, finished_count, finished_since, refuse_pending
from .write.transaction import abort as abort_pending

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from .lifecycle import commands as lifecycle
    from .migrate.verdict import Verdict

PROGRESS_MINIMUM = 50
"""Fewer files than this to parse show no bar: it would only flash."""

app = typer.Typer(
    name="docsync",
    help="Docs governance for design records: check links and wrapping, migrate ADR/RFC trees.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
_PLAIN = bool(os.environ.get("NO_COLOR"))  # no colour, and no bold or dim either
stdout = Console(highlight=False, soft_wrap=True, color_system=None if _PLAIN else "auto")
stderr = Console(stderr=True, highlight=False, soft_wrap=True, color_system=None if _PLAIN else "auto")


class Format(StrEnum):
    text = "text"
    concise = "concise"
    json = "json"
    json_lines = "json-lines"
    github = "github"
    gitlab = "gitlab"
    sarif = "sarif"
    junit = "junit"


def _say(text: str) -> None:
    """One line for people on stderr, every control character shown as an escape."""
    stderr.print(report.visible(text), markup=False)


@contextmanager
def _errors() -> Iterator[None]:
    """The one place errors become one line on stderr and an exit code (2; 130 for Ctrl-C)."""
    mark = finished_count()
    try:
        yield
    except Interrupted as exc:
        _say(f"docsync: {exc}")
        raise typer.Exit(exc.exit_code) from None
    except DocsyncError as exc:
        _say(f"docsync: error: {exc}")
        raise typer.Exit(exc.exit_code) from None
    except OSError as exc:
        _say(f"docsync: error: {describe_os_error(exc, Path.cwd())}")
        raise typer.Exit(2) from None
    except UnicodeDecodeError as exc:
        _say(f"docsync: error: a file is not valid UTF-8 (byte {exc.start}); save it as UTF-8")
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        finished = finished_since(mark)
        if finished is None:
            _say("docsync: stopped by Ctrl-C before anything was changed")
        else:
            _say(f"docsync: stopped by Ctrl-C after `docsync {finished}` had finished; its changes are complete")
        raise typer.Exit(130) from None


def _refuse_pending() -> None:
    """A run that was killed left a journal: every command that changes files refuses until it is resolved."""
    refuse_pending(find_repo(Path.cwd()).git_dir)


def _finish_pending(command: str, abort: bool, resume: bool) -> Pending | None:
    """``--abort`` or ``--continue``: put the repository back as it was before the unfinished run."""
    if abort and resume:
        raise DocsyncError("--abort and --continue exclude each other")
    if not (abort or resume):
        _refuse_pending()
        return None
    found = abort_pending(Path.cwd(), command)
    _say(f"aborted the unfinished `docsync {command}`: HEAD, the index and every file it touched are as they were")
    return found


def _version(value: bool) -> None:
    if value:
        stdout.print(f"docsync {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """docsync keeps design records (ADRs, RFCs) and their links in order."""


def _paths(raw: list[Path] | None) -> list[str] | None:
    if not raw:
        return None
    root = find_repo(Path.cwd()).root
    for path in raw:
        if not path.exists() and not path.is_symlink():
            raise DocsyncError(f"{path}: no such file or folder")
    return [relative_to_root(root, Path.cwd(), str(p)) for p in raw]


PathsArg = Annotated[
    list[Path] | None, typer.Argument(help="Files or folders to check (default: every Markdown file).")
]
GateOpt = Annotated[
    list[str] | None, typer.Option("--gate", "-g", help="Run only this gate (repeatable).")
]
def _codes(raw: list[str] | None) -> list[str]:
    """``--select L001,W --select links`` as one list."""
    return [part.strip() for item in raw or () for part in item.split(",") if part.strip()]


SelectOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--select",
        metavar="CODES",
        help="Report only these rule codes, prefixes or gates (comma-separated, repeatable; "
        "replaces config's select).",
    ),
]
IgnoreOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--ignore",
        metavar="CODES",
        help="Do not report these rule codes, prefixes or gates (adds to config's ignore).",
    ),
]
AbortOpt = Annotated[
    bool,
    typer.Option("--abort", help="Put the repository back as it was before an unfinished run (killed, or out of disk)."),
]
ContinueOpt = Annotated[
    bool, typer.Option("--continue", help="Finish an unfinished run: undo what it did, then run it again.")
]
FormatOpt = Annotated[
    Format,
    typer.Option("--output-format", "--format", "-f", help="Output format (--format: an alias)."),
]
RelationOpt = Annotated[
    str,
    typer.Option(
        "--relation",
        metavar="KIND",
        help="Write this configured relation instead of supersession (e.g. amends).",
    ),
]


class Color(StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


def _consoles(color: Color) -> None:
    """Style on a terminal (``auto``), always, or never; ``NO_COLOR`` means never
    unless ``--color always``: no colour, no bold, no dim."""
    global stdout, stderr
    plain = color is Color.never or (color is Color.auto and bool(os.environ.get("NO_COLOR")))
    forced = True if color is Color.always else None
    if plain:
        stdout = Console(highlight=False, soft_wrap=True, color_system=None)
        stderr = Console(stderr=True, highlight=False, soft_wrap=True, color_system=None)
        return
    stdout = Console(highlight=False, soft_wrap=True, force_terminal=forced)
    stderr = Console(stderr=True, highlight=False, soft_wrap=True, force_terminal=forced)


ColorOpt = Annotated[
    Color, typer.Option("--color", help="Style the text output: auto (a terminal), always, never.")
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        metavar="PATH",
        help="Use this .docsync.toml (or pyproject.toml) instead of the nearest one.",
    ),
]
VerboseOpt = Annotated[
    bool, typer.Option("--verbose", "-v", help="Say which config file was used, on stderr.")
]


def _config(path: Path | None) -> Config | None:
    if path is None:
        return None
    from .config import load_file

    return load_file(path)


def _within(paths: list[Path] | None) -> str | None:
    """Run from a subdirectory without paths: that subdirectory (the whole repository
    is still the link context)."""
    if paths:
        return None
    root = find_repo(Path.cwd()).root
    here = relative_to_root(root, Path.cwd(), ".")
    return None if here == "." else here


def _here(path: str) -> str:
    """A repository path as seen from the current directory."""
    return os.path.relpath(find_repo(Path.cwd()).root / path, Path.cwd())


def _from_here(findings: list[Finding]) -> list[Finding]:
    """Findings with paths relative to the current directory, for people to open."""
    root = find_repo(Path.cwd()).root
    prefix = os.path.relpath(root, Path.cwd())
    if prefix == ".":
        return findings
    return [replace(f, path=os.path.relpath(root / f.path, Path.cwd())) for f in findings]


@app.command()
def check(
    paths: PathsArg = None,
    gate: GateOpt = None,
    output: FormatOpt = Format.text,
    changed: Annotated[
        bool,
        typer.Option(
            "--changed",
            help="Check only files changed since --since (default: the merge base with the "
            "default branch), plus the files that link to them.",
        ),
    ] = False,
    since: Annotated[
        str | None, typer.Option("--since", help="The revision --changed compares against.")
    ] = None,
    staged: Annotated[
        bool,
        typer.Option(
            "--staged",
            help="Check only what the index changes (renames and deletes too), plus the files "
            "that link to it: the pre-commit hook.",
        ),
    ] = False,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    report_unused: Annotated[
        bool,
        typer.Option(
            "--report-unused-suppressions", help="Report suppression comments that silence nothing (S001)."
        ),
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print the findings and nothing else.")
    ] = False,
    exit_zero: Annotated[
        bool, typer.Option("--exit-zero", help="Exit 0 even with findings (errors are still 2).")
    ] = False,
    statistics: Annotated[
        bool, typer.Option("--statistics", help="Print how many findings each rule has, not the findings.")
    ] = False,
    config_path: ConfigOpt = None,
    color: ColorOpt = Color.auto,
    verbose: VerboseOpt = False,
    stdin_filename: Annotated[
        str | None,
        typer.Option(
            "--stdin-filename",
            metavar="PATH",
            help="With '-' as the path: where the text read from stdin lives, for resolving its links.",
        ),
    ] = None,
) -> None:
    """Run the gates; exit 0 when clean, 1 with findings, 2 on a usage or config error."""
    _consoles(color)
    changed_since = (since or "") if changed or since else None
    textual = output in (Format.text, Format.concise)
    with _errors(), ProgressBar(stderr, enabled=textual and not quiet) as progress:
        stdin = _stdin(paths, stdin_filename)
        result = run_check(
            Path.cwd(),
            None if stdin else _paths(paths),
            gate,
            config=_config(config_path),
            changed_since=changed_since,
            progress=progress,
            staged=staged,
            select=_codes(select) or None,
            ignore=_codes(ignore),
            report_unused=report_unused,
            within=None if stdin or staged or changed_since is not None else _within(paths),
            stdin=stdin,
        )
        shown = _from_here(list(result.findings)) if textual or statistics else list(result.findings)
    if verbose:
        used = result.config if result.config != "(defaults)" else "none found, the defaults"
        stderr.print(f"docsync: config: {used}", markup=False)
    if statistics:
        sys.stdout.write(report.statistics(shown))
    else:
        _emit(output, result.files, shown, quiet)
    if not quiet and textual and not statistics:
        _hint(result)
    raise typer.Exit(0 if exit_zero and result.exit_code == 1 else result.exit_code)


def _stdin(paths: list[Path] | None, filename: str | None) -> tuple[str, str] | None:
    """``-`` as the only path: (repository path, text read from stdin)."""
    if not paths or [str(p) for p in paths] != ["-"]:
        if filename is not None:
            raise DocsyncError("--stdin-filename needs '-' as the path")
        return None
    if filename is None:
        raise DocsyncError("'-' reads stdin: give its path with --stdin-filename")
    root = find_repo(Path.cwd()).root
    return relative_to_root(root, Path.cwd(), filename), sys.stdin.read()


def _hint(result: CheckResult) -> None:
    if result.hint:
        stderr.print(result.hint, markup=False)


def _emit(output: Format, files: int, findings: list[Finding], quiet: bool = False) -> None:
    if output is Format.json:
        sys.stdout.write(report.as_json(files, findings))
    elif output is Format.json_lines:
        sys.stdout.write(report.as_json_lines(findings))
    elif output is Format.github:
        sys.stdout.write(report.as_github(findings))
    elif output is Format.gitlab:
        sys.stdout.write(report.as_gitlab(findings))
    elif output is Format.sarif:
        sys.stdout.write(report.as_sarif(findings))
    elif output is Format.junit:
        sys.stdout.write(report.as_junit(files, findings))
    elif output is Format.concise:
        sys.stdout.write(report.as_concise(findings))
        if not quiet:
            sys.stdout.write(report.summary(files, findings) + "\n")
    else:
        report.print_text(stdout, files, findings, summary_line=not quiet)


@app.command()
def fix(
    paths: PathsArg = None,
    gate: GateOpt = None,
    check_only: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 if anything would change.")
    ] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Write nothing; print a unified diff.")] = False,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    config_path: ConfigOpt = None,
    abort: AbortOpt = False,
    resume: ContinueOpt = False,
) -> None:
    """Repair what the gates can repair safely, never changing what the Markdown renders to."""
    dry = check_only or diff
    with _errors():
        found = _finish_pending("fix", abort, resume)
        if abort:
            return
        redo: Mapping[str, Any] = found.redo if found is not None else {}
        if found is not None:  # the interrupted run's config, not this one's
            config_path = Path(redo["config"]) if redo.get("config") else None
        with ProgressBar(stderr) as progress:
            result = run_fix(
                Path.cwd(),
                redo["paths"] if found is not None else _paths(paths),
                redo["gates"] if found is not None else gate,
                write=not dry,
                config=_config(config_path),
                progress=progress,
                select=redo["select"] if found is not None else (_codes(select) or None),
                ignore=redo["ignore"] if found is not None else _codes(ignore),
                within=redo["within"] if found is not None else _within(paths),
                config_file=str(config_path.absolute()) if config_path is not None else None,
            )
        _fix_report(result, dry=dry, diff=diff)
    raise typer.Exit(result.exit_code(dry))


def _fix_report(result: FixResult, *, dry: bool, diff: bool) -> None:
    for change in result.fixes:
        if diff:
            sys.stdout.write(report.visible_diff(change.diff()))
        else:
            verb = "would fix" if dry else "fixed"
            stdout.print(report.visible(f"{verb} {_here(change.path)}"), markup=False)
    for finding in _from_here(list(result.skipped)):
        _say(f"{finding.path}:{finding.line}:{finding.column}: {finding.rule} {finding.message}")
    for path in result.changed_meanwhile:
        _say(f"docsync: {_here(path)} changed on disk while fix ran; not overwritten, run `docsync fix` again")
    if not dry and result.remaining:
        report.print_text(stdout, result.files, _from_here(list(result.remaining)))
    elif not result.fixes and not result.skipped and not result.changed_meanwhile:
        stdout.print("Nothing to fix.", markup=False)


@app.command()
def rules(
    code: Annotated[str | None, typer.Argument(help="A rule code for its full explanation.")] = None,
) -> None:
    """List every rule code, or explain one."""
    if code is None:
        for rule in all_rules():
            stdout.print(f"{rule.code}  {rule.gate:<7} {rule.name:<24} {rule.summary}", markup=False)
        return
    found = by_code().get(code.upper())
    if found is None:
        from .suggest import did_you_mean

        hint = did_you_mean(code, [r.code for r in all_rules()]) or " (see `docsync rules`)"
        stderr.print(f"docsync: error: unknown rule {code!r}{hint}", markup=False)
        raise typer.Exit(2)
    from .gates.pages import explain

    stdout.print(explain(found), markup=False)


def _print_verdict(judged: Verdict) -> None:
    """After --apply: findings the migration caused (there should be none), older ones counted."""
    older = (
        f"; {judged.already} findings there before stay (docsync check lists them, docsync fix repairs what it can)"
        if judged.already
        else ""
    )
    if not judged.caused:
        stderr.print(f"docsync check: no finding caused by the migration in the files it wrote{older}", markup=False)
        return
    stderr.print(f"docsync check: {len(judged.caused)} findings caused by the migration{older}:", markup=False)
    for finding in judged.caused[:10]:
        stderr.print(f"  {finding.path}:{finding.line}:{finding.column}: {finding.rule} {finding.message}", markup=False)


@app.command()
def migrate(
    source: Annotated[
        list[Path] | None,
        typer.Option("--source", metavar="DIR", help="A legacy tree folder (repeatable; default: found by folder name)."),
    ] = None,
    target: Annotated[
        Path | None, typer.Option("--target", metavar="DIR", help="The lifecycle tree (default: config target, docs/rfc).")
    ] = None,
    write_plan: Annotated[
        Path | None, typer.Option("--write-plan", metavar="FILE", help="Write the plan as TOML to this file, to edit.")
    ] = None,
    plan: Annotated[
        Path | None, typer.Option("--plan", metavar="FILE", help="Use this (edited) plan file instead of the inferred plan.")
    ] = None,
    apply: Annotated[
        bool, typer.Option("--apply", help="Execute the plan; refused while it has unresolved items.")
    ] = False,
    commit: Annotated[
        bool, typer.Option("--commit", help="With --apply: commit the pure moves, then the content edits.")
    ] = False,
    allow_dirty: Annotated[
        bool, typer.Option("--allow-dirty", help="With --apply: run despite uncommitted changes.")
    ] = False,
    output: Annotated[str, typer.Option("--format", "-f", metavar="[text|json]", help="Output format.")] = "text",
    adoption_record: Annotated[
        bool, typer.Option("--adoption-record/--no-adoption-record", help="Add a record of the adoption to implemented/.")
    ] = True,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Also show where each status and date was read, and every suggestion.")
    ] = False,
    abort: AbortOpt = False,
    resume: ContinueOpt = False,
) -> None:
    """Plan (dry run) or apply the migration of legacy ADR/RFC trees into one lifecycle tree.

    Exit 0 when the plan is complete (or applied), 1 when it has unresolved
    items (nothing is changed), 2 on a usage, config, git or stale-plan error.
    """
    if output not in ("text", "json"):
        stderr.print(f"docsync: error: --format must be text or json, not {output!r}", markup=False)
        raise typer.Exit(2)
    if (commit or allow_dirty) and not apply:
        stderr.print("docsync: error: --commit and --allow-dirty need --apply", markup=False)
        raise typer.Exit(2)
    with _errors():
        found = _finish_pending("migrate", abort, resume)
        if abort:
            return
        if found is not None:
            request = _MigrateRequest.from_redo(found.redo)
        else:
            root = find_repo(Path.cwd()).root
            request = _MigrateRequest(
                sources=tuple(relative_to_root(root, Path.cwd(), str(s)) for s in source or ()),
                target=relative_to_root(root, Path.cwd(), str(target)) if target else None,
                plan_file=str(plan.absolute()) if plan else None,
                adoption_record=adoption_record,
                today=date.today().isoformat(),
                apply=apply,
                commit=commit,
                allow_dirty=allow_dirty,
            )
        code = _migrate(request, write_plan, output, verbose)
    raise typer.Exit(code)


@dataclass(frozen=True)
class _MigrateRequest:
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
    def from_redo(cls, redo: Mapping[str, Any]) -> _MigrateRequest:
        return cls(**{**redo, "sources": tuple(redo["sources"]), "apply": True})

    def redo(self) -> dict[str, Any]:
        return {**asdict(self), "sources": list(self.sources)}


def _migrate(request: _MigrateRequest, write_plan: Path | None, output: str, verbose: bool) -> int:
    from .migrate import planfile, verdict
    from .migrate import run as migration
    from .migrate.apply import apply as apply_outcome
    from .migrate.show import as_json, render

    root = find_repo(Path.cwd()).root
    options = migration.Options(
        sources=request.sources,
        target=request.target,
        plan_file=Path(request.plan_file) if request.plan_file else None,
        adoption_record=request.adoption_record,
        today=date.fromisoformat(request.today),
    )
    with ProgressBar(stderr, enabled=output == "text") as progress:
        _, outcome = migration.run(Path.cwd(), replace(options, progress=progress))
    for warning in outcome.warnings:
        _say(f"docsync: warning: {warning}")
    plan = options.plan_file
    rewritten = write_plan is not None and plan is not None and write_plan.resolve() == plan.resolve()
    if plan is not None and not rewritten and planfile.refresh(plan, outcome.problems):
        _say(f"{plan}: removed the comments of answered problems")
    if write_plan is not None:
        planfile.write(outcome.plan, write_plan)
        _say(f"wrote the plan to {write_plan}")
    ready = request.apply and outcome.complete and not outcome.changes.empty
    earlier = verdict.before(root, outcome.changes) if ready else None
    applied = (
        apply_outcome(
            root, outcome, commit=request.commit, allow_dirty=request.allow_dirty, redo=request.redo()
        )
        if request.apply
        else None
    )
    judged = verdict.after(root, outcome.changes, earlier) if earlier and applied and applied.applied else None
    if output == "json":
        sys.stdout.write(as_json(outcome))
    else:
        stdout.print(render(outcome, width=stdout.width, verbose=verbose))
    if applied is not None and applied.applied:
        for path in applied.forced:
            _say(f"note: {path} is ignored by .gitignore; staged it deliberately (git add -f)")
        done = f"; commits {', '.join(c[:10] for c in applied.commits)}" if applied.commits else "; changes staged, not committed"
        _say(f"migrated {len(outcome.plan.topics)} records{done}")
        if judged is not None:
            _print_verdict(judged)
    elif request.apply and not outcome.complete:
        _say(f"docsync: refusing to apply: {len(outcome.problems)} unresolved items; nothing was changed")
    return outcome.exit_code


class ProgressBar:
    """A rich progress bar on ``console`` for the core's progress hook.

    It shows only on a terminal, only when ``enabled`` (text output), and only
    once a step has at least :data:`PROGRESS_MINIMUM` items; otherwise the hook
    does nothing, so piped and machine-readable output stays byte-exact.
    """

    def __init__(self, console: Console, *, enabled: bool = True) -> None:
        self._console = console
        self._enabled = enabled and console.is_terminal
        self._bar: Progress | None = None
        self._tasks: dict[str, TaskID] = {}

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __call__(self, description: str, done: int, total: int) -> None:
        if not self._enabled or (self._bar is None and total < PROGRESS_MINIMUM):
            return
        if self._bar is None:
            # Imported here: only a terminal ever shows a bar.
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                console=self._console,
                transient=True,
            )
            self._bar.start()
        task = self._tasks.get(description)
        if task is None:
            task = self._tasks[description] = self._bar.add_task(description, total=total)
        self._bar.update(task, completed=done, total=total)


def _report_files(change: lifecycle.Change) -> None:
    for path in change.created:
        if path != change.record:
            _say(f"created {path}")
    for path in change.updated:
        _say(f"updated {path}")
    for warning in change.warnings:
        _say(f"warning: {warning}")


def _shown(root: Path, path: str) -> str:
    """A repository path as the user can open it from where they stand."""
    return os.path.relpath(root / path, Path.cwd())


@app.command()
def new(
    title: Annotated[
        str | None, typer.Argument(help="The record's title; its slug names the file.")
    ] = None,
    status: Annotated[
        str, typer.Option("--status", help="Its state, or a status word that maps to one.")
    ] = "proposed",
    template: Annotated[
        Path | None,
        typer.Option("--template", help="Template file (default: config template, else the built-in one)."),
    ] = None,
    supersedes: Annotated[
        str | None,
        typer.Option(
            "--supersedes",
            metavar="RECORD",
            help="The record this one supersedes (path, slug or former id); both get the link.",
        ),
    ] = None,
    relation: RelationOpt = "supersedes",
    abort: AbortOpt = False,
    resume: ContinueOpt = False,
) -> None:
    """Create <target>/<state>/<today>-<slug>.md from the template, update the index, print the path."""
    with _errors():
        from .lifecycle import commands as lifecycle

        found = _finish_pending("new", abort, resume)
        if abort:
            return
        today = date.today()
        if found is not None:
            title, status = found.redo["title"], found.redo["status"]
            template = Path(found.redo["template"]) if found.redo["template"] else None
            today = date.fromisoformat(found.redo["today"])
            supersedes, relation = found.redo["supersedes"], found.redo["relation"]
        if title is None:
            raise DocsyncError('give the record\'s title: docsync new "Title"')
        if relation != "supersedes" and supersedes is None:
            raise DocsyncError("--relation needs --supersedes RECORD (the record it relates to)")
        change = lifecycle.create(Path.cwd(), title, status, template, today, supersedes, relation)
        root = find_repo(Path.cwd()).root
        _report_files(change)
        stdout.print(report.visible(_shown(root, change.record)), markup=False)


@app.command()
def move(
    record: Annotated[
        str | None, typer.Argument(help="A record: its path, its slug, or a former id ('ADR 0007').")
    ] = None,
    state: Annotated[
        str | None, typer.Argument(help="The new state, or a status word that maps to one.")
    ] = None,
    note: Annotated[
        str, typer.Option("--note", help="Why; appended to the transition on the Status: line.")
    ] = "",
    by: Annotated[
        str | None,
        typer.Option(
            "--by",
            metavar="RECORD",
            help="The record that supersedes this one (path, slug or former id); both get the link.",
        ),
    ] = None,
    relation: RelationOpt = "supersedes",
    abort: AbortOpt = False,
    resume: ContinueOpt = False,
) -> None:
    """Move a record to another lifecycle folder with git; rewrite its status, every link to it and the index."""
    with _errors():
        from .lifecycle import commands as lifecycle

        found = _finish_pending("move", abort, resume)
        if abort:
            return
        today = date.today()
        if found is not None:
            record, state, note = found.redo["record"], found.redo["state"], found.redo["note"]
            today = date.fromisoformat(found.redo["today"])
            by, relation = found.redo["by"], found.redo["relation"]
        if record is None or state is None:
            raise DocsyncError("give the record and the state: docsync move RECORD STATE")
        if relation != "supersedes" and by is None:
            raise DocsyncError("--relation needs --by RECORD (the record it relates to)")
        change = lifecycle.move(Path.cwd(), record, state, note, today, by, relation)
        root = find_repo(Path.cwd()).root
        _say(f"moved {change.source} -> {change.record}")
        _report_files(change)
        stdout.print(report.visible(_shown(root, change.record)), markup=False)


class GraphFormat(StrEnum):
    mermaid = "mermaid"
    dot = "dot"
    json = "json"


@app.command()
def graph(
    output: Annotated[
        GraphFormat,
        typer.Option("--format", "--output-format", "-f", help="mermaid, dot (Graphviz) or json."),
    ] = GraphFormat.mermaid,
) -> None:
    """Print the graph of relations between records (the one the index draws)."""
    with _errors():
        from .records.tree import graph_of

        text = graph_of(Path.cwd(), output.value)
    sys.stdout.write(text)


@app.command()
def init(
    pyproject: Annotated[
        bool, typer.Option("--pyproject", help="Write [tool.docsync] into pyproject.toml, not .docsync.toml.")
    ] = False,
    hooks: Annotated[
        bool, typer.Option("--hooks", help="Also add the pre-commit hook and a GitHub Actions workflow.")
    ] = False,
    hook_repo: Annotated[
        str,
        typer.Option(
            "--hook-repo",
            metavar="package|local|URL",
            help="'package' (default): pre-commit installs docsync from the package index; "
            "'local': runs the installed docsync; else a hooks repository URL.",
        ),
    ] = DEFAULT_HOOK_REPO,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite a config or workflow that differs from what init writes.")
    ] = False,
    abort: AbortOpt = False,
    resume: ContinueOpt = False,
) -> None:
    """Inspect the repository and write a commented config (with --hooks, pre-commit and CI too).

    Exit 0 when every file is written or already right, 1 when one was kept
    because it differs (--force overwrites), 2 on an error.
    """
    from .adopt import plan as adopt

    options = adopt.InitOptions(pyproject=pyproject, hooks=hooks, force=force, hook_repo=hook_repo)
    with _errors():
        found = _finish_pending("init", abort, resume)
        if abort:
            return
        if found is not None:
            options = adopt.InitOptions(**found.redo)
        with ProgressBar(stderr) as progress:
            result = adopt.plan_init(Path.cwd(), options, progress)
        adopt.apply(result)
        stdout.print(report.visible_diff(adopt.describe(result)), markup=False, end="")
    raise typer.Exit(result.exit_code)


def main(argv: list[str] | None = None) -> None:
    app(args=argv, prog_name="docsync")
