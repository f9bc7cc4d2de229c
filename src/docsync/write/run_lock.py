"""One write run at a time in a repository: ``.git/docsync/run.lock``, held with ``flock``.

A run's journal says "unfinished" from its first line to its last, so a second command
started meanwhile took the live run for a killed one: it said the first "did not finish"
and offered ``--abort``, which would have undone a run still writing. Now a write run
(:meth:`~docsync.write.transaction.Transaction.begin`) and ``--abort``/``--continue``
hold an exclusive lock on this file for as long as they change anything, and every write
command asks for it first: while another holds it, one line and exit 2, nothing changed.

The kernel drops a ``flock`` when its holder dies (SIGKILL included), so a journal a killed
run left is never locked. The file stays (removing it would let two runs lock two files);
it is opened without following a symlink, and holds no data.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from ..errors import DocsyncError
from . import writer

LOCK = "docsync/run.lock"
"""Where in the git directory the lock is."""


class Busy(DocsyncError):
    """Another docsync is changing this repository right now."""


BUSY = (
    "another docsync run is changing this repository right now (it holds .git/{lock}); "
    "nothing was changed: run this again once it has ended"
)


def hold(git_dir: Path) -> BinaryIO:
    """Take the lock, creating its file; the open file that holds it (closing it, or
    dropping it, lets the lock go). :class:`Busy` when another process holds it."""
    full = writer.guarded(git_dir, LOCK, final_link=True)
    try:
        writer.make_folders(git_dir, full.parent)
        descriptor = os.open(full, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o600)
    except OSError as exc:  # a full disk, a read-only git directory
        raise DocsyncError(f"cannot create .git/{LOCK}: {exc.strerror}; nothing was changed") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise Busy(BUSY.format(lock=LOCK)) from None
    except BaseException:
        os.close(descriptor)
        raise
    return os.fdopen(descriptor, "rb", buffering=0)


@contextmanager
def released_on_error(held: BinaryIO) -> Iterator[None]:
    """Let the lock go when the block fails: the run does not start."""
    try:
        yield
    except BaseException:
        held.close()
        raise


def release(held: BinaryIO | None) -> None:
    if held is not None:
        held.close()


def refuse_busy(git_dir: Path) -> None:
    """:class:`Busy` while another process holds the lock; nothing is created."""
    try:
        descriptor = os.open(git_dir / LOCK, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return  # no lock file (or none docsync could use): no run holds it
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise Busy(BUSY.format(lock=LOCK)) from None
    except OSError:
        return
    finally:
        os.close(descriptor)
