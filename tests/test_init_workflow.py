"""The workflow ``docsync init --hooks`` writes: current action versions, read-only
permissions, one commit checked out (a check reads the work tree, not history), and one
run per change (pushes to the default branch, and pull requests).

Each property is read from the YAML as GitHub reads it, and the shallow checkout is
proven by running ``docsync check`` in a real ``--depth 1`` clone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from docsync.adopt.hooks import workflow
from docsync.cli import app
from tests.gitutil import GitRepo, git, isolate_git_environ

runner = CliRunner()

# The newest major version of each action, all on node 24 (node 20 actions are
# deprecated on GitHub's runners).
CURRENT = {"actions/checkout": "v6", "actions/setup-python": "v6", "actions/cache": "v5"}


def _load(text: str) -> dict[Any, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(text)
    return loaded


def _triggers(flow: dict[Any, Any]) -> dict[str, Any]:
    triggers: dict[str, Any] = flow[True]  # YAML 1.1 reads the key `on` as true
    return triggers


def test_every_action_is_at_its_current_major_version() -> None:
    steps = _load(workflow())["jobs"]["docsync"]["steps"]
    used = dict(step["uses"].split("@") for step in steps if "uses" in step)
    assert used == CURRENT


def test_the_token_can_only_read() -> None:
    flow = _load(workflow())
    assert flow["permissions"] == {"contents": "read"}
    assert all("permissions" not in job for job in flow["jobs"].values())
    checkout = next(s for s in flow["jobs"]["docsync"]["steps"] if "checkout" in s.get("uses", ""))
    assert checkout["with"]["persist-credentials"] is False


def test_one_commit_is_checked_out() -> None:
    """No ``fetch-depth``: actions/checkout's default of one commit."""
    for step in _load(workflow())["jobs"]["docsync"]["steps"]:
        assert "fetch-depth" not in step.get("with", {})


@pytest.mark.parametrize("branch", ["main", "trunk", "release/2.x", "on", "1.0", 'we"ird'])
def test_a_pull_requests_branch_runs_once(branch: str) -> None:
    """Pushes run on the default branch only; a branch with a pull request runs as the
    pull request, not twice."""
    triggers = _triggers(_load(workflow(branch)))
    assert triggers == {"push": {"branches": [branch]}, "pull_request": None}


def _repo_on(root: Path, branch: str) -> GitRepo:
    git(root.parent, "init", "-q", "-b", branch, str(root))
    repo = GitRepo(root)
    repo.write("docs/guide.md", "# Guide\n\nSee [the plan](plan.md#steps).\n")
    repo.write("docs/plan.md", "# Plan\n\n## Steps\n\nOne.\n")
    repo.commit("init")
    return repo


@pytest.mark.parametrize(
    ("branches", "clone", "expected"),
    [
        (["trunk"], False, "trunk"),  # no main or master: the branch checked out
        (["develop", "main"], False, "main"),  # a local main beats the branch checked out
        (["develop"], True, "develop"),  # a clone: the branch origin/HEAD names
    ],
)
def test_init_writes_the_repositorys_default_branch(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    branches: list[str],
    clone: bool,
    expected: str,
) -> None:
    isolate_git_environ(monkeypatch)
    repo = _repo_on(tmp_path / "origin", branches[0])
    for other in branches[1:]:
        repo.git("branch", other)
    root = repo.root
    if clone:
        root = tmp_path / "clone"
        git(tmp_path, "clone", "-q", str(repo.root), str(root))
        git(root, "checkout", "-q", "-b", "feature")
    elif len(branches) > 1:
        repo.git("checkout", "-q", "-b", "feature")
    monkeypatch.chdir(root)
    result = runner.invoke(app, ["init", "--hooks"])
    assert result.exit_code == 0, result.stdout
    flow = _load((root / ".github/workflows/docsync.yml").read_text())
    assert _triggers(flow)["push"] == {"branches": [expected]}


def test_a_check_needs_no_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the workflow's one-commit checkout gives is enough for ``docsync check``."""
    isolate_git_environ(monkeypatch)
    repo = _repo_on(tmp_path / "origin", "main")
    repo.write("docs/plan.md", "# Plan\n\n## Steps\n\nOne, then two.\n")
    repo.commit("second")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo.root}", str(shallow))
    assert (shallow / ".git" / "shallow").is_file()
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "docsync", "check"], cwd=shallow, env=env,
        capture_output=True, text=True, timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    assert "All clear" in done.stdout
