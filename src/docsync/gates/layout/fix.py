"""Gate ``layout``'s fix: the index and the conventions doc regenerated, the
missing reverse of each relation written."""

from __future__ import annotations

from ...records import conventions
from ...records.index import IndexMarkersError
from ...records.tree import load_tree
from ...workspace.load import Workspace
from ...write.writer import FileWrite
from .relations import fix_relations


def fix_index(workspace: Workspace) -> FileWrite | None:
    """The regenerated index, or None when it is up to date, broken or there is no tree."""
    tree = load_tree(workspace)
    if tree is None:
        return None
    try:
        wanted = tree.rendered_index()
    except IndexMarkersError:
        return None
    if wanted == tree.index_text:
        return None
    doc = workspace.documents.get(tree.index_path)
    return FileWrite(
        tree.index_path, wanted, doc.newline if doc else "\n", doc.bom if doc else False
    )


def fix_layout(workspace: Workspace) -> dict[str, FileWrite]:
    """Every layout fix by path: the index, the conventions doc, the relations' reverses."""
    writes: dict[str, FileWrite] = {}
    index = fix_index(workspace)
    if index is not None:
        writes[index.path] = index
    tree = load_tree(workspace)
    regenerated = conventions.fix(tree) if tree is not None else None
    if regenerated is not None:
        writes[regenerated.path] = regenerated
    if tree is not None:
        writes.update((w.path, w) for w in fix_relations(tree))
    return writes
