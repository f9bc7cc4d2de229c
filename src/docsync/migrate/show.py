"""The plan for people (lines, and rich's renderable of them) and for programs (JSON).
Nothing here prints."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..untrusted_text import visible
from .model import KeptPage, Outcome, Plan, Problem, Retirement, Topic
from .rewrite.assemble import status_line

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

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


def _retirement_lines(retirement: Retirement) -> Iterator[str]:
    text = f"kept in {retirement.keep_in}" if retirement.keep_in else "dropped"
    ids = ", ".join(f"{i} → {slug}" for i, slug in retirement.ids.items())
    dates = ", ".join(retirement.dates_to) or "none"
    yield f"retire {retirement.source}: {ids}; date flows to {dates}; text {text}"


def page_line(page: KeptPage) -> str:
    """A kept page's line: whether it stays or goes, and whose page it is."""
    if page.removed:
        return f"remove kept page {page.path}: {page.reason}; the plan's [pages] remove lists it"
    return f"keep {page.path}: {page.reason}; to remove it, list it in the plan's [pages] remove"


def symlink_line(path: str) -> str:
    """A symlink where a record would be: named, its bytes escaped (:func:`shown`)."""
    from ..untrusted_text import shown

    return f"symlink skipped (neither read nor moved; git mv its target, or replace it by a file): {shown(path)}"


def skipped_symlinks(outcome: Outcome) -> list[str]:
    """Symlinks where records would be, left as they are (one to a moved record is retargeted)."""
    retargeted = {r.path for r in outcome.changes.relinks}
    return [path for path in outcome.plan.symlinks if path not in retargeted]


