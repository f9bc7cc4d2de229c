"""The plan as a table for people and as JSON for programs."""

from __future__ import annotations

import io
import json

from rich.console import Console

from docsync.migrate.run import Outcome
from docsync.migrate.show import NOTHING_TO_DO, as_json, render
from tests.migrate_memory import changes, plan_of

FILES = {
    "docs/adr/0001-use-postgres.md": "# Use Postgres\n\nStatus: accepted\n\nSee ADR 9999.\n",
    "docs/adr/0002-maybe.md": "# Maybe\n\nStatus: pondering\n",
}


def _text(outcome: Outcome) -> str:
    out = io.StringIO()
    Console(file=out, width=240, color_system=None).print(render(outcome))
    return out.getvalue()


def test_table_names_source_target_status_date_and_problems() -> None:
    plan = plan_of(FILES)
    text = _text(Outcome(plan, changes(FILES, plan)))
    assert "docs/adr/0001-use-postgres.md" in text
    assert "docs/rfc/implemented/2020-01-01-use-postgres.md" in text
    assert (
        "implemented (accepted)" in text and "docs/adr/0001-use-postgres.md:3 (Status line)" in text
    )
    assert "unresolved: docs/adr/0002-maybe.md: unknown status 'pondering'" in text


def test_counts_and_unresolved_ids_when_complete() -> None:
    files = {"docs/adr/0001-use-postgres.md": FILES["docs/adr/0001-use-postgres.md"]}
    plan = plan_of(files)
    text = _text(Outcome(plan, changes(files, plan)))
    assert (
        "1 record moves, 0 files are removed, 2 files are written; 0 links and 0 references" in text
    )
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
