"""The record tree's index page: one table per lifecycle state, and the former ids.

Only the part between :data:`BEGIN` and :data:`END` is docsync's; everything
around it (the title, prose carried over from the legacy indexes, whatever
people add later) is kept byte for byte, so regenerating the index never
fights a person's edits. The former-id table is what keeps an old "ADR 0017"
in a commit message or an issue resolvable, and what the refs gate reads to
know which bare ids must not come back.

The output is itself checked by docsync: links relative to the index, one
physical line per paragraph, former ids and paths in code spans (so they are
neither bare ids in prose nor links to files that no longer exist).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from urllib.parse import unquote

from ..gates.links.check import markdown_url
from ..rewrite.record_links import link_text, relative_destination
from . import graph
from .markers import MarkersError, marked_span
from .model import Record, parse_id
from .relations import Edge

BEGIN = "<!-- docsync:index:begin -->"
END = "<!-- docsync:index:end -->"
INDEX_NAMES = ("README.md", "index.md")
FORMER_HEADING = "## Former ids"
RELATIONS_HEADING = "## Relations"
_RELATIONS_INTRO = "Each arrow points from the newer record to the older one."
# One short sentence, so the generated page passes every wrap convention
# (none, any common width, one sentence per line).
_FORMER_INTRO = "Where each former id and path now lives."


class IndexMarkersError(MarkersError):
    """The index's markers are broken, so its generated part cannot be found safely."""


def _heading(state: str) -> str:
    return "## " + state.replace("-", " ").replace("_", " ").capitalize()


def _record_row(index_path: str, record: Record) -> str:
    title = link_text(record.title, table=True)
    destination = relative_destination(index_path, record.path)
    return f"| [{title}]({destination}) | {record.first_proposed.isoformat()} |"


def _state_tables(
    index_path: str, records: Sequence[Record], states: Mapping[str, str]
) -> list[str]:
    """One table per state that has records, in the configured order, then unknown states."""
    order = list(states) + sorted({r.state for r in records} - set(states))
    sections: list[str] = []
    for state in order:
        rows = sorted(
            (r for r in records if r.state == state),
            key=lambda r: (r.first_proposed, r.slug, r.path),
        )
        if rows:
            table = ["| Record | First proposed |", "| --- | --- |"]
            table.extend(_record_row(index_path, r) for r in rows)
            sections.append(f"{_heading(state)}\n\n" + "\n".join(table))
    return sections or ["No records yet."]


def _former_order(former: str) -> tuple[int, tuple[str, int, int], str]:
    """Ids first, in kind, number and part order; then former paths by name."""
    parsed = parse_id(former)
    if parsed is None:
        return (1, ("", 0, 0), former)
    return (0, (parsed.kind, parsed.number, parsed.part or 0), former)


def _former_table(
    index_path: str, records: Sequence[Record], former: Mapping[str, str]
) -> list[str]:
    if not former:
        return []
    titles = {r.path: r.title for r in records}
    rows = ["| Former id or path | Record |", "| --- | --- |"]
    for name in sorted(former, key=_former_order):
        path = former[name]
        folder = posixpath.dirname(index_path)
        title = link_text(titles.get(path) or posixpath.relpath(path, folder or "."), table=True)
        rows.append(f"| `{name}` | [{title}]({relative_destination(index_path, path)}) |")
    return [f"{FORMER_HEADING}\n\n{_FORMER_INTRO}\n\n" + "\n".join(rows)]


def _relations(
    records: Sequence[Record], states: Mapping[str, str], edges: Sequence[Edge]
) -> list[str]:
    drawn = graph.build(records, edges, states)
    if not drawn.edges:
        return []
    return [f"{RELATIONS_HEADING}\n\n{_RELATIONS_INTRO}\n\n{graph.mermaid_block(drawn)}"]


def render_generated(
    target: str,
    records: Sequence[Record],
    states: Mapping[str, str],
    former: Mapping[str, str],
    edges: Sequence[Edge] = (),
) -> str:
    """The generated part, markers included."""
    index_path = posixpath.join(target, INDEX_NAMES[0])
    sections = (
        _state_tables(index_path, records, states)
        + _relations(records, states, edges)
        + _former_table(index_path, records, former)
    )
    return f"{BEGIN}\n\n" + "\n\n".join(sections) + f"\n\n{END}"


def default_title(target: str) -> str:
    """``docs/rfc`` → ``RFCs``; ``docs/decisions`` → ``Decisions``."""
    name = posixpath.basename(target.rstrip("/")) or "records"
    if len(name) <= 4 and name.isalpha():
        return name.upper() + "s"
    return name.replace("-", " ").replace("_", " ").capitalize()


def generated_span(text: str) -> tuple[int, int] | None:
    """Offsets of the generated part (markers included), or None when there are no markers."""
    try:
        return marked_span(text, BEGIN, END)
    except MarkersError as exc:
        raise IndexMarkersError(str(exc)) from None


def render_index(
    target: str,
    records: Sequence[Record],
    states: Mapping[str, str],
    former: Mapping[str, str],
    existing: str | None,
    carried_prose: str = "",
    title: str | None = None,
    edges: Sequence[Edge] = (),
) -> str:
    """The index text for the tree at ``target``.

    ``states`` maps lifecycle state → folder name (the config's ``states``)
    and orders the tables; ``former`` maps former ids and former paths to
    the record's repository path. With ``existing``, only the part between
    the markers changes (appended at the end when it has none); without it,
    the page is ``# <title>``, the carried prose, then the generated part.
    Raises :class:`IndexMarkersError` when ``existing`` has broken markers.
    """
    generated = render_generated(target, records, states, former, edges)
    if existing is None:
        parts = [f"# {title or default_title(target)}", carried_prose.strip("\n"), generated]
        return "\n\n".join(p for p in parts if p) + "\n"
    span = generated_span(existing)
    if span is None:
        body = existing.rstrip("\n")
        return (body + "\n\n" if body else "") + generated + "\n"
    return existing[: span[0]] + generated + existing[span[1] :]


_FORMER_ROW = re.compile(
    r"^\|\s*`(?P<former>[^`]+)`\s*\|\s*\[.*\]\((?P<dest><[^>]*>|[^\s)]+)\)\s*\|\s*$"
)


def parse_former_ids(index_text: str) -> dict[str, str]:
    """The former-id table read back: former id or path → record path relative to the index folder."""
    try:
        span = generated_span(index_text)
    except IndexMarkersError:
        span = None
    text = index_text[span[0] : span[1]] if span else index_text
    start = text.find(FORMER_HEADING)
    if start == -1:
        return {}
    found: dict[str, str] = {}
    for line in text[start:].splitlines()[1:]:
        if line.startswith("#"):
            break
        row = _FORMER_ROW.match(line)
        if row is not None:
            destination = row.group("dest").removeprefix("<").removesuffix(">")
            found[row.group("former")] = unquote(markdown_url(destination))
    return found
