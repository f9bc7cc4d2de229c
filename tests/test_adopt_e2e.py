"""Adopting docsync as a new user would, on three repositories, with nothing edited by hand.

For each: ``docsync init --hooks``, then ``docsync migrate --apply --commit``,
then the real ``pre-commit run --all-files`` and ``docsync check`` pass. The
hook is the ``repo: local`` form (``--hook-repo local``), which runs the
docsync installed here: the default form names the docsync repository,
which tests cannot fetch (``tests/test_pre_commit.py`` runs that one through
``pre-commit try-repo``). A second ``docsync init`` changes nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from tests import adopt_repos
from tests.gitutil import GitRepo, git_environ

runner = CliRunner()
ADOPTION = "-adopting-docsync.md"



def _pre_commit(root: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = git_environ()
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["PRE_COMMIT_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _adopt(repo: GitRepo, monkeypatch: pytest.MonkeyPatch, home: Path) -> str:
    """The new user's steps; returns what ``docsync init`` printed."""
    monkeypatch.chdir(repo.root)
    init = runner.invoke(app, ["init", "--hooks", "--hook-repo", "local"])
    assert init.exit_code == 0, init.output
    migrated = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert migrated.exit_code == 0, migrated.output
    hooks = _pre_commit(repo.root, home)
    assert hooks.returncode == 0, hooks.stdout + hooks.stderr
    assert "docsync check" in hooks.stdout and "Passed" in hooks.stdout
    check = runner.invoke(app, ["check"])
    assert check.exit_code == 0, check.output
    return init.stdout


def _again_changes_nothing(repo: GitRepo) -> None:
    before = repo.git("status", "--porcelain", "--untracked-files=all")
    again = runner.invoke(app, ["init", "--hooks", "--hook-repo", "local"])
    assert again.exit_code == 0, again.output
    assert "Nothing to change: every file is up to date." in again.stdout
    assert repo.git("status", "--porcelain", "--untracked-files=all") == before


def _files(repo: GitRepo) -> set[str]:
    return set(repo.git("ls-files").split())


def test_adr_tree_hard_wrapped_at_80(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = adopt_repos.adr_only_wrapped(tmp_path / "repo")
    report = _adopt(repo, monkeypatch, tmp_path / "pre-commit")
    assert "  80             0 in 0 files  <- chosen" in report
    assert "wrap = 80\n" in (repo.root / ".docsync.toml").read_text()
    files = _files(repo)
    assert "docs/adr/implemented/2021-01-10-use-postgres.md" in files
    assert "docs/adr/rejected/2021-01-10-use-mysql.md" in files
    adoption = [f for f in files if f.endswith(ADOPTION)]
    assert len(adoption) == 1 and adoption[0].startswith("docs/adr/implemented/")
    for path in (adoption[0], "docs/AGENTS.md", "README.md"):
        lines = (repo.root / path).read_text().splitlines()
        assert max(len(line) for line in lines) <= 80, path
    assert "Prose is wrapped at 80 columns" in (repo.root / "docs/AGENTS.md").read_text()
    _again_changes_nothing(repo)


def test_two_trees_unwrapped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = adopt_repos.two_trees_unwrapped(tmp_path / "repo")
    report = _adopt(repo, monkeypatch, tmp_path / "pre-commit")
    assert "  none           0 in 0 files  <- chosen" in report
    files = _files(repo)
    assert "docs/rfc/implemented/2021-01-10-plugin-api.md" in files  # the ADR/RFC pair, merged
    assert not [f for f in files if f.startswith("docs/adr/")]
    adoption = next(f for f in files if f.endswith(ADOPTION))
    text = (repo.root / adoption).read_text()
    assert "`docs/adr/` (2 records, ids such as `ADR 0001`)" in text
    assert "1 record merged from 2 sources" in text
    assert "[the former-id table](../README.md#former-ids)" in text
    assert (
        (repo.root / "src/plugins.py")
        .read_text()
        .startswith("# Plugins load as docs/rfc/implemented/2021-01-10-plugin-api.md decided.")
    )
    _again_changes_nothing(repo)


def test_already_migrated_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = adopt_repos.already_migrated(tmp_path / "repo")
    head = repo.head()
    report = _adopt(repo, monkeypatch, tmp_path / "pre-commit")
    assert "updated     docs/AGENTS.md" in report
    assert repo.head() == head  # nothing to migrate, so no commit
    agents = (repo.root / "docs/AGENTS.md").read_text()
    assert agents.startswith("# Working on the docs\n\nAsk in #docs before a large change.\n\n")
    assert "For example: [Plugin API](rfc/implemented/2021-01-10-plugin-api.md)." in agents
    assert not [f for f in _files(repo) if f.endswith(ADOPTION)]
    _again_changes_nothing(repo)


def test_following_the_printed_next_steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The steps init prints, run as printed: commit the new files first, then migrate."""
    repo = adopt_repos.two_trees_unwrapped(tmp_path / "repo")
    monkeypatch.chdir(repo.root)
    init = runner.invoke(app, ["init", "--hooks"])
    assert init.exit_code == 0, init.output
    steps = init.stdout.split("Next steps\n", 1)[1].strip().splitlines()
    assert steps[0].strip().startswith("git add .docsync.toml .pre-commit-config.yaml")
    assert [s.split("#")[0].strip() for s in steps[1:]] == [
        "docsync migrate",
        "docsync migrate --apply --commit",
        "docsync check",
    ]
    added = steps[0].strip().removeprefix("git add ").split(" && ")[0].split()
    repo.git("add", *added)
    repo.git("commit", "-q", "-m", "Adopt docsync")
    for step in steps[1:]:
        result = runner.invoke(app, step.split("#")[0].split()[1:])
        assert result.exit_code == 0, step + "\n" + result.output
    assert repo.git("status", "--porcelain") == ""


def _init_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> str:
    repo = GitRepo.init(tmp_path / "repo")
    for path, text in files.items():
        repo.write(path, text)
    repo.commit("start")
    monkeypatch.chdir(repo.root)
    init = runner.invoke(app, ["init"])
    assert init.exit_code == 0, init.output
    return init.stdout


RECORD = "# Use git\n\nStatus: accepted\n\nWe use git.\n"


def test_init_prefers_a_convention_already_met_and_then_needs_no_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _init_only(tmp_path, monkeypatch, {"doc/adr/0001-use-git.md": RECORD})
    assert "docsync fix would rewrite 0 paragraphs" in out
    assert "docsync fix " not in out.split("Next steps")[1]


def test_init_names_docsync_fix_in_next_steps_when_no_convention_is_met(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ragged = "One line\nthat is wrapped. Then a second sentence " + "and much more text " * 8 + "\n"
    out = _init_only(tmp_path, monkeypatch, {"doc/adr/0001-use-git.md": RECORD + "\n" + ragged})
    assert "The prose meets none of them yet" in out
    steps = out.split("Next steps")[1]
    assert "docsync fix                        # re-wrap the 1 paragraphs that break" in steps
    assert steps.index("docsync fix") < steps.index("docsync check")


def test_conventions_doc_goes_beside_the_trees_parent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _init_only(tmp_path, monkeypatch, {"doc/adr/0001-use-git.md": RECORD})
    assert 'conventions = "doc/AGENTS.md"' in (tmp_path / "repo/.docsync.toml").read_text()
    migrated = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert migrated.exit_code == 0, migrated.output
    assert (tmp_path / "repo/doc/AGENTS.md").is_file()
    assert not (tmp_path / "repo/docs").exists()
    check = runner.invoke(app, ["check"])
    assert check.exit_code == 0, check.output
