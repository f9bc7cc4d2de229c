"""The read side of migration on small real repositories, one per failure class found on
public repositories (scripts/realworld.py): layouts, statuses, merges, duplicate numbers."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from docsync.migrate.plan import planfile
from docsync.migrate.run import Options, run
from tests.gitutil import GitRepo

runner = CliRunner()


@pytest.fixture
def repo(migration_repo: GitRepo) -> GitRepo:
    return migration_repo


def _plan(repo: GitRepo, files: dict[str, str], config: str = "") -> dict[str, object]:
    for path, text in files.items():
        repo.write(path, text)
    if config:
        repo.write(".docsync.toml", config)
    repo.commit("records", when="2020-09-24 10:00:00", tz="+0200")
    _, outcome = run(repo.root, Options())
    plan = outcome.plan
    return {
        "paths": {str(t.parts[0]): t.path for t in plan.topics},
        "states": {str(t.parts[0]): (t.state, t.detail) for t in plan.topics},
        "problems": [str(p) for p in plan.problems],
        "removals": sorted(outcome.changes.removals)
        if hasattr(outcome.changes, "removals")
        else [],
    }


def test_date_named_records_as_log4brains_writes_them(repo: GitRepo) -> None:
    found = _plan(
        repo,
        {
            "docs/adr/20200924-use-markdown.md": "# Use Markdown\n\n- Status: accepted\n\nText.\n",
            "docs/adr/2020-09-25-use-yarn.md": "# Use Yarn\n\n- Status: draft\n\nText.\n",
            "docs/adr/template.md": "# [short title]\n\n- Status: [draft | accepted]\n",
            "docs/adr/index.md": "# Architecture knowledge base\n\nWelcome.\n",
        },
    )
    assert found["paths"] == {
        "docs/adr/20200924-use-markdown.md": "docs/rfc/implemented/2020-09-24-use-markdown.md",
        "docs/adr/2020-09-25-use-yarn.md": "docs/rfc/proposed/2020-09-24-use-yarn.md",
    }
    assert found["problems"] == []


def test_eip_names_without_slug_take_the_front_matter_title(repo: GitRepo) -> None:
    eip = "---\neip: {n}\ntitle: {title}\nstatus: {status}\n---\n\n## Abstract\n\nText {n}.\n"
    found = _plan(
        repo,
        {
            "EIPS/eip-1.md": eip.format(n=1, title="EIP Purpose and Guidelines", status="Living"),
            "EIPS/eip-2.md": eip.format(n=2, title="Homestead Changes", status="Final"),
            "EIPS/eip-3.md": eip.format(n=3, title="Add CALLs", status="Last Call"),
            "EIPS/eip-4.md": eip.format(n=4, title="Moved elsewhere", status="Moved"),
            "eip-template.md": eip.format(n="<n>", title="<title>", status="Draft"),
        },
        'target = "EIPS"\n',
    )
    assert found["paths"] == {
        "EIPS/eip-1.md": "EIPS/implemented/2020-09-24-eip-purpose-and-guidelines.md",
        "EIPS/eip-2.md": "EIPS/implemented/2020-09-24-homestead-changes.md",
        "EIPS/eip-3.md": "EIPS/proposed/2020-09-24-add-calls.md",
        "EIPS/eip-4.md": "EIPS/rejected/2020-09-24-moved-elsewhere.md",
    }
    assert found["states"]["EIPS/eip-3.md"] == ("proposed", "Last Call")


def test_a_folder_whose_records_have_no_status_takes_the_source_default(repo: GitRepo) -> None:
    found = _plan(
        repo,
        {
            "text/0000-template.md": "- Feature Name: (fill me in)\n\n# Summary\n",
            "text/0001-private-fields.md": "- Feature Name: private\n\n# Summary\n\nText.\n",
            "text/0002-rfc-process.md": "# Summary\n\nText.\n",
        },
        'sources = [{ path = "text", kind = "RFC", status = "implemented" }]\n',
    )
    assert sorted(found["paths"].values()) == [
        "docs/rfc/implemented/2020-09-24-private-fields.md",
        "docs/rfc/implemented/2020-09-24-rfc-process.md",
    ]
    assert found["problems"] == []


def test_status_subfolders_give_their_records_a_state(repo: GitRepo) -> None:
    found = _plan(
        repo,
        {
            "rfcs/active/0001-a.md": "# A\n\nText.\n",
            "rfcs/complete/0002-b.md": "# B\n\nText.\n",
            "rfcs/postponed/0003-c.md": "# C\n\nStatus: rejected\n\nText.\n",
        },
        'sources = [{ path = "rfcs", status = { active = "proposed", complete = "implemented",'
        ' postponed = "proposed" } }]\n',
    )
    assert {k: v[0] for k, v in found["states"].items()} == {
        "rfcs/active/0001-a.md": "proposed",
        "rfcs/complete/0002-b.md": "implemented",
        "rfcs/postponed/0003-c.md": "rejected",  # its own status line wins over the default
    }


def test_status_under_a_metadata_section_is_read(repo: GitRepo) -> None:
    found = _plan(
        repo,
        {
            "docs/adr/0001-a.md": "# A\n\n## Metadata\n\n* Status: In Progress\n* Date: x\n\n## Context\n\nT.\n",
            "docs/adr/0002-b.md": "# B\n\n## Metadata\n\n| Status | Partially Accepted |\n| --- | --- |\n\nT.\n",
        },
    )
    assert found["states"] == {
        "docs/adr/0001-a.md": ("proposed", "In Progress"),
        "docs/adr/0002-b.md": ("implemented", "Partially Accepted"),
    }


def test_a_configured_phrase_beats_the_first_word(repo: GitRepo) -> None:
    found = _plan(
        repo,
        {"docs/adr/0001-a.md": "# A\n\nStatus: Accepted in part\n\nT.\n"},
        '[statuses]\n"accepted in part" = "proposed"\n',
    )
    assert found["states"]["docs/adr/0001-a.md"][0] == "proposed"


PROSE = (
    "# Docs\n\n## Status\n\nThe two points above have been implemented; the rest can be found"
    " [here](../../README.md).\n\n## Context\n\nText.\n"
)


def test_a_prose_status_section_is_a_question_and_the_prose_stays(repo: GitRepo) -> None:
    found = _plan(repo, {"docs/adr/0001-docs.md": PROSE})
    (problem,) = found["problems"]
    assert "is prose, not a status" in problem and "set status in the plan" in problem
    plan_path = repo.root.parent / "plan.toml"
    assert runner.invoke(app, ["migrate", "--write-plan", str(plan_path)]).exit_code == 1
    text = plan_path.read_text().replace('status = ""', 'status = "implemented"', 1)
    plan_path.write_text(text)
    result = runner.invoke(app, ["migrate", "--apply", "--commit", "--plan", str(plan_path)])
    assert result.exit_code == 0, result.output
    record = (repo.root / "docs/rfc/implemented/2020-09-24-docs.md").read_text()
    assert "## Status\n\nThe two points above have been implemented;" in record
    assert "[here](../../../README.md)" in record


def test_equal_titles_in_one_tree_are_a_question_not_a_merge(repo: GitRepo) -> None:
    found = _plan(
        repo,
        {
            "docs/adr/0001-a.md": "# Use a queue\n\nStatus: accepted\n\nOne.\n",
            "docs/adr/0002-b.md": "# Use a queue\n\nStatus: pending\n\nTwo.\n",
            "docs/adr/0003-c.md": "# Other\n\nStatus: accepted\n\nThree.\n",
        },
    )
    assert len(found["paths"]) == 3
    assert found["problems"][0].startswith("docs/adr/0001-a.md: has the same title")
    assert "docs/adr/0002-b.md" in found["problems"][0]
    plan_path = repo.root.parent / "plan.toml"
    runner.invoke(app, ["migrate", "--write-plan", str(plan_path)])
    spec = planfile.read(plan_path)
    assert [t.sources for t in spec.topics][:2] == [
        ("docs/adr/0001-a.md",),
        ("docs/adr/0002-b.md",),
    ]
    result = runner.invoke(app, ["migrate", "--plan", str(plan_path)])
    assert result.exit_code == 0, result.output  # the written plan is the answer: kept apart


def test_equal_titles_across_trees_merge(repo: GitRepo) -> None:
    found = _plan(
        repo,
        {
            "docs/adr/0001-plugin-api.md": "# Plugin API\n\nStatus: accepted\n\nOne.\n",
            "docs/rfc/001-plugin-api.md": "# Plugin API\n\nStatus: proposed\n\nTwo.\n",
        },
    )
    assert len(found["paths"]) == 1 and found["problems"] == []


def test_duplicate_numbers_are_a_question_the_plan_answers(repo: GitRepo) -> None:
    found = _plan(
        repo,
        {
            "text/2071-a.md": "# A\n\nStatus: accepted\n\nOne.\n",
            "text/2071-b.md": "# B\n\nStatus: accepted\n\nTwo.\n",
            "text/2072-c.md": "# C\n\nStatus: accepted\n\nThree.\n",
        },
        'sources = [{ path = "text", kind = "RFC" }]\n',
    )
    (problem,) = found["problems"]
    assert "RFC 2071: is the id of two records, text/2071-a.md and text/2071-b.md" in problem
    assert "ids = []" in problem
    plan_path = repo.root.parent / "plan.toml"
    runner.invoke(app, ["migrate", "--write-plan", str(plan_path)])
    text = plan_path.read_text()
    second = text.index('sources = ["text/2071-b.md"]')
    ids_at = text.index('ids = ["RFC 2071"]', second)
    plan_path.write_text(text[:ids_at] + "ids = []" + text[ids_at + len('ids = ["RFC 2071"]') :])
    result = runner.invoke(app, ["migrate", "--plan", str(plan_path)])
    assert result.exit_code == 0, result.output


def test_no_records_says_so_exits_0_and_writes_nothing(repo: GitRepo) -> None:
    repo.write("docs/guide/01-intro.md", "# Intro\n")
    repo.commit("docs")
    before = repo.git("status", "--porcelain")
    head = repo.head()
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output
    assert "nothing to migrate" in result.output.lower()
    assert (repo.head(), repo.git("status", "--porcelain")) == (head, before)


def test_init_finds_trees_at_any_depth_and_proposes_the_template(repo: GitRepo) -> None:
    repo.write("docs/references/architecture/20200924-a.md", "# A\n\n- Status: accepted\n")
    repo.write("docs/references/architecture/20200925-b.md", "# B\n\n- Status: accepted\n")
    repo.write("docs/references/architecture/20200926-c.md", "# C\n\n- Status: accepted\n")
    repo.write("docs/references/architecture/template.md", "# Title\n\n- Status: draft\n")
    repo.commit("tree")
    result = runner.invoke(app, ["init"])
    assert result.exit_code == 0, result.output
    config = (repo.root / ".docsync.toml").read_text()
    assert '{ path = "docs/references/architecture", kind = "ADR" },  # 3 records' in config
    assert 'template = "docs/references/architecture/template.md"' in config


def test_another_tools_index_page_stays_where_it_is(repo: GitRepo) -> None:
    repo.write(".log4brains.yml", "project:\n  adr:\n    path: docs/adr\n")
    repo.write("docs/adr/20200924-use-x.md", "# Use X\n\n- Status: accepted\n\nText.\n")
    repo.write("docs/adr/index.md", "# Knowledge base\n\nSee [the record](20200924-use-x.md).\n")
    repo.commit("log4brains tree")
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output
    page = (repo.root / "docs/adr/index.md").read_text()
    assert page == "# Knowledge base\n\nSee [the record](../rfc/implemented/2020-01-01-use-x.md).\n"


def test_a_parenthesised_definition_destination_broken_before_is_left_as_written(
    repo: GitRepo,
) -> None:
    # rust-lang/rfcs: "[RFC x]: (https://…#frag)" is a relative destination in parentheses.
    text = "# Closures\n\nStatus: accepted\n\nSee [spec][].\n\n[spec]: (https://example.org/a.html#b)\n"
    repo.write("docs/adr/0001-closures.md", text)
    repo.commit("record")
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output
    moved = (repo.root / "docs/rfc/implemented/2020-01-01-closures.md").read_text()
    assert "[spec]: (https://example.org/a.html#b)\n" in moved


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("[ADR 0002 quality gates](0002-gates.md)", "[quality gates](2020-01-01-gates.md)"),
        ("[ADR-0002: quality gates](0002-gates.md)", "[quality gates](2020-01-01-gates.md)"),
        ("[ADR 0002](0002-gates.md)", "[Gates](2020-01-01-gates.md)"),
        ("[ADR 0009 unknown](0002-gates.md)", "[ADR 0009 unknown](2020-01-01-gates.md)"),
    ],
)
def test_a_link_text_of_an_id_and_words_keeps_the_words(
    repo: GitRepo, written: str, expected: str
) -> None:
    repo.write("docs/adr/0001-a.md", f"# A\n\nStatus: accepted\n\nSee {written}.\n")
    repo.write("docs/adr/0002-gates.md", "# Gates\n\nStatus: accepted\n\nText.\n")
    repo.commit("records")
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output
    text = (repo.root / "docs/rfc/implemented/2020-01-01-a.md").read_text()
    assert f"See {expected}." in text


def test_an_id_link_in_a_heading_keeps_its_text_so_fragments_still_resolve(repo: GitRepo) -> None:
    # ethereum/EIPs: "##### Integration with [EIP-7778](./eip-7778.md)" and a link to it.
    repo.write(
        "docs/adr/0001-a.md",
        "# A\n\nStatus: accepted\n\n## Using [ADR 0002](0002-b.md)\n\nSee [there](#using-adr-0002).\n",
    )
    repo.write("docs/adr/0002-b.md", "# B\n\nStatus: accepted\n\nText.\n")
    repo.commit("records")
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output
    text = (repo.root / "docs/rfc/implemented/2020-01-01-a.md").read_text()
    assert "## Using [ADR 0002](2020-01-01-b.md)\n" in text
    assert "[there](#using-adr-0002)" in text


def test_a_records_own_folder_holds_companions_not_records(repo: GitRepo) -> None:
    # rust-lang/rfcs: text/3392-leadership-council/ holds the RFC's translations and chapters.
    repo.write(
        ".docsync.toml",
        'target = "text"\nsources = [{ path = "text", kind = "RFC", status = "implemented" }]\n',
    )
    repo.write(
        "text/0001-council.md", "# Council\n\nSee [motivation](0001-council/motivation.md).\n"
    )
    repo.write("text/0001-council/motivation.md", "# Motivation\n\nText.\n")
    repo.write("text/0001-council/council-ja.md", "# Council, translated\n\nText.\n")
    repo.write("text/0002-other.md", "# Other\n\nText.\n")
    repo.commit("records")
    assert runner.invoke(app, ["migrate", "--apply", "--commit"]).exit_code == 0
    assert (repo.root / "text/implemented/2020-01-01-council.md").is_file()
    result = runner.invoke(app, ["check", "--select", "Y"])
    assert result.exit_code == 0, result.output
    repo.write("text/stray/2020-01-01-loose.md", "# Loose\n\nStatus: implemented\n")
    result = runner.invoke(app, ["check", "--select", "Y"])
    assert result.exit_code == 1 and "Y001" in result.output, result.output
