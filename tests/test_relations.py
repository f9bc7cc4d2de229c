"""Relations between records: the layout rules Y012-Y015, the reverse-link fix and the graph,
on real git repositories."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.check.check import run_check
from docsync.check.fix import run_fix
from docsync.config import ConfigError, parse_table
from docsync.parse.native import parse
from docsync.records.graph import Graph, as_json, build, dot, mermaid
from docsync.records.model import Record
from docsync.records.relations import Edge, read_mentions, status_value_end, with_relation_lines
from tests.gitutil import GitRepo, isolate_git_environ

OLD = "docs/rfc/rejected/2026-01-05-use-postgres.md"
NEW = "docs/rfc/proposed/2026-02-01-use-sqlite.md"
LIVE = "docs/rfc/implemented/2026-01-05-use-postgres.md"
RELATIONS = {"supersedes": "superseded by", "amends": "amended by"}

TO_OLD = "[Use Postgres](../rejected/2026-01-05-use-postgres.md)"
TO_NEW = "[Use SQLite](../proposed/2026-02-01-use-sqlite.md)"


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git_environ(monkeypatch)


def _record(title: str, status: str, *lines: str) -> str:
    extra = "".join(f"{line}\n\n" for line in lines)
    return f"# {title}\n\nStatus: {status}\n\n{extra}## Why\n\nReasons.\n"


def _repo(tmp_path: Path, files: dict[str, str]) -> GitRepo:
    repo = GitRepo.init(tmp_path / "repo")
    for path, text in files.items():
        repo.write(path, text)
    repo.commit("records")
    return repo


def _layout(repo: GitRepo, paths: list[str] | None = None) -> list[tuple[str, str, int, int]]:
    result = run_check(repo.root, paths, ["layout"])
    return sorted(
        (f.rule, f.path, f.line, f.column) for f in result.findings if f.rule != "Y009"
    )


def _messages(repo: GitRepo) -> dict[str, str]:
    return {f.rule: f.message for f in run_check(repo.root, None, ["layout"]).findings}


def _read(repo: GitRepo, path: str) -> str:
    return (repo.root / path).read_text(encoding="utf-8")


# --------------------------------------------------------------------------- rule table


CASES: list[tuple[str, dict[str, str], list[tuple[str, str, int, int]]]] = [
    (
        "both sides written: clean",
        {
            NEW: _record("Use SQLite", "proposed", f"Supersedes: {TO_OLD}"),
            OLD: _record("Use Postgres", f"rejected (superseded by {TO_NEW} on 2026-02-01)"),
        },
        [],
    ),
    (
        "reverse as a line of its own: clean",
        {
            NEW: _record("Use SQLite", "proposed", f"Supersedes: {TO_OLD}"),
            OLD: _record("Use Postgres", "rejected", f"Superseded by: {TO_NEW}"),
        },
        [],
    ),
    (
        "the adr-tools form without a colon: clean",
        {
            NEW: _record("Use SQLite", "proposed", f"Supersedes {TO_OLD}"),
            OLD: _record("Use Postgres", "rejected", f"Superseded by {TO_NEW}"),
        },
        [],
    ),
    (
        "Y012 forward without reverse",
        {
            NEW: _record("Use SQLite", "proposed", f"Supersedes: {TO_OLD}"),
            OLD: _record("Use Postgres", "rejected"),
        },
        [("Y012", NEW, 5, 13)],
    ),
    (
        "Y012 reverse without forward, in the status",
        {
            NEW: _record("Use SQLite", "proposed"),
            OLD: _record("Use Postgres", f"rejected (superseded by {TO_NEW})"),
        },
        [("Y012", OLD, 3, 33)],
    ),
    (
        "Y012 for a configured relation",
        {
            NEW: _record("Use SQLite", "proposed", f"Amends: {TO_OLD}"),
            OLD: _record("Use Postgres", "rejected"),
        },
        [("Y012", NEW, 5, 9)],
    ),
    (
        "Y013 superseded but implemented",
        {
            NEW: _record(
                "Use SQLite",
                "proposed",
                "Supersedes: [Use Postgres](../implemented/2026-01-05-use-postgres.md)",
            ),
            LIVE: _record("Use Postgres", "implemented", f"Superseded by: {TO_NEW}"),
        },
        [("Y013", LIVE, 3, 1)],
    ),
    (
        "amends does not decide a state",
        {
            NEW: _record(
                "Use SQLite", "proposed", "Amends: [Use Postgres](../implemented/2026-01-05-use-postgres.md)"
            ),
            LIVE: _record("Use Postgres", "implemented", f"Amended by: {TO_NEW}"),
        },
        [],
    ),
    (
        "Y014 to a record that no longer exists",
        {NEW: _record("Use SQLite", "proposed", "Supersedes: [Gone](../rejected/2026-01-01-gone.md)")},
        [("Y014", NEW, 5, 13)],
    ),
    (
        "Y014 to a file that is not a record",
        {
            NEW: _record("Use SQLite", "proposed", "Supersedes: [the guide](../../guide.md)"),
            "docs/guide.md": "# Guide\n",
        },
        [("Y014", NEW, 5, 13)],
    ),
    (
        "Y015 two records superseding each other",
        {
            NEW: _record("Use SQLite", "proposed", f"Supersedes: {TO_OLD}", f"Superseded by: {TO_OLD}"),
            OLD: _record("Use Postgres", "rejected", f"Superseded by: {TO_NEW}", f"Supersedes: {TO_NEW}"),
        },
        [("Y013", NEW, 3, 1), ("Y015", NEW, 5, 13)],
    ),
    (
        "Y015 a record superseding itself",
        {OLD: _record("Use Postgres", "rejected", "Supersedes: [me](2026-01-05-use-postgres.md)")},
        [("Y015", OLD, 5, 13)],
    ),
    (
        "a quoted relation is an example, not a relation",
        {NEW: _record("Use SQLite", "proposed", "> Supersedes: [Gone](../rejected/2026-01-01-gone.md)")},
        [],
    ),
    (
        "an outside link is no record relation",
        {NEW: _record("Use SQLite", "proposed", "Supersedes: [RFC 7](https://example.com/rfc7)")},
        [],
    ),
]


@pytest.mark.parametrize(("files", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_relation_rules(
    tmp_path: Path, files: dict[str, str], expected: list[tuple[str, str, int, int]]
) -> None:
    repo = _repo(tmp_path, files)
    assert _layout(repo) == expected


def test_findings_are_actionable(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        {
            NEW: _record(
                "Use SQLite",
                "proposed",
                "Supersedes: [Use Postgres](../implemented/2026-01-05-use-postgres.md)",
                "Amends: [Gone](../rejected/2026-01-01-gone.md)",
            ),
            LIVE: _record("Use Postgres", "implemented"),
        },
    )
    messages = _messages(repo)
    assert messages["Y012"] == (
        f"this record supersedes {LIVE}, but {LIVE} has no 'Superseded by:' link back to it; "
        "'docsync fix' adds it"
    )
    assert messages["Y013"] == (
        f"superseded by {NEW}, but the record is implemented, not rejected; run "
        f"'docsync move {LIVE} superseded --by {NEW}' to file it under docs/rfc/rejected/"
    )
    assert messages["Y014"].startswith(
        "'amends' links to docs/rfc/rejected/2026-01-01-gone.md, which is not a record of the tree;"
    )


def test_a_run_on_one_file_reports_only_that_file(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        {
            NEW: _record("Use SQLite", "proposed", f"Supersedes: {TO_OLD}"),
            OLD: _record("Use Postgres", "rejected", "Supersedes: [Gone](2026-01-01-gone.md)"),
        },
    )
    assert [r for r, *_ in _layout(repo, [NEW])] == ["Y012"]
    assert [r for r, *_ in _layout(repo, [OLD])] == ["Y014"]


# --------------------------------------------------------------------------- the fix


def test_fix_adds_the_missing_reverse_and_then_the_tree_is_clean(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        {
            NEW: _record("Use SQLite", "proposed", f"Supersedes: {TO_OLD}"),
            OLD: _record("Use Postgres", "rejected (superseded 2026-02-01)"),
            "docs/rfc/implemented/2026-01-06-cache.md": _record(
                "Cache", "implemented", "Amended by: [Use SQLite](../proposed/2026-02-01-use-sqlite.md)"
            ),
        },
    )
    result = run_fix(repo.root)
    assert sorted(c.path for c in result.fixes) == sorted([NEW, OLD, "docs/rfc/README.md"])
    assert _read(repo, OLD) == (
        "# Use Postgres\n\nStatus: rejected (superseded 2026-02-01)\n\n"
        f"Superseded by: {TO_NEW}\n\n## Why\n\nReasons.\n"
    )
    assert _read(repo, NEW) == (
        f"# Use SQLite\n\nStatus: proposed\n\nSupersedes: {TO_OLD}\n\n"
        "Amends: [Cache](../implemented/2026-01-06-cache.md)\n\n## Why\n\nReasons.\n"
    )
    assert run_check(repo.root).findings == ()
    assert run_fix(repo.root).fixes == ()  # twice is once


def test_fix_check_reports_a_missing_reverse_and_writes_nothing(tmp_path: Path) -> None:
    files = {
        NEW: _record("Use SQLite", "proposed", f"Supersedes: {TO_OLD}"),
        OLD: _record("Use Postgres", "rejected"),
    }
    repo = _repo(tmp_path, files)
    run_fix(repo.root, None, ["links"])
    result = run_fix(repo.root, None, ["layout"], write=False)
    assert OLD in [c.path for c in result.fixes]
    assert _read(repo, OLD) == files[OLD]


def test_the_reverse_line_keeps_its_line_under_a_width(tmp_path: Path) -> None:
    long_title = "Use SQLite for the cache of parsed documents and the results of every gate"
    new = "docs/rfc/proposed/2026-02-01-use-sqlite-for-the-cache-of-parsed-documents.md"
    repo = _repo(
        tmp_path,
        {
            ".docsync.toml": "wrap = 80\n",
            new: _record(long_title, "proposed", f"Supersedes: {TO_OLD}"),
            OLD: _record("Use Postgres", "rejected"),
        },
    )
    run_fix(repo.root)
    # A header field keeps its line, however long: the wrap fixer never breaks it.
    assert f"\n\nSuperseded by: [{long_title}](../proposed/" in _read(repo, OLD)
    assert run_check(repo.root).findings == ()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    before=st.text(alphabet="ab #>-*\n:[]()S", max_size=60),
    lines=st.lists(st.sampled_from(["Superseded by: [A](a.md)", "Amends: [B](b.md)"]), max_size=2),
)
def test_adding_relation_lines_never_raises_and_they_are_read_back(
    before: str, lines: list[str]
) -> None:
    doc = parse("docs/rfc/rejected/x.md", "# T\n\nStatus: rejected\n\n" + before)
    text = with_relation_lines(doc, RELATIONS, lines)
    after = parse(doc.path, text)
    read = {(m.kind, m.forward) for m in read_mentions(after, RELATIONS)}
    wanted = {("supersedes", False) if "Superseded" in line else ("amends", True) for line in lines}
    assert wanted <= read


@pytest.mark.parametrize(
    ("header", "value"),
    [
        ("Status: proposed", "proposed"),
        ("Status: rejected (superseded by\n[B](b.md) on 2026-12-01)", "rejected (superseded by\n[B](b.md) on 2026-12-01)"),
        ("Status: rejected (x,\nand y,\nand z)\nDate: 2026-01-01", "rejected (x,\nand y,\nand z)"),
        ("Status: rejected\nsuperseded by: [B](b.md)", "rejected"),  # a relation line, lowercase
        ("Status: rejected\nStatus: proposed", "rejected"),
        ("Status: rejected\\\nfor now", "rejected\\"),  # a hard break ends the value
        ("Status: rejected  \nfor now", "rejected  "),
        ("- Status: proposed (pts\n  1-2)\n- Date: 2026", "proposed (pts\n  1-2)"),
    ],
)
def test_a_status_value_runs_over_its_wrapped_lines(header: str, value: str) -> None:
    """As ``read_mentions`` reads it: the lines after ``Status:`` that start no field."""
    doc = parse("docs/rfc/rejected/x.md", f"# T\n\n{header}\n\nMore.\n")
    start = doc.text.index("Status:") + len("Status: ")
    assert doc.text[start : status_value_end(doc, RELATIONS, start)] == value


# --------------------------------------------------------------------------- the graph


def _records() -> list[Record]:
    from datetime import date

    return [
        Record(NEW, 'Use "SQLite" for `the` cache, not <Postgres> & #1', "proposed", date(2026, 2, 1), "use-sqlite"),
        Record(OLD, "Use Postgres", "rejected", date(2026, 1, 5), "use-postgres"),
        Record(LIVE, "Lonely", "implemented", date(2026, 1, 5), "lonely"),
    ]


GRAPH_EDGES = [Edge(NEW, "supersedes", OLD)]


def test_mermaid_groups_related_records_by_state_and_escapes_titles() -> None:
    assert mermaid(build(_records(), GRAPH_EDGES, {"proposed": "p", "implemented": "i", "rejected": "r"})) == (
        "flowchart LR\n"
        '  subgraph s_proposed["Proposed"]\n'
        '    r_use_sqlite["Use #quot;SQLite#quot; for the cache,<br>not #lt;Postgres#gt; #38; #35;1"]\n'
        "  end\n"
        '  subgraph s_rejected["Rejected"]\n'
        '    r_use_postgres["Use Postgres"]\n'
        "  end\n"
        "  r_use_sqlite -->|supersedes| r_use_postgres\n"
    )


def test_dot_and_json_carry_the_same_graph() -> None:
    graph = build(_records(), [*GRAPH_EDGES, Edge(NEW, "amends", OLD)], {"proposed": "p", "rejected": "r"})
    text = dot(graph)
    assert text.startswith("digraph records {\n  rankdir=LR;\n")
    assert f'"{NEW}" -> "{OLD}" [label="supersedes"];' in text
    assert f'"{NEW}" -> "{OLD}" [label="amends", style=dashed];' in text
    assert 'label="Use \\"SQLite\\" for the cache,\\nnot <Postgres> & #1"' in text
    assert '"Lonely"' not in text
    assert as_json(graph).count('"relation"') == 2


def test_an_empty_graph_renders() -> None:
    assert mermaid(Graph((), (), ())) == "flowchart LR\n"


def test_the_index_draws_the_graph_only_when_there_are_relations(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {OLD: _record("Use Postgres", "rejected"), NEW: _record("Use SQLite", "proposed")})
    run_fix(repo.root)
    assert "## Relations" not in _read(repo, "docs/rfc/README.md")
    repo.write(NEW, _record("Use SQLite", "proposed", f"Supersedes: {TO_OLD}"))
    assert sorted(f.rule for f in run_check(repo.root).findings) == ["Y009", "Y012"]
    run_fix(repo.root)
    index = _read(repo, "docs/rfc/README.md")
    assert "## Relations\n\nEach arrow points from the newer record to the older one.\n\n```mermaid\n" in index
    assert "  r_use_sqlite -->|supersedes| r_use_postgres\n```\n" in index
    assert index.index("## Rejected") < index.index("## Relations")
    assert run_check(repo.root).findings == ()


# --------------------------------------------------------------------------- config


def test_configured_relations_add_to_the_defaults() -> None:
    config = parse_table({"relations": {"Extends": "Extended  By"}}, ".docsync.toml")
    assert config.relations == {**RELATIONS, "extends": "extended by"}


@pytest.mark.parametrize(
    "table",
    [
        {"relations": {"extends": "supersedes"}},  # a phrase of another relation
        {"relations": {"extends": "extends"}},
        {"relations": {"extends": 3}},
        {"relations": {"ex-tends": "x"}},
    ],
)
def test_bad_relations_are_config_errors(table: dict[str, object]) -> None:
    with pytest.raises(ConfigError, match="relations"):
        parse_table(table, ".docsync.toml")


def test_the_conventions_doc_says_how_to_supersede() -> None:
    from docsync.config import Config
    from docsync.records.conventions import conventions_for, render_generated

    found = conventions_for(Config(relations={**RELATIONS, "extends": "extended by"}), [], "docs/rfc/README.md")
    assert found is not None
    text = " ".join(render_generated(found).split())
    assert '`docsync new "Title" --supersedes <old record>` creates the new record' in text
    assert "moves to `rejected/` with `Status: rejected (superseded by [New title](path) on <date>)`" in text
    assert "`Amends:` and `Amended by:`, `Extends:` and `Extended by:`" in text


def test_a_relation_to_a_former_path_names_where_the_record_is_now(tmp_path: Path) -> None:
    index = (
        "# RFCs\n\n<!-- docsync:index:begin -->\n\n## Former ids\n\n"
        "| Former id or path | Record |\n| --- | --- |\n"
        "| `docs/adr/0001-use-postgres.md` | [Use Postgres](rejected/2026-01-05-use-postgres.md) |\n\n"
        "<!-- docsync:index:end -->\n"
    )
    repo = _repo(
        tmp_path,
        {
            "docs/rfc/README.md": index,
            NEW: _record("Use SQLite", "proposed", "Supersedes: [Use Postgres](../../adr/0001-use-postgres.md)"),
            OLD: _record("Use Postgres", "rejected", f"Superseded by: {TO_NEW}"),
        },
    )
    assert _messages(repo)["Y014"] == (
        "'supersedes' links to docs/adr/0001-use-postgres.md, which is not a record of the tree; "
        f"the former-id table says it is now {OLD}; point the link there"
    )
