"""The plan as TOML: written by docsync for a person to edit, read back with :mod:`tomllib`.

The file explains itself in its header (docs/migrate.md has the full key
list). Every value docsync derived is written out, so the file shows the whole
plan; a value a person changes is an override. Problems are written as
comments next to what they concern, and an undecided status as ``""``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any

from ... import tomltext
from ...errors import PlanError
from ...write.writer import write_named
from ..model import PLAN_VERSION, Plan, PlanSpec, Problem, Retirement, RetireSpec, Topic, TopicSpec

PROBLEM = "# PROBLEM:"

_HEADER = """\
# docsync migration plan. Edit it, then run: docsync migrate --apply --plan <this file>
# Each [[topic]] is one record of the new tree. sources: the legacy records it is made of,
#   oldest first, or one section of a record ("path.md#heading-slug", a split).
# title, slug, status, detail, date (yyyy-mm-dd), ids: derived by docsync; a value you
#   change overrides it. status "" is a question to answer (a state or a status word).
# [[retire]] removes an umbrella record: its ids point at topics (ids = { "RFC 5" = "slug" }),
#   dates_to names the topics its date flows into, text = "drop" or a topic slug that keeps it.
# [pages] remove lists kept pages (another tool's index.md in a legacy tree) to remove;
#   links to a removed page then lead to the new tree's index. Unlisted pages stay.
# [hashes] and commit make a stale plan an error; without them the staleness check is off.
# PROBLEM comments name what stops the plan; each goes once its problem is answered.
# The full key list: "Migrating a record tree" in docsync's docs/migrate.md.
"""


# --------------------------------------------------------------------------- writing


def toml_string(value: str) -> str:
    """A TOML basic string, as tomlkit writes it."""
    return tomltext.value(value)


def _array(values: list[str] | tuple[str, ...]) -> str:
    return tomltext.value(list(values))


def _inline_table(values: Mapping[str, str]) -> str:
    """``{ "key" = "value" }``: keys quoted (ids such as ``"RFC 005"`` need it; all are, alike)."""
    return "{ " + ", ".join(f"{toml_string(k)} = {toml_string(v)}" for k, v in values.items()) + " }"


def dumps(plan: Plan) -> str:
    """The plan file text for ``plan``."""
    lines = [_HEADER, f"version = {PLAN_VERSION}", f"target = {toml_string(plan.target)}"]
    lines.append(f"commit = {toml_string(plan.commit or '')}")
    by_key = _problems_by_key(plan)
    owned = {n for t in plan.topics for n, _ in _problems_of(t, by_key)}
    lines.extend(f"{PROBLEM} {p}" for n, p in enumerate(plan.problems) if n not in owned)
    for topic in plan.topics:
        lines.extend(_topic_lines(topic, by_key))
    for retirement in plan.retirements:
        lines.extend(_retire_lines(retirement))
    lines.extend(_suggestion_lines(plan))
    lines.extend(_page_lines(plan))
    lines.append(
        "\n# Hashes of the sources this plan was computed from; a changed source makes it stale."
    )
    lines.append("[hashes]")
    lines.extend(
        f"{toml_string(path)} = {toml_string(digest)}"
        for path, digest in sorted(plan.hashes.items())
    )
    return "\n".join(lines) + "\n"


_Numbered = list[tuple[int, Problem]]


def _problems_by_key(plan: Plan) -> dict[str, _Numbered]:
    """Problems (numbered in plan order) by the path or slug they name, in one pass.

    Writing the plan then costs one look-up per topic key, not a scan of
    every problem per topic (which made it cubic on large trees).
    """
    found: dict[str, _Numbered] = {}
    for number, problem in enumerate(plan.problems):
        found.setdefault(problem.path, []).append((number, problem))
    return found


def _problems_of(topic: Topic, by_key: Mapping[str, _Numbered]) -> _Numbered:
    keys = {*(str(p) for p in topic.parts), *(p.path for p in topic.parts), topic.slug, topic.path}
    return sorted(item for key in keys for item in by_key.get(key, ()))


def _topic_lines(topic: Topic, by_key: Mapping[str, _Numbered]) -> Iterator[str]:
    yield ""
    yield "[[topic]]"
    yield from (f"{PROBLEM} {p}" for _, p in _problems_of(topic, by_key))
    yield f"slug = {toml_string(topic.slug)}"
    yield f"title = {toml_string(topic.title)}"
    yield f"status = {toml_string(topic.state)}" + (
        f"  # from {topic.status_from}" if topic.status_from else ""
    )
    yield f"detail = {toml_string(topic.detail)}"
    day = topic.date.isoformat() if topic.date else ""
    yield f"date = {toml_string(day)}" + (f"  # from {topic.date_from}" if topic.date_from else "")
    sources = [str(p) for p in topic.parts if p.path not in topic.retired]
    yield f"sources = {_array(sources)}"
    yield f"ids = {_array([str(i) for i in topic.ids])}"
    if topic.path:
        yield f"# becomes {topic.path}"


def _retire_lines(retirement: Retirement) -> Iterator[str]:
    yield ""
    yield "[[retire]]"
    yield f"source = {toml_string(retirement.source)}"
    yield f"ids = {_inline_table({str(k): v for k, v in retirement.ids.items()})}"
    yield f"dates_to = {_array(retirement.dates_to)}"
    yield f"text = {toml_string(retirement.keep_in or 'drop')}"


def _page_lines(plan: Plan) -> Iterator[str]:
    if not plan.pages:
        return
    yield ""
    yield "# Kept pages, left where they are unless listed in remove:"
    yield from (f"#   {page.path}: {page.reason}" for page in plan.pages)
    yield "[pages]"
    yield f"remove = {_array(plan.removed_pages)}"


def _suggestion_lines(plan: Plan) -> Iterator[str]:
    if not plan.suggestions:
        return
    yield ""
    yield "# Similar records, not merged (to merge, list both sources in one topic):"
    yield from (f"#   {s.first} ~ {s.second}: {s.reason}" for s in plan.suggestions)


# --------------------------------------------------------------------------- reading


def loads(text: str, origin: str) -> PlanSpec:
    """Parse a plan file; a malformed one is a :class:`PlanError` naming the file and key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PlanError(f"{origin}: not valid TOML: {exc}") from None
    except ValueError as exc:  # an integer too long to convert
        raise PlanError(f"{origin}: a value is out of range: {str(exc)[:80]}") from None
    except RecursionError:
        raise PlanError(f"{origin}: not valid TOML: nested too deep") from None
    _known_keys(
        data, {"version", "target", "commit", "topic", "retire", "pages", "hashes"}, origin
    )
    version = data.get("version", PLAN_VERSION)
    if version != PLAN_VERSION:
        shown = repr(version) if len(str(version)) <= 20 else f"{str(version)[:20]}…"
        raise PlanError(
            f"{origin}: plan version {shown} is not supported (expected {PLAN_VERSION})"
        )
    return PlanSpec(
        target=_string(data, "target", origin).strip("/"),
        topics=tuple(
            _topic(t, f"{origin}: topic {n}")
            for n, t in enumerate(_tables(data, "topic", origin), 1)
        ),
        retires=tuple(
            _retire(r, f"{origin}: retire {n}")
            for n, r in enumerate(_tables(data, "retire", origin), 1)
        ),
        commit=_string(data, "commit", origin, "") or None,
        hashes=_string_map(data.get("hashes", {}), f"{origin}: hashes"),
        remove_pages=_pages(data.get("pages", {}), f"{origin}: pages"),
    )


