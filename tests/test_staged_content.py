"""``check --staged`` checks what the commit will hold, in real repositories with real hooks:
a plain ``.git/hooks/pre-commit`` script (what lefthook and husky install: nothing is
stashed) and the pre-commit framework (which stashes unstaged changes) give the same answer.
A staged rename is named by git's own rename detection, ``fix`` repairs its inbound links
before the commit, and ``new`` and ``move`` stage all they write."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from docsync.check.check import run_check
from docsync.check.fix import run_fix
from tests.gitutil import GitRepo, git_environ
from tests.test_lifecycle import FILES

HOOKS = ["plain", "pre-commit"]


def _install(repo: GitRepo, hook: str) -> None:
    """A hook running ``docsync check --staged``: a script of its own, as lefthook and husky
    write one, or the pre-commit framework's, with a local hook."""
    if hook == "plain":
        script = repo.root / ".git" / "hooks" / "pre-commit"
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m docsync check --staged\n')
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
        return
    repo.write(
        ".pre-commit-config.yaml",
        "repos:\n- repo: local\n  hooks:\n  - id: docsync\n    name: docsync check\n"
        f"    entry: {sys.executable} -m docsync check --staged\n"
        "    language: system\n    pass_filenames: false\n    always_run: true\n",
    )
    repo.commit("hooks", paths=(".pre-commit-config.yaml",))
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "install"], cwd=repo.root, env=_env(repo),
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _env(repo: GitRepo) -> dict[str, str]:
    env = git_environ()
    env["PRE_COMMIT_HOME"] = str(repo.root.parent / "pre-commit-home")
    env.pop("PRE_COMMIT", None)
    return env


def _commit(repo: GitRepo) -> subprocess.CompletedProcess[str]:
    """``git commit`` as a person runs it, hook and all."""
    return subprocess.run(
        ["git", "commit", "-q", "-m", "change"], cwd=repo.root, env=_env(repo),
        capture_output=True, text=True, check=False,
    )


def _linked(root: Path) -> GitRepo:
    repo = GitRepo.init(root)
    repo.write("docs/guide.md", "# Guide\n\nSee [the plan](plan.md#steps).\n")
    repo.write("docs/plan.md", "# Plan\n\n## Steps\n\nOne.\n")
    repo.write("README.md", "# Project\n\nRead [the guide](docs/guide.md).\n")
    repo.commit("init")
    return repo


# (what is staged, then what is left unstaged on disk, whether the commit passes)
_CASES = {
    "staged break, unstaged fix": (
        {"docs/guide.md": "# Guide\n\nSee [the plan](plann.md#steps).\n"},
        {"docs/guide.md": "# Guide\n\nSee [the plan](plan.md#steps).\n"},
        False,
    ),
    "staged clean, work tree broken": (
        {"docs/guide.md": "# Guide\n\nSee [the plan](plan.md).\n"},
        {"docs/guide.md": "# Guide\n\nSee [the plan](gone.md).\n"},
        True,
    ),
    "staged anchor kept, unstaged heading rename": (
        {"docs/guide.md": "# Guide\n\nSee [the steps](plan.md#steps) again.\n"},
        {"docs/plan.md": "# Plan\n\n## Stages\n\nOne.\n"},
        True,
    ),
    "staged heading rename, anchor kept on disk": (
        {"docs/plan.md": "# Plan\n\n## Stages\n\nOne.\n"},
        {"docs/plan.md": "# Plan\n\n## Steps\n\nOne.\n"},
        False,
    ),
    "staged file deleted on disk": (
        {"docs/guide.md": "# Guide\n\nSee [the plan](plann.md).\n"},
        {"docs/guide.md": None},
        False,
    ),
}


def _stage_then_leave(repo: GitRepo, staged: dict[str, str], unstaged: dict[str, str | None]) -> None:
    for path, text in staged.items():
        repo.write(path, text)
        repo.git("add", path)
    for path, text in unstaged.items():
        if text is None:
            (repo.root / path).unlink()
        else:
            repo.write(path, text)


