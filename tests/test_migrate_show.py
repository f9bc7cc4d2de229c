"""The plan as a table for people and as JSON for programs."""

from __future__ import annotations

import io
import json

from rich.console import Console

from docsync.migrate.model import Outcome
from docsync.migrate.show import NOTHING_TO_DO, as_json, rendered, report
from tests.migrate_memory import changes, plan_of

FILES = {
    "docs/adr/0001-use-postgres.md": "# Use Postgres\n\nStatus: accepted\n\nSee ADR 9999.\n",
    "docs/adr/0002-maybe.md": "# Maybe\n\nStatus: pondering\n",
}


def _text(outcome: Outcome, width: int = 240, *, verbose: bool = False) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, soft_wrap=True)
    console.print(rendered(report(outcome, width=width, verbose=verbose)))
    return out.getvalue()


def test_questions_first_then_one_line_per_record_at_80_columns() -> None:
    plan = plan_of(FILES)
    assert _text(Outcome(plan, changes(FILES, plan)), 80) == (
        "1 question to answer before --apply (all: --verbose; answer: --write-plan):\n"
        "  ? docs/adr/0002-maybe.md: unknown status 'pondering' at docs/adr/0002-maybe.md:3 "
        "(Status line); map it in [statuses] (for example pondering = \"proposed\") or set "
        "status in the plan\n"
        "Migration plan → docs/rfc\n"
        "  2 records: old name → new path in docs/rfc/ (…: same name; ?: asked)\n"
        "  0001-use-postgres.md → implemented/2020-01-01-use-postgres.md\n"
        "  0002-maybe.md → ?/2020-01-01-maybe.md\n"
    )


def test_verbose_says_where_status_and_date_were_read() -> None:
    plan = plan_of(FILES)
    text = _text(Outcome(plan, changes(FILES, plan)), verbose=True)
    assert "      status implemented (accepted), from docs/adr/0001-use-postgres.md:3 (Status line)\n" in text


LONG = "0001-" + "-".join(["packaging", "and", "distribution"] * 4) + ".md"


def test_long_names_fit_the_width_keeping_folder_and_date() -> None:
    files = {f"docs/adr/{LONG}": "# Packaging\n\nStatus: accepted\n"}
    plan = plan_of(files)
    lines = _text(Outcome(plan, changes(files, plan)), 80).splitlines()
    record = lines[2]
    assert len(record) <= 80, record
    assert record.startswith("  0001-packaging") and record.endswith(" → implemented/2020-01-01-….md")


def test_suggestions_are_counted_and_the_first_few_shown() -> None:
    names = [f"{word}-{side}" for word in ("cache", "queue", "store", "parse") for side in "ab"]
    files = {
        f"docs/adr/{n:04d}-{name}.md": f"# Title {n}\n\nStatus: accepted\n"
        for n, name in enumerate(names, 1)
    }
    plan = plan_of(files)
    assert len(plan.suggestions) == 4
    text = _text(Outcome(plan, changes(files, plan)))
    assert "4 look-alike pairs not merged; the first 3 (all: --verbose, the plan file):" in text
    assert text.count(" ~ ") == 3
    assert _text(Outcome(plan, changes(files, plan)), verbose=True).count(" ~ ") == 4


def test_only_links_the_migration_breaks_are_reported_as_broken() -> None:
    files = {
        "docs/adr/README.md": "# ADRs\n\n- [one](0001-use-postgres.md)\n",
        "docs/adr/0001-use-postgres.md": "# Use Postgres\n\nStatus: accepted\n\nSee [gone](gone.md).\n",
        "guide.md": "# Guide\n\n[index](docs/adr/README.md#adrs), [never there](docs/nothing.md).\n",
    }
    plan = plan_of(files)
    result = changes(files, plan)
    assert result.stats.dangling == ()
    assert result.stats.already_broken == 2
    text = _text(Outcome(plan, result))
    assert "broken link after migration" not in text
    assert "2 links were broken before the migration already and stay so" in text


def test_counts_and_unresolved_ids_when_complete() -> None:
    files = {"docs/adr/0001-use-postgres.md": FILES["docs/adr/0001-use-postgres.md"]}
    plan = plan_of(files)
    text = _text(Outcome(plan, changes(files, plan)))
    assert (
        "1 record moves, 0 files are removed, 2 files are written.\n"
        "Rewritten: 0 links and 0 ids in Markdown, 0 paths and 0 ids in other files.\n"
    ) in text
    assert "'ADR 9999' names no record" in text


def test_nothing_to_do() -> None:
    plan = plan_of({"README.md": "# Hi\n"})
    assert _text(Outcome(plan, changes({}, plan))).strip() == NOTHING_TO_DO


def test_json_lists_topics_problems_and_changes() -> None:
    plan = plan_of(FILES)
    payload = json.loads(as_json(Outcome(plan, changes(FILES, plan))))
    assert payload["complete"] is False
    assert [t["slug"] for t in payload["topics"]] == ["use-postgres", "maybe"]
    assert payload["topics"][1]["status"] is None
    assert payload["problems"][0]["path"] == "docs/adr/0002-maybe.md"
    assert payload["moves"] == []  # nothing is computed for an incomplete plan


def test_one_question_asked_of_many_records_is_one_line() -> None:
    files = {f"docs/adr/{n:04d}-r{n}.md": f"# R{n}\n\nNo status here.\n" for n in range(1, 5)}
    plan = plan_of(files)
    lines = _text(Outcome(plan, changes(files, plan)), 80).splitlines()
    assert lines[0].startswith("4 questions to answer before --apply")
    assert lines[1].startswith("  ? 4 records: no status found")
    assert lines[1].endswith("(docs/adr/0001-r1.md, docs/adr/0002-r2.md, …)")
    assert lines[2] == "Migration plan → docs/rfc"
    verbose = _text(Outcome(plan, changes(files, plan)), 80, verbose=True)
    assert verbose.count("  ? docs/adr/") == 4
