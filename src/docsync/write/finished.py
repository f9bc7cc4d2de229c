"""Which commands' transactions have finished in this process: what the command line
says after Ctrl-C (the work was done, not undone).

Apart from :mod:`docsync.write.transaction` so that a command that changes nothing,
like ``check``, does not import the transaction machinery to start.
"""

from __future__ import annotations

import os
from pathlib import Path

JOURNAL = "docsync/journal"
"""Where in the git directory a run journals what it changes (:mod:`docsync.write.transaction`)."""
STATE = f"{JOURNAL}/state.json"
PRODUCED = f"{JOURNAL}/produced"
"""The log of what a run is about to write: one JSON ``[path, sha256]`` a line, appended
before each write, so ``--abort`` after a kill knows which bytes are docsync's."""

_finished: list[str] = []


def no_journal(git_dir: Path) -> bool:
    """Whether no unfinished run left a journal: the state file is plainly absent, so
    a command need not import the transaction machinery to know. Anything else (the
    file, or an unreadable path to it) is for :func:`~docsync.write.transaction.pending`."""
    try:
        os.stat(git_dir / STATE)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def record(command: str) -> None:
    """``command``'s transaction has finished: its changes are complete."""
    _finished.append(command)


def finished_count() -> int:
    """How many transactions have finished in this process (a mark for :func:`finished_since`)."""
    return len(_finished)


def finished_since(mark: int) -> str | None:
    """The command whose transaction last finished after ``mark``, if any.

    The CLI reads it after an interrupt, to say the work was done rather than undone.
    """
    return _finished[-1] if len(_finished) > mark else None
