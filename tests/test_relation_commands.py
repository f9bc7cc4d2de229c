"""``docsync new --supersedes``, ``docsync move --by`` and ``docsync graph`` on real git repositories."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from docsync.check.check import run_check
from docsync.check.fix import run_fix
from docsync.cli import app
from docsync.errors import DocsyncError
from docsync.lifecycle import new as lifecycle_new
from docsync.repository import gitrepo
from docsync.write.transaction import Transaction
from docsync.write.writer import FileWrite
from tests.gitutil import GitRepo, isolate_git_environ

runner = CliRunner()

POSTGRES = "docs/rfc/implemented/2026-01-05-use-postgres.md"
PLUGINS = "docs/rfc/proposed/2026-01-02-plugin-api.md"
FILES = {
    POSTGRES: "# Use Postgres\n\nStatus: implemented\n\n## Why\n\nIt is boring.\n",
    PLUGINS: "# Plugin API\n\nStatus: proposed\n\nSee [Postgres](../implemented/2026-01-05-use-postgres.md).\n",
    "docs/guide.md": "# Guide\n\nWe use [Postgres](rfc/implemented/2026-01-05-use-postgres.md).\n",
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GitRepo]:
    isolate_git_environ(monkeypatch)
    repo = GitRepo.init(tmp_path / "repo")
    for path, text in FILES.items():
        repo.write(path, text)
    repo.commit("records")
    run_fix(repo.root)
    repo.commit("index")
    assert run_check(repo.root).findings == ()
    monkeypatch.chdir(repo.root)
    yield repo


@pytest.fixture
def today(repo: GitRepo) -> str:
    """The day the test's commands run, read when the test starts (after the repository is
    built), not when the module is imported: a run that crosses midnight stays right."""
    return date.today().isoformat()


def _run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def _read(repo: GitRepo, path: str) -> str:
    return (repo.root / path).read_text(encoding="utf-8")


def _clean(repo: GitRepo) -> None:
    assert [f"{f.path}:{f.line} {f.rule} {f.message}" for f in run_check(repo.root).findings] == []


def _status(repo: GitRepo) -> str:
    return repo.git("status", "--porcelain", "--untracked-files=all")


def test_new_supersedes_writes_both_links_moves_the_old_record_and_draws_the_graph(
    repo: GitRepo,
    today: str,
) -> None:
    result = _run("new", "Use SQLite", "--supersedes", "use-postgres")
    new = f"docs/rfc/proposed/{today}-use-sqlite.md"
    old = "docs/rfc/rejected/2026-01-05-use-postgres.md"
    assert result.exit_code == 0, result.stderr
    assert result.stdout == new + "\n"
    assert _read(repo, new).startswith(
        "# Use SQLite\n\nStatus: proposed\n\n"
        "Supersedes: [Use Postgres](../rejected/2026-01-05-use-postgres.md)\n\n## Context\n"
    )
    assert _read(repo, old) == (
        "# Use Postgres\n\n"
        f"Status: rejected (superseded by [Use SQLite](../proposed/{today}-use-sqlite.md) on {today})\n\n"
        "## Why\n\nIt is boring.\n"
    )
    assert "[Postgres](rfc/rejected/2026-01-05-use-postgres.md)" in _read(repo, "docs/guide.md")
    index = _read(repo, "docs/rfc/README.md")
    assert "r_use_sqlite -->|supersedes| r_use_postgres" in index
    status = _status(repo)
    assert f"A  {new}" in status and f"A  {old}" in status and f"D  {POSTGRES}" in status
    assert all(line[1] == " " for line in status.splitlines())  # all of it staged
    _clean(repo)


def test_new_supersedes_a_record_that_is_already_rejected_only_adds_the_relation(
    repo: GitRepo,
    today: str,
) -> None:
    assert _run("move", "use-postgres", "rejected").exit_code == 0
    repo.commit("rejected")
    result = _run("new", "Use SQLite", "--supersedes", "docs/rfc/rejected/2026-01-05-use-postgres.md")
    assert result.exit_code == 0, result.stderr
    assert (
        f"Status: rejected (rejected {today}; superseded by [Use SQLite](../proposed/{today}-use-sqlite.md) on {today})\n"
        in _read(repo, "docs/rfc/rejected/2026-01-05-use-postgres.md")
    )
    _clean(repo)


def test_move_by_an_existing_record_by_former_path_and_slug(repo: GitRepo, today: str) -> None:
    result = _run("move", POSTGRES, "superseded", "--by", "plugin-api", "--note", "plugins own storage")
    old = "docs/rfc/rejected/2026-01-05-use-postgres.md"
    assert result.exit_code == 0, result.stderr
    assert (
        f"Status: rejected (superseded by [Plugin API](../proposed/2026-01-02-plugin-api.md) on {today}: plugins own storage)\n"
        in _read(repo, old)
    )
    assert _read(repo, PLUGINS) == (
        "# Plugin API\n\nStatus: proposed\n\n"
        "Supersedes: [Use Postgres](../rejected/2026-01-05-use-postgres.md)\n\n"
        "See [Postgres](../rejected/2026-01-05-use-postgres.md).\n"
    )
    _clean(repo)
    assert _run("move", "use-postgres", "superseded", "--by", "plugin-api").exit_code == 2


def test_relation_amends_writes_the_configured_pair_and_moves_nothing(repo: GitRepo, today: str) -> None:
    result = _run("new", "Read replicas", "--supersedes", "use-postgres", "--relation", "amends")
    new = f"docs/rfc/proposed/{today}-read-replicas.md"
    assert result.exit_code == 0, result.stderr
    assert "Amends: [Use Postgres](../implemented/2026-01-05-use-postgres.md)\n" in _read(repo, new)
    assert _read(repo, POSTGRES) == (
        "# Use Postgres\n\nStatus: implemented\n\n"
        f"Amended by: [Read replicas](../proposed/{today}-read-replicas.md)\n\n## Why\n\nIt is boring.\n"
    )
    assert "r_read_replicas -.->|amends| r_use_postgres" in _read(repo, "docs/rfc/README.md")
    _clean(repo)


def test_a_configured_relation_by_its_reverse_phrase_keeps_the_state(repo: GitRepo) -> None:
    repo.write(".docsync.toml", 'relations = { extends = "extended by" }\n')
    repo.commit("config")
    result = _run("move", "use-postgres", "implemented", "--by", "plugin-api", "--relation", "extended by")
    assert result.exit_code == 0, result.stderr
    assert "Status: implemented\n\nExtended by: [Plugin API](../proposed/2026-01-02-plugin-api.md)\n" in _read(
        repo, POSTGRES
    )
    assert "Extends: [Use Postgres](../implemented/2026-01-05-use-postgres.md)\n" in _read(repo, PLUGINS)
    _clean(repo)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["move", "use-postgres", "superseded", "--by", "use-postgres"], "cannot supersedes itself"),
        (["move", "use-postgres", "proposed", "--by", "plugin-api"], "a superseded record goes to rejected"),
        (["move", "use-postgres", "superseded", "--by", "nothing"], "no record matches 'nothing'"),
        (["move", "use-postgres", "superseded", "--relation", "amends"], "--relation needs --by"),
        (["new", "X", "--relation", "amends"], "--relation needs --supersedes"),
        (["new", "X", "--supersedes", "plugin-api", "--relation", "replaces"], "unknown relation 'replaces'"),
    ],
)
def test_refusals_change_nothing(repo: GitRepo, args: list[str], message: str) -> None:
    result = _run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert _status(repo) == ""


def test_a_loop_is_refused(repo: GitRepo) -> None:
    assert _run("move", "use-postgres", "superseded", "--by", "plugin-api").exit_code == 0
    repo.commit("superseded")
    result = _run("move", "plugin-api", "superseded", "--by", "use-postgres")
    assert result.exit_code == 2
    assert "would be a loop" in result.stderr
    assert _status(repo) == ""


def test_moving_a_superseded_record_out_of_its_state_is_refused(repo: GitRepo) -> None:
    """It would leave a Y013 finding: ``move`` then ``check`` must pass."""
    assert _run("move", "use-postgres", "superseded", "--by", "plugin-api").exit_code == 0
    repo.commit("superseded")
    result = _run("move", "use-postgres", "proposed", "--note", "back on the table")
    assert result.exit_code == 2
    assert (
        "docs/rfc/rejected/2026-01-05-use-postgres.md is superseded by docs/rfc/proposed/2026-01-02-plugin-api.md, "
        "and a superseded record stays rejected; to move it to proposed, first remove the relation"
    ) in " ".join(result.stderr.split())
    assert _status(repo) == ""
    assert _run("move", "plugin-api", "rejected").exit_code == 0  # the newer one moves freely
    _clean(repo)


@pytest.mark.parametrize("step", [0, 1, 2])
def test_a_failure_at_any_step_puts_everything_back(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, step: int
) -> None:
    before = {p: _read(repo, p) for p in [*FILES, "docs/rfc/README.md"]}
    index_before = repo.git("ls-files", "-s")
    name = ["move_files", "write_all", "stage"][step]

    def broken(root: object, items: list[object]) -> None:
        if name == "write_all":  # one of its writes made, through the transaction
            assert isinstance(root, Transaction)
            Transaction.write(root, FileWrite("docs/guide.md", "half written\n"))
        raise OSError("disk full")

    if name == "write_all":  # the journalled transaction's writes (docsync.write.transaction)
        monkeypatch.setattr(Transaction, "write_all", broken)
    else:
        monkeypatch.setattr(gitrepo, name, broken)
    with pytest.raises(DocsyncError, match=r"disk full; every change was undone"):
        lifecycle_new.create(repo.root, "Use SQLite", "proposed", None, date(2026, 12, 1), "use-postgres")
    assert {p: _read(repo, p) for p in before} == before
    assert repo.git("ls-files", "-s") == index_before
    assert _status(repo) == ""


def test_graph_command_prints_every_format(repo: GitRepo, today: str) -> None:
    assert _run("graph").stdout == "flowchart LR\n"
    assert _run("new", "Use SQLite", "--supersedes", "use-postgres").exit_code == 0
    mermaid = _run("graph")
    assert mermaid.exit_code == 0
    assert mermaid.stdout.endswith("  r_use_sqlite -->|supersedes| r_use_postgres\n")
    assert _run("graph", "--format", "dot").stdout.startswith("digraph records {")
    data = json.loads(_run("graph", "-f", "json").stdout)
    assert data["relations"] == [
        {
            "from": f"docs/rfc/proposed/{today}-use-sqlite.md",
            "relation": "supersedes",
            "to": "docs/rfc/rejected/2026-01-05-use-postgres.md",
        }
    ]
    assert [r["state"] for r in data["records"]] == ["proposed", "rejected"]
    assert _run("graph", "--format", "svg").exit_code == 2


def test_a_longer_loop_is_refused_too(repo: GitRepo, today: str) -> None:
    assert _run("new", "Use SQLite", "--supersedes", "use-postgres").exit_code == 0
    assert _run("move", "use-sqlite", "superseded", "--by", "plugin-api").exit_code == 0
    repo.commit("two supersessions")
    result = _run("move", "plugin-api", "superseded", "--by", "use-postgres")
    assert result.exit_code == 2
    assert result.stderr == (
        f"docsync: error: docs/rfc/rejected/2026-01-05-use-postgres.md supersedes {PLUGINS} would be a loop: "
        f"{PLUGINS} -> docs/rfc/rejected/{today}-use-sqlite.md -> docs/rfc/rejected/2026-01-05-use-postgres.md "
        "already (each supersedes the next)\n"
    )
    assert _status(repo) == ""


def test_a_second_supersession_of_a_wrapped_status_keeps_the_first(repo: GitRepo, today: str) -> None:
    """A hard-wrapped tree: a supersession keeps the status on its line, however long (a
    header field keeps its line); a status value wrapped by hand is read (and rewritten)
    whole by the next supersession, not its first line only."""
    repo.write(".docsync.toml", "wrap = 72\n")
    repo.commit("config")
    _clean(repo)
    old = "docs/rfc/rejected/2026-01-05-use-postgres.md"
    assert _run("move", "use-postgres", "superseded", "--by", "plugin-api").exit_code == 0
    one_line = f"Status: rejected (superseded by [Plugin API](../proposed/2026-01-02-plugin-api.md) on {today})\n"
    assert f"\n\n{one_line}\n" in _read(repo, old)
    _clean(repo)
    repo.write(old, _read(repo, old).replace("superseded by [Plugin", "superseded by\n[Plugin"))
    repo.commit("superseded once, the status wrapped by hand")
    _clean(repo)
    result = _run("new", "Use SQLite", "--supersedes", "use-postgres")
    assert result.exit_code == 0, result.stderr
    assert _read(repo, old).startswith(
        "# Use Postgres\n\n"
        f"Status: rejected (superseded by [Plugin API](../proposed/2026-01-02-plugin-api.md) on {today}; "
        f"superseded by [Use SQLite](../proposed/{today}-use-sqlite.md) on {today})\n\n## Why\n"
    )
    _clean(repo)


def test_a_move_reads_a_wrapped_status_value_whole(repo: GitRepo, today: str) -> None:
    repo.write(".docsync.toml", "wrap = 72\n")
    repo.write(
        PLUGINS,
        "# Plugin API\n\nStatus: proposed (pts 1-2, agreed at the architecture review\nof the plugins)\n"
        "\nSee [Postgres](../implemented/2026-01-05-use-postgres.md).\n",
    )
    repo.commit("wrapped by hand")
    _clean(repo)
    assert _run("move", "plugin-api", "rejected", "--note", "too big").exit_code == 0
    assert _read(repo, "docs/rfc/rejected/2026-01-02-plugin-api.md").startswith(
        "# Plugin API\n\n"
        "Status: rejected (pts 1-2, agreed at the architecture review of the "
        f"plugins; rejected {today}: too big)\n\nSee"
    )
    _clean(repo)
