"""``docsync new`` and ``docsync move`` on real git repositories, refusals included."""

from __future__ import annotations

import errno
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from docsync.check.check import run_check
from docsync.check.fix import run_fix
from docsync.cli import app
from docsync.config import Config
from docsync.errors import DocsyncError
from docsync.lifecycle import move as lifecycle_move
from docsync.lifecycle import new as lifecycle_new
from docsync.lifecycle import status as lifecycle_status
from docsync.write import writer
from tests.gitutil import GitRepo

runner = CliRunner()
TODAY = date.today().isoformat()

POSTGRES = "docs/rfc/implemented/2026-01-05-use-postgres.md"
PLUGINS = "docs/rfc/proposed/2026-01-02-plugin-api.md"
FILES = {
    POSTGRES: "# Use Postgres\n\nStatus: implemented\n\n## Why\n\nIt is boring.\n",
    PLUGINS: (
        "# Plugin API\n\nStatus: proposed (pts 1-2)\n\n## Loading\n\n"
        "Plugins load from entry points, unlike [Postgres](../implemented/2026-01-05-use-postgres.md#why).\n\n"
        "See [loading](#loading) and [this record](2026-01-02-plugin-api.md#loading).\n"
    ),
    "README.md": (
        "# Project\n\nRead [the plugin API](docs/rfc/proposed/2026-01-02-plugin-api.md#loading), "
        "and [again][plugins].\n\n[plugins]: <docs/rfc/proposed/2026-01-02-plugin-api.md>\n"
    ),
    "docs/guide/setup.md": "# Setup\n\nPlugins: [API](../rfc/proposed/2026-01-02-plugin-api.md).\n",
    "tools/lint.py": "# see docs/rfc/proposed/2026-01-02-plugin-api.md for the rules\n",
    "docs/rfc/README.md": (
        "# RFCs\n\n<!-- docsync:index:begin -->\n\n## Former ids\n\n"
        "| Former id or path | Record |\n| --- | --- |\n"
        "| `ADR 0007` | [Use Postgres](implemented/2026-01-05-use-postgres.md) |\n"
        "| `RFC 001` | [Plugin API](proposed/2026-01-02-plugin-api.md) |\n"
        "| `docs/rfc/001-plugin-api.md` | [Plugin API](proposed/2026-01-02-plugin-api.md) |\n\n"
        "<!-- docsync:index:end -->\n"
    ),
}



@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GitRepo]:
    """A clean repository with two records, links into them, and a generated index."""
    repo = GitRepo.init(tmp_path / "repo")
    for path, text in FILES.items():
        repo.write(path, text)
    repo.commit("records")
    run_fix(repo.root)
    repo.commit("index")
    assert _findings(repo) == []
    monkeypatch.chdir(repo.root)
    yield repo


def _findings(repo: GitRepo) -> list[str]:
    return [f"{f.path}:{f.line} {f.rule} {f.message}" for f in run_check(repo.root).findings]


def _run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def _read(repo: GitRepo, path: str) -> str:
    return (repo.root / path).read_text(encoding="utf-8")


def _status(repo: GitRepo) -> str:
    return repo.git("status", "--porcelain", "--untracked-files=all")


# --------------------------------------------------------------------------- docsync new


def test_new_creates_the_record_stages_it_and_lists_it(repo: GitRepo) -> None:
    result = _run("new", "Use SQLite for the cache")
    path = f"docs/rfc/proposed/{TODAY}-use-sqlite-for-the-cache.md"
    assert result.exit_code == 0, result.stderr
    assert result.stdout == path + "\n"
    assert result.stderr == "updated docs/rfc/README.md\n"
    text = _read(repo, path)
    assert text.startswith("# Use SQLite for the cache\n\nStatus: proposed\n\n## Context\n")
    assert f"A  {path}" in _status(repo)
    index = _read(repo, "docs/rfc/README.md")
    assert f"[Use SQLite for the cache](proposed/{TODAY}-use-sqlite-for-the-cache.md)" in index
    assert _findings(repo) == []