@pytest.mark.parametrize("case", list(_CASES))
def test_check_staged_reads_the_index(case: str, tmp_path: Path) -> None:
    staged, unstaged, passes = _CASES[case]
    repo = _linked(tmp_path / "repo")
    _stage_then_leave(repo, staged, unstaged)
    result = run_check(repo.root, staged=True)
    assert result.exit_code == (0 if passes else 1), result.findings


@pytest.mark.parametrize("hook", HOOKS)
@pytest.mark.parametrize("case", ["staged break, unstaged fix", "staged clean, work tree broken"])
def test_a_hook_passes_or_blocks_on_what_is_staged(hook: str, case: str, tmp_path: Path) -> None:
    staged, unstaged, passes = _CASES[case]
    repo = _linked(tmp_path / "repo")
    _install(repo, hook)
    _stage_then_leave(repo, staged, unstaged)
    done = _commit(repo)
    assert (done.returncode == 0) is passes, done.stdout + done.stderr


def _renamed(root: Path, hook: str | None = None) -> GitRepo:
    """Nine records, two files linking to the third, which ``git mv`` renames (the hook,
    if any, installed first)."""
    repo = GitRepo.init(root)
    for n in range(1, 10):
        repo.write(f"docs/adr/000{n}-decision-{n}.md", f"# Decision {n}\n\nWe decided {n}.\n")
    repo.write("docs/adr/README.md", "# Decisions\n\n- [Three](0003-decision-3.md)\n")
    repo.write("docs/guide.md", "# Guide\n\nAs [decided](adr/0003-decision-3.md).\n")
    repo.commit("records")
    if hook is not None:
        _install(repo, hook)
    repo.git("mv", "docs/adr/0003-decision-3.md", "docs/adr/0003-renamed.md")
    return repo


def test_a_staged_rename_is_named_by_gits_rename_detection(tmp_path: Path) -> None:
    repo = _renamed(tmp_path / "repo")
    found = run_check(repo.root, staged=True).findings
    assert sorted((f.path, f.rule, f.suggestion) for f in found) == [
        ("docs/adr/README.md", "L001", "0003-renamed.md"),
        ("docs/guide.md", "L001", "adr/0003-renamed.md"),
    ]
    assert "did you mean '0003-renamed.md'?" in next(f.message for f in found if f.path == "docs/adr/README.md")


@pytest.mark.parametrize("hook", HOOKS)
def test_fix_repairs_a_staged_renames_inbound_links_before_the_commit(hook: str, tmp_path: Path) -> None:
    repo = _renamed(tmp_path / "repo", hook)
    blocked = _commit(repo)
    assert blocked.returncode != 0 and "0003-renamed.md" in blocked.stdout + blocked.stderr
    fixed = run_fix(repo.root)
    assert sorted(f.path for f in fixed.fixes) == ["docs/adr/README.md", "docs/guide.md"]
    assert "(adr/0003-renamed.md)" in (repo.root / "docs/guide.md").read_text()
    repo.git("add", "-A")
    done = _commit(repo)
    assert done.returncode == 0, done.stdout + done.stderr


def _records(root: Path) -> GitRepo:
    repo = GitRepo.init(root)
    for path, text in FILES.items():
        repo.write(path, text)
    repo.commit("records")
    run_fix(repo.root)
    repo.commit("index")
    return repo


def _docsync(repo: GitRepo, *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "docsync", *args], cwd=repo.root, env={**os.environ, **git_environ()},
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("hook", HOOKS)
@pytest.mark.parametrize(
    "command", [["new", "Use SQLite for the cache"], ["move", "plugin-api", "rejected"], ["move", "use-postgres", "proposed"]]
)
def test_new_and_move_stage_all_they_write(hook: str, command: list[str], tmp_path: Path) -> None:
    repo = _records(tmp_path / "repo")
    _install(repo, hook)
    _docsync(repo, *command)
    left = repo.git("status", "--porcelain", "--untracked-files=all")
    assert [line for line in left.splitlines() if line[1] != " "] == []  # nothing unstaged
    done = _commit(repo)
    assert done.returncode == 0, done.stdout + done.stderr
