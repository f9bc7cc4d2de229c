"""A writing command asks git each question once, and still re-reads what the user may change.

docsync's git processes are observed as they start (the real ones run; nothing is
mocked). Where the repository is, its files, the work tree's status, the staged
paths and the sparse setting are each asked once per ``migrate --apply --commit``,
also when a failure rolls everything back; HEAD is read afresh where a guarantee
needs it (recorded when the transaction begins, read again before it is put back).
The design record: docs/rfc/implemented/2026-12-07-one-question-to-git-per-run.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from docsync.errors import DocsyncError
from docsync.migrate.apply.apply import apply
from docsync.migrate.run import Options, run
from docsync.write import transaction, writer
from tests.gitutil import GitRepo, git_environ

RECORDS = {
    "docs/adr/0001-use-postgres.md": "# ADR 0001: Use Postgres\n\nStatus: accepted\n\nSee ADR 0002.\n",
    "docs/adr/0002-use-redis.md": "# ADR 0002: Use Redis\n\nStatus: proposed\n\nAfter ADR 0001.\n",
    "README.md": "# Project\n\nRead [the first decision](docs/adr/0001-use-postgres.md).\n",
}

QUESTIONS = {
    "where": ("rev-parse", "--absolute-git-dir"),
    "index path": ("rev-parse", "--git-path"),
    "tracked": ("ls-files", "-s"),
    "untracked": ("ls-files", "-o"),
    "status": ("status",),
    "staged": ("diff", "--cached", "--name-only"),
    "sparse": ("config", "--bool"),
    "HEAD": ("rev-parse", "-q", "--verify", "HEAD^{commit}"),
    "HEAD's tree": ("rev-parse", "-q", "--verify", "HEAD^{tree}"),  # asked with the listing
}


def _question(argv: tuple[str, ...]) -> str:
    """Which of :data:`QUESTIONS` a git command line asks ("" for any other)."""
    words: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word == "-c":
            skip = True
        else:
            words.append(word)
    for name, start in QUESTIONS.items():
        if tuple(words[: len(start)]) == start:
            return name
    return ""


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Every git process this process starts, by question (GitPython's too)."""
    seen: Counter[str] = Counter()
    real = subprocess.Popen.__init__

    def starting(self: subprocess.Popen[Any], args: Any, *rest: Any, **options: Any) -> None:
        if (
            isinstance(args, list | tuple)
            and args
            and os.path.basename(str(args[0])).startswith("git")
        ):
            seen[_question(tuple(str(a) for a in args[1:]))] += 1
        real(self, args, *rest, **options)

    monkeypatch.setattr(subprocess.Popen, "__init__", starting)
    yield seen


@pytest.fixture
def legacy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    repo = GitRepo.holding(
        tmp_path / "repo", RECORDS, "records", when="2022-02-02 10:00:00", tz="+0100"
    )
    monkeypatch.chdir(repo.root)
    return repo


def test_migrate_apply_commit_asks_each_question_once(legacy: GitRepo, asked: Counter[str]) -> None:
    result = CliRunner().invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output
    assert len(legacy.git("log", "--format=%H").split()) == 3  # it did migrate: two commits
    # The run's listing serves the plan, the history reader, the check before and the
    # apply; the check after it lists again (the apply moved files).
    assert asked["where"] == 1
    assert asked["index path"] == 0  # answered with "where"
    assert asked["tracked"] == asked["untracked"] == asked["HEAD's tree"] == 2
    assert asked["status"] == asked["sparse"] == 1
    assert asked["staged"] == 0  # the one status says what is staged
    assert 1 <= asked["HEAD"] <= 2  # the transaction's own (the plan's may be the forked reader's)


def test_a_rolled_back_apply_reads_head_again_and_nothing_else(
    legacy: GitRepo, asked: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, outcome = run(legacy.root, Options())
    head = legacy.head()
    asked.clear()
    seen = 0

    def last_step_fails(kind: str, path: Path) -> None:
        nonlocal seen
        seen += 1
        if kind == "git" and seen > 8:  # a git command after the first commit
            raise OSError("disk full")

    monkeypatch.setattr(writer, "mutation_point", last_step_fails)
    with pytest.raises(DocsyncError, match="disk full"):
        apply(legacy.root, outcome, commit=True)
    assert legacy.head() == head and transaction.pending(legacy.root / ".git") is None
    assert asked["where"] == 1  # the apply's, passed to the transaction and its rollback
    assert asked["index path"] == asked["tracked"] == asked["HEAD's tree"] == asked["staged"] == 0
    assert asked["untracked"] == asked["status"] == asked["sparse"] == 1
    assert asked["HEAD"] == 2  # recorded when the transaction began, read again to put it back


def _shimmed_git(folder: Path, log: Path) -> dict[str, str]:
    """An environment whose ``git`` is a script that logs its arguments, then runs git."""
    real = shutil.which("git")
    assert real is not None
    folder.mkdir()
    shim = folder / "git"
    shim.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{log}"\nexec "{real}" "$@"\n')
    shim.chmod(0o755)
    env = git_environ()
    env["PATH"] = f"{folder}{os.pathsep}{env.get('PATH', '')}"
    return env


@pytest.mark.parametrize(
    "command", [("check", "--format", "json"), ("check", "docs", "--format", "text")]
)
def test_a_real_check_asks_where_and_what_once(
    legacy: GitRepo, tmp_path: Path, command: tuple[str, ...]
) -> None:
    """The kept report's key and the run share one look-up and one listing: a cold check,
    as a user starts it (its key is made before the command line is built), asks git
    where the repository is, its files and HEAD's tree once each, and nothing else."""
    log = tmp_path / "git.log"
    env = _shimmed_git(tmp_path / "shim", log)
    done = subprocess.run(
        [sys.executable, "-m", "docsync", *command], cwd=legacy.root, env=env, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    seen = Counter(_question(tuple(line.split())) for line in log.read_text().splitlines())
    assert seen == Counter({"where": 1, "tracked": 1, "untracked": 1, "HEAD's tree": 1}), seen