def test_new_prints_the_path_from_where_the_user_stands(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo.root / "docs" / "guide")
    result = _run("new", "Ünïcode títle: café & more!")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"../rfc/proposed/{TODAY}-unicode-title-cafe-more.md\n"
    assert _findings(repo) == []


def test_new_takes_a_status_word_and_files_it_under_its_state(repo: GitRepo) -> None:
    result = _run("new", "Drop MySQL", "--status", "superseded")
    path = f"docs/rfc/rejected/{TODAY}-drop-mysql.md"
    assert result.exit_code == 0, result.stderr
    assert "Status: superseded\n" in _read(repo, path)
    assert _findings(repo) == []


def test_new_fills_the_configured_template(repo: GitRepo) -> None:
    repo.write(".docsync.toml", 'template = "docs/templates/record.md"\n')
    repo.write(
        "docs/templates/record.md",
        "---\nowner: team\n---\n\nSetext title\n============\n\nStatus: draft\n\n## Why\n\nBecause.\n",
    )
    repo.commit("template")
    result = _run("new", "Cache warm-up")
    path = f"docs/rfc/proposed/{TODAY}-cache-warm-up.md"
    assert result.exit_code == 0, result.stderr
    assert _read(repo, path) == (
        "---\nowner: team\n---\n\n# Cache warm-up\n\nStatus: proposed\n\n## Why\n\nBecause.\n"
    )
    assert _findings(repo) == []


def test_new_template_option_wins_and_a_missing_status_line_is_added(
    repo: GitRepo, tmp_path: Path
) -> None:
    template = tmp_path / "mine.md"
    template.write_text("# Placeholder\n## Notes\n\nFill in.\n", encoding="utf-8")
    result = _run("new", "Plain record", "--template", str(template))
    assert result.exit_code == 0, result.stderr
    text = _read(repo, f"docs/rfc/proposed/{TODAY}-plain-record.md")
    assert text == "# Plain record\n\nStatus: proposed\n\n## Notes\n\nFill in.\n"
    assert _findings(repo) == []


def _without_former_ids(repo: GitRepo) -> None:
    # The generated "Former ids" intro is one long line, which no width passes
    # (an index limitation, not the commands'); width tests use an index without it.
    repo.write("docs/rfc/README.md", "# RFCs\n")


def test_new_rewraps_the_template_for_a_narrow_width(repo: GitRepo) -> None:
    repo.write(".docsync.toml", "wrap = 40\n")
    _without_former_ids(repo)
    repo.commit("narrow")
    run_fix(repo.root)
    repo.commit("rewrapped")
    assert _findings(repo) == []
    result = _run("new", "Narrow")
    assert result.exit_code == 0, result.stderr
    text = _read(repo, f"docs/rfc/proposed/{TODAY}-narrow.md")
    assert max(len(line) for line in text.splitlines()) <= 40
    assert _findings(repo) == []


