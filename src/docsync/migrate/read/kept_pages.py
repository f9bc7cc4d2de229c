"""Another tool's pages in a legacy tree (log4brains' ``index.md``, a docs site's section page).

Migrate leaves them where they are, with their links rewritten, unless the
plan's ``[pages] remove`` lists them; the dry run says why each one stays.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from .discover import INDEX_NAMES, LEGACY_INDEX_NAMES, Tree, children_of, index_paths


def kept_pages(tree: Tree, paths: Iterable[str]) -> list[str]:
    """The tree's ``index.md`` pages that are not its index: migrate leaves them where they are
    (at the repository's root, none: the root's pages are the project's, not the tree's)."""
    if not tree.path:
        return []
    paths = list(paths)
    indexes = set(index_paths(tree, paths))
    return [
        p
        for p in children_of(tree.path, paths)
        if posixpath.basename(p).lower() in INDEX_NAMES and p not in indexes
    ]


def kept_reason(tree: Tree, paths: Iterable[str]) -> str:
    """Why the tree's :func:`kept_pages` stay: whose page each one is."""
    paths = list(paths)
    if ".log4brains.yml" in paths:
        return "log4brains' home page (.log4brains.yml is in the repository)"
    readme = next(
        p
        for p in children_of(tree.path, paths)
        if posixpath.basename(p).lower() in LEGACY_INDEX_NAMES
    )
    return f"another tool's page (a docs site's section page?) beside the tree's index {readme}"
