"""Properties of migration: no source line is lost unless the plan drops it by name,
and a migrated repository has nothing left to migrate."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.migrate.model import PlanSpec, RetireSpec
from docsync.migrate.read.discover import find_trees, lifecycle_folders
from docsync.migrate.read.status import read_status
from docsync.parse.native import parse
from tests.migrate_memory import after, changes, merged_plan, merged_spec, plan_of

TITLES = ["Plugin API", "Use Postgres", "Caching", "Wrap policy"]
STATUSES = ["accepted", "Proposed", "rejected", "implemented (pts 1-2; pt 3 deferred)", "draft"]
FORMS = [
    "Status: {}\n",
    "**Status:** {}\n",
    "* Status: {}\n",
    "## Status\n\n{}\n",
    "| Status | {} |\n| --- | --- |\n",
    # prose in the status section, after the status: it stays in the body
    "## Status\n\n{}\n\nThe first two parts shipped; the third waits on review.\n",
    "## Status\n\n{}\n\n- decided in the weekly meeting\n- revisit next year\n",
]
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8)
LINES = st.lists(WORDS, min_size=1, max_size=6).map(" ".join)


@st.composite
def record_text(draw: st.DrawFn, title: str) -> str:
    status = draw(st.sampled_from(FORMS)).format(draw(st.sampled_from(STATUSES)))
    sections = draw(st.lists(st.tuples(WORDS, st.lists(LINES, min_size=1, max_size=3)), max_size=3))
    body = "".join(
        f"## {name.capitalize()} {i}\n\n" + "".join(f"{line}\n\n" for line in lines)
        for i, (name, lines) in enumerate(sections)
    )
    intro = draw(LINES)
    return f"# {title}\n\n{status}\n{intro}\n\n{body}"


@st.composite
def repositories(draw: st.DrawFn) -> dict[str, str]:
    count = draw(st.integers(min_value=1, max_value=5))
    files: dict[str, str] = {}
    for number in range(1, count + 1):
        tree = draw(st.sampled_from(["docs/adr", "docs/rfc"]))
        title = draw(st.sampled_from(TITLES))
        slug = "-".join(title.lower().split())
        width = 4 if tree == "docs/adr" else 3
        files[f"{tree}/{number:0{width}d}-{slug}.md"] = draw(record_text(title))
    return files


def _construct_lines(path: str, text: str) -> set[int]:
    """The lines migration replaces: the title heading and the status construct."""
    doc = parse(path, text)
    lines = {1}
    reading = read_status(doc)
    if reading is not None:
        first = doc.position(reading.remove.start)[0]
        last = doc.position(max(reading.remove.start, reading.remove.end - 1))[0]
        lines.update(range(first, last + 1))
    return lines


def _source_lines(files: Mapping[str, str], skip: set[str]) -> list[tuple[str, str]]:
    found = []
    for path, text in files.items():
        if path in skip:
            continue
        replaced = _construct_lines(path, text)
        for number, line in enumerate(text.split("\n"), start=1):
            if line.strip() and number not in replaced:
                found.append((path, line))
    return found


@settings(max_examples=40, deadline=None)
@given(repositories())
def test_migration_never_loses_a_source_line(files: dict[str, str]) -> None:
    plan = merged_plan(files)
    assert plan.complete, plan.problems
    result = after(files, changes(files, plan))
    # in the new tree's records themselves, not merely somewhere in the repository
    records = "\n".join(t for p, t in result.items() if _in_lifecycle_folder(p))
    for path, line in _source_lines(files, set()):
        assert line in records, f"{path}: {line!r} was lost"


def _in_lifecycle_folder(path: str) -> bool:
    return path.startswith(("docs/rfc/proposed/", "docs/rfc/implemented/", "docs/rfc/rejected/"))


@settings(max_examples=20, deadline=None)
@given(repositories(), st.data())
def test_only_a_record_the_plan_drops_by_name_loses_lines(
    files: dict[str, str], data: st.DataObject
) -> None:
    spec = merged_spec(files)
    if len(spec.topics) < 2:
        return
    dropped = data.draw(st.sampled_from(spec.topics))
    if len(dropped.sources) != 1:
        return
    topics = tuple(t for t in spec.topics if t is not dropped)
    retire = RetireSpec(dropped.sources[0], {}, (), "drop")
    plan = plan_of(files, PlanSpec(spec.target, topics, (retire,)))
    assert plan.complete, plan.problems
    everything = "\n".join(after(files, changes(files, plan)).values())
    for path, line in _source_lines(files, {dropped.sources[0]}):
        assert line in everything, f"{path}: {line!r} was lost"


@settings(max_examples=25, deadline=None)
@given(repositories())
def test_a_migrated_repository_has_nothing_left_to_migrate(files: dict[str, str]) -> None:
    plan = merged_plan(files)
    migrated = after(files, changes(files, plan))
    lifecycle = lifecycle_folders(plan.target, ("proposed", "implemented", "rejected"))
    assert find_trees(sorted(migrated), (), lifecycle) == ()
    again = plan_of(migrated)
    assert again.empty and not changes(migrated, again).writes
