"""Apply a plan: the only part of ``docsync migrate`` that writes.

Order: ``git mv`` every moved record (and, with ``commit``, commit those
pure renames alone, so ``git log --follow`` sees 100% renames), then write
every new text through :func:`docsync.writer.write_all`, ``git rm`` what was
merged away, stage everything, and with ``commit`` make the second commit.
A snapshot of HEAD, the index and every touched file is taken first; any
failure restores it exactly and re-raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import gitrepo
from ..errors import PlanError
from ..writer import write_all
from .changes import ChangeSet
from .run import Outcome

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

    @property
    def exit_code(self) -> int:
        return self.outcome.exit_code


def apply(
    root: Path, outcome: Outcome, *, commit: bool = False, allow_dirty: bool = False
) -> Applied:
    """Apply ``outcome``'s changes; refuse (nothing changed) while it has problems."""
    if not outcome.complete or outcome.changes.empty:
        return Applied(outcome, applied=False)
    if not allow_dirty:
        _refuse_dirty(root)
    if commit:
        _refuse_staged(root)
    changes = outcome.changes
    snap = gitrepo.snapshot(root, list(changes.touched))
    try:
        commits = _execute(root, changes, commit=commit)
    except BaseException:
        gitrepo.restore(root, snap)
        raise
    return Applied(outcome, applied=True, commits=commits)


def _refuse_dirty(root: Path) -> None:
    dirty = gitrepo.dirty_files(root)
    if dirty:
        more = f" (and {len(dirty) - 1} more)" if len(dirty) > 1 else ""
        raise PlanError(
            f"the working tree has uncommitted changes to tracked files: {dirty[0]}{more}; "
            "commit or stash them first, or pass --allow-dirty"
        )


def _refuse_staged(root: Path) -> None:
    staged = gitrepo.staged_files(root)
    if staged:
        raise PlanError(
            f"--commit would also commit changes already staged ({staged[0]}); "
            "commit or unstage them first, or apply without --commit"
        )


def _execute(root: Path, changes: ChangeSet, *, commit: bool) -> tuple[str, ...]:
    commits: list[str] = []
    moves = list(changes.moves)
    gitrepo.move_files(root, moves)
    if commit and moves:
        commits.append(gitrepo.commit_index(root, MOVE_MESSAGE))
    write_all(root, list(changes.writes))
    gitrepo.remove_files(root, [p for p in changes.removals if (root / p).exists()])
    gitrepo.stage(root, changes.to_stage)
    if commit:
        commits.append(gitrepo.commit_index(root, EDIT_MESSAGE))
    return tuple(commits)
