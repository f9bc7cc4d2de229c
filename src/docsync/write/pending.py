"""The journal an unfinished run left, read back only when it is this docsync's own.

:func:`pending` reads ``state.json`` from a regular file (never through a symlink,
never blocking on a FIFO), checks its seal and schema (:mod:`.journal_schema`) and
every saved file's digest; anything else stops the command with one line.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DocsyncError
from . import journal_schema, writer
from .finished import JOURNAL, PRODUCED, STATE
from .packs import state_from
from .snapshot import Files


@dataclass(frozen=True, slots=True)
class Pending:
    """A journal a run left: its command and what ``--continue`` runs again."""

    command: str
    redo: Mapping[str, Any]
    head: str | None
    index: str | None
    """The digest of the git index the journal saved (None: there was none)."""
    files: Files
    produced: Mapping[str, set[str]] = field(default_factory=dict)
    """Per path, the digests of the bytes the run logged before writing them (``PRODUCED``)."""
    kept: tuple[str, ...] = ()
    """After ``--abort``: files someone saved after the run stopped, kept as they are."""


def _pending_message(command: str) -> str:
    return (
        f"an earlier `docsync {command}` did not finish (it was killed, or could not undo its "
        f"changes) and left a journal in the git directory; run `docsync {command} --abort` to "
        f"put the repository back exactly as it was before it, or `docsync {command} --continue` "
        "to finish it"
    )


def pending(git_dir: Path, root: Path | None = None) -> Pending | None:
    """The journal an unfinished run left, or None; :class:`~.journal_schema.Foreign`
    for one this docsync did not write here, or that is damaged (nothing is put back)."""
    state = git_dir / STATE
    work_tree = root if root is not None else git_dir.parent
    try:
        info = os.lstat(state)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _unreadable(state, exc) from None
    if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_STATE:
        raise journal_schema.Foreign(
            f".git/{STATE}: not a journal this docsync wrote (not a regular file of a "
            f"journal's size); nothing was changed: remove .git/{JOURNAL}"
        )
    try:
        text = writer.read_regular(writer.guarded(git_dir, STATE)).decode("utf-8")
        raw = journal_schema.validated(json.loads(text), git_dir, work_tree)
        packs: dict[str, bytes] = {}
        states = tuple(state_from(git_dir, JOURNAL, item, packs) for item in raw["files"])
    except journal_schema.Foreign:
        raise
    except (OSError, ValueError, KeyError, RecursionError, DocsyncError) as exc:
        raise _unreadable(state, exc) from None
    files = Files(states, tuple(raw["absent_folders"]))
    return Pending(raw["command"], raw["redo"], raw["head"], raw["index"], files, _produced(git_dir, files))


def _produced(git_dir: Path, files: Files) -> dict[str, set[str]]:
    """The log of what the run wrote, each line checked: a path the journal names and a
    digest. A line that is not (a kill mid-append) is skipped: a file whose bytes it would
    have named is then kept, not overwritten, the side that loses nobody's work."""
    try:
        data = writer.read_regular(writer.guarded(git_dir, PRODUCED))
    except FileNotFoundError:
        return {}
    except (OSError, DocsyncError) as exc:
        raise _unreadable(git_dir / PRODUCED, exc) from None
    found: dict[str, set[str]] = {}
    for line in data.splitlines():
        try:
            path, digest = json.loads(line)
        except (ValueError, TypeError, RecursionError):
            continue
        if files.state(path) is not None and type(digest) is str and len(digest) == 64:
            found.setdefault(path, set()).add(digest)
    return found


_MAX_STATE = 1 << 28
"""Bytes of ``state.json`` past which it is not one docsync wrote (a million files' entries fit)."""


def _unreadable(state: Path, exc: BaseException) -> DocsyncError:
    return DocsyncError(
        f"{state}: the journal of an unfinished docsync run cannot be read ({exc}); "
        "restore the repository with git, then remove that folder"
    )


def refuse_pending(git_dir: Path, root: Path | None = None) -> None:
    """Raise the one message that names ``--abort`` and ``--continue`` when a journal is there."""
    found = pending(git_dir, root)
    if found is not None:
        raise DocsyncError(_pending_message(found.command))


def _saved_index(git_dir: Path, expected: str | None) -> bytes | None:
    """The git index the journal saved, refused when its digest is not the recorded one."""
    if expected is None:
        return None
    full = writer.guarded(git_dir, f"{JOURNAL}/index")
    try:
        data = writer.read_regular(full)
    except (OSError, DocsyncError) as exc:
        raise _unreadable(git_dir / STATE, exc) from None
    if writer.digest(data) != expected:
        raise _unreadable(git_dir / STATE, ValueError(f"the saved git index in {JOURNAL}/index is damaged"))
    return data
