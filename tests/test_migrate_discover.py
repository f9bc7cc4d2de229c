"""Finding legacy trees, record ids, slugs and titles; reading every status form."""

from __future__ import annotations

import pytest

from docsync.config import DEFAULT_STATUSES, Source
from docsync.migrate.read.discover import (
    Tree,
    default_status,
    find_trees,
    index_paths,
    lifecycle_folders,
    normalized_title,
    read_record,
    record_paths,
    strip_title_prefix,
    template_paths,
)
from docsync.migrate.read.names import RecordName, ascii_slug, numbered, record_name
from docsync.migrate.read.status import StatusForm, detail_of, read_status, state_of
from docsync.parse.native import parse
from docsync.records.model import RecordId

PATHS = [
    "docs/adr/0001-use-postgres.md",
    "docs/adr/README.md",
    "docs/adr/img.png",
    "docs/rfc/001-plugin-api.md",
    "docs/rfc/index.md",
    "docs/rfc/implemented/2020-01-01-old.md",
    "doc/decisions/adr-012-x.md",
    "architecture/decisions/ADR-7-y.md",
    "rfcs/rfc-3-z.md",
    "notes/adr/0001-not-searched-here.md",
    "docs/adr/sub/0002-nested.md",
    "docs/rfcs/readme.md",
]


def test_trees_with_a_tree_name_are_found_at_any_depth() -> None:
    assert find_trees(PATHS, ()) == (
        Tree("architecture/decisions", "ADR"),
        Tree("doc/decisions", "ADR"),
        Tree("docs/adr", "ADR"),
        Tree("docs/rfc", "RFC"),
        Tree("notes/adr", "ADR"),
        Tree("rfcs", "RFC"),
    )


# Layouts of real repositories: folder → its files → the tree found (None: not a tree).
LAYOUTS = [
    ("text", ["0000-template.md", "0001-a.md", "0002-b.md", "0003-c.md"], Tree("text", "TEXT")),
    ("EIPS", ["eip-1.md", "eip-2.md", "eip-20.md"], Tree("EIPS", "EIP")),
    ("docs/references/architecture", ["20200924-a.md", "20200925-b.md", "20201001-c.md"],
     Tree("docs/references/architecture", "ADR")),
    ("packages/core/docs/adr", ["20201002-a.md"], Tree("packages/core/docs/adr", "ADR")),
    ("docs/architecture/decisions", ["0001-a.md"], Tree("docs/architecture/decisions", "ADR")),
    ("proposals", ["ADR-013-x.md", "ADR-014-y.md", "ADR-015-z.md"], Tree("proposals", "ADR")),
    ("docs/guide", ["01-intro.md", "02-setup.md", "03-usage.md"], None),
    ("docs/guide", ["1-intro.md", "2-setup.md", "3-usage.md", "4-more.md"], None),
    ("notes", ["0001-a.md", "0002-b.md"], None),
    ("docs", ["page-001.md", "page-002.md", "page-003.md"], None),
    ("packages/core/integration-tests/ro-project/docs/adr", ["20200101-a.md"], None),
    ("tests/fixtures/adr", ["0001-a.md"], None),
    ("node_modules/x/docs/adr", ["0001-a.md"], None),
    ("docs/rfc/implemented", ["2020-01-01-a.md", "2020-01-02-b.md", "2020-01-03-c.md"], None),
]  # fmt: skip


@pytest.mark.parametrize(("folder", "names", "expected"), LAYOUTS)
def test_layouts_of_real_repositories(folder: str, names: list[str], expected: Tree | None) -> None:
    paths = [f"{folder}/{n}" for n in names]
    lifecycle = lifecycle_folders("docs/rfc", ("proposed", "implemented", "rejected"))
    assert find_trees(paths, (), lifecycle) == ((expected,) if expected else ())


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("0001-x.md", RecordName(1, "x")),
        ("adr-012-use-x.md", RecordName(12, "use-x", "ADR")),
        ("ADR-013-Use_X.md", RecordName(13, "use-x", "ADR")),
        ("rfc-3-x.md", RecordName(3, "x", "RFC")),
        ("eip-1.md", RecordName(1, "", "EIP")),
        ("20200924-use-x.md", RecordName(None, "use-x")),
        ("2020-09-24-use-x.md", RecordName(None, "use-x")),
        ("template.md", None),
        ("adr-template.md", None),
        ("0000-template.md", None),
        ("RFC_TEMPLATE.md", None),
        ("eip-template.md", None),
        ("README.md", None),
    ],
)
def test_record_names(name: str, expected: RecordName | None) -> None:
    assert record_name(name) == expected


def test_templates_are_not_records_but_found_as_templates() -> None:
    paths = ["text/0000-template.md", "text/0001-a.md", "docs/adr/template.md"]
    assert [p for p, _, _ in record_paths(Tree("text", "RFC"), paths)] == ["text/0001-a.md"]
    assert template_paths(Tree("text", "RFC"), paths) == ["text/0000-template.md"]
    assert template_paths(Tree("docs/adr", "ADR"), paths) == ["docs/adr/template.md"]


