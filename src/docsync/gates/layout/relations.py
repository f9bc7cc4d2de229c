"""Gate ``layout``'s relation rules: each relation written on both sides,
pointing at a record of the tree, superseded records in their state, no loops;
and the fix that writes a missing reverse."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ...errors import DocsyncError
from ...model import Finding
from ...records.relations import (
    SUPERSEDES,
    Edge,
    Mention,
    label,
    one_sided,
    reverses,
    superseded_state,
    with_relation_lines,
)
from ...records.status_lines import status_lines
from ...records.tree import Tree
from ...write.writer import FileWrite
from ..rules import finding
from ..wrap import check as wrap


def _phrase(tree: Tree, mention: Mention, forward: bool) -> str:
    return mention.kind if forward else tree.config.relations[mention.kind]


def _says(tree: Tree, mention: Mention) -> str:
    return mention.kind if mention.forward else "is " + tree.config.relations[mention.kind]


def _missing_target(tree: Tree, mention: Mention) -> Finding:
    moved = tree.former.get(mention.target)
    hint = (
        f"the former-id table says it is now {moved}; point the link there"
        if moved in {f.path for f in tree.files}
        else "point it at an existing record or remove the relation"
    )
    return finding(
        "Y014",
        mention.source,
        mention.line,
        mention.column,
        f"'{_phrase(tree, mention, mention.forward)}' links to {mention.target}, "
        f"which is not a record of the tree; {hint}",
    )


def _missing_reverse(tree: Tree, mention: Mention) -> Finding:
    reverse = label(_phrase(tree, mention, not mention.forward))
    return finding(
        "Y012",
        mention.source,
        mention.line,
        mention.column,
        f"this record {_says(tree, mention)} {mention.target}, but {mention.target} has no "
        f"'{reverse}' link back to it; 'docsync fix' adds it",
    )


def _relation_targets(tree: Tree, selected: set[str]) -> Iterator[Finding]:
    files = {f.path for f in tree.files}
    for path, mentions in tree.mentions.items():
        if path in selected:
            yield from (_missing_target(tree, m) for m in mentions if m.target not in files)
    for mention in one_sided(tree.mentions, files):
        if mention.source in selected:
            yield _missing_reverse(tree, mention)


def _superseded_states(tree: Tree, selected: set[str]) -> Iterator[Finding]:
    try:
        wanted = superseded_state(tree.config)
    except DocsyncError:
        return
    states = {f.path: f.state for f in tree.files}
    reported: set[str] = set()
    for edge in tree.edges:
        state = states.get(edge.older)
        if edge.kind != SUPERSEDES or state in (None, wanted) or edge.older in reported:
            continue
        if edge.older not in selected:
            continue
        reported.add(edge.older)
        doc = tree.workspace.documents.get(edge.older)
        found = status_lines(doc) if doc is not None else []
        line, column = (found[0].line, found[0].column) if found else (1, 1)
        folder = f"{tree.target}/{tree.config.states[wanted]}/"
        yield finding(
            "Y013",
            edge.older,
            line,
            column,
            f"superseded by {edge.newer}, but the record is {state}, not {wanted}; "
            f"run 'docsync move {edge.older} superseded --by {edge.newer}' to file it under {folder}",
        )


def _cycles(edges: Sequence[Edge]) -> list[list[str]]:
    """The supersession loops: strongly connected groups (Tarjan), each sorted."""
    after: dict[str, list[str]] = {}
    for edge in edges:
        after.setdefault(edge.newer, []).append(edge.older)
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for nxt in after.get(node, []):
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            group: list[str] = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1 or node in after.get(node, []):
                groups.append(sorted(group))

    for node in sorted(after):
        if node not in order:
            visit(node)
    return sorted(groups)


def _loops(tree: Tree, selected: set[str]) -> Iterator[Finding]:
    supersedes = [e for e in tree.edges if e.kind == SUPERSEDES]
    supersedes += [
        m.edge
        for ms in tree.mentions.values()
        for m in ms
        if m.kind == SUPERSEDES and m.source == m.target
    ]
    for group in _cycles(supersedes):
        first = group[0]
        if first not in selected:
            continue
        mention = next(
            (m for m in tree.mentions.get(first, ()) if m.kind == SUPERSEDES and m.target in group),
            None,
        )
        line, column = (mention.line, mention.column) if mention else (1, 1)
        chain = " -> ".join([*group, group[0]])
        yield finding(
            "Y015",
            first,
            line,
            column,
            f"supersession loop: {chain} each supersede the next; remove the relation that is "
            "wrong (a record cannot be replaced by what it replaced)",
        )


def check_relations(tree: Tree, selected: set[str]) -> Iterator[Finding]:
    yield from _relation_targets(tree, selected)
    yield from _superseded_states(tree, selected)
    yield from _loops(tree, selected)


def fix_relations(tree: Tree) -> list[FileWrite]:
    """The missing reverse of every one-sided relation, as a line under the other record's status."""
    titles = {r.path: r.title for r in tree.records}
    files = {f.path for f in tree.files}
    writes: list[FileWrite] = []
    for path, lines in sorted(reverses(tree.mentions, files, tree.config.relations, titles).items()):
        doc = tree.workspace.documents.get(path)
        if doc is None:
            continue
        text = with_relation_lines(doc, tree.config.relations, lines)
        write = FileWrite(path, text, doc.newline, doc.bom)
        writes.append(wrap.keep_wrapped(doc, write, tree.config))
    return writes
