"""The record graph: records that relate to others, grouped by state, as Mermaid, DOT or JSON.

The index shows the Mermaid form between its markers, because GitHub renders a
``mermaid`` code block as a diagram on the tree's page; ``docsync graph``
prints any of the three for other tools. Only records with a relation are
drawn, so the graph stays small on a tree of hundreds of records. Node ids
come from slugs, not positions, so adding a record does not renumber the
rest and the generated index changes only where the graph did.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..rewrite.record_links import unlinked
from ..untrusted_text import TERMINAL_UNSAFE, json_safe
from .model import Record
from .relations import SUPERSEDES, Edge

FORMATS = ("mermaid", "dot", "json")
LABEL_WIDTH = 28
"""Node labels break into lines of about this many characters (the diagram stays narrow)."""

_MARKUP = re.compile(r"[`*_]|\\(?=[^\w\s])")


@dataclass(frozen=True, slots=True)
class Graph:
    """The related records (in state order, then by date) and the relations between them."""

    records: tuple[Record, ...]
    edges: tuple[Edge, ...]
    states: tuple[str, ...]


def build(records: Sequence[Record], edges: Sequence[Edge], states: Mapping[str, str]) -> Graph:
    """The graph of ``edges``: only records that take part in one."""
    related = {p for e in edges for p in (e.newer, e.older)}
    order = list(states) + sorted({r.state for r in records} - set(states))
    rank = {state: i for i, state in enumerate(order)}
    chosen = sorted(
        (r for r in records if r.path in related),
        key=lambda r: (rank[r.state], r.first_proposed, r.slug, r.path),
    )
    known = {r.path for r in chosen}
    kept = tuple(e for e in edges if e.newer in known and e.older in known)
    used = [s for s in order if any(r.state == s for r in chosen)]
    return Graph(tuple(chosen), kept, tuple(used))


def plain_title(title: str) -> str:
    """A title's Markdown source as text: links as their text, code and emphasis markers
    and escapes dropped."""
    return " ".join(_MARKUP.sub("", unlinked(title)).split())


def _lines(text: str, width: int = LABEL_WIDTH) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _node_ids(graph: Graph) -> dict[str, str]:
    ids: dict[str, str] = {}
    for record in graph.records:
        base = "r_" + re.sub(r"[^A-Za-z0-9]", "_", record.slug)
        candidate, counter = base, 2
        while candidate in ids.values():
            candidate, counter = f"{base}_{counter}", counter + 1
        ids[record.path] = candidate
    return ids


def _heading(state: str) -> str:
    return state.replace("-", " ").replace("_", " ").capitalize()


# --------------------------------------------------------------------------- mermaid


_UNSAFE = re.compile(f"[{TERMINAL_UNSAFE}]")


def _mermaid_text(text: str) -> str:
    # Mermaid's own entity codes: '#' first, since every code starts with one; a character
    # that would act on a terminal (an escape, a bidi override) by its number.
    for char, code in (("#", "#35;"), ("&", "#38;"), ('"', "#quot;"), ("<", "#lt;"), (">", "#gt;")):
        text = text.replace(char, code)
    return _UNSAFE.sub(lambda m: f"#{ord(m.group(0))};", text)


def mermaid(graph: Graph) -> str:
    """A Mermaid flowchart: one subgraph per state, newer records pointing at older ones."""
    ids = _node_ids(graph)
    out = ["flowchart LR"]
    for state in graph.states:
        out.append(f'  subgraph s_{re.sub(r"[^A-Za-z0-9]", "_", state)}["{_heading(state)}"]')
        for record in (r for r in graph.records if r.state == state):
            label = "<br>".join(_mermaid_text(line) for line in _lines(plain_title(record.title)))
            out.append(f'    {ids[record.path]}["{label}"]')
        out.append("  end")
    for edge in graph.edges:
        arrow = "-->" if edge.kind == SUPERSEDES else "-.->"
        out.append(f"  {ids[edge.newer]} {arrow}|{_mermaid_text(edge.kind)}| {ids[edge.older]}")
    return "\n".join(out) + "\n"


def mermaid_block(graph: Graph) -> str:
    return f"```mermaid\n{mermaid(graph)}```"


# --------------------------------------------------------------------------- dot and json


def _dot_string(text: str) -> str:
    """A DOT string; a character that would act on a terminal as an HTML entity (``&#27;``),
    which Graphviz shows as the character. A newline is the caller's to spell (``\\n``)."""
    quoted = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + _UNSAFE.sub(lambda m: "\n" if m.group(0) == "\n" else f"&#{ord(m.group(0))};", quoted) + '"'


def dot(graph: Graph) -> str:
    """Graphviz DOT: one cluster per state, each node linked to its file (``URL``)."""
    out = ["digraph records {", "  rankdir=LR;", "  node [shape=box];"]
    for number, state in enumerate(graph.states):
        out.append(f"  subgraph cluster_{number} {{")
        out.append(f"    label={_dot_string(_heading(state))};")
        for record in (r for r in graph.records if r.state == state):
            label = _dot_string("\n".join(_lines(plain_title(record.title)))).replace("\n", "\\n")
            out.append(f"    {_dot_string(record.path)} [label={label}, URL={_dot_string(record.path)}];")
        out.append("  }")
    for edge in graph.edges:
        style = "" if edge.kind == SUPERSEDES else ", style=dashed"
        out.append(
            f"  {_dot_string(edge.newer)} -> {_dot_string(edge.older)} "
            f"[label={_dot_string(edge.kind)}{style}];"
        )
    out.append("}")
    return "\n".join(out) + "\n"


def as_json(graph: Graph) -> str:
    """``{"records": [...], "relations": [...]}`` with repository paths."""
    import json  # only here: the index a migration writes, and mermaid and dot, need none

    data = {
        "records": [
            {"path": r.path, "title": r.title, "state": r.state, "date": r.first_proposed.isoformat()}
            for r in graph.records
        ],
        "relations": [{"from": e.newer, "relation": e.kind, "to": e.older} for e in graph.edges],
    }
    return json_safe(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"


def render(graph: Graph, fmt: str) -> str:
    """``graph`` in one of :data:`FORMATS`."""
    if fmt == "mermaid":
        return mermaid(graph)
    if fmt == "dot":
        return dot(graph)
    return as_json(graph)