def test_date_named_records_have_no_id() -> None:
    paths = ["docs/adr/20200924-use-x.md", "docs/adr/index.md"]
    assert record_paths(Tree("docs/adr", "ADR"), paths) == [
        ("docs/adr/20200924-use-x.md", None, "use-x")
    ]


def test_a_name_without_a_slug_takes_it_from_the_front_matter_title() -> None:
    text = "---\neip: 1\ntitle: 'EIP Purpose and Guidelines'\nstatus: Living\n---\n\n## What\n"
    record = read_record(parse("EIPS/eip-1.md", text), RecordId("EIP", 1), "", "EIP")
    assert (record.title, record.name_slug) == (
        "EIP Purpose and Guidelines",
        "eip-purpose-and-guidelines",
    )


def test_a_name_without_a_slug_takes_it_from_the_first_heading() -> None:
    record = read_record(parse("x/0007.md", "# Use X\n"), RecordId("ADR", 7), "")
    assert record.name_slug == "use-x"


def test_records_in_status_subfolders_belong_to_the_tree_with_their_default() -> None:
    tree = Tree("rfcs", "RFC", "", {"active": "proposed", "complete": "implemented"})
    paths = [
        "rfcs/active/0001-a.md",
        "rfcs/complete/0002-b.md",
        "rfcs/0003-c.md",
        "rfcs/x/0004-d.md",
    ]
    found = [p for p, _, _ in record_paths(tree, paths)]
    assert found == ["rfcs/0003-c.md", "rfcs/active/0001-a.md", "rfcs/complete/0002-b.md"]
    assert [default_status(tree, p) for p in found] == ["", "proposed", "implemented"]
    assert default_status(Tree("text", "RFC", "implemented"), "text/0001-a.md") == "implemented"


def test_architecture_decisions_is_a_tree_of_its_own() -> None:
    assert find_trees(["architecture/decisions/0001-a.md"], ()) == (
        Tree("architecture/decisions", "ADR"),
    )


def test_configured_sources_replace_discovery_and_name_the_kind() -> None:
    sources = (Source("notes/adr", ""), Source("proposals", "PEP"))
    assert find_trees(PATHS, sources) == (Tree("notes/adr", "ADR"), Tree("proposals", "PEP"))


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("0004-own-content-block-vocabulary.md", (4, "own-content-block-vocabulary")),
        ("001-plugin-api.md", (1, "plugin-api")),
        ("adr-012-use-x.md", (12, "use-x")),
        ("ADR-012-Use_X.md", (12, "use-x")),
        ("rfc-3-café-au-lait.md", (3, "cafe-au-lait")),
        ("0007.md", (7, "")),
        ("2021-01-02-dated.md", None),
        ("README.md", None),
        ("template.md", None),
    ],
)
def test_numbered_names(name: str, expected: tuple[int, str] | None) -> None:
    assert numbered(name) == expected


def test_records_take_the_tree_kind_and_only_direct_children() -> None:
    found = record_paths(Tree("docs/adr", "ADR"), PATHS)
    assert found == [("docs/adr/0001-use-postgres.md", RecordId("ADR", 1), "use-postgres")]
    rfc = record_paths(Tree("docs/rfc", "RFC"), PATHS)
    assert [r[1] for r in rfc] == [RecordId("RFC", 1)]
    assert RecordId("ADR", 1).key() != RecordId("RFC", 1).key()


def test_indexes_are_readme_and_index_files() -> None:
    assert index_paths(Tree("docs/adr", "ADR"), PATHS) == ["docs/adr/README.md"]
    assert index_paths(Tree("docs/rfc", "RFC"), PATHS) == ["docs/rfc/index.md"]
    assert index_paths(Tree("docs/rfcs", "RFC"), PATHS) == ["docs/rfcs/readme.md"]


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("ADR 0004: Own content block vocabulary", "Own content block vocabulary"),
        ("RFC-012 - Plugin API", "Plugin API"),
        ("RFC: Runtime arg validation", "Runtime arg validation"),
        ("1. Record architecture decisions", "Record architecture decisions"),
        ("RFC process", "RFC process"),
        ("2FA for admins", "2FA for admins"),
        ("ADR 7", "ADR 7"),
    ],
)
def test_title_prefixes(title: str, expected: str) -> None:
    assert strip_title_prefix(title) == expected


def test_normalised_titles_ignore_case_punctuation_and_prefix() -> None:
    assert normalized_title("ADR 0006: Plugin API!") == normalized_title(
        "RFC 001 — plugin-api", "RFC"
    )
    assert normalized_title("Plugin API") != normalized_title("Plugin APIs")


def test_ascii_slug() -> None:
    assert ascii_slug("Ünïcode Straße & more") == "unicode-strae-more"


def test_read_record_without_a_heading_titles_it_from_the_slug() -> None:
    record = read_record(
        parse("docs/adr/0002-use-x.md", "Status: draft\n"), RecordId("ADR", 2), "use-x"
    )
    assert record.title == "Use x"
    assert record.title_heading is None


# --------------------------------------------------------------------------- status forms


