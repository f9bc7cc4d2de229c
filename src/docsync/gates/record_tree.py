"""The record-tree gates, ``layout`` and ``refs``, run together: the tree is
loaded once, and the fixes are composed so that two fixes of one file do not collide.

Both are silent until the tree exists (some file sits in one of the configured
lifecycle folders under ``target``), so a repository that has not migrated is
not told about rules it never adopted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..model import Finding
from ..records.model import tree_exists
from ..workspace.load import Workspace

if TYPE_CHECKING:
    from ..write.writer import FileWrite


def fix(workspace: Workspace, gates: Sequence[str]) -> list[FileWrite]:
    """Every layout and refs fix, composed so that two fixes of one file do not collide.

    The index and the conventions doc are regenerated first; the refs fixes
    then read their new text, so bare ids in the index's own prose are linked
    in the same run.
    """
    from ..parse.native import parse
    from .layout.fix import fix_layout
    from .refs.fix import fix_refs

    writes = fix_layout(workspace) if "layout" in gates else {}
    if "refs" in gates:
        updated = {p: parse(p, w.text, w.newline, w.bom) for p, w in writes.items()}
        writes.update((w.path, w) for w in fix_refs(workspace, updated))
    return list(writes.values())


def check(workspace: Workspace, gates: Sequence[str]) -> list[Finding]:
    """Findings of the ``layout`` and ``refs`` gates named in ``gates``; none without a tree."""
    if "layout" not in gates and "refs" not in gates:
        return []
    listing, config = workspace.listing, workspace.config
    if not tree_exists(config.target, config.states, [*listing.tracked, *listing.untracked]):
        return []  # the tree's modules not even imported: nothing here reads them
    from ..records.tree import load_tree
    from .layout.check import check_layout
    from .refs.check import check_refs

    tree = load_tree(workspace)
    if tree is None:
        return []
    findings: list[Finding] = []
    if "layout" in gates:
        findings.extend(check_layout(tree))
    if "refs" in gates:
        findings.extend(check_refs(tree))
    return findings
