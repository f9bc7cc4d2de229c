"""What the one pass over history reads: each commit, its author date and the files it changed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

UNSHALLOW_FIX = (
    "fetch the full history with `git fetch --unshallow` "
    "(GitHub Actions: set `fetch-depth: 0` on actions/checkout)"
)


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file a commit changed, relative to one parent.

    ``status`` is ``"A"`` (added; copies count as adds), ``"M"`` (modified,
    including type changes), ``"D"`` (deleted) or ``"R"`` (renamed from
    ``old_path``). ``blob`` is the object id of the content after the change;
    for a deletion, of the content deleted (or ``None``). ``old_blob`` is, for a
    modification, the content before it (a record's text that a stub replaced).
    """

    status: str
    path: str
    old_path: str | None = None
    blob: str | None = None
    old_blob: str | None = None


@dataclass(frozen=True, slots=True)
class CommitChanges:
    """One commit: its author date as the author's clock showed it, and what it changed.

    ``changes`` is the diff against the first parent (against nothing for a
    root commit); ``merge_changes`` holds a merge's diffs against its other
    parents, in ``parents[1:]`` order.
    """

    sha: str
    author_date: date
    author_tz: str
    parents: tuple[str, ...]
    changes: tuple[FileChange, ...]
    merge_changes: tuple[tuple[FileChange, ...], ...] = ()
