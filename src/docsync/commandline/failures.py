"""The one mapping of a failure to the line on stderr and the exit code (2; 130 for Ctrl-C)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import DocsyncError, Interrupted, describe_os_error
from ..write.finished import finished_since

HANDLED = (DocsyncError, OSError, UnicodeDecodeError, KeyboardInterrupt)
"""What a command turns into a line and an exit code; anything else is a bug and surfaces."""


@dataclass(frozen=True)
class Failure:
    message: str
    exit_code: int


def failure(exc: BaseException, mark: int) -> Failure:
    """What to say for ``exc`` (one of :data:`HANDLED`); ``mark`` is
    :func:`~docsync.write.finished.finished_count` when the command began."""
    if isinstance(exc, Interrupted):
        return Failure(f"docsync: {exc}", exc.exit_code)
    if isinstance(exc, DocsyncError):
        return Failure(f"docsync: error: {exc}", exc.exit_code)
    if isinstance(exc, OSError):
        return Failure(f"docsync: error: {describe_os_error(exc, Path.cwd())}", 2)
    if isinstance(exc, UnicodeDecodeError):
        return Failure(
            f"docsync: error: a file is not valid UTF-8 (byte {exc.start}); save it as UTF-8", 2
        )
    finished = finished_since(mark)
    if finished is None:
        return Failure("docsync: stopped by Ctrl-C before anything was changed", 130)
    return Failure(
        f"docsync: stopped by Ctrl-C after `docsync {finished}` had finished; its changes are complete",
        130,
    )
