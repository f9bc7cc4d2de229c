"""Reading one of docsync's own files under ``.git/docsync/`` (a cache, a kept report),
which may be planted: a regular file of at most ``limit`` bytes, never read through a
symlink, a FIFO or a device; anything else is passed over with one line saying why.

It imports nothing of docsync's, so that a replayed check (which loads almost nothing)
reads its report as the caches are read.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

Ignored = Callable[[Path, str], None]
"""Says, once, that a file was passed over and why."""


def read_state_file(
    file: Path, limit: int, ignored: Ignored, passed_over: Callable[[int, os.stat_result], bool] | None = None
) -> tuple[bytes, os.stat_result] | None:
    """The bytes of ``file`` and its stat; None when it is missing, not a regular file of at
    most ``limit`` bytes (said through ``ignored``), or ``passed_over`` (given the open
    descriptor and its stat) says it need not be read."""
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        ignored(file, "a symlink" if os.path.islink(file) else exc.strerror or "unreadable")
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            ignored(file, "not a regular file" if not stat.S_ISREG(info.st_mode) else "too large")
            return None
        if passed_over is not None and passed_over(fd, info):
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
        return (data, info) if len(data) <= limit else None
    except OSError as exc:
        ignored(file, exc.strerror or "unreadable")
        return None
    finally:
        os.close(fd)
