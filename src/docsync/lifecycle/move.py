"""``docsync move``: a record into another lifecycle folder, its status, every link to it and
the index rewritten. Planning (:func:`plan_move`) is read-only; :func:`move` plans and applies.
See docs/rfc/implemented/2026-11-29-record-lifecycle-commands.md."""

from __future__ import annotations

import posixpath
from datetime import date
from pathlib import Path

from ..errors import DocsyncError
from ..model import Document
from ..records.relations import (
    SUPERSEDES,
)
from ..records.status_lines import status_lines
from ..records.tree import TreeFile, load_tree, record_title
from ..repository.plumbing import RepoPaths, find_repo
from ..workspace.load import (
    Workspace,
    load_workspace,
)
from ..write import writer
from ..write.writer import FileWrite
from .change import Change, apply, finish, with_reads
from .find import find_record, from_here
from .relation import (
    Relating,
    check_relation_state,
    check_still_superseded,
    newer_side,
    older_side,
    relation_to,
)
from .rewrites import code_mentions, emptied_folder, inbound, moved_text, present_after
from .status import (
    moved_status,
    resolve_status,
    single_line,
    state_folder,
    state_word,
    status_value,
    transition_word,
    tree_target,
)


def _movable(workspace: Workspace, file: TreeFile, state: str, relating: bool = False) -> Document:
    """The record's document, or why it cannot move to ``state`` (stay there, when ``relating``)."""
    if file.state is None or not file.name_ok or file.day is None:
        raise DocsyncError(
            f"{file.path} is not a record in a lifecycle folder named yyyy-mm-dd-slug.md; "
            "run 'docsync check' and fix its layout first"
        )
    if file.state == state and not relating:
        raise DocsyncError(f"{file.path} is already {state}")
    if not workspace.tracked(file.path):
        raise DocsyncError(f"{file.path} is not tracked by git; git add it first")
    doc = workspace.documents.get(file.path)
    if doc is None or not status_lines(doc):
        raise DocsyncError(f"{file.path} has no 'Status:' line to update; add one first")
    return doc


def plan_move(
    workspace: Workspace,
    record: str,
    state: str,
    note: str = "",
    today: date | None = None,
    record_path: str | None = None,
    by: Relating | None = None,
) -> Change:
    """Move ``record`` (a path, slug or former id) into ``state``'s folder.

    ``record_path`` is ``record`` made repository-relative from where the
    user stands, when it can be. The file keeps its name (the date it was
    first proposed), its ``Status:`` line gets the new state and the
    transition, and every link to it, the index and code paths naming it are
    rewritten. With ``by``, the relation is written on both records (the
    record may then stay in its state: only the relation is added).
    """
    tree = load_tree(workspace)
    config = workspace.config
    if tree is None:
        raise DocsyncError(f"there is no record tree under {tree_target(config)}/ yet")
    status = resolve_status(config, state)
    file = find_record(tree, record, record_path)
    relation = relation_to(tree, file, by) if by is not None else None
    check_relation_state(config, relation, status.state)
    check_still_superseded(tree, file.path, status.state)
    doc = _movable(workspace, file, status.state, relating=relation is not None)
    assert file.state is not None
    moving = file.state != status.state
    old = file.path
    new = f"{state_folder(config, status.state)}/{posixpath.basename(file.path)}" if moving else old
    if moving and (new in workspace.listing.tracked or new in workspace.listing.untracked):
        raise DocsyncError(f"{new} already exists")
    if relation is not None and not (moving or relation.forward_missing or relation.reverse_missing):
        raise DocsyncError(f"{relation.newer.path} already {relation.kind} {old}")
    entry, lines = older_side(relation, new)
    value = (
        moved_status(
            status_value(doc, workspace.config.relations),
            state_word(config, file.state),
            state_word(config, status.state),
            transition_word(config, status),
            today or date.today(),
            single_line(note, "note"),
            entry,
        )
        if moving or entry
        else None
    )
    present = present_after(workspace, old, new)
    writes: dict[str, FileWrite] = {new: moved_text(workspace, doc, new, value, present, lines)}
    if moving:
        writes.update((w.path, w) for w in inbound(workspace, old, new, present))
        writes.update((w.path, w) for w in code_mentions(workspace, old, new))
    if relation is not None:
        title = record_title(doc) or file.slug or posixpath.basename(old)
        newer = newer_side(workspace, relation, title, new, writes)
        if newer is not None:
            writes[newer.path] = newer
    moves = {old: new} if moving else {}
    final, created = finish(workspace, moves, writes)
    warnings = emptied_folder(workspace, old, present) if moving else ()
    return Change(new, old, status.state, tuple(moves.items()), final, created, warnings)


def move(
    start: Path,
    record: str,
    state: str,
    note: str,
    today: date,
    by: str | None = None,
    relation: str = SUPERSEDES,
    repo: RepoPaths | None = None,
) -> Change:
    """``docsync move``: plan and apply a record's move from where the user stands."""
    repo = repo or find_repo(start)  # asked once (``repo``: by the command line), for the plan and the transaction
    workspace = load_workspace(start, repo=repo)
    newer = Relating(by, relation, from_here(workspace, start, by)) if by is not None else None
    record_path = from_here(workspace, start, record)
    change = plan_move(workspace, record, state, note, today, record_path, newer)
    writer.remove_stale_temps(workspace.root, workspace.listing.untracked)
    redo = {
        "record": record,
        "state": state,
        "note": note,
        "today": today.isoformat(),
        "by": by,
        "relation": relation,
    }
    apply(workspace.root, with_reads(workspace, change), "move", redo, workspace.listing, repo)
    return change
