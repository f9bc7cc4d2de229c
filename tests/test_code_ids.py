"""Ids in program files: comments get repository paths, strings and code are the program's.

Pygments' lexer for the file name tells a comment from a string literal;
``code_refs = "all"`` rewrites both; a file no lexer knows is read as
before (every id rewritten). Real repositories, migrated through the CLI.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from docsync.parse.lexing import comment_spans
from tests.gitutil import GitRepo

runner = CliRunner()

RECORD = "docs/adr/0005-use-postgres.md"
MOVED = "docs/rfc/implemented/2022-02-02-use-postgres.md"
PROGRAM = 'def run() -> None:  # see ADR 5 for why\n    print("decided in ADR 5")\n'
SCRIPT = '#!/bin/sh\n# Amends records (ADR 5 explains it).\necho "usage: amends ADR 5: text"\n'
FILES = {
    RECORD: "# ADR 5: Use Postgres\n\nStatus: accepted\n\nWe use Postgres.\n",
    "README.md": "# Project\n\nSee ADR 5.\n",
    "src/app.py": PROGRAM,
    "bin/amend.sh": SCRIPT,
    "notes/plain.unknownext": "ADR 5 in a file no lexer knows\n",
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GitRepo]:
    repo = GitRepo.holding(tmp_path / "repo", FILES, "records", when="2022-02-02 10:00:00", tz="+0100")
    monkeypatch.chdir(repo.root)
    yield repo


def _migrate(repo: GitRepo) -> str:
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_comments_are_rewritten_and_strings_reported(repo: GitRepo) -> None:
    dry = runner.invoke(app, ["migrate", "--format", "json"])
    assert dry.exit_code == 0, dry.output
    kept = json.loads(dry.stdout)["program_text_ids"]
    assert kept == [
        {"at": "bin/amend.sh:3:21", "id": "ADR 5"},
        {"at": "src/app.py:2:23", "id": "ADR 5"},
    ]
    out = _migrate(repo)
    assert "src/app.py:2:23: 'ADR 5' left as written" in " ".join(out.split())
    root = repo.root
    assert (root / "src/app.py").read_text() == PROGRAM.replace("see ADR 5", f"see {MOVED}")
    assert (root / "bin/amend.sh").read_text() == SCRIPT.replace("(ADR 5", f"({MOVED}")
    # No lexer for the name: today's behaviour, the id becomes the path.
    assert (root / "notes/plain.unknownext").read_text() == f"{MOVED} in a file no lexer knows\n"
    check = runner.invoke(app, ["check"])
    assert check.exit_code == 0, check.output  # ids kept in strings are the program's, not findings
    # Switched to "all" afterwards: the refs gate reports the strings' ids, and fix rewrites them.
    repo.write(".docsync.toml", 'code_refs = "all"\n')
    check = runner.invoke(app, ["check", "--gate", "refs"])
    assert check.exit_code == 1
    assert "bin/amend.sh\n  3:21  R003" in check.output
    assert "src/app.py\n  2:23  R003" in check.output
    assert "2 findings in 2 files" in check.output
    fixed = runner.invoke(app, ["fix"])
    assert fixed.exit_code == 0, fixed.output
    assert (root / "src/app.py").read_text() == PROGRAM.replace("ADR 5", MOVED)


def test_code_refs_all_rewrites_strings_too(repo: GitRepo) -> None:
    repo.write(".docsync.toml", 'code_refs = "all"\n')
    repo.commit("config")
    out = _migrate(repo)
    assert "left as written" not in out
    root = repo.root
    assert (root / "src/app.py").read_text() == PROGRAM.replace("ADR 5", MOVED)
    assert (root / "bin/amend.sh").read_text() == SCRIPT.replace("ADR 5", MOVED)


def test_code_refs_rejects_other_values(repo: GitRepo) -> None:
    repo.write(".docsync.toml", 'code_refs = "strings"\n')
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 2
    assert '"path", "all" or "off"' in " ".join(result.output.split())


@pytest.mark.parametrize(
    ("path", "text", "comments"),
    [
        ("a.py", '# ADR 5\nx = "ADR 5"\n', ["# ADR 5"]),
        ("tool.sh", 'echo "ADR 5" # ADR 5\n', ["# ADR 5"]),
        ("a.c", '#define HELP "ADR 5"\n/* ADR 5 */\n', ["/* ADR 5 */"]),
        ("ci.yml", "# ADR 5\nname: ADR 5\n", ["# ADR 5"]),
        ("a.unknownext", "# ADR 5\n", None),
        ("notes.txt", "ADR 5 in prose\n", None),
    ],
)
def test_comment_spans(path: str, text: str, comments: list[str] | None) -> None:
    spans = comment_spans(path, text)
    found = None if spans is None else [text[s.start : s.end].rstrip("\n") for s in spans]
    assert found == comments


def test_compound_ids_become_one_link_per_record(repo: GitRepo) -> None:
    repo.write("docs/adr/0006-use-redis.md", "# ADR 6: Use Redis\n\nStatus: accepted\n\nRedis.\n")
    repo.write("docs/guide.md", "# Guide\n\nSee ADR 5 and 6, and ADR-5/6 in 2019.\n")
    repo.commit("second record", when="2022-02-02 10:00:00", tz="+0100")
    _migrate(repo)
    postgres = "rfc/implemented/2022-02-02-use-postgres.md"
    redis = "rfc/implemented/2022-02-02-use-redis.md"
    assert (repo.root / "docs/guide.md").read_text() == (
        f"# Guide\n\nSee [Use Postgres]({postgres}) and [Use Redis]({redis}), "
        f"and [Use Postgres]({postgres})/[Use Redis]({redis}) in 2019.\n"
    )
    check = runner.invoke(app, ["check"])
    assert check.exit_code == 0, check.output