def _status(text: str) -> tuple[str, StatusForm, str]:
    doc = parse("x.md", text)
    reading = read_status(doc)
    assert reading is not None
    after = doc.text[: reading.remove.start] + reading.replace + doc.text[reading.remove.end :]
    return reading.value, reading.form, after


@pytest.mark.parametrize(
    ("text", "value", "form", "after"),
    [
        ("# T\n\nStatus: Accepted\n\nBody.\n", "Accepted", StatusForm.LINE, "# T\n\nBody.\n"),
        ("# T\n\n**Status:** Accepted\n\nBody.\n", "Accepted", StatusForm.BOLD, "# T\n\nBody.\n"),
        ("# T\n\n**Status**: Accepted\n\nBody.\n", "Accepted", StatusForm.BOLD, "# T\n\nBody.\n"),
        (
            "# T\n\n* Status: accepted\n* Deciders: us\n",
            "accepted",
            StatusForm.LIST,
            "# T\n\n* Deciders: us\n",
        ),
        ("# T\n\n- Status: accepted\n", "accepted", StatusForm.LIST, "# T\n\n"),
        (
            "# T\n\nDate: 2020\nstatus: Draft\nOwner: me\n",
            "Draft",
            StatusForm.LINE,
            "# T\n\nDate: 2020\nOwner: me\n",
        ),
        (
            "# 1. T\n\nDate: 2016\n\n## Status\n\nSuperseded by ADR 0004\n\n## Context\n\nC.\n",
            "Superseded by ADR 0004",
            StatusForm.SECTION,
            "# 1. T\n\nDate: 2016\n\n## Context\n\nC.\n",
        ),
        (
            "---\ntitle: T\nstatus: proposed\n---\n# T\n",
            "proposed",
            StatusForm.FRONT_MATTER,
            "---\ntitle: T\n---\n# T\n",
        ),
        ("---\nstatus: 'proposed'\n---\n\n# T\n", "proposed", StatusForm.FRONT_MATTER, "# T\n"),
        (
            "# T\n\n| Field | Value |\n| --- | --- |\n| Status | Rejected |\n| Date | 2020 |\n\nB.\n",
            "Rejected",
            StatusForm.TABLE,
            "# T\n\n| Field | Value |\n| --- | --- |\n| Date | 2020 |\n\nB.\n",
        ),
        (
            "# T\n\n| Status | Rejected |\n| --- | --- |\n| Date | 2020 |\n\nB.\n",
            "Rejected",
            StatusForm.TABLE,
            "# T\n\n| Date | 2020 |\n| --- | --- |\n\nB.\n",
        ),
    ],
)
def test_every_status_form(text: str, value: str, form: StatusForm, after: str) -> None:
    assert _status(text) == (value, form, after)


def test_a_status_line_deep_in_the_prose_is_prose() -> None:
    text = "# T\n\n## Notes\n\nStatus: this word means many things.\n"
    assert read_status(parse("x.md", text)) is None


def test_status_in_code_is_not_a_status() -> None:
    assert read_status(parse("x.md", "# T\n\n```\nStatus: accepted\n```\n")) is None


@pytest.mark.parametrize(
    ("value", "state", "detail"),
    [
        ("implemented (pts 1-2; pt 3 deferred)", "implemented", "pts 1-2; pt 3 deferred"),
        ("Implemented (revised)", "implemented", "revised"),
        ("Accepted", "implemented", "Accepted"),
        ("Superseded by ADR 0004", "rejected", "Superseded by ADR 0004"),
        ("**Proposed**", "proposed", ""),
        ("WIP", "proposed", "WIP"),
    ],
)
def test_first_word_decides_and_detail_is_kept(value: str, state: str, detail: str) -> None:
    reading = read_status(parse("x.md", f"# T\n\nStatus: {value}\n"))
    assert reading is not None
    assert state_of(reading, DEFAULT_STATUSES) == state
    assert detail_of(reading, state) == detail


def test_unknown_status_maps_to_nothing() -> None:
    reading = read_status(parse("x.md", "# T\n\nStatus: pondering\n"))
    assert reading is not None
    assert state_of(reading, DEFAULT_STATUSES) is None
    assert state_of(reading, {**DEFAULT_STATUSES, "pondering": "proposed"}) == "proposed"


def test_a_stub_without_title_or_slug_is_named_by_its_id_and_file_name() -> None:
    text = "---\neip: 1046\nstatus: Moved\n---\n\nThis file was moved elsewhere.\n"
    record = read_record(parse("EIPS/eip-1046.md", text), RecordId("EIP", 1046), "", "EIP")
    assert (record.title, record.name_slug) == ("EIP 1046", "eip-1046")


def test_a_front_matter_title_wins_and_the_first_heading_stays_a_section() -> None:
    text = "---\neip: 158\ntitle: State clearing\nstatus: Final\n---\n\n# Specification\n"
    record = read_record(parse("EIPS/eip-158.md", text), RecordId("EIP", 158), "", "EIP")
    assert (record.title, record.name_slug, record.title_heading) == (
        "State clearing",
        "state-clearing",
        None,
    )
