"""Apply a plan: the only part of ``docsync migrate`` that writes.

Order: ``git mv`` every moved record (and, with ``commit``, commit those
pure renames alone, so ``git log --follow`` sees 100% renames), then write
every new text through the guarded writer, ``git rm`` what was merged away,
stage everything, and with ``commit`` make the second commit. All of it runs
in a :class:`docsync.write.transaction.Transaction`: HEAD, the index and every
touched file are journalled first, and any failure (or a later
``docsync migrate --abort`` after a kill) restores them exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import PlanError
from ...repository import gitrepo, plumbing
from ...write import writer
from ...write.transaction import Transaction
from ..model import ChangeSet, Outcome

MOVE_MESSAGE = (
    "docsync migrate: move records into the lifecycle tree\n\n"
    "Pure renames; the next commit rewrites their content and references."
)
EDIT_MESSAGE = "docsync migrate: uniform headers, merged records, rewritten references, new index"


@dataclass(frozen=True)
class Applied:
    """What ``--apply`` did: nothing (refused, or nothing to do), or every change."""

    outcome: Outcome
    applied: bool
    commits: tuple[str, ...] = ()
    forced: tuple[str, ...] = ()
    """Paths a ``.gitignore`` ignores that were staged deliberately (``git add -f``)."""

    @property
    def exit_code(self) -> int:
        return self.outcome.exit_code


def apply(
    root: Path,
    outcome: Outcome,
    *,
    commit: bool = False,
    allow_dirty: bool = False,
    redo: Mapping[str, Any] | None = None,
) -> Applied:
    """Apply ``outcome``'s changes; refuse (nothing changed) while it has problems.

    ``redo`` is what ``docsync migrate --continue`` runs again after a kill.
    """
    if not outcome.complete or outcome.changes.empty:
        return Applied(outcome, applied=False)
    changes = outcome.changes
    if not allow_dirty:
        _refuse_dirty(root)
    if commit:
        _refuse_staged(root)
        _refuse_dirty_touched(root, changes.touched)
    gitrepo.refuse_sparse(root, "the migration")
    writer.preflight(root, [w.path for w in changes.writes], changes.moves, changes.removals)
    writer.remove_stale_temps(root, plumbing.list_files(root).untracked)
    with Transaction.begin(root, "migrate", redo or {}, changes.touched, changes.read) as txn:
        commits, forced = _execute(root, txn, changes, commit=commit)
    return Applied(outcome, applied=True, commits=commits, forced=forced)


def _refuse_dirty(root: Path) -> None:
    dirty = gitrepo.dirty_files(root)
    if dirty:
        more = f" (and {len(dirty) - 1} more)" if len(dirty) > 1 else ""
        raise PlanError(
            f"the working tree has uncommitted changes to tracked files: {dirty[0]}{more}; "
            "commit or stash them first, or pass --allow-dirty"
        )


def _refuse_dirty_touched(root: Path, touched: tuple[str, ...]) -> None:
    """``--commit --allow-dirty``: a file the migration changes that holds unstaged work
    would carry that work into docsync's commit; refused by name, nothing changed."""
    mine = set(touched)
    dirty = sorted(path for path in gitrepo.dirty_files(root) if path in mine)
    if dirty:
        shown = ", ".join(dirty[:5]) + (f" and {len(dirty) - 5} more" if len(dirty) > 5 else "")
        raise PlanError(
            f"--commit would commit your unstaged changes to files the migration rewrites: {shown}; "
            "commit or stash them first, or apply without --commit"
        )


def _refuse_staged(root: Path) -> None:
    staged = plumbing.staged_changes(root)
    if staged:
        raise PlanError(
            f"--commit would also commit changes already staged ({min(staged)}); "
            "commit or unstage them first, or apply without --commit"
        )


def _execute(
    root: Path, txn: Transaction, changes: ChangeSet, *, commit: bool
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    commits: list[str] = []
    moves = list(changes.moves)
    txn.move(moves)
    if commit and moves:
        commits.append(gitrepo.commit_index(root, MOVE_MESSAGE))
    txn.write_all(list(changes.writes))
    txn.relink([(r.path, r.new) for r in changes.relinks])
    txn.remove([p for p in changes.removals if (root / p).exists()])
    forced = gitrepo.stage(root, changes.to_stage)
    if commit:
        commits.append(gitrepo.commit_index(root, EDIT_MESSAGE))
    return tuple(commits), tuple(forced)