def test_new_in_a_repository_without_a_tree_creates_and_stages_the_index(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "fresh")
    change = lifecycle_new.create(repo.root, "First decision", "proposed", None, date(2026, 12, 1))
    assert change.record == "docs/rfc/proposed/2026-12-01-first-decision.md"
    assert change.created == (change.record, "docs/rfc/README.md")
    assert _read(repo, "docs/rfc/README.md").startswith("# RFCs\n")
    assert sorted(_status(repo).splitlines()) == [
        "A  docs/rfc/README.md",
        "A  docs/rfc/proposed/2026-12-01-first-decision.md",
    ]
    assert _findings(repo) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["new", "Plugin API", "--status", "rejected"],
            "a record with the slug 'plugin-api' already exists: "
            "docs/rfc/proposed/2026-01-02-plugin-api.md; choose a more specific title",
        ),
        (["new", "Use Postgres!"], "slug 'use-postgres' already exists"),
        (["new", "Thing", "--status", "someday"], "unknown state 'someday'"),
        (["new", "日本語"], "has no ASCII letters or digits"),
        (["new", "Two\nlines"], "the title must be one line"),
        (["new", "Thing", "--template", "nope.md"], "cannot read template nope.md"),
    ],
)
def test_new_refusals_change_nothing(repo: GitRepo, args: list[str], message: str) -> None:
    result = _run(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith("docsync: error: ")
    assert message in result.stderr
    assert result.stdout == ""
    assert _status(repo) == ""


# --------------------------------------------------------------------------- docsync move


def test_move_renames_with_git_and_rewrites_status_links_index_and_code(repo: GitRepo) -> None:
    result = _run("move", "plugin-api", "implemented", "--note", "shipped in 2.0")
    new = "docs/rfc/implemented/2026-01-02-plugin-api.md"
    assert result.exit_code == 0, result.stderr
    assert result.stdout == new + "\n"
    assert result.stderr == (
        f"moved {PLUGINS} -> {new}\n"
        "updated README.md\n"
        "updated docs/guide/setup.md\n"
        "updated docs/rfc/README.md\n"
        "updated tools/lint.py\n"
    )
    text = _read(repo, new)
    assert f"Status: implemented (pts 1-2; accepted {TODAY}: shipped in 2.0)\n" in text
    assert "[Postgres](../implemented/2026-01-05-use-postgres.md#why)" in text  # still right
    assert "[this record](2026-01-02-plugin-api.md#loading)" in text
    readme = _read(repo, "README.md")
    assert "(docs/rfc/implemented/2026-01-02-plugin-api.md#loading)" in readme
    assert "[plugins]: <docs/rfc/implemented/2026-01-02-plugin-api.md>" in readme
    assert "(../rfc/implemented/2026-01-02-plugin-api.md)" in _read(repo, "docs/guide/setup.md")
    assert _read(repo, "tools/lint.py") == f"# see {new} for the rules\n"
    index = _read(repo, "docs/rfc/README.md")
    assert "| `RFC 001` | [Plugin API](implemented/2026-01-02-plugin-api.md) |" in index
    assert "proposed/" not in index
    assert f"R  {PLUGINS} -> {new}" in _status(repo)  # the rename and the status edit, staged
    assert all(line[1] == " " for line in _status(repo).splitlines())  # nothing left unstaged
    assert _findings(repo) == []


@pytest.mark.parametrize(
    ("path", "text", "rewritten"),
    [
        ("tools/notes.txt", f"see {PLUGINS}.\n", True),  # a full stop after the path
        ("tools/notes.txt", f"backup: {PLUGINS}.orig\n", False),  # another file
        ("tools/notes.txt", f"backup: {PLUGINS}.bak\n", False),
        ("tests/fixtures/plan.toml", f'path = "{PLUGINS}"\n', False),  # refs_exclude: a fixture
    ],
)
def test_move_rewrites_code_paths_as_the_refs_gate_reads_them(
    repo: GitRepo, path: str, text: str, rewritten: bool
) -> None:
    """Issue #10: a move rewrote ``x.md.orig`` and files ``refs_exclude`` names."""
    repo.write(path, text)
    repo.commit("code")
    assert _run("move", "plugin-api", "implemented").exit_code == 0
    new = "docs/rfc/implemented/2026-01-02-plugin-api.md"
    assert _read(repo, path) == (text.replace(PLUGINS, new) if rewritten else text)


def test_move_keeps_history_following_the_file(repo: GitRepo) -> None:
    assert _run("move", PLUGINS, "rejected").exit_code == 0
    repo.commit("rejected", paths=())
    log = repo.git("log", "--follow", "--format=%s", "--", "docs/rfc/rejected/2026-01-02-plugin-api.md")
    assert log.splitlines() == ["rejected", "records"]


@pytest.mark.parametrize(
    "given",
    [
        "ADR 0007",
        "adr 7",
        "ADR-7",
        "use-postgres",
        "2026-01-05-use-postgres",
        "2026-01-05-use-postgres.md",
        POSTGRES,
    ],
)
def test_move_finds_the_record_by_former_id_slug_or_path(repo: GitRepo, given: str) -> None:
    result = _run("move", given, "rejected")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "docs/rfc/rejected/2026-01-05-use-postgres.md\n"
    assert _findings(repo) == []


def test_move_takes_a_path_relative_to_where_the_user_stands(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo.root / "docs" / "rfc" / "proposed")
    result = _run("move", "2026-01-02-plugin-api.md", "implemented")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "../implemented/2026-01-02-plugin-api.md\n"


def test_move_by_former_path(repo: GitRepo) -> None:
    result = _run("move", "docs/rfc/001-plugin-api.md", "rejected")
    assert result.exit_code == 0, result.stderr
    assert (repo.root / "docs/rfc/rejected/2026-01-02-plugin-api.md").is_file()


def test_move_with_a_status_word_records_it_as_the_transition(repo: GitRepo) -> None:
    result = _run("move", "use-postgres", "superseded", "--note", "by the plugin API")
    assert result.exit_code == 0, result.stderr
    text = _read(repo, "docs/rfc/rejected/2026-01-05-use-postgres.md")
    assert f"Status: rejected (superseded {TODAY}: by the plugin API)\n" in text
    assert _findings(repo) == []


def test_move_back_and_forth_accumulates_the_transitions(repo: GitRepo) -> None:
    day1, day2 = date(2026, 12, 1), date(2026, 12, 2)
    lifecycle_move.move(repo.root, "plugin-api", "rejected", "", day1)
    lifecycle_move.move(repo.root, "plugin-api", "proposed", "asked again", day2)
    text = _read(repo, PLUGINS)
    assert (
        "Status: proposed (pts 1-2; rejected 2026-12-01; reopened 2026-12-02: asked again)\n" in text
    )
    assert _status(repo).count("R ") == 0  # moved back where it was: no rename left
    assert _findings(repo) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["move", "nothing-like-this", "rejected"], "no record matches 'nothing-like-this'"),
        (["move", "RFC 999", "rejected"], "no record matches 'RFC 999'"),
        (["move", "plugin-api", "someday"], "unknown state 'someday'"),
        (["move", "plugin-api", "draft"], f"{PLUGINS} is already proposed"),
        (["move", "plugin-api", "rejected", "--note", "a\nb"], "the note must be one line"),
        (["move", "README.md", "rejected"], "no record matches 'README.md'"),
    ],
)
def test_move_refusals_change_nothing(repo: GitRepo, args: list[str], message: str) -> None:
    result = _run(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith("docsync: error: ")
    assert message in result.stderr
    assert _status(repo) == ""


def test_move_refuses_an_untracked_record(repo: GitRepo) -> None:
    repo.write("docs/rfc/proposed/2026-02-01-draft.md", "# Draft\n\nStatus: proposed\n")
    result = _run("move", "draft", "rejected")
    assert result.exit_code == 2
    assert "is not tracked by git; git add it first" in result.stderr


def test_move_refuses_a_record_without_a_status_line(repo: GitRepo) -> None:
    repo.write(PLUGINS, "# Plugin API\n\nNo status here.\n")
    repo.commit("lost status")
    result = _run("move", "plugin-api", "rejected")
    assert result.exit_code == 2
    assert "has no 'Status:' line to update" in result.stderr


def test_move_refuses_an_ambiguous_slug(repo: GitRepo) -> None:
    repo.write("docs/rfc/rejected/2025-01-01-plugin-api.md", "# Old\n\nStatus: rejected\n")
    repo.commit("duplicate")
    result = _run("move", "plugin-api", "implemented")
    assert result.exit_code == 2
    assert "names several records" in result.stderr


def test_move_without_a_tree_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = GitRepo.init(tmp_path / "empty")
    repo.write("README.md", "# Empty\n")
    repo.commit()
    monkeypatch.chdir(repo.root)
    result = _run("move", "x", "implemented")
    assert result.exit_code == 2
    assert "there is no record tree under docs/rfc/ yet" in result.stderr


def test_move_works_on_a_dirty_tree_and_keeps_other_changes(repo: GitRepo) -> None:
    (repo.root / "docs/guide/setup.md").write_text(
        "# Setup\n\nEdited. Plugins: [API](../rfc/proposed/2026-01-02-plugin-api.md).\n"
    )
    assert _run("move", "plugin-api", "rejected").exit_code == 0
    assert _read(repo, "docs/guide/setup.md") == (
        "# Setup\n\nEdited. Plugins: [API](../rfc/rejected/2026-01-02-plugin-api.md).\n"
    )


def test_a_failed_write_puts_everything_back(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = {p: _read(repo, p) for p in FILES}
    index_before = repo.git("ls-files", "-s")

    def broken(kind: str, path: Path) -> None:
        if kind == "replace" and path.name == "README.md":
            raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(writer, "mutation_point", broken)
    with pytest.raises(DocsyncError, match=r"README.md: the disk is full.*every change was undone"):
        lifecycle_move.move(repo.root, "plugin-api", "implemented", "", date(2026, 12, 1))
    assert {p: _read(repo, p) for p in FILES} == before
    assert repo.git("ls-files", "-s") == index_before
    assert not (repo.root / "docs/rfc/implemented/2026-01-02-plugin-api.md").exists()
    assert _status(repo) == ""


def test_move_rewraps_a_paragraph_a_longer_link_pushed_over_the_width(repo: GitRepo) -> None:
    repo.write(".docsync.toml", "wrap = 80\n")
    _without_former_ids(repo)
    repo.write(
        "docs/guide/setup.md",
        "# Setup\n\nPlugins load as the [API](../rfc/proposed/2026-01-02-plugin-api.md) says.\n",
    )
    repo.commit("width")
    run_fix(repo.root)
    repo.commit("wrapped")
    assert _findings(repo) == []
    lifecycle_move.move(repo.root, "plugin-api", "implemented", "a long note " * 6, date(2026, 12, 1))
    assert _findings(repo) == []


def test_move_changes_a_code_file_only_where_it_names_the_record(repo: GitRepo) -> None:
    raw = (
        "\ufeff# rules\r\n# see docs/rfc/proposed/2026-01-02-plugin-api.md\n"
        "x = 1\r\n\r# docs/rfc/proposed/2026-01-02-plugin-api.md\r\n"
    ).encode()
    (repo.root / "tools/lint.py").write_bytes(raw)
    repo.commit("mixed line endings")
    assert _run("move", "plugin-api", "implemented").exit_code == 0
    assert (repo.root / "tools/lint.py").read_bytes() == raw.replace(b"/proposed/", b"/implemented/")


def test_move_rewrites_a_link_on_a_tab_indented_continuation_line(repo: GitRepo) -> None:
    repo.write(".docsync.toml", 'wrap = "off"\n')
    repo.write(
        "docs/guide/setup.md",
        "# Setup\n\n- plugins\n\tload as [the API](../rfc/proposed/2026-01-02-plugin-api.md) says, `x`\n",
    )
    repo.commit("a tab-indented continuation line")
    assert _run("move", "plugin-api", "implemented").exit_code == 0
    assert _read(repo, "docs/guide/setup.md") == (
        "# Setup\n\n- plugins\n\tload as [the API](../rfc/implemented/2026-01-02-plugin-api.md) says, `x`\n"
    )
    assert _findings(repo) == []


def test_move_that_empties_a_linked_folder_says_which_links_break(repo: GitRepo) -> None:
    repo.write("docs/guide/setup.md", "# Setup\n\nSee [what is proposed](../rfc/proposed/).\n")
    repo.commit("a folder link")
    result = _run("move", "plugin-api", "implemented")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.endswith(
        "warning: docs/rfc/proposed/ is empty after the move and git keeps no empty folders; "
        "1 link(s) to it now break: docs/guide/setup.md:3:5 (link to the record index instead)\n"
    )
    assert [f.split(" ")[1] for f in _findings(repo)] == ["L001"]


def test_move_that_leaves_the_folder_in_use_warns_of_nothing(repo: GitRepo) -> None:
    repo.write("docs/rfc/proposed/2026-01-03-other.md", "# Other\n\nStatus: proposed\n")
    repo.write("docs/guide/setup.md", "# Setup\n\nSee [what is proposed](../rfc/proposed/).\n")
    repo.commit("a second proposal")
    run_fix(repo.root)
    repo.commit("index")
    result = _run("move", "plugin-api", "implemented")
    assert result.exit_code == 0, result.stderr
    assert "warning" not in result.stderr
    assert _findings(repo) == []


def test_move_rewrites_links_in_excluded_files_without_rewrapping_them(repo: GitRepo) -> None:
    repo.write(".docsync.toml", 'exclude = ["vendor/**"]\n')
    notes = (
        "# Notes\n\nHard\nwrapped, and see\n"
        "[plugins](../docs/rfc/proposed/2026-01-02-plugin-api.md#loading).\n"
    )
    repo.write("vendor/notes.md", notes)
    repo.commit("vendored notes")
    assert _findings(repo) == []  # excluded: its hard wrap is nobody's finding
    result = _run("move", "plugin-api", "implemented")
    assert result.exit_code == 0, result.stderr
    assert "updated vendor/notes.md\n" in result.stderr
    assert _read(repo, "vendor/notes.md") == notes.replace("/proposed/", "/implemented/")
    assert _findings(repo) == []


# --------------------------------------------------------------------------- pieces


@pytest.mark.parametrize(
    ("value", "old_word", "detail"),
    [
        ("proposed", "proposed", ""),
        ("Proposed", "proposed", ""),
        ("proposed (pts 1-2)", "proposed", "pts 1-2"),
        ("proposed, awaiting review", "proposed", "awaiting review"),
        ("Accepted 2020-01-01", "implemented", "Accepted 2020-01-01"),
        ("accepted (revised)", "implemented", "accepted, revised"),
        ("proposed (a) and (b)", "proposed", "(a) and (b)"),
    ],
)
def test_earlier_detail(value: str, old_word: str, detail: str) -> None:
    assert lifecycle_status.earlier_detail(value, old_word) == detail


def test_moved_status_example_from_the_issue() -> None:
    day = date(2026, 12, 1)
    assert lifecycle_status.moved_status("proposed", "proposed", "implemented", "accepted", day, "") == (
        "implemented (accepted 2026-12-01)"
    )
    assert lifecycle_status.moved_status(
        "proposed (pts 1-2)", "proposed", "implemented", "accepted", day, ""
    ) == ("implemented (pts 1-2; accepted 2026-12-01)")


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Use SQLite for the cache", "use-sqlite-for-the-cache"),
        ("  C++ & Rust: FFI?  ", "c-rust-ffi"),
        ("Ärger mit Öl", "arger-mit-ol"),
        ("日本語", ""),
    ],
)
def test_slug_of(title: str, slug: str) -> None:
    assert lifecycle_status.slug_of(title) == slug


