"""Reading a file docsync is told to read (``--config``, a template): a regular file of a
bounded size, or one line saying why not.

``open`` alone would wait for ever on a FIFO with no writer and read ``/dev/zero``
until memory runs out. The file is opened without blocking and without becoming
a controlling terminal, then asked (``fstat`` on the open descriptor, so nothing
can be swapped in between) whether it is a regular file; at most ``cap`` bytes
are read, and one more byte proves it was no larger.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import DocsyncError

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


class NotRegular(DocsyncError):
    """The file is no regular file, or is over its size cap, or cannot be read."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_regular(path: Path, cap: int, shown: str) -> bytes:
    """The bytes of the regular file at ``path``, at most ``cap`` of them; ``shown`` names
    it in the :class:`NotRegular` raised otherwise."""
    try:
        descriptor = os.open(path, _FLAGS)
    except OSError as exc:
        if os.path.isdir(path):
            raise NotRegular(f"{shown}: is a folder, not a file") from None
        raise NotRegular(f"cannot read {shown}: {exc.strerror}") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(f"{shown}: is {_kind(mode)}, not a regular file")
        chunks: list[bytes] = []
        left = cap + 1
        while left > 0:
            chunk = os.read(descriptor, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise NotRegular(f"cannot read {shown}: {exc.strerror}") from None
    finally:
        os.close(descriptor)
    data = b"".join(chunks)
    if len(data) > cap:
        raise NotRegular(f"{shown}: is larger than {cap} bytes; not read")
    return data
