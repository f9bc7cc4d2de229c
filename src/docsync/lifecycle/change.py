"""What ``new`` or ``move`` will do (a :class:`Change`), the workspace it leaves behind with
its regenerated index, and :func:`apply`, the one function here that writes: ``git mv``, write
and stage in one journalled transaction, all put back on any failure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..gates.layout.fix import fix_index
from ..parse.native import parse
from ..repository import gitrepo
from ..repository.plumbing import Listing, RepoPaths, list_files
from ..workspace.load import (
    MARKDOWN_SUFFIXES,
    Workspace,
)
from ..write import writer
from ..write.transaction import Transaction
from ..write.writer import FileWrite

_NEW_FILE_MODE = "100644"


@dataclass(frozen=True)
class Change:
    """What ``new`` or ``move`` will do to the repository.

    ``record`` is the record's path afterwards and ``source`` its path before
    (equal for a new record); ``moves`` are ``git mv`` pairs, run before the
    writes; ``created`` lists the written files that did not exist, which
    :func:`apply` stages them, and every tracked file the change writes.
    """

    record: str
    source: str
    state: str
    moves: tuple[tuple[str, str], ...]
    writes: tuple[FileWrite, ...]
    created: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()  # what the change breaks that no rewrite can mend
    read: Mapping[str, str | None] = field(default_factory=dict)
    """What the plan read, by path (None: absent); :func:`apply` refuses a path that no
    longer holds it (see :func:`with_reads`)."""

    @property
    def touched(self) -> tuple[str, ...]:
        """Every path the change creates, removes or rewrites (what a rollback restores)."""
        paths = [p for pair in self.moves for p in pair]
        paths.extend(w.path for w in self.writes)
        return tuple(dict.fromkeys(paths))

    @property
    def updated(self) -> tuple[str, ...]:
        """Existing files other than the record that the change rewrites (links, the index)."""
        return tuple(
            sorted(w.path for w in self.writes if w.path != self.record and w.path not in self.created)
        )


def workspace_after(
    workspace: Workspace, moves: Mapping[str, str], texts: Mapping[str, FileWrite]
) -> Workspace:
    """The workspace as it will be once ``moves`` are made and ``texts`` written.

    New files count as tracked, since :func:`apply` stages them; an untracked
    file that is rewritten stays untracked.
    """
    untracked = workspace.listing.untracked
    tracked = {moves.get(p, p): mode for p, mode in workspace.listing.tracked.items()}
    tracked.update(
        (w.path, _NEW_FILE_MODE)
        for w in texts.values()
        if w.path not in tracked and w.path not in untracked
    )
    documents = {moves.get(p, p): d for p, d in workspace.documents.items()}
    for write in texts.values():
        if write.path.lower().endswith(MARKDOWN_SUFFIXES):
            documents[write.path] = parse(write.path, write.text, write.newline, write.bom)
    selected = tuple(dict.fromkeys([*(moves.get(p, p) for p in workspace.selected), *texts]))
    return replace(
        workspace,
        listing=Listing(tracked, untracked),
        documents=documents,
        selected=selected,
    )


def finish(
    workspace: Workspace, moves: Mapping[str, str], writes: Mapping[str, FileWrite]
) -> tuple[tuple[FileWrite, ...], tuple[str, ...]]:
    """``writes`` plus the regenerated index of the workspace they leave behind, and
    which of them create a file."""
    index = fix_index(workspace_after(workspace, moves, writes))
    final = dict(writes)
    if index is not None:
        final[index.path] = index
    present = set(workspace.listing.tracked) | workspace.listing.untracked | set(moves.values())
    created = tuple(path for path in final if path not in present)
    return tuple(final.values()), created


def apply(
    root: Path, change: Change, command: str = "move", redo: Mapping[str, Any] | None = None,
    listing: Listing | None = None, repo: RepoPaths | None = None,
) -> None:
    """Make ``change``: ``git mv``, write, stage, in one journalled transaction:
    on any failure (or ``docsync <command> --abort`` after a kill) everything is put back.
    ``listing`` and ``repo``: the files the change was planned from and where they are
    (else asked here)."""
    writer.preflight(root, [w.path for w in change.writes], change.moves)
    tree = gitrepo.worktree(root, repo)
    gitrepo.refuse_sparse(tree, f"docsync {command}")
    staged = to_stage(change, (listing or list_files(root)).tracked)
    with Transaction.begin(root, command, redo or {}, change.touched, change.read, tree) as txn:
        txn.move(list(change.moves))
        txn.write_all(list(change.writes))
        gitrepo.stage(tree, staged)


def to_stage(change: Change, tracked: Mapping[str, str]) -> list[str]:
    """What :func:`apply` stages: every file the change writes that git will track (the
    record, its status edit, the index, the links it rewrites), so that the commit that
    follows holds all of it and the pre-commit hook, reading the index, sees the change
    whole. An untracked file that is rewritten stays untracked (somebody's draft)."""
    moved = dict(change.moves)
    known = {moved.get(path, path) for path in tracked} | set(change.created)
    return [w.path for w in change.writes if w.path in known]


def with_reads(workspace: Workspace, change: Change) -> Change:
    """``change`` with what its plan read of each path it touches: a document's text, or
    absence for a file it creates; a save made after the read is then never overwritten."""
    read: dict[str, str | None] = {}
    for path in change.touched:
        doc = workspace.documents.get(path)
        if doc is not None:
            read[path] = doc.text
        elif path in change.created:
            read[path] = None
    return replace(change, read=read)
