"""Planning: merges, suggestions, unresolved statuses, names, collisions, splits, retires, overrides."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from docsync.config import DEFAULT_STATES
from docsync.errors import PlanError
from docsync.migrate.model import PlanSpec, RetireSpec, TopicSpec
from docsync.migrate.plan import planfile
from docsync.migrate.plan.plan import infer_spec, resolve
from docsync.migrate.read.repo_view import RepoView
from docsync.migrate.rewrite.changes import compute
from docsync.parse.native import parse
from docsync.records.model import RecordId
from tests.migrate_memory import after, changes, inputs, plan_of

PAIR = {
    "docs/rfc/001-plugin-api.md": "# RFC 001: Plugin API\n\nStatus: proposed\n\n## Context\n\nRFC body.\n",
    "docs/adr/0006-plugin-api.md": "# ADR 0006: Plugin API.\n\nStatus: accepted (2021)\n\n## Context\n\nADR body.\n",
    "docs/adr/0007-plugin-loader.md": "# ADR 0007: Plugin loader\n\nStatus: rejected\n\nSee ADR 0006.\n",
}
PAIR_DATES = {
    "docs/adr/0006-plugin-api.md": "2021-03-01",
    "docs/rfc/001-plugin-api.md": "2020-05-06",
}


def test_same_title_merges_most_advanced_status_earliest_date() -> None:
    plan = plan_of(PAIR, dates=PAIR_DATES)
    merged = plan.topic("plugin-api")
    assert merged is not None
    assert [str(p) for p in merged.parts] == [
        "docs/rfc/001-plugin-api.md",
        "docs/adr/0006-plugin-api.md",
    ]
    assert (merged.state, merged.detail, merged.date) == (
        "implemented",
        "accepted (2021); proposed",
        date(2020, 5, 6),
    )
    assert merged.path == "docs/rfc/implemented/2020-05-06-plugin-api.md"
    assert merged.ids == (RecordId("RFC", 1), RecordId("ADR", 6))
    assert plan.complete


def test_merged_body_is_the_sources_oldest_first_each_marked() -> None:
    plan = plan_of(PAIR, dates=PAIR_DATES)
    text = {w.path: w.text for w in changes(PAIR, plan).writes}[
        "docs/rfc/implemented/2020-05-06-plugin-api.md"
    ]
    assert text == (
        "# Plugin API\n\nStatus: implemented (accepted (2021); proposed)\n\n"
        "<!-- docsync: from docs/rfc/001-plugin-api.md -->\n\n## Context\n\nRFC body.\n\n"
        "<!-- docsync: from docs/adr/0006-plugin-api.md -->\n\n## Context\n\nADR body.\n"
    )


def test_similar_records_are_suggested_not_merged() -> None:
    plan = plan_of(PAIR)
    assert len(plan.topics) == 2
    reasons = {(s.first, s.second): s.reason for s in plan.suggestions}
    assert set(reasons) == {
        ("docs/rfc/001-plugin-api.md", "docs/adr/0007-plugin-loader.md"),
        ("docs/adr/0006-plugin-api.md", "docs/adr/0007-plugin-loader.md"),
    }
    cited = reasons[("docs/adr/0006-plugin-api.md", "docs/adr/0007-plugin-loader.md")]
    assert cited == "share slug words: plugin; docs/adr/0007-plugin-loader.md cites ADR 0006"


def test_missing_and_unknown_statuses_are_unresolved_never_guessed() -> None:
    files = {
        "docs/adr/0001-a.md": "# A\n\nNo status here.\n",
        "docs/adr/0002-b.md": "# B\n\nStatus: pondering\n",
    }
    plan = plan_of(files)
    assert plan.exit_code == 1
    messages = {p.path: p.message for p in plan.problems}
    assert messages["docs/adr/0001-a.md"].startswith("no status found")
    assert (
        "unknown status 'pondering' at docs/adr/0002-b.md:3 (Status line)"
        in messages["docs/adr/0002-b.md"]
    )
    assert changes(files, plan).empty
    resolved = plan_of(files, statuses={"pondering": "proposed", "accepted": "implemented"})
    assert [p.path for p in resolved.problems] == ["docs/adr/0001-a.md"]


def test_slug_collisions_are_plan_errors_resolved_by_editing_the_slug() -> None:
    files = {
        "docs/adr/0001-caching.md": "# Caching\n\nStatus: accepted\n",
        "docs/rfc/002-caching.md": "# Caching of parse results\n\nStatus: accepted\n",
    }
    plan = plan_of(files)
    assert any("slug 'caching'" in p.message for p in plan.problems)
    given = inputs(files)
    spec = infer_spec(given)
    edited = replace(spec, topics=(spec.topics[0], replace(spec.topics[1], slug="parse-caching")))
    assert resolve(edited, given).complete


def test_slug_taken_by_an_existing_record_is_a_plan_error() -> None:
    files = {"docs/adr/0001-caching.md": "# Caching\n\nStatus: accepted\n"}
    given = inputs(files, tree_slugs={"caching": "docs/rfc/implemented/2019-01-01-caching.md"})
    plan = resolve(infer_spec(given), given)
    assert "taken by docs/rfc/implemented/2019-01-01-caching.md" in plan.problems[0].message


UMBRELLA = {
    "docs/rfc/005-tool-safety.md": (
        "# RFC 005: Tool safety\n\nStatus: implemented\n\nIntro.\n\n"
        "## Part 1: Validation\n\nOne.\n\n## Part 2: Errors\n\nTwo.\n"
    ),
    "docs/rfc/006-doc-sync.md": (
        "# RFC 006: Doc sync\n\nStatus: implemented (pts 1-2; pt 3 deferred)\n\nKept.\n\n"
        "## Part 3: Reports\n\nDeferred.\n\n### Format\n\nJSON.\n\n## After\n\nAlso kept.\n"
    ),
    "docs/adr/0001-validation.md": "# Validation\n\nStatus: accepted\n\nPer RFC 005 part 1.\n",
    "docs/adr/0002-errors.md": "# Errors\n\nStatus: accepted\n\nPer RFC 005 pt 2 and RFC 006 part 3.\n",
}
UMBRELLA_DATES = {
    "docs/rfc/005-tool-safety.md": "2019-02-03",
    "docs/rfc/006-doc-sync.md": "2019-04-05",
}


def _umbrella_spec(text: str = "drop") -> PlanSpec:
    return PlanSpec(
        target="docs/rfc",
        topics=(
            TopicSpec(("docs/adr/0001-validation.md",)),
            TopicSpec(("docs/adr/0002-errors.md",)),
            TopicSpec(("docs/rfc/006-doc-sync.md",)),
            TopicSpec(
                ("docs/rfc/006-doc-sync.md#part-3-reports",),
                slug="reports",
                status="proposed",
                title="Reports",
            ),
        ),
        retires=(
            RetireSpec(
                "docs/rfc/005-tool-safety.md",
                {"RFC 005 part 1": "validation", "RFC 005 part 2": "errors"},
                ("validation", "errors"),
                text,
            ),
        ),
    )


def test_split_takes_the_section_and_the_rest_stays() -> None:
    plan = plan_of(UMBRELLA, _umbrella_spec(), dates=UMBRELLA_DATES)
    assert plan.complete, plan.problems
    reports = plan.topic("reports")
    assert reports is not None
    assert (reports.path, reports.ids) == (
        "docs/rfc/proposed/2019-04-05-reports.md",
        (RecordId("RFC", 6, 3),),
    )
    texts = {w.path: w.text for w in changes(UMBRELLA, plan).writes}
    assert (
        texts[reports.path] == "# Reports\n\nStatus: proposed\n\nDeferred.\n\n### Format\n\nJSON.\n"
    )
    assert texts["docs/rfc/implemented/2019-04-05-doc-sync.md"] == (
        "# Doc sync\n\nStatus: implemented (pts 1-2; pt 3 deferred)\n\nKept.\n\n## After\n\nAlso kept.\n"
    )


def test_retire_points_qualified_ids_at_topics_and_flows_its_date() -> None:
    plan = plan_of(UMBRELLA, _umbrella_spec(), dates=UMBRELLA_DATES)
    validation, errors = plan.topic("validation"), plan.topic("errors")
    assert validation is not None and errors is not None
    assert validation.date == errors.date == date(2019, 2, 3)
    (retirement,) = plan.retirements
    assert retirement.ids[RecordId("RFC", 5)] == "validation"  # the whole id follows the first part
    result = changes(UMBRELLA, plan)
    assert "docs/rfc/005-tool-safety.md" in result.removals
    texts = after(UMBRELLA, result)
    assert texts[errors.path] == (
        "# Errors\n\nStatus: implemented (accepted)\n\n"
        "Per [Errors](2019-02-03-errors.md) and [Reports](../proposed/2019-04-05-reports.md).\n"
    )
    assert "Intro." not in "".join(texts.values())


def test_retire_can_keep_the_umbrella_text_in_a_topic() -> None:
    plan = plan_of(UMBRELLA, _umbrella_spec("validation"), dates=UMBRELLA_DATES)
    validation = plan.topic("validation")
    assert validation is not None and validation.retired == ("docs/rfc/005-tool-safety.md",)
    text = after(UMBRELLA, changes(UMBRELLA, plan))[validation.path]
    assert (
        "<!-- docsync: from docs/rfc/005-tool-safety.md -->\n\nIntro.\n\n## Part 1: Validation"
        in text
    )


def test_overrides_of_title_slug_status_and_date() -> None:
    files = {"docs/adr/0001-x.md": "# X\n\nStatus: accepted\n"}
    spec = PlanSpec(
        "docs/rfc",
        (
            TopicSpec(
                ("docs/adr/0001-x.md",),
                slug="why",
                title="Why",
                status="rejected",
                date=date(2018, 1, 2),
            ),
        ),
    )
    (topic,) = plan_of(files, spec).topics
    assert (topic.title, topic.path, topic.status_from, topic.date_from) == (
        "Why",
        "docs/rfc/rejected/2018-01-02-why.md",
        "plan",
        "plan",
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (PlanSpec("docs/rfc", ()), "in no topic"),
        (
            PlanSpec("docs/rfc", (TopicSpec(("docs/adr/0001-x.md", "docs/adr/0001-x.md")),)),
            "more than one",
        ),
        (
            PlanSpec(
                "docs/rfc", (TopicSpec(("docs/adr/0001-x.md",)), TopicSpec(("docs/adr/9-nope.md",)))
            ),
            "not a record",
        ),
        (
            PlanSpec(
                "docs/rfc",
                (TopicSpec(("docs/adr/0001-x.md",)), TopicSpec(("docs/adr/0001-x.md#nope",))),
            ),
            "no heading with this slug",
        ),
        (
            PlanSpec("docs/rfc", (TopicSpec(("docs/adr/0001-x.md",), status="maybe"),)),
            "unknown status in the plan",
        ),
        (
            PlanSpec("docs/rfc", (TopicSpec(("docs/adr/0001-x.md",), slug="Not A Slug"),)),
            "lowercase ASCII",
        ),
        (
            PlanSpec(
                "docs/rfc",
                (TopicSpec(("docs/adr/0001-x.md",)),),
                (RetireSpec("docs/adr/0001-x.md", {}, (), "nope"),),
            ),
            "no topic has slug",
        ),
    ],
)
def test_bad_plans_list_problems(spec: PlanSpec, message: str) -> None:
    plan = plan_of({"docs/adr/0001-x.md": "# X\n\nStatus: accepted\n"}, spec)
    assert any(message in p.message for p in plan.problems), plan.problems


# --------------------------------------------------------------------------- the plan file


def test_plan_file_round_trips() -> None:
    plan = plan_of(UMBRELLA, _umbrella_spec(), dates=UMBRELLA_DATES)
    text = planfile.dumps(plan)
    again = plan_of(UMBRELLA, planfile.loads(text, "plan.toml"), dates=UMBRELLA_DATES)
    assert again.topics == plan.topics
    assert again.retirements == plan.retirements


def test_plan_file_shows_problems_and_unresolved_status_as_empty() -> None:
    text = planfile.dumps(plan_of({"docs/adr/0001-x.md": "# X\n\nNothing.\n"}))
    assert "# PROBLEM: docs/adr/0001-x.md: no status found" in text
    assert 'status = ""' in text


def test_toml_strings_escape_what_toml_needs() -> None:
    import tomllib

    for value in ['a "quoted" \\ path', "tab\tand\x7fdel", "ünï"]:
        assert tomllib.loads(f"v = {planfile.toml_string(value)}")["v"] == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('version = 2\ntarget = "docs/rfc"\n', "version 2 is not supported"),
        ('target = "docs/rfc"\nfoo = 1\n', "unknown key 'foo'"),
        ('target = "docs/rfc"\n[[topic]]\nsources = []\n', "at least one source"),
        ('target = "docs/rfc"\n[[topic]]\nsources = ["a.md"]\ndate = "soon"\n', "yyyy-mm-dd"),
        ("target = [", "not valid TOML"),
    ],
)
def test_malformed_plan_files_are_errors(text: str, message: str) -> None:
    with pytest.raises(PlanError, match=message):
        planfile.loads(text, "plan.toml")


def test_merged_sources_defining_one_label_differently_are_a_problem() -> None:
    files = {
        "docs/adr/0001-cache.md": "# Cache\n\nStatus: accepted\n\nSee [db].\n\n[db]: one.md\n",
        "docs/rfc/001-cache.md": "# Cache\n\nStatus: proposed\n\nSee [db].\n\n[db]: ../adr/one.md\n",
        "docs/rfc/002-other.md": "# Other\n\nStatus: proposed\n\nSee [DB].\n\n[db]: two.md\n",
    }
    result = changes(files, plan_of(files))
    assert result.problems == ()  # the same target, written relative to each source
    files["docs/rfc/001-cache.md"] = files["docs/rfc/001-cache.md"].replace(
        "../adr/one.md", "two.md"
    )
    (problem,) = changes(files, plan_of(files)).problems
    assert "defines reference [db] differently from docs/adr/0001-cache.md" in problem.message


def test_fragments_follow_renamed_headings_of_merged_sources() -> None:
    files = {
        **PAIR,
        "docs/guide.md": (
            "# Guide\n\n[RFC context](rfc/001-plugin-api.md#context), "
            "[ADR context](adr/0006-plugin-api.md#context), [title](adr/0006-plugin-api.md#adr-0006-plugin-api).\n"
        ),
    }
    plan = plan_of(files, dates=PAIR_DATES)
    guide = after(files, changes(files, plan))["docs/guide.md"]
    record = "rfc/implemented/2020-05-06-plugin-api.md"
    assert guide == (
        f"# Guide\n\n[RFC context]({record}#context), [ADR context]({record}#context-1), "
        f"[title]({record}#plugin-api).\n"
    )


def test_front_matter_stays_on_top_and_a_later_one_becomes_a_yaml_block() -> None:
    files = {
        "docs/rfc/001-cache.md": "---\nowner: ana\n---\n# Cache\n\nStatus: proposed\n\nOne.\n",
        "docs/adr/0001-cache.md": "---\nstatus: accepted\nowner: bo\n---\n# Cache\n\nTwo.\n",
    }
    plan = plan_of(files, dates={"docs/rfc/001-cache.md": "2019-01-01"})
    text = after(files, changes(files, plan))["docs/rfc/implemented/2019-01-01-cache.md"]
    assert text.startswith(
        "---\nowner: ana\n---\n# Cache\n\nStatus: implemented (accepted; proposed)\n\n"
    )
    assert "```yaml\nowner: bo\n```\n\nTwo.\n" in text


def test_code_refs_off_leaves_other_files_alone() -> None:
    files = {"docs/adr/0001-x.md": "# X\n\nStatus: accepted\n", "src/a.py": "# see ADR 0001\n"}
    plan = plan_of(files)
    assert (
        after(files, changes(files, plan))["src/a.py"]
        == "# see docs/rfc/implemented/2020-01-01-x.md\n"
    )
    assert after(files, changes(files, plan, code_refs=False))["src/a.py"] == "# see ADR 0001\n"


def test_legacy_paths_in_code_config_and_editor_rules_follow_the_records() -> None:
    files = {
        "docs/adr/README.md": "# Decisions\n\n- [X](0001-x.md)\n",
        "docs/adr/0001-x.md": "# X\n\nStatus: accepted\n",
        "docs/adr/0002-y.md": "# Y\n\nStatus: rejected\n",
        "src/app.vue": '<Ref research_ref="docs/adr/0001-x.md" />\r\n<p>docs/adr/0002-y.md</p>\r\n',
        "ci.yml": "paths: [docs/adr/0001-x.md, docs/adr/0001-x.md.orig, xdocs/adr/0002-y.md]\n",
        ".cursor/rules/docs.mdc": "Read docs/adr/README.md before docs/adr/0002-y.mdx.\n",
    }
    result = changes(files, plan_of(files))
    new = after(files, result)
    x, y = "docs/rfc/implemented/2020-01-01-x.md", "docs/rfc/rejected/2020-01-01-y.md"
    assert new["src/app.vue"] == f'<Ref research_ref="{x}" />\r\n<p>{y}</p>\r\n'
    # Only whole tokens: a longer file name or a path inside another path is another file.
    assert new["ci.yml"] == f"paths: [{x}, docs/adr/0001-x.md.orig, xdocs/adr/0002-y.md]\n"
    assert new[".cursor/rules/docs.mdc"] == "Read docs/rfc/README.md before docs/adr/0002-y.mdx.\n"
    assert result.stats.code_paths == 4


def test_code_paths_are_rewritten_even_with_code_refs_off() -> None:
    files = {"docs/adr/0001-x.md": "# X\n\nStatus: accepted\n", "a.py": 'P = "docs/adr/0001-x.md"  # ADR 0001\n'}
    new = after(files, changes(files, plan_of(files), code_refs=False))
    assert new["a.py"] == 'P = "docs/rfc/implemented/2020-01-01-x.md"  # ADR 0001\n'


def test_test_fixtures_keep_their_ids_and_paths_but_their_links_follow() -> None:
    files = {
        "docs/adr/0001-x.md": "# X\n\nStatus: accepted\n",
        "tests/expected.txt": "ADR 0001 is docs/adr/0001-x.md\n",
        "tests/case.md": "# Case\n\nADR 0001, [x](../docs/adr/0001-x.md).\n",
    }
    given = inputs(files)
    plan = plan_of(files)
    view = RepoView(
        documents={p: parse(p, t) for p, t in files.items() if p.endswith(".md")},
        tracked=frozenset(files),
        read_text=lambda path, needles: files.get(path),
        states=DEFAULT_STATES,
        refs_exclude=("tests/**",),
    )
    new = after(files, compute(plan, given.records, view))
    x = "docs/rfc/implemented/2020-01-01-x.md"
    # A fixture names records of the repository its test builds (adr-tools' tests do).
    assert new["tests/expected.txt"] == "ADR 0001 is docs/adr/0001-x.md\n"
    assert new["tests/case.md"] == f"# Case\n\nADR 0001, [x](../{x}).\n"


def test_other_tools_pointing_at_the_legacy_tree_are_reported_with_the_line_to_write() -> None:
    files = {
        "doc/adr/0001-x.md": "# X\n\nStatus: accepted\n",
        ".adr-dir": "doc/adr\n",
        ".log4brains.yml": "project:\n  name: P\n  adrFolder: ./doc/adr\n  other: ./doc/adr\n",
    }
    result = changes(files, plan_of(files))
    assert result.stats.tool_pointers == (
        ".adr-dir:1: 'doc/adr' points adr-tools at the legacy tree doc/adr; write "
        "'docs/rfc/proposed' there, or drop the file and create records with docsync new",
        ".log4brains.yml:3: 'adrFolder: ./doc/adr' points log4brains at the legacy tree "
        "./doc/adr; write 'adrFolder: docs/rfc/proposed' there, or drop the file and create "
        "records with docsync new",
    )
    assert ".adr-dir" not in {w.path for w in result.writes}
