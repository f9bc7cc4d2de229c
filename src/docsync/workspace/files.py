"""Reading a Markdown file of the work tree: its stat first, then its bytes, each a
finding (F003, F004) where it cannot be had. The stat comes first so that what the
stat index records of a file is never newer than the bytes read.

Between the stat and the read, the path may be swapped for something else. The bytes
are therefore read from a descriptor opened without blocking and asked again
(``fstat``) whether it is a regular file: a FIFO or a device swapped in is a finding,
never a wait or an endless read. At most ``max_file_size`` bytes are read, and one
more byte proves the file did not grow past it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..config import Config
from ..model import Finding


def file_problem(path: str, rule: str, message: str, line: int = 1, column: int = 1) -> Finding:
    return Finding("files", rule, path, line, column, message)


def stat_of(root: Path, path: str, config: Config) -> os.stat_result | Finding:
    """The file's stat; a finding when it cannot be read or is over ``max_file_size``."""
    try:
        status = os.stat(os.path.join(root, path))
    except (RuntimeError, OSError) as exc:
        return _unreadable(path, exc)
    if status.st_size > config.max_file_size:
        return file_problem(
            path,
            "F003",
            f"file is {status.st_size} bytes, over max_file_size ({config.max_file_size}); "
            "not read as prose (raise max_file_size or exclude it)",
        )
    return status


_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


def bytes_of(root: str | Path, path: str, cap: int) -> bytes | Finding:
    """The file's bytes, at most ``cap`` of them; a finding when it cannot be read, is no
    longer a regular file, or grew past ``cap`` since its stat."""
    try:
        data = read_capped(os.path.join(root, path), cap)
    except (RuntimeError, OSError) as exc:
        return _unreadable(path, exc)
    if data is None:
        return file_problem(path, "F004", "cannot read file: it is no longer a regular file")
    if len(data) > cap:
        return file_problem(
            path, "F003", f"file grew over max_file_size ({cap}) while read; not read as prose"
        )
    return data


def read_capped(full: str | Path, cap: int, follow: bool = True) -> bytes | None:
    """At most ``cap + 1`` bytes of the regular file at ``full`` (so that more than ``cap``
    tells it is larger), None when it is no regular file (or a symlink, unless ``follow``);
    OSError when it cannot be opened or read."""
    fd = os.open(full, _READ if follow else _READ | os.O_NOFOLLOW)
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            return None
        with open(fd, "rb", buffering=0, closefd=False) as handle:
            data = handle.read(min(status.st_size, cap) + 1)  # sized by the stat: no spare cap's worth
            if status.st_size < len(data) <= cap:  # it grew since: the rest, to the cap
                data += handle.read(cap + 1 - len(data))
            return data
    finally:
        os.close(fd)


def _unreadable(path: str, exc: RuntimeError | OSError) -> Finding:
    """F004 for a file whose stat or bytes cannot be had (a symlink loop raises RuntimeError)."""
    if isinstance(exc, OSError):
        return file_problem(path, "F004", f"cannot read file: {exc.strerror}")
    return file_problem(path, "F004", "symlink loop; the file cannot be read")
