"""Symlinks where a record would be (``keps/sig-release/2019-x.md`` pointing at another
KEP): docsync neither reads nor moves them, and the dry run names each one, so none is
skipped silently. See docs/rfc/implemented/2026-12-07-what-a-second-apply-and-check-leave-alone.md."""

from __future__ import annotations

from collections.abc import Sequence

from .discover import Tree, record_paths


def skipped_symlinks(trees: Sequence[Tree], paths: Sequence[str], links: Sequence[str]) -> tuple[str, ...]:
    """The symlinks among ``links`` that a tree of ``trees`` would read as records were they
    files (``paths``: the other files, for the tree's own reading of its names)."""
    if not links:
        return ()
    linked = frozenset(links)
    every = sorted({*paths, *links})
    return tuple(sorted({p for tree in trees for p, _, _ in record_paths(tree, every) if p in linked}))
