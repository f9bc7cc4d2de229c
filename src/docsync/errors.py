"""The exceptions the core raises for user, config and environment errors.

The CLI maps every :class:`DocsyncError` to exit code 2 with a one-line
message on stderr, in one place; anything else is a bug and keeps its
traceback.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path


class DocsyncError(Exception):
    """An error the user can fix: bad config, not a git repository, bad plan."""

    exit_code = 2


class ConfigError(DocsyncError):
    pass


class GitError(DocsyncError):
    pass


class PlanError(DocsyncError):
    pass


class Interrupted(DocsyncError):
    """Ctrl-C (or SIGTERM) stopped a run that had changed something, and every change was undone."""

    exit_code = 130


_ADVICE = {
    errno.ENOSPC: "the disk is full; free some space and run again",
    errno.EDQUOT: "the disk quota is exhausted; free some space and run again",
    errno.EACCES: "permission denied; check the file's and its folder's permissions",
    errno.EPERM: "not permitted; the file may be immutable or owned by someone else",
    errno.EROFS: "the file system is read-only",
    errno.ENAMETOOLONG: "the name is too long for the file system; choose a shorter one",
    errno.ENOENT: "no such file or folder",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EISDIR: "it is a folder, not a file",
    errno.ELOOP: "too many levels of symlinks",
    errno.EIO: "an input/output error; check the disk",
}


def describe_os_error(exc: OSError, root: Path | None = None) -> str:
    """One line for an OSError: the file it concerns (relative to ``root``), then
    what happened and what to do."""
    what = _ADVICE.get(exc.errno or 0) or exc.strerror or str(exc)
    if exc.filename is None:
        return what
    name = os.fsdecode(exc.filename)
    if root is not None and os.path.isabs(name):
        inside = os.path.relpath(name, root)
        name = name if inside.startswith("..") else inside
    return f"{name}: {what}"