def _pages(table: Any, where: str) -> tuple[str, ...]:
    if not isinstance(table, dict):
        raise PlanError(f"{where}: must be a table ([pages])")
    _known_keys(table, {"remove"}, where)
    return tuple(p.strip("/") for p in _strings(table, "remove", where) or ())


def _known_keys(table: Mapping[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise PlanError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})")


def _string(table: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = table.get(key, default)
    if not isinstance(value, str):
        raise PlanError(f"{where}: {key!r} must be a string, got {value!r}")
    return value


def _optional(table: Mapping[str, Any], key: str, where: str) -> str | None:
    value = _string(table, key, where, "")
    return value or None


def _strings(table: Mapping[str, Any], key: str, where: str) -> tuple[str, ...] | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PlanError(f"{where}: {key!r} must be a list of strings, got {value!r}")
    return tuple(value)


def _string_map(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise PlanError(f"{where}: must be a table of strings, got {value!r}")
    return dict(value)


def _tables(data: Mapping[str, Any], key: str, origin: str) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise PlanError(f"{origin}: {key!r} must be an array of tables ([[{key}]])")
    return value


def _date(table: Mapping[str, Any], where: str) -> date | None:
    value = table.get("date", "")
    if isinstance(value, datetime):
        raise PlanError(f"{where}: 'date' must be a day (yyyy-mm-dd), got the date-time {value}")
    if isinstance(value, date):
        return value
    if not isinstance(value, str):
        raise PlanError(f"{where}: 'date' must be a yyyy-mm-dd string, got {value!r}")
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        raise PlanError(f"{where}: 'date' must be yyyy-mm-dd, got {value!r}") from None


def _topic(table: dict[str, Any], where: str) -> TopicSpec:
    _known_keys(table, {"slug", "title", "status", "detail", "date", "sources", "ids"}, where)
    sources = _strings(table, "sources", where)
    if not sources:
        raise PlanError(f"{where}: 'sources' must list at least one source")
    detail = table.get("detail")
    return TopicSpec(
        sources=sources,
        slug=_optional(table, "slug", where),
        title=_optional(table, "title", where),
        status=_optional(table, "status", where),
        detail=None if detail is None else _string(table, "detail", where),
        date=_date(table, where),
        ids=_strings(table, "ids", where),
    )


def _retire(table: dict[str, Any], where: str) -> RetireSpec:
    _known_keys(table, {"source", "ids", "dates_to", "text"}, where)
    return RetireSpec(
        source=_string(table, "source", where),
        ids=_string_map(table.get("ids", {}), f"{where}: ids"),
        dates_to=_strings(table, "dates_to", where) or (),
        text=_string(table, "text", where, "drop"),
    )


# --------------------------------------------------------------------------- files


def write(plan: Plan, path: Path) -> None:
    """Write the plan file: the one file a dry run writes, and only when asked to."""
    try:
        write_named(path, dumps(plan))
    except OSError as exc:
        raise PlanError(f"{path}: cannot write the plan: {exc.strerror}") from None


def without_answered(text: str, problems: Iterable[Problem]) -> str:
    """``text`` without the ``# PROBLEM:`` comments of problems no longer found; all else kept."""
    current = {f"{PROBLEM} {p}" for p in problems}
    lines = text.splitlines(keepends=True)
    return "".join(
        line
        for line in lines
        if not line.lstrip().startswith(PROBLEM) or line.strip() in current
    )


def refresh(path: Path, problems: Iterable[Problem]) -> bool:
    """Drop the comments of answered problems from the plan file at ``path``; True when it changed."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return False
    new = without_answered(text, problems)
    if new == text:
        return False
    try:
        write_named(path, new)
    except OSError as exc:
        raise PlanError(f"{path}: cannot update the plan: {exc.strerror}") from None
    return True


PLAN_CAP = 64 << 20
"""The most bytes a plan file may hold (a plan of 10,000 records is a few megabytes):
``--plan /dev/zero`` or a FIFO is one line, not a hang."""


def read(path: Path) -> PlanSpec:
    from ...regular_file import NotRegular, read_regular

    try:
        text = read_regular(path, PLAN_CAP, f"the plan {path}").decode("utf-8")
    except NotRegular as exc:
        raise PlanError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise PlanError(
            f"{path}: the plan is not valid UTF-8 (byte {exc.start}); save it as UTF-8"
        ) from None
    return loads(text, str(path))
