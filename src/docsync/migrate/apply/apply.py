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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import PlanError
from ...repository import gitrepo, plumbing
from ...untrusted_text import shown
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
    repo: plumbing.RepoPaths | None = None,
    untracked: Iterable[str] | None = None,
) -> Applied:
    """Apply ``outcome``'s changes; refuse (nothing changed) while it has problems.

    ``redo`` is what ``docsync migrate --continue`` runs again after a kill. ``repo`` and
    ``untracked`` are what the run asked git already (where the repository is; the untracked
    files, among which a killed run's temporary files are): each is asked here otherwise.
    The working tree's state (``git status``) is asked once, and what the guarantees need
    fresh is read again where they need it: HEAD, the index and every touched file when the
    transaction begins, each file again the moment before it is replaced.
    """
    if not outcome.complete or outcome.changes.empty:
        return Applied(outcome, applied=False)
    changes = outcome.changes
    tree = gitrepo.worktree(root, repo)
    status = gitrepo.status(tree) if commit or not allow_dirty else gitrepo.Status((), frozenset())
    if not allow_dirty:
        _refuse_dirty(status.dirty)
    if commit:
        _refuse_staged(status.staged)
        _refuse_dirty_touched(status.dirty, changes.touched)
    gitrepo.refuse_sparse(tree, "the migration")
    writer.preflight(root, [w.path for w in changes.writes], changes.moves, changes.removals)
    writer.remove_stale_temps(root, plumbing.untracked_files(root) if untracked is None else untracked)
    with Transaction.begin(root, "migrate", redo or {}, changes.touched, changes.read, tree) as txn:
        commits, forced = _execute(tree, txn, changes, commit=commit)
    return Applied(outcome, applied=True, commits=commits, forced=forced)


def _refuse_dirty(dirty: tuple[str, ...]) -> None:
    if dirty:
        more = f" (and {len(dirty) - 1} more)" if len(dirty) > 1 else ""
        raise PlanError(
            f"the working tree has uncommitted changes to tracked files: {dirty[0]}{more}; "
            "commit or stash them first, or pass --allow-dirty"
        )


def _refuse_dirty_touched(dirty_files: tuple[str, ...], touched: tuple[str, ...]) -> None:
    """``--commit --allow-dirty``: a file the migration changes that holds unstaged work
    would carry that work into docsync's commit; refused by name, nothing changed."""
    mine = set(touched)
    dirty = sorted(path for path in dirty_files if path in mine)
    if dirty:
        shown = ", ".join(dirty[:5]) + (f" and {len(dirty) - 5} more" if len(dirty) > 5 else "")
        raise PlanError(
            f"--commit would commit your unstaged changes to files the migration rewrites: {shown}; "
            "commit or stash them first, or apply without --commit"
        )


def _refuse_staged(staged: frozenset[str]) -> None:
    if staged:
        raise PlanError(
            f"--commit would also commit changes already staged ({shown(min(staged))}); "
            "commit or unstage them first, or apply without --commit"
        )


def _execute(
    tree: gitrepo.Worktree, txn: Transaction, changes: ChangeSet, *, commit: bool
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    commits: list[str] = []
    moves = list(changes.moves)
    txn.move(moves)
    if commit and moves:
        commits.append(gitrepo.commit_index(tree, MOVE_MESSAGE))
    txn.write_all(list(changes.writes))
    txn.relink([(r.path, r.new) for r in changes.relinks])
    txn.remove([p for p in changes.removals if (tree.root / p).exists()])
    forced = gitrepo.stage(tree, changes.to_stage)
    if commit:
        commits.append(gitrepo.commit_index(tree, EDIT_MESSAGE))
    return tuple(commits), tuple(forced)
