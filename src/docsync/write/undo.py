"""The one error a rolled-back run raises: what failed first, then what could not be put
back, and the files someone else saved meanwhile (kept as they are)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path

from ..errors import DocsyncError, Interrupted, describe_os_error
from . import snapshot
from .snapshot import NotRestored


def expected_error(exc: BaseException) -> bool:
    return isinstance(exc, DocsyncError | OSError | KeyboardInterrupt)


def after_rollback(
    root: Path, command: str, exc: BaseException, failed: Sequence[NotRestored], kept: Sequence[str] = ()
) -> BaseException:
    """The one error to raise: the original first, then what could not be put back,
    and the files someone else saved meanwhile, kept as they are."""
    if not expected_error(exc):
        if failed:
            exc.add_note(_kept(command, failed))
        if kept:
            exc.add_note(_saved_meanwhile(kept))
        return exc
    first = "interrupted" if isinstance(exc, KeyboardInterrupt) else message(root, exc)
    if failed:
        text = f"{first}; {_kept(command, failed)}"
    elif kept:
        text = f"{first}; every change docsync made was undone, and {_saved_meanwhile(kept)}"
    else:
        text = f"{first}; every change was undone, the repository is as it was"
    if isinstance(exc, KeyboardInterrupt):
        return Interrupted(text)
    if isinstance(exc, DocsyncError):  # the same kind of error, with what happened after it
        same = copy.copy(exc)
        same.args = (text,)
        return same
    return DocsyncError(text)


def _saved_meanwhile(kept: Sequence[str]) -> str:
    shown = ", ".join(kept[:5]) + (f" and {len(kept) - 5} more" if len(kept) > 5 else "")
    return f"kept as they are now, since they changed on disk while docsync ran (an editor's save, a rename, a delete?): {shown}"


def _kept(command: str, failed: Sequence[NotRestored]) -> str:
    return (
        f"then {snapshot.not_restored_note(failed)}; the journal is kept: fix that, then run "
        f"`docsync {command} --abort`"
    )


def message(root: Path, exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return describe_os_error(exc, root)
    return str(exc)
