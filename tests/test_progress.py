"""Progress: the core reports through a hook; the CLI shows a bar only on a terminal, for text."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from docsync.adopt import plan as adopt
from docsync.adopt.inspection import MEASURING
from docsync.cli import app
from docsync.commandline.progress import PROGRESS_MINIMUM, ProgressBar
from docsync.config import Config
from docsync.workspace.load import PARSING, load_workspace
from tests.gitutil import GitRepo, isolate_git_environ

runner = CliRunner()
MANY = PROGRESS_MINIMUM + 10


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    """Enough files that a cold check would show a bar on a terminal."""
    isolate_git_environ(monkeypatch)
    repo = GitRepo.init(tmp_path / "repo")
    for number in range(MANY):
        repo.write(f"docs/page-{number:03d}.md", f"# Page {number}\n\nText.\n")
    repo.commit()
    monkeypatch.chdir(repo.root)
    return repo


def _terminal() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=True, width=80, color_system=None), out


@pytest.mark.parametrize("output", ["text", "json", "github", "sarif"])
def test_check_through_a_pipe_shows_no_progress(repo: GitRepo, output: str) -> None:
    result = runner.invoke(app, ["check", "--format", output])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert PARSING not in result.stdout
    assert "\x1b" not in result.stdout


def test_fix_through_a_pipe_shows_no_progress(repo: GitRepo) -> None:
    result = runner.invoke(app, ["fix"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == "Nothing to fix.\n"


def test_the_bar_renders_on_a_terminal() -> None:
    console, out = _terminal()
    with ProgressBar(console) as progress:
        for done in range(MANY + 1):
            progress(PARSING, done, MANY)
    shown = out.getvalue()
    assert PARSING in shown
    assert f"{MANY}/{MANY}" in shown


@pytest.mark.parametrize(
    ("terminal", "enabled", "total"),
    [
        (False, True, MANY),  # piped
        (True, False, MANY),  # --format json and friends
        (True, True, PROGRESS_MINIMUM - 1),  # too little work to be worth a bar
    ],
)
def test_the_bar_stays_silent(terminal: bool, enabled: bool, total: int) -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=terminal, width=80)
    with ProgressBar(console, enabled=enabled) as progress:
        for done in range(total + 1):
            progress(PARSING, done, total)
    assert out.getvalue() == ""


def test_the_core_reports_cold_parsing_and_stays_quiet_when_warm(repo: GitRepo) -> None:
    heard: list[tuple[str, int, int]] = []

    def hook(description: str, done: int, total: int) -> None:
        heard.append((description, done, total))

    load_workspace(repo.root, config=Config(), progress=hook)
    assert heard[0] == (PARSING, 0, MANY)
    assert heard[-1] == (PARSING, MANY, MANY)
    assert [done for _, done, _ in heard] == list(range(MANY + 1))
    heard.clear()
    load_workspace(repo.root, config=Config(), progress=hook)
    assert heard == [(PARSING, 0, 0)]


def test_the_history_scan_reports_commits_read(repo: GitRepo) -> None:
    from docsync.repository.git_history import read_history
    from docsync.repository.git_output import HISTORY

    for n in range(3):
        repo.write(f"docs/n{n}.md", f"# N{n}\n")
        repo.commit(f"n{n}")
    heard: list[tuple[str, int, int]] = []
    commits = read_history(repo.root, lambda step, done, total: heard.append((step, done, total)))
    assert heard[-1] == (HISTORY, len(commits), len(commits))
    assert read_history(repo.root) == commits


def test_migrate_through_a_pipe_shows_no_progress(repo: GitRepo) -> None:
    repo.write("docs/adr/0001-use-x.md", "# Use X\n\nStatus: accepted\n")
    repo.commit("adr")
    result = CliRunner().invoke(app, ["migrate"])
    assert result.exit_code == 0, result.output
    assert "Reading git history" not in result.output
    assert "Parsing Markdown" not in result.output


def test_init_reports_parsing_and_measuring(repo: GitRepo) -> None:
    heard: list[tuple[str, int, int]] = []
    adopt.plan_init(repo.root, adopt.InitOptions(), lambda *step: heard.append(step))
    steps = [step for step, _, _ in heard]
    assert steps.index(PARSING) < steps.index(MEASURING)
    assert heard[-1] == (MEASURING, MANY, MANY)


def test_init_through_a_pipe_shows_no_progress(repo: GitRepo) -> None:
    result = runner.invoke(app, ["init"])
    assert result.exit_code == 0, result.stderr
    assert "Measuring" not in result.stdout + result.stderr
