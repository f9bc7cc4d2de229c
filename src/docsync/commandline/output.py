"""The command line's two streams and what it writes to them: findings in each format,
what ``fix`` did, what ``new`` and ``move`` changed. Paths are shown from where the user stands."""

from __future__ import annotations

import builtins
import codecs
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from ..model import Finding
from ..repository.plumbing import RepoPaths, find_repo
from .terminal import not_a_terminal

if TYPE_CHECKING:
    from rich.console import Console

    from ..check.check import CheckResult
    from ..check.fix import FixResult, TextFix
    from ..lifecycle.change import Change
    from .replay_key import Observed


class Format(StrEnum):
    text = "text"
    concise = "concise"
    json = "json"
    json_lines = "json-lines"
    github = "github"
    gitlab = "gitlab"
    sarif = "sarif"
    junit = "junit"


class Color(StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


_color = Color.auto
_consoles: dict[bool, Console] = {}  # by "on stderr": made when first written to
_here: dict[str, RepoPaths] = {}  # the repository of the current folder, for one command


def here_repo() -> RepoPaths:
    """The repository holding the current folder, asked of git once per command: the
    arguments, the unfinished-run check and the report each need its root, and each
    question is a git process. :func:`forget_here` starts the next command afresh."""
    cwd = os.getcwd()
    if cwd not in _here:
        _here.clear()
        _here[cwd] = find_repo(Path(cwd))
    return _here[cwd]


def remember_here(repo: RepoPaths) -> None:
    """The current folder's repository, as this command already asked git for it."""
    _here.clear()
    _here[os.getcwd()] = repo


def forget_here() -> None:
    """A new command: the current folder's repository is asked of git again."""
    _here.clear()


def use_color(color: Color) -> None:
    """Style on a terminal (``auto``), always, or never; ``NO_COLOR`` means never
    unless ``--color always``: no colour, no bold, no dim."""
    global _color
    _color = color
    _consoles.clear()


def __getattr__(name: str) -> Console:
    """``stdout`` and ``stderr``: rich consoles, made (and rich imported) only when a
    command first writes through one; ``check --format json`` never does."""
    if name not in ("stdout", "stderr"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _console(name == "stderr")


def _console(on_stderr: bool) -> Console:
    found = _consoles.get(on_stderr)
    if found is not None:
        return found
    from rich.console import Console

    plain = _color is Color.never or (_color is Color.auto and bool(os.environ.get("NO_COLOR")))
    forced = True if _color is Color.always else None
    made = _consoles[on_stderr] = (
        Console(stderr=on_stderr, highlight=False, soft_wrap=True, color_system=None)
        if plain
        else Console(stderr=on_stderr, highlight=False, soft_wrap=True, force_terminal=forced)
    )
    return made


def terminal_stderr() -> Console | None:
    """The stderr console for a progress bar, or None when stderr cannot be a terminal.

    A bar shows only where rich's ``Console.is_terminal`` holds. This answers the
    cases where it cannot hold without making the console (nor importing rich: a
    tenth of a run's start-up, before its files parse); else the console answers.
    """
    return None if _not_a_terminal(sys.stderr) else _console(True)


def _not_a_terminal(stream: object) -> bool:
    return not_a_terminal(stream, forced=_color is Color.always)


def uncoloured(console: Console) -> bool:
    """Whether ``console`` prints plain characters as they are: no colour system (not a
    terminal, or ``NO_COLOR``), UTF-8, not muted, not a notebook."""
    return (
        console.color_system is None
        and not console.is_jupyter
        and not console.quiet
        and codecs.lookup(console.encoding).name == "utf-8"
    )


def plain_stdout_width() -> int | None:
    """The stdout console's width where it surely prints plain characters as they are
    (:func:`uncoloured` holds of it), told without making it, nor importing rich; None
    where only the console can tell.

    That is where rich calls stdout no terminal by the rules it applies first (see
    :func:`_not_a_terminal`), outside Windows and notebooks, on a UTF-8 stream. The
    width is rich's then: ``COLUMNS`` when it is a number, else the first of stdin,
    stdout and stderr that is a terminal (80 when none is, or it says 0 columns).
    """
    stream = sys.stdout
    if stream is None or os.name == "nt" or hasattr(builtins, "get_ipython") or not _not_a_terminal(stream):
        return None
    file = getattr(stream, "rich_proxied_file", stream)
    try:
        if codecs.lookup((getattr(file, "encoding", "utf-8") or "utf-8").lower()).name != "utf-8":
            return None
    except LookupError:
        return None  # the console says what it makes of it
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    for descriptor in (0, 1, 2):
        try:
            return os.get_terminal_size(descriptor).columns or 80
        except (AttributeError, ValueError, OSError):
            continue
    return 80


def write_plain(text: str) -> None:
    """``text`` on stdout as :func:`write_as_is` writes it to the stdout console, without
    one (where :func:`plain_stdout_width` knows its width)."""
    file = getattr(sys.stdout, "rich_proxied_file", sys.stdout)
    try:
        file.write(text)
        file.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)  # as rich's Console.on_broken_pipe
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(1) from None


def write_as_is(console: Console, text: str) -> None:
    """``text`` written to ``console``'s stream as rich writes what it has rendered
    (flushed; a closed pipe ends the command as it does in rich)."""
    try:
        console.file.write(text)
        console.file.flush()
    except BrokenPipeError:
        console.on_broken_pipe()


def write_escaped(text: str) -> None:
    """``text`` on stdout as it is, but for what would act on a terminal (each format
    escapes its own text already; this is the last guard)."""
    from ..report.formats import visible_diff

    sys.stdout.write(visible_diff(text))


def say(text: str) -> None:
    """One line for people on stderr, every control character shown as an escape."""
    from ..report.formats import visible  # the reports' module: imported when first written

    _console(True).print(visible(text), markup=False)


def ignored_state(announce: bool = True) -> None:
    """One line for each file under ``.git/docsync/`` that was ignored as corrupt or foreign."""
    from ..workspace.plain import ignored_notes

    for note in ignored_notes():
        if announce:
            say(note)


def show(text: str) -> None:
    """One line on stdout, every control character shown as an escape."""
    from ..report.formats import visible

    _console(False).print(visible(text), markup=False)


def here(path: str) -> str:
    """A repository path as seen from the current directory."""
    return os.path.relpath(here_repo().root / path, Path.cwd())


def from_here(findings: list[Finding]) -> list[Finding]:
    """Findings with paths relative to the current directory, for people to open."""
    root = here_repo().root
    prefix = os.path.relpath(root, Path.cwd())
    if prefix == ".":
        return findings
    return [replace(f, path=os.path.relpath(root / f.path, Path.cwd())) for f in findings]


def check_report(
    result: CheckResult,
    shown: list[Finding],
    form: Format,
    *,
    quiet: bool,
    statistics: bool,
    verbose: bool,
    kept: tuple[Observed | None, int] = (None, 0),
) -> None:
    """The findings ``shown`` (or their statistics), the config used with ``--verbose``, the
    hint. ``kept``: the run's inputs, when all are known, and its exit code: the report
    is then kept under them, to be replayed (:mod:`.replay`), if it is plain characters."""
    before, after = check_lines(result, form, quiet=quiet, statistics=statistics, verbose=verbose)
    for line in before:
        say(line)
    observed, code = kept
    if observed is not None and result.cache and (form is not Format.text or statistics or plain_text()):
        from .replay_keep import keep

        keep(observed, code, before, after, lambda: check_findings(result, shown, form, quiet=quiet, statistics=statistics))
    else:
        check_findings(result, shown, form, quiet=quiet, statistics=statistics)
    for line in after:
        say(line)


def check_lines(
    result: CheckResult, form: Format, *, quiet: bool, statistics: bool, verbose: bool
) -> tuple[list[str], list[str]]:
    """What a check says on stderr before its report (the config used, with ``--verbose``)
    and after it (the hint)."""
    textual = form in (Format.text, Format.concise)
    before, after = [], []
    if verbose:
        used = result.config if result.config != "(defaults)" else "none found, the defaults"
        before.append(f"docsync: config: {used}")
    if not quiet and textual and not statistics and result.hint:
        after.append(result.hint)
    return before, after


def check_findings(result: CheckResult, shown: list[Finding], form: Format, *, quiet: bool, statistics: bool) -> None:
    """The findings ``shown``, or their statistics, on stdout."""
    if statistics:
        from ..report import formats as report

        sys.stdout.write(report.statistics(shown))
    else:
        emit(form, result.files, shown, quiet)


def plain_text() -> bool:
    """Whether the text report is written without colour (then it is the same characters
    on any stream of any width)."""
    return _console(False).color_system is None


def emit(output: Format, files: int, findings: list[Finding], quiet: bool = False) -> None:
    """Findings in ``output``'s format on stdout."""
    from ..report import formats as report

    if output is Format.text:
        report.print_text(_console(False), files, findings, summary_line=not quiet)
        return
    if output is Format.concise:
        sys.stdout.write(report.as_concise(findings))
        if not quiet:
            sys.stdout.write(report.summary(files, findings) + "\n")
        return
    if output is Format.json:  # in pieces: a report of many findings is never one string
        sys.stdout.writelines(report.json_pieces(files, findings))
        return
    sys.stdout.write(_machine(output)(files, findings))


def _machine(output: Format) -> Callable[[int, list[Finding]], str]:
    """The machine-readable formats' writers."""
    from ..report import formats as report

    writers: dict[Format, Callable[[int, list[Finding]], str]] = {
        Format.json: report.as_json,
        Format.json_lines: lambda files, findings: report.as_json_lines(findings),
        Format.github: lambda files, findings: report.as_github(findings),
        Format.gitlab: lambda files, findings: report.as_gitlab(findings),
        Format.sarif: lambda files, findings: report.as_sarif(findings),
        Format.junit: report.as_junit,
    }
    return writers[output]


def fix_report(result: FixResult, *, dry: bool, diff: bool) -> None:
    """What ``fix`` did (or would do), what it left, and what it could not write."""
    from ..report import formats as report

    for change in result.fixes:
        if diff:
            sys.stdout.write(report.visible_diff(change.diff()))
        else:
            show(f"{'would fix' if dry else 'fixed'} {here(change.path)}")
    for finding in from_here(list(result.skipped)):
        say(f"{finding.path}:{finding.line}:{finding.column}: {finding.rule} {finding.message}")
    for path in result.changed_meanwhile:
        say(f"docsync: {here(path)} changed on disk while fix ran; not overwritten, run `docsync fix` again")
    if not dry and result.remaining:
        report.print_text(_console(False), result.files, from_here(list(result.remaining)))
    elif not result.fixes and not result.skipped and not result.changed_meanwhile:
        _console(False).print("Nothing to fix.", markup=False)
    if result.hint:
        say(result.hint)


def fix_text_report(fixed: TextFix, given: str, *, dry: bool, diff: bool) -> None:
    """``fix -``: the fixed text on stdout (its diff with ``--diff``, nothing with
    ``--check``); what it could not fix and what is left, a line each on stderr."""
    from ..report import formats as report

    if diff:
        sys.stdout.write(report.visible_diff(fixed.file_fix.diff()))
    elif not dry:
        sys.stdout.flush()
        sys.stdout.buffer.write(fixed.encoded(given))
        sys.stdout.buffer.flush()
    for finding in (*fixed.skipped, *fixed.remaining):
        say(f"{finding.path}:{finding.line}:{finding.column}: {finding.rule} {finding.message}")


def change_report(change: Change) -> None:
    """What ``new`` or ``move`` created and updated (on stderr), then the record's path (stdout)."""
    for path in change.created:
        if path != change.record:
            say(f"created {path}")
    for path in change.updated:
        say(f"updated {path}")
    for warning in change.warnings:
        say(f"warning: {warning}")
    show(here(change.record))


class GraphFormat(StrEnum):
    mermaid = "mermaid"
    dot = "dot"
    json = "json"


def rules(code: str | None) -> int:
    """Every rule code, or one explained; the exit code (2 for an unknown code)."""
    from ..gates.rules import all_rules, by_code

    if code is None:
        for rule in all_rules():
            shown = f"{rule.summary} (opt-in: select it by code)" if rule.opt_in else rule.summary
            _console(False).print(f"{rule.code}  {rule.gate:<7} {rule.name:<24} {shown}", markup=False)
        return 0
    found = by_code().get(code.upper())
    if found is None:
        from ..suggest import did_you_mean

        hint = did_you_mean(code, [r.code for r in all_rules()]) or " (see `docsync rules`)"
        _console(True).print(f"docsync: error: unknown rule {code!r}{hint}", markup=False)
        return 2
    from ..gates.rules import explain

    _console(False).print(explain(found), markup=False)
    return 0
