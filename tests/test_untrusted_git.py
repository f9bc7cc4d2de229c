"""Class 3 of the threat model: git.

* a revision the user gives (``--since``) is never read as an option: every hostile
  spelling is refused with exit 2 and one line, and git writes no file;
* a file name the repository gives that looks like an option stays a file name;
* a foreign ``index.lock``, there before a write command or appearing at any of its git
  steps, is never removed nor written through: the command fails cleanly (exit 2), and
  the index is put back only under a lock docsync took itself (else the journal stays
  for ``--abort``);
* no hook the repository's git directory holds runs, whatever git step docsync takes.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from docsync.cli import app
from docsync.repository import plumbing
from docsync.write import writer
from tests.gitutil import GitRepo
from tests.untrusted import legacy_repo, one_line, picture, runner

HOSTILE_REVISIONS = [
    "--output={out}",
    "--output {out}",
    "-o{out}",
    "--ext-diff",
    "-",
    "--end-of-options",
    "HEAD\n--output={out}",
    "HEAD --output={out}",
    "--no-index",
]


def _outside_state(folder: Path) -> set[str]:
    """The names in ``folder`` outside its repository (``repo``)."""
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.relative_to(folder).parts[0] != "repo"}


@pytest.mark.parametrize("since", HOSTILE_REVISIONS)
@pytest.mark.parametrize("changed", [True, False], ids=["changed", "since-alone"])
def test_a_hostile_since_is_refused_and_git_writes_no_file(
    since: str, changed: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = legacy_repo(tmp_path / "repo")
    out = tmp_path / "written-by-git"
    before, around = picture(repo.root), _outside_state(tmp_path)
    monkeypatch.chdir(repo.root)
    args = ["check", *(["--changed"] if changed else []), f"--since={since.format(out=out)}"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output + result.stderr
    assert "--since" in one_line(result)
    assert not out.exists()
    assert not (repo.root / "written-by-git").exists()
    assert _outside_state(tmp_path) == around
    after = picture(repo.root)
    assert {k: v for k, v in after.items() if not k.startswith(".git/docsync")} == {
        k: v for k, v in before.items() if not k.startswith(".git/docsync")
    }


@pytest.mark.parametrize("since", ["HEAD", "HEAD~0", "main", "{head}"])
def test_a_real_revision_still_works(since: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = legacy_repo(tmp_path / "repo")
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, ["check", "--changed", f"--since={since.format(head=repo.head())}"])
    assert result.exit_code in (0, 1), result.output + result.stderr
    assert plumbing.revision(repo.root, since.format(head=repo.head())) == repo.head()


def test_file_names_that_look_like_options_stay_file_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = legacy_repo(tmp_path / "repo")
    for name in ("--output=PWNED.md", "-f.md", "--literal-pathspecs.md"):
        repo.write(name, "# Notes\n\nSee [the decision](docs/adr/0001-use-postgres.md).\n")
    repo.commit("names like options")
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output + result.stderr
    assert not (repo.root / "PWNED").exists() and not (repo.root / "PWNED.md").exists()
    assert repo.git("status", "--porcelain") == ""  # each was rewritten and committed by its name
    assert "docs/rfc/" in (repo.root / "--output=PWNED.md").read_text()


# --------------------------------------------------------------------------- a foreign index.lock

LOCK = b"another git process\n"


def _migrated(root: Path) -> GitRepo:
    """A migrated record tree with a guide that ``fix`` rewraps."""
    repo = legacy_repo(root)
    here = Path.cwd()
    os.chdir(root)
    try:
        done = runner.invoke(app, ["migrate", "--apply", "--commit"])
    finally:
        os.chdir(here)
    assert done.exit_code == 0, done.output + done.stderr
    repo.write("docs/guide.md", "# Guide\n\nA hard\nwrapped line.\n")
    repo.commit("guide")
    return repo


WRITE_COMMANDS = {
    "migrate": (legacy_repo, ("migrate", "--apply")),
    "migrate-commit": (legacy_repo, ("migrate", "--apply", "--commit")),
    "init": (legacy_repo, ("init",)),
    "new": (_migrated, ("new", "A new decision")),
    "move": (_migrated, ("move", "use-redis", "implemented")),
    "fix": (_migrated, ("fix",)),
}


_GIT_HISTORY = (".git/docsync", ".git/logs", ".git/objects", ".git/COMMIT_EDITMSG")
"""What a rolled-back commit may leave: docsync's own state, git's reflog (which records the
roll back), unreachable objects and the last message; HEAD, refs and the index are compared."""


def _without_own_state(found: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in found.items() if not k.startswith(_GIT_HISTORY)}


@pytest.mark.parametrize("which", WRITE_COMMANDS)
def test_a_foreign_index_lock_before_a_write_command_is_left_and_nothing_changes(
    which: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make, command = WRITE_COMMANDS[which]
    repo = make(tmp_path / "repo")
    monkeypatch.chdir(repo.root)
    lock = repo.root / ".git" / "index.lock"
    lock.write_bytes(LOCK)
    before = _without_own_state(picture(repo.root))
    result = runner.invoke(app, list(command))
    assert result.exit_code == 2, result.output + result.stderr
    assert "index.lock" in one_line(result)
    assert lock.read_bytes() == LOCK
    assert _without_own_state(picture(repo.root)) == before


def _git_steps(repo: GitRepo, command: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> int:
    """How many git steps ``command`` takes in ``repo`` (a repository of its own)."""
    seen: list[str] = []
    original = writer.mutation_point

    def count(kind: str, path: Path) -> None:
        if kind == "git":
            seen.append(kind)

    monkeypatch.setattr(writer, "mutation_point", count)
    monkeypatch.chdir(repo.root)
    assert runner.invoke(app, list(command)).exit_code in (0, 1)
    monkeypatch.setattr(writer, "mutation_point", original)
    return len(seen)


@pytest.mark.parametrize("which", ["migrate-commit", "new", "move"])
def test_a_foreign_index_lock_appearing_at_any_git_step_is_never_removed(
    which: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the k-th git step another git process takes the lock: the step fails, the
    rollback leaves the lock alone, and once the other process is done ``--abort`` (when
    the index could not be put back) leaves the repository as it was."""
    make, command = WRITE_COMMANDS[which]
    steps = _git_steps(make(tmp_path / "template"), command, monkeypatch)
    assert steps >= 1
    for k in range(steps):
        repo = make(tmp_path / f"repo-{k}")
        monkeypatch.chdir(repo.root)
        before = _without_own_state(picture(repo.root))
        lock = repo.root / ".git" / "index.lock"
        calls: list[int] = []

        def take_the_lock(kind: str, path: Path, lock: Path = lock, calls: list[int] = calls, k: int = k) -> None:
            if kind == "git":
                if len(calls) == k:
                    lock.write_bytes(LOCK)
                calls.append(k)

        monkeypatch.setattr(writer, "mutation_point", take_the_lock)
        result = runner.invoke(app, list(command))
        monkeypatch.setattr(writer, "mutation_point", lambda kind, path: None)
        assert result.exit_code == 2, (k, result.output + result.stderr)
        one_line(result)
        assert lock.read_bytes() == LOCK, k  # never removed nor written through
        lock.unlink()  # the other git process is done
        if (repo.root / ".git" / "docsync" / "journal" / "state.json").exists():
            assert "--abort" in result.stderr
            assert runner.invoke(app, [command[0], "--abort"]).exit_code == 0
        assert _without_own_state(picture(repo.root)) == before, k


# --------------------------------------------------------------------------- hooks

HOOKS = (
    "pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-merge-commit",
    "post-index-change", "reference-transaction", "post-checkout", "post-rewrite", "pre-auto-gc",
)


@pytest.mark.parametrize(
    "command",
    [("migrate", "--apply", "--commit"), ("init",), ("new", "A new decision")],
    ids=["migrate", "init", "new"],
)
def test_no_hook_runs_in_any_git_step(command: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = legacy_repo(tmp_path / "repo")
    ran = tmp_path / "ran"
    ran.mkdir()
    for hook in HOOKS:
        path = repo.root / ".git" / "hooks" / hook
        path.write_text(f"#!/bin/sh\ntouch '{ran}/{hook}'\n")
        path.chmod(0o755)
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, list(command))
    assert result.exit_code == 0, result.output + result.stderr
    assert sorted(os.listdir(ran)) == []
