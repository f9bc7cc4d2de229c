"""``docsync fix - --stdin-filename PATH``: the text on stdin fixed as the file at PATH.

The oracle is ``docsync fix PATH`` itself: for every case, the text is written
at PATH in a clone of the repository and fixed there, and the bytes stdin's fix
prints must be the bytes that fix wrote. The repository ``fix -`` runs in must
be byte for byte as it was, and the exit code and stderr say what is left.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from tests.gitutil import GitRepo, isolate_git_environ

runner = CliRunner()
DRAFT = "docs/draft.md"

# (name, text on stdin, whether the fix changes it, whether anything is left to report)
CASES = [
    ("clean", "# Draft\n\nSee [the guide](guide.md#install).\n", False, False),
    ("hard-wrapped", "# Draft\n\nA paragraph\nwrapped by hand\nover three lines.\n", True, False),
    ("hard-wrapped, CRLF", "# Draft\r\n\r\nA paragraph\r\nwrapped by hand.\r\n", True, False),
    ("mixed line ends", "# Draft\n\nA paragraph\r\nwrapped.\r\n\r\nEnd.\n", True, False),
    ("byte-order mark", "\ufeff# Draft\r\n\r\nA paragraph\r\nwrapped.\r\n", True, False),
    ("renamed target", "# Draft\n\nSee [the setup](setup.md) and [it](setup.md#setup).\n", True, False),
    ("letter case", "# Draft\n\nSee [the guide](Guide.md).\n", True, False),
    (
        "suppressed",
        "# Draft\n\n<!-- docsync-disable-next-line W001 -->\nA paragraph\nwrapped.\n",
        False,
        False,
    ),
    ("nothing to repair it with", "# Draft\n\nSee [x](nope.md).\n", False, True),
    ("fixed and left", "# Draft\n\nA paragraph\nwrapped.\n\n[x](nope.md)\n", True, True),
]


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    isolate_git_environ(monkeypatch)
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("README.md", "# Project\n\nRead [the guide](docs/guide.md).\n")
    repo.write("docs/guide.md", "# Guide\n\n## Install\n\nBack [home](../README.md).\n")
    repo.write("docs/setup.md", "# Setup\n\nSteps.\n")
    repo.commit("init")
    repo.move("docs/setup.md", "docs/installing.md")
    repo.commit("rename the setup page")
    monkeypatch.chdir(repo.root)
    return repo


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git/docsync" not in p.as_posix()
    }


def _fixed_on_disk(repo: GitRepo, tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """What ``docsync fix DRAFT`` writes for ``text`` written there, in a clone."""
    clone = repo.clone(tmp_path / "clone")
    (clone.root / DRAFT).write_bytes(text.encode("utf-8"))
    monkeypatch.chdir(clone.root)
    result = runner.invoke(app, ["fix", DRAFT])
    assert result.exit_code in (0, 1), result.output
    monkeypatch.chdir(repo.root)
    fixed = (clone.root / DRAFT).read_bytes()
    shutil.rmtree(clone.root)
    return fixed


@pytest.mark.parametrize(("name", "text", "changes", "left"), CASES, ids=[c[0] for c in CASES])
def test_stdin_is_fixed_as_fix_fixes_the_file(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, changes: bool, left: bool
) -> None:
    expected = _fixed_on_disk(repo, tmp_path, text, monkeypatch)
    before = _snapshot(repo.root)
    result = runner.invoke(app, ["fix", "-", "--stdin-filename", DRAFT], input=text.encode("utf-8"))
    assert result.stdout_bytes == expected
    assert (result.stdout_bytes != text.encode("utf-8")) is changes
    assert result.exit_code == (1 if left else 0), result.output
    assert bool(result.stderr) is left
    assert all(line.startswith(f"{DRAFT}:") for line in result.stderr.splitlines())
    assert _snapshot(repo.root) == before  # nothing written, not even the draft


@pytest.mark.parametrize(("name", "text", "changes", "left"), CASES, ids=[c[0] for c in CASES])
def test_check_and_diff_print_no_text(
    repo: GitRepo, name: str, text: str, changes: bool, left: bool
) -> None:
    checked = runner.invoke(app, ["fix", "-", "--stdin-filename", DRAFT, "--check"], input=text.encode())
    assert checked.stdout == ""
    assert checked.exit_code == (1 if changes else 0)
    diffed = runner.invoke(app, ["fix", "-", "--stdin-filename", DRAFT, "--diff"], input=text.encode())
    assert diffed.stdout.startswith(f"--- a/{DRAFT}\n+++ b/{DRAFT}\n") is changes
    assert (diffed.stdout == "") is not changes


@pytest.mark.parametrize(
    ("args", "given", "message"),
    [
        (["fix", "-"], b"# x\n", "'-' reads stdin: give its path with --stdin-filename"),
        (["fix", "--stdin-filename", DRAFT], b"# x\n", "--stdin-filename needs '-' as the path"),
        (["fix", "-", "--stdin-filename", DRAFT], b"# \xff\n", "stdin is not UTF-8 text (byte 2)"),
        (["check", "-", "--stdin-filename", DRAFT], b"# \xff\n", "stdin is not UTF-8 text (byte 2)"),
        (["fix", "-", "--stdin-filename", DRAFT], b"# x\n\nA\x00b\n", "stdin: file contains a NUL byte"),
    ],
)
def test_a_wrong_stdin_is_exit_2(repo: GitRepo, args: list[str], given: bytes, message: str) -> None:
    result = runner.invoke(app, args, input=given)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("ends", ["\n", "\r\n", "\r"])
def test_check_reads_stdin_as_it_reads_the_file(repo: GitRepo, ends: str) -> None:
    """Line ends and a byte-order mark on stdin give the findings the same text on disk gives."""
    text = "\ufeff" + ends.join(["# Draft", "", "A hard", "wrap and [x](nope.md).", ""])
    (repo.root / DRAFT).write_bytes(text.encode("utf-8"))
    on_disk = runner.invoke(app, ["check", DRAFT, "-f", "concise", "-q"])
    (repo.root / DRAFT).unlink()
    given = runner.invoke(app, ["check", "-", "--stdin-filename", DRAFT, "-f", "concise", "-q"], input=text.encode())
    assert given.exit_code == on_disk.exit_code == 1
    assert given.stdout == on_disk.stdout
    assert [line.split(" ")[:2] for line in given.stdout.splitlines()] == [
        [f"{DRAFT}:3:7:", "W001"],
        [f"{DRAFT}:4:10:", "L001"],
    ]
