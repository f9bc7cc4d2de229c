"""The command line. The only module that imports typer.

Each command loads what it needs, calls the core, hands the result to a
reporter and exits with the code the result computes. User, config and
environment errors (:class:`DocsyncError`) become one line on stderr and
exit code 2, in one place: :func:`_errors`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from . import __version__, report
from .checks import run_check, run_fix
from .errors import DocsyncError
from .gitrepo import find_repo
from .rules import all_rules, by_code
from .workspace import relative_to_root

app = typer.Typer(
    name="docsync",
    help="Docs governance for design records: check links and wrapping, migrate ADR/RFC trees.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
stdout = Console(highlight=False, soft_wrap=True)
stderr = Console(stderr=True, highlight=False, soft_wrap=True)


class Format(StrEnum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except DocsyncError as exc:
        stderr.print(f"docsync: error: {exc}", markup=False)
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt:
        stderr.print("docsync: interrupted", markup=False)
        raise typer.Exit(130) from None


def _version(value: bool) -> None:
    if value:
        stdout.print(f"docsync {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """docsync keeps design records (ADRs, RFCs) and their links in order."""


def _paths(raw: list[Path] | None) -> list[str] | None:
    if not raw:
        return None
    root = find_repo(Path.cwd()).root
    return [relative_to_root(root, Path.cwd(), str(p)) for p in raw]


PathsArg = Annotated[
    list[Path] | None, typer.Argument(help="Files or folders to check (default: every Markdown file).")
]
GateOpt = Annotated[
    list[str] | None, typer.Option("--gate", "-g", help="Run only this gate (repeatable).")
]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]


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
) -> None:
    """Run the gates; exit 0 when clean, 1 with findings, 2 on a usage or config error."""
    changed_since = (since or "") if changed or since else None
    with _errors():
        result = run_check(Path.cwd(), _paths(paths), gate, changed_since=changed_since)
    _emit(output, result.files, list(result.findings))
    raise typer.Exit(result.exit_code)


def _emit(output: Format, files: int, findings: list[report.Finding]) -> None:
    if output is Format.json:
        sys.stdout.write(report.as_json(files, findings))
    elif output is Format.github:
        sys.stdout.write(report.as_github(findings))
    elif output is Format.sarif:
        sys.stdout.write(report.as_sarif(findings))
    else:
        report.print_text(stdout, files, findings)


@app.command()
def fix(
    paths: PathsArg = None,
    gate: GateOpt = None,
    check_only: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 if anything would change.")
    ] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Write nothing; print a unified diff.")] = False,
) -> None:
    """Repair what the gates can repair safely, never changing what the Markdown renders to."""
    dry = check_only or diff
    with _errors():
        result = run_fix(Path.cwd(), _paths(paths), gate, write=not dry)
    for change in result.fixes:
        if diff:
            sys.stdout.write(change.diff())
        else:
            verb = "would fix" if dry else "fixed"
            stdout.print(f"{verb} {change.path}", markup=False)
    for finding in result.skipped:
        stderr.print(
            f"{finding.path}:{finding.line}:{finding.column}: {finding.rule} {finding.message}",
            markup=False,
        )
    if not dry and result.remaining:
        report.print_text(stdout, result.files, list(result.remaining))
    elif not result.fixes and not result.skipped:
        stdout.print("Nothing to fix.", markup=False)
    raise typer.Exit(result.exit_code(dry))


@app.command()
def rules(
    code: Annotated[str | None, typer.Argument(help="A rule code for its full explanation.")] = None,
) -> None:
    """List every rule code, or explain one."""
    if code is None:
        for rule in all_rules():
            stdout.print(f"{rule.code}  {rule.gate:<7} {rule.name:<24} {rule.summary}", markup=False)
        return
    known = by_code()
    rule = known.get(code.upper())
    if rule is None:
        stderr.print(f"docsync: error: unknown rule {code!r} (see `docsync rules`)", markup=False)
        raise typer.Exit(2)
    from .ruledocs import explain

    stdout.print(explain(rule), markup=False)


def main(argv: list[str] | None = None) -> None:
    app(args=argv, prog_name="docsync")