def _count(number: int, one: str, many: str = "") -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the report for people: its words, rich's style for them, and whether it
    is cut to the console's width with ``…`` (a record's line); the others are never cut."""

    text: str
    style: str = ""
    clip: bool = False

    def rich(self) -> Text:
        from rich.text import Text  # only where rich prints: a plain report is written as it is

        if self.clip:
            return Text(self.text, style=self.style, no_wrap=True, overflow="ellipsis")
        return Text(self.text, style=self.style)


LISTED = 5  # findings of one kind listed before the rest are only counted (all with --verbose)


def _listed(lines: list[str], what: str, style: str, verbose: bool) -> Iterator[Line]:
    shown = lines if verbose else lines[:LISTED]
    yield from (Line(line, style=style) for line in shown)
    if len(lines) > len(shown):
        yield Line(f"… and {len(lines) - len(shown)} more {what} (--verbose lists them)", style=style)


def _summary(outcome: Outcome, verbose: bool = False) -> Iterator[Line]:
    changes = outcome.changes
    stats = changes.stats
    if outcome.complete:
        yield Line(
            f"{_count(len(changes.moves), 'record moves', 'records move')}, "
            f"{_count(len(changes.removals), 'file is removed', 'files are removed')}, "
            f"{_count(len(changes.writes), 'file is written', 'files are written')}."
        )
        yield Line(
            f"Rewritten: {_count(stats.links, 'link')} and {_count(stats.refs, 'id')} in "
            f"Markdown, {_count(stats.code_paths, 'path')} and {_count(stats.code_refs, 'id')} "
            "in other files."
        )
    if changes.adoption_record:
        yield Line(f"adoption record: {changes.adoption_record}")
    if changes.conventions:
        yield Line(f"conventions doc: {changes.conventions}")
    unresolved = [
        f"unresolved id: {path}: '{written}' names no record; left as it is"
        for path, written in stats.unresolved
    ]
    yield from _listed(unresolved, "unresolved ids", "yellow", verbose)
    lines = [f"program line: {where}: {now.strip()}" for where, _, now in stats.code_lines]
    yield from _listed(lines, "program lines", "cyan", verbose)
    kept = [
        f"id in program text: {where}: '{written}' left as written (code_refs = \"all\" rewrites it)"
        for where, written in stats.code_kept
    ]
    yield from _listed(kept, "ids in program text", "yellow", verbose)
    broken = [f"broken link after migration: {p}: '{d}'" for p, d in stats.dangling]
    yield from _listed(broken, "links the migration breaks", "yellow", verbose)
    for r in changes.relinks:  # each one named: a symlink is no record the report lists
        yield Line(f"symlink retargeted: {r.path} -> {r.new} (was {r.old})", style="cyan")
    for path, why in changes.symlinks_kept:
        yield Line(f"symlink left alone: {path}: {why}", style="yellow")
    if stats.already_broken:
        yield Line(
            f"{_count(stats.already_broken, 'link was', 'links were')} broken before the "
            "migration already and stay so (docsync check --gate links lists them)",
            style="dim",
        )
    yield from (Line(line, style="yellow") for line in stats.tool_pointers)
    note = "not a record, outside the lifecycle folders (the layout gate reports it)"
    yield from _listed([f"{note}: {p}" for p in stats.outside], "such files", "yellow", verbose)
    for path, note in stats.relation_notes:
        yield Line(f"relation not recorded: {path}: {note}", style="yellow")


SUGGESTIONS_SHOWN = 3


def rendered(lines: Sequence[Line]) -> RenderableType:
    """``lines`` as one rich renderable, each line a :class:`~rich.text.Text` (in a group
    even when alone: a lone Text printed is joined anew, without its overflow)."""
    from rich.console import Group

    return Group(*(line.rich() for line in lines))


# Characters rich prints as they are, one column each: no control code it strips, no tab
# it expands, no wide or zero-width character (tests/test_plain_output.py checks each).
_AS_IS = frozenset(
    [chr(c) for c in range(0x20, 0x7F)]
    + [chr(c) for c in range(0xA1, 0x250) if c != 0xAD]  # Latin-1 to Latin Extended-B, no soft hyphen
    + ["→", "…", "\u2013", "\u2014", "\u2018", "\u2019", "\u201c", "\u201d"]  # the plan's arrow and cut, dashes, quotes
)


def as_printed(lines: Sequence[Line], width: int) -> str | None:
    """What rich prints for :func:`rendered` ``(lines)`` on a console of ``width`` columns
    with no colour system (soft wrap on), when each line is simply written: a line of
    plain characters only, a record's line longer than ``width`` cut with ``…``, nothing
    for rich to crop. None when rich may do more (it prints them then)."""
    out: list[str] = []
    for line in lines:
        text = line.text
        if not _AS_IS.issuperset(text) or width < 2:
            return None
        if len(text) > width:
            if text[-1] == " ":
                return None  # rich crops spaces past the width first
            if line.clip:
                text = _clipped(text, width, verbose=False)
        out.append(text)
    out.append("")
    return "\n".join(out)


def report(outcome: Outcome, *, width: int = 80, verbose: bool = False) -> list[Line]:
    """The dry run's report, questions first, then one line per record, then the counts.

    Each record's line fits in ``width`` columns. ``verbose`` adds where each
    status and date was read, the sources and notes, and every suggestion.
    """
    plan = outcome.plan
    if plan.empty and not outcome.problems:
        return [_escaped(Line(nothing_to_do(outcome)))]
    parts: list[Line] = list(_questions(outcome, verbose))
    parts.append(Line(f"Migration plan → {plan.target}", style="bold"))
    parts.extend(_record_lines(plan, width, verbose))
    parts.extend(Line(line) for r in plan.retirements for line in _retirement_lines(r))
    parts.extend(_suggestion_lines(plan, width, verbose=verbose))
    parts.extend(Line(page_line(page)) for page in plan.pages)
    parts.extend(Line(symlink_line(link), style="yellow") for link in skipped_symlinks(outcome))
    parts.extend(_summary(outcome, verbose))
    return [_escaped(line) for line in parts]


def _escaped(line: Line) -> Line:
    """``line`` with what would act on a terminal shown as escapes: a record's title, a
    file name or a config value (``target``) may hold an escape sequence or a newline
    that would forge a line of the plan."""
    text = visible(line.text)
    return line if text == line.text else replace(line, text=text)


def _questions(outcome: Outcome, verbose: bool) -> Iterator[Line]:
    """What the user must answer before the plan can be applied, one line each.

    Questions that say the same of many records (640 records without a
    status line) are one line: the count, what is asked, the first files.
    Unlike the other lines, a question is never cut to the width.
    """
    if not outcome.problems:
        return
    yield Line(
        f"{_count(len(outcome.problems), 'question')} to answer before --apply "
        "(all: --verbose; answer: --write-plan):",
        style="bold red",
    )
    groups: dict[str, list[str]] = {}
    for problem in outcome.problems:
        groups.setdefault(problem.message, []).append(problem.path)
    for message, paths in groups.items():
        if len(paths) == 1 or verbose:
            lines = [f"  ? {Problem(p, message)}" for p in paths]
        else:
            lines = [f"  ? {len(paths)} records: {message} ({paths[0]}, {paths[1]}, …)"]
        # Never cut: what to answer is the point of the line.
        yield from (Line(line, style="red") for line in lines)


def _clipped(line: str, width: int, verbose: bool) -> str:
    """``line`` cut to ``width`` with ``…`` (the plan file and --verbose have the rest)."""
    return line if verbose or len(line) <= width else line[: width - 1] + "…"


def _record_lines(plan: Plan, width: int, verbose: bool) -> Iterator[Line]:
    """``old → new`` (the new path's folder is the state, its name starts with the date)."""
    yield Line(
        f"  {_count(len(plan.topics), 'record')}: old name → new path in {plan.target}/"
        " (…: same name; ?: asked)",
        style="dim",
    )
    for topic in plan.topics:
        yield Line(fit_record_line(topic, plan.target, width), clip=True)
        if verbose:
            yield from (Line(f"      {line}", style="dim") for line in _details(topic))


def _details(topic: Topic) -> Iterator[str]:
    status = status_line(topic.state, topic.detail).removeprefix("Status: ") if topic.state else "?"
    yield f"status {status}" + (f", from {topic.status_from}" if topic.status_from else "")
    if topic.date_from:
        yield f"date from {topic.date_from}"
    yield from (f"source {p}" for p in topic.parts)
    notes = _notes(topic).replace("\n", "; ")
    if notes:
        yield notes


def _old_name(topic: Topic) -> str:
    first = str(topic.parts[0]) if topic.parts else ""
    name = first.rsplit("/", 1)[-1]
    more = len(topic.parts) - 1
    return name + (f" +{more}" if more else "")


def _slug_of_name(name: str) -> str:
    """``0007-use-x.md`` → ``use-x``: what the new name keeps when the slug is unchanged."""
    stem = name.rsplit(".", 1)[0]
    head, _, rest = stem.partition("-")
    return rest if head.isdigit() else stem


def fit_record_line(topic: Topic, target: str, width: int) -> str:
    """One record's line; when it is too long, the new name's unchanged slug becomes ``…``."""
    old = _old_name(topic)
    day = topic.date.isoformat() if topic.date else "????-??-??"
    new = topic.path.removeprefix(target + "/") if topic.path else f"?/{day}-{topic.slug}.md"
    line = f"  {old} → {new}"
    if len(line) <= width:
        return line
    folder, _, name = new.rpartition("/")
    if name.startswith(day) and name[len(day) + 1 : -3] == _slug_of_name(old.split(" ")[0]):
        new = f"{folder}/{day}-….md"
        line = f"  {old} → {new}"
    over = len(line) - width
    if over > 0:
        line = f"  {_shortened(old, len(old) - over)} → {new}"
    return line


def _shortened(name: str, length: int) -> str:
    """``name`` in at most ``length`` characters (at least 12), its middle replaced by ``…``."""
    length = max(12, length)
    if len(name) <= length:
        return name
    head = (length - 1) // 2
    tail = length - 1 - head
    return name[:head] + "…" + name[len(name) - tail :]


def _suggestion_lines(plan: Plan, width: int, *, verbose: bool) -> Iterator[Line]:
    shown = plan.suggestions if verbose else plan.suggestions[:SUGGESTIONS_SHOWN]
    if not plan.suggestions:
        return
    rest = len(plan.suggestions) - len(shown)
    yield Line(
        f"{_count(len(plan.suggestions), 'look-alike pair')} not merged"
        + (f"; the first {len(shown)} (all: --verbose, the plan file):" if rest else ":"),
        style="cyan",
    )
    for s in shown:
        yield Line(_clipped(f"  {s.first} ~ {s.second} ({s.reason})", width, verbose), style="cyan")


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
    import json  # only here: the text report and the dry run's other paths need none

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
        "pages": [
            {"path": p.path, "reason": p.reason, "action": "remove" if p.removed else "keep"}
            for p in plan.pages
        ],
        "symlinks": skipped_symlinks(outcome),
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
        "program_text_ids": [{"at": w, "id": i} for w, i in changes.stats.code_kept],
        "program_lines": [
            {"at": w, "before": b, "after": a} for w, b, a in changes.stats.code_lines
        ],
        "dangling": [{"path": p, "destination": d} for p, d in changes.stats.dangling],
        "already_broken": changes.stats.already_broken,
        "tool_pointers": list(changes.stats.tool_pointers),
        "relinks": [{"path": r.path, "old": r.old, "new": r.new} for r in changes.relinks],
        "symlinks_kept": [{"path": p, "why": w} for p, w in changes.symlinks_kept],
        "outside_lifecycle": list(changes.stats.outside),
        "relation_notes": [{"path": p, "note": n} for p, n in changes.stats.relation_notes],
        "adoption_record": changes.adoption_record,
        "conventions": changes.conventions,
    }
    from ..untrusted_text import json_safe

    return json_safe(json.dumps(payload, indent=2, ensure_ascii=False)) + "\n"
