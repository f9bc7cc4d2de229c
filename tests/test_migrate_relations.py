"""``docsync migrate`` reads the relations legacy records write, writes them both ways and
reports what it cannot read as a relation, on a real git repository."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from docsync.check.check import run_check
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
    "docs/adr/0007-use-memcached.md": _adr(7, "Use Memcached", "Rejected", "**Superseded by:** ADR 0003"),
    # MADR: the status in front matter, its relation a link.
    "docs/adr/0008-use-oracle.md": (
        "---\nstatus: superseded by [ADR-0003](0003-use-sqlite.md)\n---\n\n# 8. Use Oracle\n\nWhy.\n"
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
    assert "Supersedes: [Use Memcached](../rejected/2021-01-10-use-memcached.md)\n" in sqlite
    assert "Supersedes: [Use Oracle](../rejected/2021-01-10-use-oracle.md)\n" in sqlite
    assert (
        "Status: rejected (superseded by [Use SQLite](../implemented/2021-01-10-use-sqlite.md))\n"
        in _read(migrated, f"{R}/2021-01-10-use-oracle.md")
    )
    memcached = _read(migrated, f"{R}/2021-01-10-use-memcached.md")
    assert "\nSuperseded by: [Use SQLite](../implemented/2021-01-10-use-sqlite.md)\n" in memcached
    assert "**" not in memcached
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
    assert "  r_use_sqlite -->|supersedes| r_use_memcached\n" in index
    assert "  r_help_scripts -.->|amends| r_help_comments\n" in index
    findings = run_check(migrated.repo.root).findings
    assert [f"{f.path}:{f.line} {f.rule}" for f in findings] == []


def test_a_second_run_finds_nothing_to_do(migrated: Migrated, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git_environ(monkeypatch)
    monkeypatch.chdir(migrated.repo.root)
    again = runner.invoke(app, ["migrate", "--format", "json"])
    assert json.loads(again.stdout)["topics"] == []
    assert migrated.repo.git("status", "--porcelain") == ""


_PIECES = [
    "Status: rejected (superseded by [B](b.md))",
    "Status: implemented",
    "Supersedes [B](b.md)",
    "**Amends:** [A](a.md)",
    "Amended by: ADR 9",
    "It is superseded by [B](b.md) now.",
    "> Supersedes: [A](a.md)",
    "partly superseded by [A](a.md)",
    "---\nsuperseded_by: ADR-0002\n---",
    "plain words",
    "`Supersedes: [B](b.md)`",
]


@settings(max_examples=80, deadline=None)
@given(
    a=st.lists(st.sampled_from(_PIECES), max_size=4),
    b=st.lists(st.sampled_from(_PIECES), max_size=4),
)
def test_relate_never_raises_and_twice_is_once(a: list[str], b: list[str]) -> None:
    from docsync.config import DEFAULT_RELATIONS
    from docsync.migrate.read.relations import Related, finish, normalise
    from docsync.records.model import IdTarget
    from docsync.write.writer import FileWrite

    folder = "docs/rfc/implemented"
    titles = {f"{folder}/a.md": "A", f"{folder}/b.md": "B"}
    ids = {("ADR", 2, None): IdTarget(f"{folder}/b.md", "B")}
    writes = [
        FileWrite(f"{folder}/a.md", "# A\n\n" + "\n\n".join(a) + "\n"),
        FileWrite(f"{folder}/b.md", "# B\n\n" + "\n\n".join(b) + "\n"),
    ]
    def relate(texts: list[FileWrite]) -> Related:
        # as a migration does it: each record normalised on its own, then the reverses
        done = [normalise(w, None, titles, DEFAULT_RELATIONS, ids) for w in texts]
        parsed = {n.write.path: doc for n, doc in done}
        return finish([n for n, _ in done], titles, DEFAULT_RELATIONS, None, parsed)

    once = relate(writes)
    twice = relate(list(once.writes))
    assert [w.text for w in twice.writes] == [w.text for w in once.writes]
    assert twice.edges == once.edges
