"""The command line. The only module that imports typer.

Each command declares its arguments here, calls the core, hands the result to
:mod:`.commandline.output` and exits with the code the result computes. User,
config and environment errors (:class:`DocsyncError`) become one line on stderr
and exit code 2, in one place: :func:`_errors` (the mapping is
:mod:`.commandline.failures`). What is not typer lives in :mod:`.commandline`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer import Argument, Option

from . import __version__
from .adopt.hooks import DEFAULT_HOOK_REPO
from .commandline import arguments, fixing, output, records, replay
from .commandline.failures import HANDLED, failure
from .commandline.output import Color, Format, GraphFormat, say
from .commandline.progress import ProgressBar
from .write.finished import finished_count

if TYPE_CHECKING:
    from .write.transaction import Pending

app = typer.Typer(**arguments.APP)


@contextmanager
def _errors() -> Iterator[None]:
    """The one place errors become one line on stderr and an exit code (2; 130 for Ctrl-C)."""
    mark = finished_count()
    output.forget_here()  # an earlier command's, in this process
    output.ignored_state(announce=False)  # an earlier command's in this process
    try:
        yield
    except HANDLED as exc:
        failed = failure(exc, mark)
        output.ignored_state()
        say(failed.message)
        raise typer.Exit(failed.exit_code) from None
    finally:
        output.ignored_state()


def _unfinished(command: str, abort: bool, resume: bool) -> Pending | None:
    """``--abort`` ends the command once the unfinished run is undone; ``--continue``
    returns that run, to be run again; with neither, refuse while a run is unfinished."""
    found = arguments.finish_unfinished(command, abort, resume)
    if abort:
        raise typer.Exit(0)
    return found


def _version(value: bool) -> None:
    if value:
        output.stdout.print(f"docsync {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool, Option("--version", "-V", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """docsync keeps design records (ADRs, RFCs) and their links in order."""


def _record(name: str, what: str) -> Any:
    """``--supersedes`` and ``--by``: the other record of a relation."""
    return Option(name, metavar="RECORD", help=f"{what} (path, slug or former id); both get the link.")


# The options more than one command takes.
PathsArg = Annotated[
    list[Path] | None, Argument(help="Files or folders to check (default: every Markdown file).")
]
GateOpt = Annotated[list[str] | None, Option("--gate", "-g", help="Run only this gate (repeatable).")]
SelectOpt = Annotated[
    list[str] | None,
    Option("--select", metavar="CODES", help="Report only these rule codes, prefixes or gates "
           "(comma-separated, repeatable; replaces config's select)."),
]
IgnoreOpt = Annotated[
    list[str] | None,
    Option("--ignore", metavar="CODES", help="Do not report these rule codes, prefixes or gates (adds to config's ignore)."),
]
AbortOpt = Annotated[
    bool,
    Option("--abort", help="Put the repository back as it was before an unfinished run (killed, or out of disk)."),
]
ContinueOpt = Annotated[
    bool, Option("--continue", help="Finish an unfinished run: undo what it did, then run it again.")
]
RelationOpt = Annotated[
    str,
    Option("--relation", metavar="KIND", help="Write this configured relation instead of supersession (e.g. amends)."),
]
ConfigOpt = Annotated[
    Path | None,
    Option("--config", metavar="PATH", help="Use this .docsync.toml (or pyproject.toml) instead of the nearest one."),
]
StdinOpt = Annotated[
    str | None,
    Option("--stdin-filename", metavar="PATH", help="With '-' as the path: the text on stdin is the file at PATH."),
]


@app.command()
def check(
    paths: PathsArg = None,
    gate: GateOpt = None,
    form: Annotated[
        Format, Option("--output-format", "--format", "-f", help="Output format (--format: an alias).")
    ] = Format.text,
    changed: Annotated[
        bool,
        Option(
            "--changed",
            help="Check only files changed since --since (default: the merge base with the "
            "default branch), plus the files that link to them.",
        ),
    ] = False,
    since: Annotated[str | None, Option("--since", help="The revision --changed compares against.")] = None,
    staged: Annotated[
        bool,
        Option(
            "--staged",
            help="Check only what the index changes (renames and deletes too), plus the files "
            "that link to it: the pre-commit hook.",
        ),
    ] = False,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    report_unused: Annotated[
        bool,
        Option("--report-unused-suppressions", help="Report suppression comments that silence nothing (S001)."),
    ] = False,
    quiet: Annotated[bool, Option("--quiet", "-q", help="Print the findings and nothing else.")] = False,
    exit_zero: Annotated[
        bool, Option("--exit-zero", help="Exit 0 even with findings (errors are still 2).")
    ] = False,
    statistics: Annotated[
        bool, Option("--statistics", help="Print how many findings each rule has, not the findings.")
    ] = False,
    config_path: ConfigOpt = None,
    color: Annotated[
        Color, Option("--color", help="Style the text output: auto (a terminal), always, never.")
    ] = Color.auto,
    verbose: Annotated[
        bool, Option("--verbose", "-v", help="Say which config file was used, on stderr.")
    ] = False,
    stdin_filename: StdinOpt = None,
) -> None:
    """Run the gates; exit 0 when clean, 1 with findings, 2 on a usage or config error."""
    output.use_color(color)
    changed_since = (since or "") if changed or since else None
    textual = form in (Format.text, Format.concise)
    from .check.check import run_check  # only `check` needs the gates: other commands start faster

    with _errors(), ProgressBar(output.terminal_stderr() if textual and not quiet else None) as progress:
        observed = replay.observation()  # this run's inputs, before any file is read
        stdin = arguments.stdin(paths, stdin_filename)
        result = run_check(
            Path.cwd(),
            None if stdin else arguments.paths(paths),
            gate,
            config=arguments.config(config_path),
            changed_since=changed_since,
            progress=progress,
            staged=staged,
            select=arguments.codes(select) or None,
            ignore=arguments.codes(ignore),
            report_unused=report_unused,
            within=None if stdin or staged or changed_since is not None else arguments.within(paths),
            stdin=stdin, **replay.known(observed),
        )
        shown = output.from_here(list(result.findings)) if textual or statistics else list(result.findings)
    code = 0 if exit_zero and result.exit_code == 1 else result.exit_code
    every_input_known = observed if stdin is None and not staged and changed_since is None else None
    output.check_report(result, shown, form, quiet=quiet, statistics=statistics, verbose=verbose, kept=(every_input_known, code))
    raise typer.Exit(code)


@app.command()
def fix(
    paths: PathsArg = None,
    gate: GateOpt = None,
    check_only: Annotated[
        bool, Option("--check", help="Write nothing; exit 1 if anything would change.")
    ] = False,
    diff: Annotated[bool, Option("--diff", help="Write nothing; print a unified diff.")] = False,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    config_path: ConfigOpt = None,
    abort: AbortOpt = False,
    resume: ContinueOpt = False,
    stdin_filename: StdinOpt = None,
) -> None:
    """Repair what the gates can repair safely, never changing what the Markdown renders to.
    With '-' and --stdin-filename: print the text on stdin fixed; nothing is written."""
    dry = check_only or diff
    with _errors():
        if (stdin := arguments.stdin(paths, stdin_filename)) is not None:
            raise typer.Exit(fixing.fix_stdin(stdin, gate, select, ignore, config_path, dry=dry, diff=diff))
        found = _unfinished("fix", abort, resume)
        asked = arguments.fix_request(
            found.redo if found is not None else None, paths, gate, select, ignore, config_path
        )
        with ProgressBar(output.terminal_stderr()) as progress:
            from .check.fix import run_fix

            result = run_fix(Path.cwd(), write=not dry, progress=progress, **asked)
        output.fix_report(result, dry=dry, diff=diff)
    raise typer.Exit(result.exit_code(dry))


@app.command()
def rules(
    code: Annotated[str | None, Argument(help="A rule code for its full explanation.")] = None,
) -> None:
    """List every rule code, or explain one."""
    raise typer.Exit(output.rules(code))


@app.command()
def migrate(
    source: Annotated[
        list[Path] | None,
        Option("--source", metavar="DIR", help="A legacy tree folder (repeatable; default: found by folder name)."),
    ] = None,
    target: Annotated[
        Path | None, Option("--target", metavar="DIR", help="The lifecycle tree (default: config target, docs/rfc).")
    ] = None,
    write_plan: Annotated[
        Path | None, Option("--write-plan", metavar="FILE", help="Write the plan as TOML to this file, to edit.")
    ] = None,
    plan: Annotated[
        Path | None, Option("--plan", metavar="FILE", help="Use this (edited) plan file instead of the inferred plan.")
    ] = None,
    apply: Annotated[
        bool, Option("--apply", help="Execute the plan; refused while it has unresolved items.")
    ] = False,
    commit: Annotated[
        bool, Option("--commit", help="With --apply: commit the pure moves, then the content edits.")
    ] = False,
    allow_dirty: Annotated[
        bool, Option("--allow-dirty", help="With --apply: run despite uncommitted changes.")
    ] = False,
    form: Annotated[str, Option("--format", "-f", metavar="[text|json]", help="Output format.")] = "text",
    adoption_record: Annotated[
        bool, Option("--adoption-record/--no-adoption-record", help="Add a record of the adoption to implemented/.")
    ] = True,
    verbose: Annotated[
        bool, Option("--verbose", "-v", help="Also show where each status and date was read, and every suggestion.")
    ] = False,
    abort: AbortOpt = False,
    resume: ContinueOpt = False,
) -> None:
    """Plan (dry run) or apply the migration of legacy ADR/RFC trees into one lifecycle tree.

    Exit 0 when the plan is complete (or applied), 1 when it has unresolved
    items (nothing is changed), 2 on a usage, config, git or stale-plan error.
    """
    from .commandline import migration

    misuse = migration.misuse(form, apply=apply, commit=commit, allow_dirty=allow_dirty)
    if misuse:
        output.stderr.print(f"docsync: error: {misuse}", markup=False)
        raise typer.Exit(2)
    with _errors():
        found = _unfinished("migrate", abort, resume)
        request = (
            migration.MigrateRequest.from_redo(found.redo)
            if found is not None
            else migration.MigrateRequest.asked(
                source, target, plan, adoption_record=adoption_record, apply=apply, commit=commit, allow_dirty=allow_dirty
            )
        )
        code = migration.migrate(request, write_plan, form, verbose)
    raise typer.Exit(code)


@app.command()
def new(
    title: Annotated[str | None, Argument(help="The record's title; its slug names the file.")] = None,
    status: Annotated[
        str, Option("--status", help="Its state, or a status word that maps to one.")
    ] = "proposed",
    template: Annotated[
        Path | None,
        Option("--template", help="Template file (default: config template, else the built-in one)."),
    ] = None,
    supersedes: Annotated[str | None, _record("--supersedes", "The record this one supersedes")] = None,
    relation: RelationOpt = "supersedes",
    abort: AbortOpt = False,
    resume: ContinueOpt = False,
) -> None:
    """Create <target>/<state>/<today>-<slug>.md from the template, update the index, print the path."""
    with _errors():
        found = _unfinished("new", abort, resume)
        asked = {"title": title, "status": status, "template": str(template) if template else None,
                 "supersedes": supersedes, "relation": relation, "today": date.today().isoformat()}
        records.new(asked, found.redo if found is not None else None)


@app.command()
def move(
    record: Annotated[
        str | None, Argument(help="A record: its path, its slug, or a former id ('ADR 0007').")
    ] = None,
    state: Annotated[str | None, Argument(help="The new state, or a status word that maps to one.")] = None,
    note: Annotated[str, Option("--note", help="Why; appended to the transition on the Status: line.")] = "",
    by: Annotated[str | None, _record("--by", "The record that supersedes this one")] = None,
    relation: RelationOpt = "supersedes",
    abort: AbortOpt = False,
    resume: ContinueOpt = False,
) -> None:
    """Move a record to another lifecycle folder with git; rewrite its status, every link to it and the index."""
    with _errors():
        found = _unfinished("move", abort, resume)
        asked = {"record": record, "state": state, "note": note, "by": by, "relation": relation,
                 "today": date.today().isoformat()}
        records.move(asked, found.redo if found is not None else None)


@app.command()
def graph(
    form: Annotated[
        GraphFormat, Option("--format", "--output-format", "-f", help="mermaid, dot (Graphviz) or json.")
    ] = GraphFormat.mermaid,
) -> None:
    """Print the graph of relations between records (the one the index draws)."""
    with _errors():
        from .records.tree import graph_of

        text = graph_of(Path.cwd(), form.value)
    output.write_escaped(text)


@app.command()
def init(
    pyproject: Annotated[
        bool, Option("--pyproject", help="Write [tool.docsync] into pyproject.toml, not .docsync.toml.")
    ] = False,
    hooks: Annotated[
        bool, Option("--hooks", help="Also add the pre-commit hook and a GitHub Actions workflow.")
    ] = False,
    hook_repo: Annotated[
        str, Option("--hook-repo", metavar="package|local|URL", help=arguments.HOOK_REPO_HELP)
    ] = DEFAULT_HOOK_REPO,
    force: Annotated[
        bool, Option("--force", help="Overwrite a config or workflow that differs from what init writes.")
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
        found = _unfinished("init", abort, resume)
        if found is not None:
            options = adopt.InitOptions(**found.redo)
        with ProgressBar(output.terminal_stderr()) as progress:
            result = adopt.plan_init(Path.cwd(), options, progress)
        adopt.apply(result)
        from .report.formats import visible_diff
        output.stdout.print(visible_diff(adopt.describe(result)), markup=False, end="")
    raise typer.Exit(result.exit_code)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    _app_for(args)(args=args, prog_name="docsync")


def _app_for(args: list[str]) -> typer.Typer:
    """``app`` with only the command ``args`` start with, if they start with one: typer turns
    every command's signature into options before it reads the arguments (27 ms; 8 ms for
    one). Anything else gets the whole app, with its help and its suggestions."""
    chosen = [c for c in app.registered_commands if args and arguments.command_name(c) == args[0]]
    if len(chosen) != 1:
        return app
    one = typer.Typer(**arguments.APP)
    one.registered_callback, one.registered_commands = app.registered_callback, chosen
    return one
