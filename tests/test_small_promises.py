"""Class 8 of the threat model: the small promises.

* "every change was undone" holds of folders too: Ctrl-C at any mutation of a write
  command, or SIGKILL at any mutation and then ``--abort``, leaves no folder the run made,
  empty or not (each k is generated from the count of the run's mutations);
* ``fix`` re-wrapping a file whose lines end in a lone CR writes CR line breaks;
* ``--continue`` with nothing to continue says "continue".
"""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

import pytest

from docsync.cli import app
from docsync.write import writer
from tests.gitutil import GitRepo
from tests.test_guarantees import _docsync, _killed_at
from tests.untrusted import legacy_repo, one_line, picture, runner


def _work_tree(root: Path) -> dict[str, object]:
    """Every file, symlink and folder outside ``.git``, with its bytes or target."""
    return {k: v for k, v in picture(root, git=()).items() if k != ".git"}


def _copy(template: GitRepo, root: Path) -> GitRepo:
    """A copy of ``template`` (built once per test rather than once per k), hook modes kept."""
    return GitRepo(Path(shutil.copytree(template.root, root, symlinks=True)))


def _mutations(repo: GitRepo, command: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    seen: list[str] = []
    monkeypatch.setattr(writer, "mutation_point", lambda kind, path: seen.append(kind))
    monkeypatch.chdir(repo.root)
    assert runner.invoke(app, command).exit_code in (0, 1)
    monkeypatch.setattr(writer, "mutation_point", lambda kind, path: None)
    return len(seen)


@pytest.mark.parametrize(
    "command", [["migrate", "--apply", "--commit"], ["init"]], ids=["migrate", "init"]
)
def test_ctrl_c_at_any_mutation_leaves_no_folder_behind(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    template = legacy_repo(tmp_path / "template")
    total = _mutations(_copy(template, tmp_path / "count"), command, monkeypatch)
    assert total >= 3
    for k in range(1, total + 1):
        repo = _copy(template, tmp_path / f"k{k}")
        before = _work_tree(repo.root)
        seen: list[int] = []

        def interrupt(kind: str, path: Path, seen: list[int] = seen, k: int = k) -> None:
            seen.append(1)
            if len(seen) == k:
                raise KeyboardInterrupt

        monkeypatch.setattr(writer, "mutation_point", interrupt)
        monkeypatch.chdir(repo.root)
        result = runner.invoke(app, command)
        monkeypatch.setattr(writer, "mutation_point", lambda kind, path: None)
        assert result.exit_code == 130, (k, result.stdout + result.stderr)
        line = one_line(result)
        if "undone" in line:
            assert _work_tree(repo.root) == before, (k, line)




def test_sigkill_at_any_mutation_then_abort_leaves_no_folder_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    command = ["migrate", "--apply", "--commit"]
    template = legacy_repo(tmp_path / "template")
    total = _mutations(_copy(template, tmp_path / "count"), command, monkeypatch)
    aborted = 0
    for k in range(2, total + 1, 5):  # every fifth mutation: each is a process of its own
        repo = _copy(template, tmp_path / f"k{k}")
        before = _work_tree(repo.root)
        killed = _killed_at(repo.root, k, *command)
        assert killed.returncode == -signal.SIGKILL, k
        if not (repo.root / ".git" / "docsync" / "journal" / "state.json").exists():
            continue  # before the journal, or after the run counted as done
        undo = _docsync(repo.root, "migrate", "--abort")
        assert undo.returncode == 0, (k, undo.stderr)
        assert _work_tree(repo.root) == before, k
        aborted += 1
    assert aborted >= 3


@pytest.mark.parametrize("wrap", ["20", '"sentence"', '"none"'])
def test_fix_keeps_lone_cr_line_ends_where_it_breaks_lines(
    wrap: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write(".docsync.toml", f"wrap = {wrap}\n")
    path = repo.root / "guide.md"
    path.write_bytes(
        b"# Guide\r\rA hard wrapped paragraph of three lines. And a second\rsentence here.\r\r"
        b"- A list item that goes on and on and on. And on.\r"
    )
    repo.commit("an old Mac file")
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, ["fix"])
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    data = path.read_bytes()
    assert b"\n" not in data
    assert runner.invoke(app, ["check", "--gate", "wrap"]).exit_code == 0


@pytest.mark.parametrize("command", ["migrate", "fix", "new", "move", "init"])
def test_continue_with_nothing_to_continue_says_continue(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = legacy_repo(tmp_path / "repo")
    monkeypatch.chdir(repo.root)
    for flag, word in (("--continue", "continue"), ("--abort", "abort")):
        result = runner.invoke(app, [command, flag])
        assert result.exit_code == 2, result.stdout + result.stderr
        line = one_line(result)
        assert f"no unfinished `docsync {command}` to {word}" in line, line
