"""The plan for people (a rich renderable) and for programs (JSON). Nothing here prints."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .assemble import status_line
from .model import Plan, Retirement, Topic
from .run import Outcome

NOTHING_TO_DO = "Nothing to migrate: no legacy record trees with numbered records were found."


def nothing_to_do(outcome: Outcome) -> str:
    """What a run with no legacy records says: on a migrated repository, that it is done."""
    if not outcome.in_tree:
        return NOTHING_TO_DO
    held = _count(outcome.in_tree, "record")
    return (
        f"Nothing to migrate: no legacy records are left; {outcome.plan.target}/ holds {held}. "
        "Nothing was changed."
    )


def _notes(topic: Topic) -> str:
    notes: list[str] = []
    if topic.merged:
        notes.append(f"merges {len(topic.parts)} sources")
    notes.extend(f"split from {p.path}" for p in topic.parts if p.section is not None)
    notes.extend(f"keeps the text of retired {p}" for p in topic.retired)
    if topic.ids:
        notes.append("ids: " + ", ".join(str(i) for i in topic.ids))
    return "\n".join(notes)


def _cell(value: str, origin: str = "") -> Text:
    text = Text(value)
    if origin:
        text.append("\n" + origin, style="dim")
    return text


def _topic_row(topic: Topic) -> tuple[Text, ...]:
    status = status_line(topic.state, topic.detail).removeprefix("Status: ") if topic.state else "?"
    return (
        _cell("\n".join(str(p) for p in topic.parts)),
        _cell(topic.path or "(unresolved)"),
        _cell(status, topic.status_from),
        _cell(topic.date.isoformat() if topic.date else "?", topic.date_from),
        _cell(_notes(topic)),
    )


def plan_table(plan: Plan) -> Table:
    table = Table(title=f"Migration plan → {plan.target}", show_lines=True, expand=False)
    for column in ("Source", "Target", "Status (read from)", "Date (commit)", "Notes"):
        table.add_column(column, overflow="fold")
    for topic in plan.topics:
        table.add_row(*_topic_row(topic))
    return table


def _retirement_lines(retirement: Retirement) -> Iterator[str]:
    text = f"kept in {retirement.keep_in}" if retirement.keep_in else "dropped"
    ids = ", ".join(f"{i} → {slug}" for i, slug in retirement.ids.items())
    dates = ", ".join(retirement.dates_to) or "none"
    yield f"retire {retirement.source}: {ids}; date flows to {dates}; text {text}"


def _count(number: int, one: str, many: str = "") -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"


def _summary(outcome: Outcome) -> Iterator[RenderableType]:
    changes = outcome.changes
    stats = changes.stats
    if outcome.complete:
        yield Text(
            f"{_count(len(changes.moves), 'record moves', 'records move')}, "
            f"{_count(len(changes.removals), 'file is removed', 'files are removed')}, "
            f"{_count(len(changes.writes), 'file is written', 'files are written')}; "
            f"{_count(stats.links, 'link')} and {_count(stats.refs, 'reference')} in Markdown "
            f"and {_count(stats.code_paths, 'path')} and {_count(stats.code_refs, 'id')} "
            "in other files are rewritten."
        )
    if changes.adoption_record:
        yield Text(f"adoption record: {changes.adoption_record}")
    if changes.conventions:
        yield Text(f"conventions doc: {changes.conventions}")
    for path, written in stats.unresolved:
        yield Text(
            f"unresolved id: {path}: '{written}' names no record; left as it is", style="yellow"
        )
    for path, destination in stats.dangling:
        yield Text(f"broken link after migration: {path}: '{destination}'", style="yellow")
    for path in stats.outside:
        note = "not a record, outside the lifecycle folders (the layout gate reports it)"
        yield Text(f"{note}: {path}", style="yellow")
    for path, note in stats.relation_notes:
        yield Text(f"relation not recorded: {path}: {note}", style="yellow")


def render(outcome: Outcome) -> RenderableType:
    """The dry run's report: the plan table, retirements, problems, suggestions, counts."""
    plan = outcome.plan
    if plan.empty and not outcome.problems:
        return Text(nothing_to_do(outcome))
    parts: list[RenderableType] = [plan_table(plan)]
    parts.extend(Text(line) for r in plan.retirements for line in _retirement_lines(r))
    parts.extend(Text(f"unresolved: {p}", style="bold red") for p in outcome.problems)
    parts.extend(
        Text(f"similar, not merged: {s.first} ~ {s.second} ({s.reason})", style="cyan")
        for s in plan.suggestions
    )
    parts.extend(_summary(outcome))
    return Group(*parts)


# --------------------------------------------------------------------------- JSON


def _topic_json(topic: Topic) -> dict[str, Any]:
    return {
        "slug": topic.slug,
        "title": topic.title,
        "path": topic.path or None,
        "status": topic.state or None,
        "detail": topic.detail,
        "status_from": topic.status_from,
        "date": topic.date.isoformat() if topic.date else None,
        "date_from": topic.date_from,
        "sources": [str(p) for p in topic.parts],
        "ids": [str(i) for i in topic.ids],
    }


def as_json(outcome: Outcome) -> str:
    plan, changes = outcome.plan, outcome.changes
    payload = {
        "target": plan.target,
        "commit": plan.commit,
        "complete": outcome.complete,
        "topics": [_topic_json(t) for t in plan.topics],
        "retire": [
            {
                "source": r.source,
                "ids": {str(k): v for k, v in r.ids.items()},
                "dates_to": list(r.dates_to),
                "text": r.keep_in or "drop",
            }
            for r in plan.retirements
        ],
        "problems": [{"path": p.path, "message": p.message} for p in outcome.problems],
        "suggestions": [
            {"first": s.first, "second": s.second, "reason": s.reason} for s in plan.suggestions
        ],
        "moves": [{"from": old, "to": new} for old, new in changes.moves],
        "removals": list(changes.removals),
        "writes": [w.path for w in changes.writes],
        "rewritten": {
            "links": changes.stats.links,
            "refs": changes.stats.refs,
            "code_refs": changes.stats.code_refs,
            "code_paths": changes.stats.code_paths,
        },
        "unresolved_ids": [{"path": p, "id": i} for p, i in changes.stats.unresolved],
        "dangling": [{"path": p, "destination": d} for p, d in changes.stats.dangling],
        "outside_lifecycle": list(changes.stats.outside),
        "relation_notes": [{"path": p, "note": n} for p, n in changes.stats.relation_notes],
        "adoption_record": changes.adoption_record,
        "conventions": changes.conventions,
    }
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
