"""A file that is not UTF-8 is checked as GitHub renders it (each bad byte as U+FFFD),
with one F001 about the encoding, and is never rewritten."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from tests.gitutil import GitRepo

runner = CliRunner()

_LATIN1 = "# Caf\xe9\n\nSee [gone](missing.md) and [top](#nowhere).\n\nTwo\nlines.\n".encode("latin-1")


@pytest.fixture
def latin1_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    repo = GitRepo.init(tmp_path / "repo")
    (repo.root / "notes.md").write_bytes(_LATIN1)
    repo.write("index.md", "# Index\n\n[notes](notes.md#caf) [no](notes.md#caf\ufffd)\n")
    repo.commit()
    monkeypatch.chdir(repo.root)
    return repo


def _findings(*args: str) -> list[tuple[str, str, int]]:
    result = runner.invoke(app, ["check", "--output-format", "json", *args])
    assert result.exit_code == 1, result.output
    return sorted((f["path"], f["rule"], f["line"]) for f in json.loads(result.stdout)["findings"])


@pytest.mark.parametrize("cache", ["true", "false"])
def test_links_in_a_latin1_file_are_checked_with_one_encoding_finding(
    latin1_repo: GitRepo, cache: str
) -> None:
    (latin1_repo.root / ".docsync.toml").write_text(f'gates = ["links"]\ncache = {cache}\n')
    expected = [
        ("index.md", "L006", 3),  # '#caf\ufffd': GitHub's anchor of "Caf\ufffd" drops the symbol
        ("notes.md", "F001", 1),
        ("notes.md", "L001", 3),
        ("notes.md", "L006", 3),
    ]
    assert _findings() == expected
    assert _findings() == expected  # the second run, from the caches, says the same


def test_fix_never_rewrites_a_file_that_is_not_utf8(latin1_repo: GitRepo) -> None:
    (latin1_repo.root / ".docsync.toml").write_text('gates = ["wrap"]\nwrap = "none"\n')
    result = runner.invoke(app, ["fix"])
    assert result.exit_code == 1
    assert "F001" in result.stdout
    assert (latin1_repo.root / "notes.md").read_bytes() == _LATIN1


def test_the_writer_refuses_to_replace_bytes_that_do_not_decode(latin1_repo: GitRepo) -> None:
    from docsync.write.writer import FileWrite, Refused, write_atomic

    with pytest.raises(Refused, match="not valid UTF-8"):
        write_atomic(latin1_repo.root, FileWrite("notes.md", "# Caf\ufffd\n"))
    assert (latin1_repo.root / "notes.md").read_bytes() == _LATIN1
