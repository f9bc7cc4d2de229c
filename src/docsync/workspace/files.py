"""Reading a Markdown file of the work tree: its stat first, then its bytes, each a
finding (F003, F004) where it cannot be had. The stat comes first so that what the
stat index records of a file is never newer than the bytes read."""

from __future__ import annotations

import os
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


def bytes_of(root: str | Path, path: str) -> bytes | Finding:
    try:
        with open(os.path.join(root, path), "rb") as handle:
            return handle.read()
    except (RuntimeError, OSError) as exc:
        return _unreadable(path, exc)


def _unreadable(path: str, exc: RuntimeError | OSError) -> Finding:
    """F004 for a file whose stat or bytes cannot be had (a symlink loop raises RuntimeError)."""
    if isinstance(exc, OSError):
        return file_problem(path, "F004", f"cannot read file: {exc.strerror}")
    return file_problem(path, "F004", "symlink loop; the file cannot be read")