def test_status_words_resolve_to_states() -> None:
    config = Config()
    assert lifecycle_status.resolve_status(config, "Implemented") == lifecycle_status.Status("implemented", "implemented")
    assert lifecycle_status.resolve_status(config, "withdrawn") == lifecycle_status.Status("withdrawn", "rejected")
    assert lifecycle_status.state_word(config, "rejected") == "rejected"
    custom = Config(states={"open": "open", "done": "done"}, statuses={"open": "open", "finished": "done"})
    assert lifecycle_status.state_word(custom, "done") == "finished"
    assert lifecycle_status.written_word(custom, lifecycle_status.resolve_status(custom, "done")) == "finished"


def test_move_whose_rewrite_github_would_render_otherwise_is_refused(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GitHub's page made to change with every byte: the cmark-gfm comparison
    # refuses the first rewrite, and the move changes nothing
    from docsync.rewrite import references as rewrite

    monkeypatch.setattr(rewrite, "github_structure", lambda text: text)
    before = {path: _read(repo, path) for path in FILES}
    result = _run("move", "plugin-api", "implemented")
    assert result.exit_code == 2
    assert "GitHub would render the document differently" in result.stderr
    assert {path: _read(repo, path) for path in FILES} == before
    assert repo.git("status", "--porcelain") == ""
