"""What computing a migration's changes reads from the repository."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ...config import DEFAULT_RELATIONS
from ...model import Document
from ...records.model import Record
from ...repository.plumbing import SYMLINK_MODE, Listing


@dataclass(frozen=True)
class RepoView:
    """What computing changes reads from the repository."""

    documents: Mapping[str, Document]
    tracked: frozenset[str]
    read_text: Callable[[str, Sequence[bytes]], str | None]
    """A text file as stored, or None (binary, too large, or holding none of the needles)."""
    states: Mapping[str, str]
    code_refs: bool = True
    code_everywhere: bool = False
    """``code_refs = "all"``: ids in a program's strings and code are rewritten too, not only in comments."""
    relations: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_RELATIONS))
    tree: tuple[Record, ...] = ()
    former: Mapping[str, str] = field(default_factory=dict)
    exempt: frozenset[str] = frozenset()
    refs_exclude: tuple[str, ...] = ()
    """Globs the refs gate does not read (test fixtures): their Markdown links follow the
    moves; the paths and ids they name (records of the repository a test builds) stay."""
    symlinks: Mapping[str, str] = field(default_factory=dict)
    """Tracked symlinks and their targets, as stored (see :mod:`..rewrite.relinks`)."""
    excluded: Mapping[str, Document] = field(default_factory=dict)
    """Markdown files config keeps out of the gates: their links into moved
    files are kept working, and nothing else in them changes."""



def symlink_targets(root: Path, listing: Listing) -> dict[str, str]:
    """Each tracked symlink's target as stored (one that cannot be read is left out)."""
    found: dict[str, str] = {}
    for path, mode in listing.tracked.items():
        if mode == SYMLINK_MODE:
            with contextlib.suppress(OSError, ValueError):
                found[path] = os.fsdecode(os.readlink(root / path))
    return found
