"""The record tree's index and its two gates, ``layout`` and ``refs``, on real git repositories."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from docsync.config import Config
from docsync.gates import record_tree as gates
from docsync.gates.layout.fix import fix_index
from docsync.gates.links import check as links
from docsync.gates.refs.fix import fix_refs
from docsync.gates.rules import RULES, all_rules
from docsync.gates.wrap import check as wrap
from docsync.model import Finding
from docsync.records.index import BEGIN, END, IndexMarkersError, parse_former_ids, render_index
from docsync.records.model import Record
from docsync.workspace.load import load_workspace
from docsync.write.writer import FileWrite, write_atomic
from tests.gitutil import GitRepo, isolate_git_environ

STATES = {"proposed": "proposed", "implemented": "implemented", "rejected": "rejected"}
POSTGRES = "docs/rfc/implemented/2026-01-05-use-postgres.md"
PLUGINS = "docs/rfc/proposed/2026-01-02-plugin-api.md"
RECORDS = {
    POSTGRES: "# Use Postgres\n\nStatus: implemented (revised)\n\nWe use Postgres.\n",
    PLUGINS: "# Plugin API\n\nStatus: proposed\n\nPlugins load from entry points.\n",
}
FORMER = {
    "ADR 0007": POSTGRES,
    "RFC 001": PLUGINS,
    "docs/adr/0007-use-postgres.md": POSTGRES,
    "docs/rfc/001-plugin-api.md": PLUGINS,
}


def write_all(root: Path, changes: list[FileWrite]) -> None:
    for change in changes:
        write_atomic(root, change)



def _records() -> list[Record]:
    return [
        Record(POSTGRES, "Use Postgres", "implemented", date(2026, 1, 5), "use-postgres"),
        Record(PLUGINS, "Plugin API", "proposed", date(2026, 1, 2), "plugin-api"),
    ]


def _index(existing: str | None = None, prose: str = "") -> str:
    return render_index("docs/rfc", _records(), STATES, FORMER, existing, prose)


def _repo(tmp_path: Path, files: dict[str, str], *, index: bool = True) -> GitRepo:
    repo = GitRepo.init(tmp_path / "repo")
    for path, text in {**RECORDS, **files}.items():
        repo.write(path, text)
    if index and "docs/rfc/README.md" not in files:
        repo.write("docs/rfc/README.md", _index(None, "Carried prose."))
    repo.commit("tree")
    return repo


def _check(
    repo: GitRepo, gate_names: tuple[str, ...] = ("layout", "refs"), **config: Any
) -> list[tuple[str, str, int, int]]:
    workspace = load_workspace(repo.root, config=Config(**config))
    found = sorted(gates.check(workspace, gate_names), key=Finding.sort_key)
    return [(f.rule, f.path, f.line, f.column) for f in found]


# --------------------------------------------------------------------------- the index


def test_fresh_index_has_title_prose_and_generated_tables() -> None:
    text = _index(None, "Why we keep records.\n")
    assert text.startswith("# RFCs\n\nWhy we keep records.\n\n" + BEGIN + "\n\n## Proposed\n")
    assert "| [Plugin API](proposed/2026-01-02-plugin-api.md) | 2026-01-02 |" in text
    assert text.index("## Proposed") < text.index("## Implemented") < text.index("## Former ids")
    assert "| `ADR 0007` | [Use Postgres](implemented/2026-01-05-use-postgres.md) |" in text
    assert text.endswith(END + "\n")


def test_regenerating_keeps_text_outside_the_markers_byte_for_byte() -> None:
    first = _index(None, "Prose.")
    edited = (
        "<!-- keep -->\n# My  records\r\n\nHand text.\n\n"
        + first[first.index(BEGIN) :]
        + "\nFooter  \n"
    )
    stale = edited.replace("2026-01-02 |", "1999-01-01 |")
    again = _index(stale)
    assert again == edited
    assert _index(again) == again


def test_index_without_markers_gets_them_appended() -> None:
    text = _index("# Records\n\nOld hand-made list.\n")
    assert text.startswith("# Records\n\nOld hand-made list.\n\n" + BEGIN)


@pytest.mark.parametrize("broken", [BEGIN, END, f"{END}\n{BEGIN}", f"{BEGIN}\n{BEGIN}\n{END}"])
def test_broken_markers_raise(broken: str) -> None:
    with pytest.raises(IndexMarkersError):
        _index(f"# R\n\n{broken}\n")


def test_rows_are_sorted_by_date_then_slug_and_the_output_is_deterministic() -> None:
    same_day = [
        Record("docs/rfc/implemented/2026-01-05-b.md", "B", "implemented", date(2026, 1, 5), "b"),
        Record("docs/rfc/implemented/2026-01-05-a.md", "A", "implemented", date(2026, 1, 5), "a"),
        Record("docs/rfc/implemented/2025-12-31-z.md", "Z", "implemented", date(2025, 12, 31), "z"),
    ]
    text = render_index("docs/rfc", same_day, STATES, {}, None)
    assert text.index("[Z]") < text.index("[A]") < text.index("[B]")
    assert render_index("docs/rfc", list(reversed(same_day)), STATES, {}, None) == text


def test_former_ids_read_back_relative_to_the_index() -> None:
    text = render_index(
        "docs/rfc",
        _records(),
        STATES,
        {**FORMER, "RFC 005 part 1": "docs/rfc/implemented/2026-01-05-a b.md"},
        None,
    )
    assert parse_former_ids(text) == {
        "ADR 0007": "implemented/2026-01-05-use-postgres.md",
        "RFC 001": "proposed/2026-01-02-plugin-api.md",
        "RFC 005 part 1": "implemented/2026-01-05-a b.md",
        "docs/adr/0007-use-postgres.md": "implemented/2026-01-05-use-postgres.md",
        "docs/rfc/001-plugin-api.md": "proposed/2026-01-02-plugin-api.md",
    }
    assert parse_former_ids("# no table\n") == {}


def test_generated_index_passes_the_links_and_wrap_gates(tmp_path: Path) -> None:
    titles = {POSTGRES: "# Use `pg` | [fast] Postgres\n\nStatus: implemented\n"}
    repo = _repo(tmp_path, titles, index=False)
    workspace = load_workspace(repo.root)
    index = fix_index(workspace)
    assert index is not None
    write_all(repo.root, [index])
    repo.commit("index")
    workspace = load_workspace(repo.root)
    doc = workspace.documents["docs/rfc/README.md"]
    assert links.check(doc, links.RepoIndex.build(workspace)) == []
    assert wrap.check(doc, workspace.config) == []
    assert _check(repo) == []


# --------------------------------------------------------------------------- layout


def test_gates_are_silent_without_a_tree(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("docs/adr/0001-x.md", "# X\n\nSee ADR 1.\n")
    (repo.root / "docs" / "rfc" / "proposed").mkdir(parents=True)  # an empty folder is no tree
    repo.commit()
    assert _check(repo) == []


def test_a_clean_tree_passes_and_fixes_nothing(tmp_path: Path) -> None:
    conventions = {"docs/rfc/AGENTS.md": "# Conventions\n", "docs/rfc/template.md": "# Title\n"}
    repo = _repo(tmp_path, conventions)
    assert _check(repo, conventions="docs/rfc/AGENTS.md", template="docs/rfc/template.md") == []
    repo = _repo(tmp_path / "plain", {})
    assert _check(repo) == []
    assert gates.fix(load_workspace(repo.root), ("layout", "refs")) == []


LAYOUT_CASES = [
    (
        "outside a lifecycle folder",
        "docs/rfc/2026-01-01-loose.md",
        "# L\n\nStatus: proposed\n",
        [("Y001", 1, 1)],
    ),
    (
        "nested too deep",
        "docs/rfc/proposed/sub/2026-01-01-deep.md",
        "# D\n\nStatus: proposed\n",
        [("Y001", 1, 1)],
    ),
    (
        "no date",
        "docs/rfc/proposed/plugin-loader.md",
        "# P\n\nStatus: proposed\n",
        [("Y002", 1, 1)],
    ),
    (
        "uppercase slug",
        "docs/rfc/proposed/2026-01-01-Plugin_Loader.md",
        "# P\n\nStatus: proposed\n",
        [("Y002", 1, 1)],
    ),
    (
        "no such day",
        "docs/rfc/proposed/2026-02-30-leap.md",
        "# P\n\nStatus: proposed\n",
        [("Y003", 1, 1)],
    ),
    (
        "no status",
        "docs/rfc/proposed/2026-01-01-quiet.md",
        "# Q\n\n**Status:** proposed\n",
        [("Y004", 1, 1)],
    ),
    (
        "two statuses",
        "docs/rfc/proposed/2026-01-01-twice.md",
        "# T\n\nStatus: proposed\n\n- Status: draft\n",
        [("Y005", 5, 3)],
    ),
    (
        "a status line in a section is prose",
        "docs/rfc/proposed/2026-01-01-history.md",
        "# H\n\nStatus: proposed\n\n## History\n\nStatus: draft until March.\n",
        [],
    ),
    (
        "unknown status",
        "docs/rfc/proposed/2026-01-01-odd.md",
        "# O\n\nStatus: pondering\n",
        [("Y006", 3, 1)],
    ),
    (
        "status of another folder",
        "docs/rfc/proposed/2026-01-01-done.md",
        "# D\n\nStatus: Accepted (2026)\n",
        [("Y007", 3, 1)],
    ),
    (
        "quoted status is an example",
        "docs/rfc/rejected/2026-01-01-no.md",
        "# N\n\nStatus: rejected\n\n> Status: proposed\n",
        [],
    ),
    (
        "status in code is not one",
        "docs/rfc/rejected/2026-01-01-code.md",
        "# N\n\n```\nStatus: x\n```\n",
        [("Y004", 1, 1)],
    ),
    (
        "duplicate slug across folders",
        "docs/rfc/rejected/2026-03-01-use-postgres.md",
        "# U\n\nStatus: superseded\n",
        [("Y008", 1, 1)],
    ),
]


@pytest.fixture(scope="module")
def layout_findings(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, str, int, int]]:
    """One repository holding every layout case (each case has a file of its own)."""
    isolate = pytest.MonkeyPatch()
    isolate_git_environ(isolate)
    try:
        cases = {path: text for _, path, text, _ in LAYOUT_CASES}
        return _check(_repo(tmp_path_factory.mktemp("layout"), cases), ("layout",))
    finally:
        isolate.undo()


@pytest.mark.parametrize(
    ("name", "path", "text", "expected"), LAYOUT_CASES, ids=[c[0] for c in LAYOUT_CASES]
)
def test_layout_rule(
    layout_findings: list[tuple[str, str, int, int]],
    name: str,
    path: str,
    text: str,
    expected: list[tuple[str, int, int]],
) -> None:
    found = [(rule, line, column) for rule, where, line, column in layout_findings if where == path]
    assert found == expected


def test_missing_index_is_reported_and_fixed(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {}, index=False)
    assert _check(repo) == [("Y009", "docs/rfc/README.md", 1, 1)]
    write_all(repo.root, gates.fix(load_workspace(repo.root), ("layout",)))
    assert _check(repo) == []


def test_stale_index_names_the_first_line_that_differs(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path, {"docs/rfc/rejected/2026-01-03-use-mysql.md": "# Use MySQL\n\nStatus: rejected\n"}
    )
    assert _check(repo) == [("Y009", "docs/rfc/README.md", 19, 1)]  # where "## Rejected" goes
    fixed = fix_index(load_workspace(repo.root))
    assert fixed is not None and "[Use MySQL](rejected/2026-01-03-use-mysql.md)" in fixed.text


def test_index_follows_a_record_that_changed_folder(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {})
    repo.move(PLUGINS, "docs/rfc/rejected/2026-01-02-plugin-api.md")
    repo.write(
        "docs/rfc/rejected/2026-01-02-plugin-api.md",
        RECORDS[PLUGINS].replace("proposed", "withdrawn"),
    )
    repo.commit("withdrawn")
    fixed = fix_index(load_workspace(repo.root))
    assert fixed is not None
    assert parse_former_ids(fixed.text)["RFC 001"] == "rejected/2026-01-02-plugin-api.md"


def test_broken_markers_are_a_finding_not_a_crash(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"docs/rfc/README.md": f"# R\n\n{BEGIN}\n"})
    assert _check(repo, ("layout",)) == [("Y010", "docs/rfc/README.md", 1, 1)]
    assert fix_index(load_workspace(repo.root)) is None


def test_configured_states_and_folders(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path, {"docs/rfc/archive/2020-01-01-old.md": "# Old\n\nStatus: archived\n"}, index=False
    )
    states = {**STATES, "archived": "archive"}
    statuses = {**Config().statuses, "archived": "archived"}
    found = _check(repo, ("layout",), states=states, statuses=statuses)
    assert found == [("Y009", "docs/rfc/README.md", 1, 1)]
    assert _check(repo, ("layout",)) == [
        ("Y009", "docs/rfc/README.md", 1, 1),
        ("Y001", "docs/rfc/archive/2020-01-01-old.md", 1, 1),
        ("Y006", "docs/rfc/archive/2020-01-01-old.md", 3, 1),
    ]


def test_only_named_files_are_checked_on_partial_runs(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        {"docs/rfc/proposed/x.md": "# X\n", "README.md": "See ADR 7.\n", "ci.yml": "# ADR 7\n"},
    )
    workspace = load_workspace(repo.root, ["README.md"])
    assert [(f.rule, f.path) for f in gates.check(workspace, ("layout", "refs"))] == [
        ("R001", "README.md")
    ]


# --------------------------------------------------------------------------- refs


def test_bare_former_ids_in_prose_are_found_and_fixed(tmp_path: Path) -> None:
    readme = "# App\n\nWe chose Postgres (ADR 0007); see `ADR 7` and RFC 2119.\n\n| a |\n| --- |\n| RFC 1 |\n"
    repo = _repo(
        tmp_path, {"README.md": readme, "docs/rfc/README.md": _index(None, "Older text: ADR 7.")}
    )
    assert _check(repo, ("refs",)) == [
        ("R001", "README.md", 3, 20),
        ("R001", "README.md", 7, 3),
        ("R001", "docs/rfc/README.md", 3, 13),
    ]
    writes = {w.path: w.text for w in gates.fix(load_workspace(repo.root), ("layout", "refs"))}
    assert writes["README.md"] == readme.replace(
        "(ADR 0007)", "([Use Postgres](docs/rfc/implemented/2026-01-05-use-postgres.md))"
    ).replace("| RFC 1 |", "| [Plugin API](docs/rfc/proposed/2026-01-02-plugin-api.md) |")
    assert (
        "Older text: [Use Postgres](implemented/2026-01-05-use-postgres.md)."
        in writes["docs/rfc/README.md"]
    )
    write_all(repo.root, list(gates.fix(load_workspace(repo.root), ("refs",))))
    assert _check(repo) == []


def test_paths_and_ids_in_code_files(tmp_path: Path) -> None:
    code = (
        "# Decided in ADR 7, see docs/rfc/proposed/2026-01-05-use-postgres.md\n"
        "# and docs/adr/0007-use-postgres.md; RFC 3339 dates; docs/rfc/proposed/nothing.md\n"
        f"# fine: {PLUGINS}\n"
    )
    repo = _repo(tmp_path, {"src/db.py": code})
    assert _check(repo, ("refs",)) == [
        ("R003", "src/db.py", 1, 14),
        ("R002", "src/db.py", 1, 25),
        ("R002", "src/db.py", 2, 7),
        ("R002", "src/db.py", 2, 54),
    ]
    assert _check(repo, ("refs",), code_refs="off") == [
        ("R002", "src/db.py", 1, 25),
        ("R002", "src/db.py", 2, 7),
        ("R002", "src/db.py", 2, 54),
    ]
    (write,) = fix_refs(load_workspace(repo.root))
    assert write.text == code.replace("ADR 7", POSTGRES).replace(
        "docs/rfc/proposed/2026-01-05-use-postgres.md", POSTGRES
    ).replace("docs/adr/0007-use-postgres.md", POSTGRES)


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("backup: docs/adr/0007-use-postgres.md.orig\n", []),
        ("backup: docs/rfc/proposed/2026-01-05-use-postgres.md.bak here\n", []),
        ("see docs/adr/0007-use-postgres.md.\n", [("R002", "src/notes.txt", 1, 5)]),
        ("see docs/rfc/proposed/nothing.md, then\n", [("R002", "src/notes.txt", 1, 5)]),
    ],
)
def test_a_longer_file_name_is_not_a_record_path(
    tmp_path: Path, line: str, found: list[tuple[str, str, int, int]]
) -> None:
    """``x.md.orig`` names another file, as `migrate` and `move` read it; a full stop does not."""
    repo = _repo(tmp_path, {"src/notes.txt": line})
    assert _check(repo, ("refs",)) == found


def test_binary_large_untracked_and_excluded_files_are_not_read(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"fixtures/x.txt": "ADR 7\n"})
    (repo.root / "blob.bin").write_bytes(b"\x00ADR 7 docs/rfc/proposed/gone.md")
    (repo.root / "big.txt").write_text("ADR 7\n" + "x" * 5000)
    repo.commit("more")
    (repo.root / "untracked.txt").write_text("ADR 7\n")
    assert _check(repo, ("refs",), max_file_size=4000, exclude=("fixtures/**",)) == []


def test_refs_gate_skips_test_fixtures_by_default(tmp_path: Path) -> None:
    fixture = "ADR 7 is docs/rfc/proposed/gone.md\n"
    repo = _repo(tmp_path, {"tests/case.expected": fixture, "tests/case.md": "# Case\n\nADR 7.\n"})
    assert _check(repo, ("refs",)) == []
    assert fix_refs(load_workspace(repo.root)) == []
    assert [r for r, *_ in _check(repo, ("refs",), refs_exclude=())] == ["R003", "R002", "R001"]


def test_crlf_code_file_keeps_its_line_ends(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"ci.yml": "x: 1\r\n# RFC 1\r\n"})
    (write,) = fix_refs(load_workspace(repo.root))
    assert write.encoded() == f"x: 1\r\n# {PLUGINS}\r\n".encode()


def test_code_file_with_mixed_line_ends_and_a_bom_changes_only_where_fixed(tmp_path: Path) -> None:
    raw = "\ufeff# RFC 1\r\nx: 1\n\r# RFC 1\r\n"
    repo = _repo(tmp_path, {"ci.yml": raw})
    assert _check(repo, ("refs",)) == [("R003", "ci.yml", 1, 3), ("R003", "ci.yml", 4, 3)]
    (write,) = fix_refs(load_workspace(repo.root))
    assert write.encoded() == raw.replace("RFC 1", PLUGINS).encode()


def test_a_bare_id_in_a_heading_is_found_and_linked_with_its_anchor_kept(tmp_path: Path) -> None:
    # 183 ids in headings in one public repository were neither reported nor rewritten.
    readme = "# App\n\n## Why ADR 0007\n\nSee [why](#why-adr-0007).\n"
    repo = _repo(tmp_path, {"README.md": readme})
    workspace = load_workspace(repo.root, config=Config())
    (found,) = gates.check(workspace, ("refs",))
    assert (found.rule, found.line, found.column) == ("R001", 3, 8)
    assert "[ADR 0007](docs/rfc/implemented/2026-01-05-use-postgres.md)" in found.message
    assert "its anchor stays" in found.message
    write_all(repo.root, list(gates.fix(load_workspace(repo.root), ("refs",))))
    fixed = (repo.root / "README.md").read_text()
    assert fixed == readme.replace(
        "## Why ADR 0007", "## Why [ADR 0007](docs/rfc/implemented/2026-01-05-use-postgres.md)"
    )
    assert _check(repo) == []
    headings = load_workspace(repo.root).documents["README.md"].headings
    assert "why-adr-0007" in {h.slug for h in headings}  # [why](#why-adr-0007) still resolves


def test_rule_tables_name_every_code_once() -> None:
    codes = [code for table in RULES.values() for code in table]
    assert len(codes) == len(set(codes))
    registered = {rule.code: rule.gate for rule in all_rules()}
    assert {registered[code] for code in RULES["layout"]} == {"layout"}
    assert {registered[code] for code in RULES["refs"]} == {"refs"}
