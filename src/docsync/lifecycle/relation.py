"""A relation between two records (``--supersedes``, ``--by``, ``--relation``): resolved
against the tree, refused when it would loop or leave a superseded record out of its state,
and what each side still lacks."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..config import Config
from ..errors import DocsyncError
from ..gates.wrap import check as wrap
from ..parse.native import parse
from ..records.relations import (
    SUPERSEDES,
    Edge,
    kind_of,
    label,
    superseded_state,
    with_relation_lines,
)
from ..records.tree import Tree, TreeFile
from ..rewrite.record_links import link_text, relative_destination
from ..workspace.load import (
    Workspace,
)
from ..write.writer import FileWrite
from .find import find_record


@dataclass(frozen=True, slots=True)
class Relating:
    """``--by``: the record that supersedes (or otherwise relates to) the moved one."""

    record: str
    kind: str = SUPERSEDES
    record_path: str | None = None


@dataclass(frozen=True, slots=True)
class Relation:
    """A relation resolved against the tree: the newer record and what each side still lacks."""

    newer: TreeFile
    title: str
    kind: str
    reverse: str
    forward_missing: bool
    reverse_missing: bool


def relation_to(tree: Tree, older: TreeFile, wanted: Relating) -> Relation:
    config = tree.config
    kind = kind_of(config, wanted.kind)
    newer = find_record(tree, wanted.record, wanted.record_path)
    if newer.path == older.path:
        raise DocsyncError(f"{older.path} cannot {kind} itself")
    edge = Edge(newer.path, kind, older.path)
    chain = _chain(tree.edges, kind, older.path, newer.path)
    if chain:
        raise DocsyncError(
            f"{newer.path} {kind} {older.path} would be a loop: "
            f"{' -> '.join(chain)} already (each {kind} the next)"
        )
    sides = {(m.edge, m.forward) for ms in tree.mentions.values() for m in ms}
    titles = {r.path: r.title for r in tree.records}
    title = titles.get(newer.path) or posixpath.basename(newer.path)
    return Relation(
        newer,
        title,
        kind,
        config.relations[kind],
        (edge, True) not in sides,
        (edge, False) not in sides,
    )


def _chain(edges: Sequence[Edge], kind: str, start: str, goal: str) -> list[str]:
    """A path of ``kind`` edges from ``start`` (newer) down to ``goal``, or [] when none."""
    after: dict[str, list[str]] = {}
    for edge in edges:
        if edge.kind == kind:
            after.setdefault(edge.newer, []).append(edge.older)
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop()
        for nxt in after.get(path[-1], []):
            if nxt == goal:
                return [*path, nxt]
            if nxt not in seen:
                seen.add(nxt)
                paths.append([*path, nxt])
    return []


def check_relation_state(config: Config, relation: Relation | None, state: str) -> None:
    if relation is None or relation.kind != SUPERSEDES:
        return
    wanted = superseded_state(config)
    if state != wanted:
        raise DocsyncError(
            f"a superseded record goes to {wanted}, not {state}: "
            f"move it to 'superseded' (or give --relation for another relation)"
        )


def check_still_superseded(tree: Tree, path: str, state: str) -> None:
    """A record that another supersedes stays in the superseded state (Y013): moving it
    out would leave a tree that fails ``docsync check``, so the move is refused."""
    newer = sorted({e.newer for e in tree.edges if e.kind == SUPERSEDES and e.older == path})
    if not newer:
        return
    try:
        wanted = superseded_state(tree.config)
    except DocsyncError:
        return  # no superseded state: Y013 checks nothing either
    if state != wanted:
        raise DocsyncError(
            f"{path} is superseded by {', '.join(newer)}, and a superseded record stays {wanted}; "
            f"to move it to {state}, first remove the relation from both records"
        )


def older_side(
    relation: Relation | None, new: str
) -> tuple[str, tuple[str, ...]]:
    """What the older record gets: a status entry (supersession) or a relation line."""
    if relation is None or not relation.reverse_missing:
        return "", ()
    link = f"[{link_text(relation.title)}]({relative_destination(new, relation.newer.path)})"
    if relation.kind == SUPERSEDES:
        return f"{relation.reverse} {link}", ()
    return "", (f"{label(relation.reverse)} {link}",)


def newer_side(
    workspace: Workspace,
    relation: Relation,
    older_title: str,
    new: str,
    writes: Mapping[str, FileWrite],
) -> FileWrite | None:
    """The newer record with its forward line (``Supersedes: [Old](old.md)``) added."""
    if not relation.forward_missing:
        return None
    path = relation.newer.path
    before = workspace.documents[path]
    current = writes.get(path)
    doc = before if current is None else parse(path, current.text, current.newline, current.bom)
    link = f"[{link_text(older_title)}]({relative_destination(path, new)})"
    text = with_relation_lines(doc, workspace.config.relations, [f"{label(relation.kind)} {link}"])
    return wrap.keep_wrapped(before, FileWrite(path, text, doc.newline, doc.bom), workspace.config)
