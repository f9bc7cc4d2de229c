"""A standard stream closed before docsync starts (``>&-``, ``2>&-``, ``<&-``): the run
ends with the exit code it has with every stream open, and no stream left open shows a
traceback.

Python starts such a process with ``sys.stdout`` (or ``stdin``, ``stderr``) set to None;
before the fix, ``check`` raised AttributeError writing its report. Generated: each
stream closed alone and all three at once, for each command shape that reads or writes
them (a report in two formats, text from stdin, a dry run of migrate).
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gitutil import GitRepo, git_environ

COMMANDS = {
    "check json": ["check", "--format", "json"],
    "check text": ["check"],
    "check stdin": ["check", "-", "--stdin-filename", "docs/new.md"],
    "migrate": ["migrate"],
}
STREAMS = {0: "<&-", 1: ">&-", 2: "2>&-"}
# each stream alone, and all three: a stream's None is handled on its own, so the pairs
# add no case the singles and the whole set do not
CLOSED = [*itertools.combinations(STREAMS, 1), tuple(STREAMS)]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    made = GitRepo.init(tmp_path_factory.mktemp("closed") / "repo")
    made.write("docs/adr/0001-first.md", "# 1. First\n\nStatus: Accepted\n\nSee [the second](0002-second.md).\n")
    made.write("README.md", "# Read me\n\nA [broken](nowhere.md) link.\n")
    made.commit("records")
    return made.root


def _run(repo: Path, command: list[str], closed: tuple[int, ...]) -> subprocess.CompletedProcess[str]:
    redirections = " ".join(STREAMS[fd] for fd in closed)
    script = f'exec "$@" {redirections}'
    return subprocess.run(
        ["sh", "-c", script, "sh", sys.executable, "-m", "docsync", *command],
        cwd=repo, env=git_environ(), capture_output=True, text=True, timeout=60,
        input="# New\n\nSee [the readme](../README.md).\n",
    )


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_closed_stream_changes_no_exit_code(repo: Path, command: str) -> None:
    args = COMMANDS[command]
    open_run = _run(repo, args, ())
    assert open_run.returncode in (0, 1), open_run.stderr
    for closed in CLOSED:
        done = _run(repo, args, closed)
        assert done.returncode == open_run.returncode, (closed, done.stderr)
        assert "Traceback" not in done.stdout + done.stderr, (closed, done.stderr)
