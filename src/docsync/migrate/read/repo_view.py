"""What computing a migration's changes reads from the repository."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ...config import DEFAULT_RELATIONS
from ...model import Document
from ...records.model import Record


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
    excluded: Mapping[str, Document] = field(default_factory=dict)
    """Markdown files config keeps out of the gates: their links into moved
    files are kept working, and nothing else in them changes."""

