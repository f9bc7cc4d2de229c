"""``docsync migrate`` reads the relations legacy records write, writes them both ways and
reports what it cannot read as a relation, on a real git repository."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from typer.testing import CliRunner

from docsync.checks import run_check
from docsync.cli import app
from tests.gitutil import GitRepo, isolate_git_environ

runner = CliRunner()
T = "docs/rfc/implemented"
R = "docs/rfc/rejected"


def _adr(number: int, title: str, status: str, *paragraphs: str, front: str = "") -> str:
    body = "".join(f"{p}\n\n" for p in paragraphs)
    head = f"---\n{front}---\n\n" if front else ""
    return f"{head}# {number}. {title}\n\nDate: 2021-01-10\n\n## Status\n\n{status}\n\n{body}## Context\n\nWhy.\n"


LEGACY = {
    "docs/adr/0001-use-mysql.md": _adr(1, "Use MySQL", "Superseded by ADR 0003"),
    "docs/adr/0002-help-comments.md": _adr(
        2, "Help comments", "Accepted", "Amended by [4. Help scripts](0004-help-scripts.md)"
    ),
    "docs/adr/0003-use-sqlite.md": _adr(
        3, "Use SQLite", "Accepted", "This record in part supersedes [ADR 5](0005-cache.md)."
    ),
    "docs/adr/0004-help-scripts.md": _adr(
        4, "Help scripts", "Accepted", "Amends [2. Help comments](0002-help-comments.md)"
    ),
    "docs/adr/0005-cache.md": _adr(
        5,
        "Cache",
        "Accepted",
        "**Amends:** ADR 0099",
        "These ranges have been superseded by [ADR 3](0003-use-sqlite.md).",
    ),
    "docs/adr/0006-use-redis.md": _adr(
        6, "Use Redis", "Rejected", front="superseded_by: ADR-0003\n"
    ),
}


@dataclass(frozen=True)
class Migrated:
    repo: GitRepo
    dry_run: str
    dry_json: dict[str, object]


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Migrated]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        isolate_git_environ(monkeypatch)
        repo = GitRepo.init(tmp_path_factory.mktemp("relations") / "repo")
        for path, text in LEGACY.items():
            repo.write(path, text)
        repo.commit("legacy records", when="2021-01-10 12:00:00")
        monkeypatch.chdir(repo.root)
        dry = runner.invoke(app, ["migrate"])
        dry_json = runner.invoke(app, ["migrate", "--format", "json"])
        applied = runner.invoke(app, ["migrate", "--apply", "--commit"])
        assert applied.exit_code == 0, applied.output
        yield Migrated(repo, dry.stdout, json.loads(dry_json.stdout))


def _read(migrated: Migrated, path: str) -> str:
    return (migrated.repo.root / path).read_text(encoding="utf-8")


def test_the_status_detail_and_front_matter_become_relations_both_ways(migrated: Migrated) -> None:
    sqlite = _read(migrated, f"{T}/2021-01-10-use-sqlite.md")
    assert "Supersedes: [Use MySQL](../rejected/2021-01-10-use-mysql.md)\n" in sqlite
    assert "Supersedes: [Use Redis](../rejected/2021-01-10-use-redis.md)\n" in sqlite
    mysql = _read(migrated, f"{R}/2021-01-10-use-mysql.md")
    assert "Status: rejected (Superseded by [Use SQLite](../implemented/2021-01-10-use-sqlite.md))\n" in mysql
    redis = _read(migrated, f"{R}/2021-01-10-use-redis.md")
    assert "Superseded by: [Use SQLite](../implemented/2021-01-10-use-sqlite.md)\n" in redis
    assert redis.startswith("---\nsuperseded_by: ADR-0003\n---\n")  # front matter kept as written


def test_adr_tools_relation_lines_get_the_gate_form(migrated: Migrated) -> None:
    assert "\nAmended by: [4. Help scripts](2021-01-10-help-scripts.md)\n" in _read(
        migrated, f"{T}/2021-01-10-help-comments.md"
    )
    assert "\nAmends: [2. Help comments](2021-01-10-help-comments.md)\n" in _read(
        migrated, f"{T}/2021-01-10-help-scripts.md"
    )


def test_what_is_not_a_relation_is_reported_and_left_as_written(migrated: Migrated) -> None:
    cache = _read(migrated, f"{T}/2021-01-10-cache.md")
    assert "**Amends:** ADR 0099\n" in cache
    assert "These ranges have been superseded by [Use SQLite](2021-01-10-use-sqlite.md).\n" in cache
    assert "Superseded by:" not in cache and "Supersedes:" not in _read(
        migrated, f"{T}/2021-01-10-cache.md"
    )
    text = " ".join(migrated.dry_run.split())  # the console wraps long lines
    assert f"relation not recorded: {T}/2021-01-10-cache.md: 'ADR 0099' names no record" in text
    assert (
        f"relation not recorded: {T}/2021-01-10-cache.md: 'superseded by [Use SQLite]"
        "(2021-01-10-use-sqlite.md)' is relation prose, not read as a relation" in text
    )
    assert f"{T}/2021-01-10-use-sqlite.md: 'supersedes [Cache](2021-01-10-cache.md)'" in text


def test_the_dry_run_json_lists_the_notes(migrated: Migrated) -> None:
    notes = migrated.dry_json["relation_notes"]
    assert isinstance(notes, list)
    paths = sorted({n["path"] for n in notes})
    assert paths == [f"{T}/2021-01-10-cache.md", f"{T}/2021-01-10-use-sqlite.md"]


def test_the_index_draws_the_relations_and_the_gates_pass(migrated: Migrated) -> None:
    index = _read(migrated, "docs/rfc/README.md")
    assert "  r_use_sqlite -->|supersedes| r_use_mysql\n" in index
    assert "  r_use_sqlite -->|supersedes| r_use_redis\n" in index
    assert "  r_help_scripts -.->|amends| r_help_comments\n" in index
    findings = run_check(migrated.repo.root).findings
    assert [f"{f.path}:{f.line} {f.rule}" for f in findings] == []
