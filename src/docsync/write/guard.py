"""The guard in front of every mutation (:mod:`docsync.write.writer`): which paths docsync
may change at all, and reading a file of docsync's own state without following a symlink.

Before the writer changes anything it refuses, with one message, a path that is
outside the area it works in (the repository, or the git directory), that goes
through a symlink, or whose name is longer than a file system allows: so a
refusal never leaves anything half done.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from ..config_paths import is_git_name
from ..errors import DocsyncError

NAME_MAX = 255
"""Bytes in one path component on the file systems docsync runs on."""


class Refused(DocsyncError):
    """A mutation the guard refused before it changed anything."""


def lexical(path: str) -> list[str]:
    """``path``'s components, refusing what no repository path can be."""
    if not path or "\0" in path or path.startswith("/"):
        raise Refused(f"{path!r}: not a path inside the repository")
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        raise Refused(f"{path}: refusing to change a path outside the repository")
    if any(is_git_name(part) for part in parts):  # a work tree path never holds one; see config_paths
        raise Refused(f"{path}: refusing to change a path inside a git directory")
    for part in parts:
        if len(os.fsencode(part)) > NAME_MAX:
            raise Refused(
                f"{path}: a name in it is {len(os.fsencode(part))} bytes, over the "
                f"{NAME_MAX} a file system allows; choose a shorter name"
            )
    return parts


def read_regular(full: Path) -> bytes:
    """The bytes of ``full`` when it is a regular file, opened without following a final
    symlink and without blocking on a FIFO; ``Refused`` for anything else."""
    fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused(f"{full}: not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    finally:
        os.close(fd)


def is_link(full: Path) -> bool:
    """Whether ``full`` itself is a symlink (False when it does not exist)."""
    try:
        return stat.S_ISLNK(os.lstat(full).st_mode)
    except OSError:
        return False


_REAL: dict[str, tuple[str, tuple[int, int]]] = {}


def _identity(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def real_base(base: Path) -> str:
    """``base`` with every symlink resolved (``os.path.realpath``), remembered per ``base``.

    A remembered answer is used only while ``base`` and it are still the same
    folder (device and inode): two ``stat`` calls instead of one ``lstat`` per
    component of a long absolute path, on every guarded call.
    """
    key = os.fspath(base)
    known = _REAL.get(key)
    if known is not None:
        try:
            if _identity(os.stat(known[0])) == known[1] == _identity(os.stat(key)):
                return known[0]
        except OSError:
            pass
    real = os.path.realpath(key)
    try:
        _REAL[key] = (real, _identity(os.stat(real)))
    except OSError:
        _REAL.pop(key, None)
    return real


def guarded(base: Path, path: str, *, final_link: bool = False) -> Path:
    """The full path of ``path`` under ``base``, refused (:class:`Refused`) when
    it leaves ``base``, when a folder on the way is a symlink, or, unless
    ``final_link`` (a symlink being moved, removed or put back itself), when
    it is a symlink: docsync never writes through one.

    Every component below ``base``'s real path is checked (``lstat``) on every
    call, and none may be ``..``: so the path stays inside ``base`` without
    resolving it again.
    """
    parts = lexical(path)
    real = real_base(base)
    full = real.rstrip("/")
    last = len(parts) - 1
    for k, part in enumerate(parts):
        full += "/" + part
        try:
            link = stat.S_ISLNK(os.lstat(full).st_mode)
        except OSError:
            break  # absent (or unreadable): nothing below it is a symlink either
        if link and not (k == last and final_link):
            target = os.readlink(full)
            shown = "/".join(parts[: k + 1])
            raise Refused(
                f"{shown} is a symlink (to {target}); docsync never writes through a "
                "symlink: replace it with the file it points to, or leave it out"
            )
    return Path(real, *parts)


def preflight(
    root: Path,
    writes: Iterable[str],
    moves: Iterable[tuple[str, str]] = (),
    removals: Iterable[str] = (),
) -> None:
    """Refuse, before anything changes, a plan any of whose steps the guard would refuse.

    A record moved as a symlink stays a symlink, so a write to where it
    moves is a write through a symlink.
    """
    links: set[str] = set()
    for old, new in moves:
        if is_link(guarded(root, old, final_link=True)):
            links.add(new)
        guarded(root, new)
    for path in removals:
        guarded(root, path, final_link=True)
    for path in writes:
        if path in links:
            raise Refused(
                f"{path} is a symlink moved as a symlink; docsync never writes through a "
                "symlink: replace it with the file it points to, or leave it out"
            )
        guarded(root, path)
