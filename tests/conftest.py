"""Every test runs git, in-process (GitPython) or as a subprocess, isolated from the machine.

Inherited ``GIT_*`` variables (set when the suite runs inside a git hook) and
the user's and system's git config would otherwise leak into the
repositories the tests build; see :mod:`tests.gitutil`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.gitutil import GitRepo, isolate_git_environ


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git_environ(monkeypatch)


@pytest.fixture
def migration_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GitRepo]:
    """A repository with one commit (a README, on 2019-01-01), the working folder inside it:
    where the migrate tests write their legacy trees."""
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("README.md", "# Project\n")
    repo.commit("start", when="2019-01-01 10:00:00")
    monkeypatch.chdir(repo.root)
    yield repo
