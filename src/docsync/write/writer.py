"""The one guarded path for every change docsync makes to the file system.

Every write, rename, folder creation, removal and mode change in migrate,
fix, move, new and init goes through this module, and nothing else in
docsync calls ``open(…, "w")``, ``os.replace``, ``os.rename``,
``Path.write_*``, ``mkdir`` or ``unlink`` (``tests/test_architecture.py``
checks it). Before it changes anything it refuses, with one message, a path
that is outside the area it works in (the repository, or the git
directory), that goes through a symlink, or whose name is longer than a
file system allows: so a refusal never leaves anything half done.

Writes are atomic (a temporary file in the same folder, then a rename), keep
the file's line endings (line by line, when a file mixes them), byte-order
mark and permissions, and replace a file only while it still holds what
docsync read (:class:`ChangedMeanwhile` otherwise). A temporary file is
removed on every exit path; one that a killed run left is removed by the
next (:func:`remove_stale_temps`).

:mod:`docsync.write.snapshot` records and puts back files exactly, through
the mutations here; :mod:`docsync.write.line_ends` keeps each line's ending.

Every mutation first calls :func:`mutation_point`, which does nothing; the
fault-injection tests replace it to make the k-th mutation fail.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..errors import DocsyncError
from .guard import NAME_MAX, Refused, guarded, is_link, lexical, preflight, read_regular, real_base

__all__ = [
    "NAME_MAX",
    "Refused",
    "guarded",
    "is_link",
    "lexical",
    "preflight",
    "read_regular",
    "real_base",
]  # the guard, in its own module, still reached through this one
from .line_ends import lines_unlike, with_line_ends


@dataclass(frozen=True, slots=True)
class FileWrite:
    """New content for one repository file (``text`` with ``\\n`` line ends)."""

    path: str
    text: str
    newline: str = "\n"
    bom: bool = False

    def encoded(self, original: bytes | None = None) -> bytes:
        """The bytes to write. ``original``, the file's bytes now, matters only
        when its lines do not all end in ``newline`` (mixed endings, or lone
        carriage returns): then lines the change leaves alone keep theirs."""
        if "\r" in self.text:  # already as stored (a file rewritten without decoding)
            text = self.text
        elif original is not None and (lines := lines_unlike(original, self.newline)):
            text = with_line_ends(self.text, lines, self.newline)
        elif self.newline != "\n":
            text = self.text.replace("\n", self.newline)
        else:
            text = self.text
        return (("\ufeff" if self.bom else "") + text).encode("utf-8")


# --------------------------------------------------------------------------- the guard

TEMP_SUFFIX = ".docsync"
_TEMP = re.compile(r"(?:^|/)\.[^/]+\.[A-Za-z0-9_]{8}\.docsync$")


class ChangedMeanwhile(DocsyncError):
    """A file changed on disk after docsync read it; it is not overwritten."""

    def __init__(self, path: str) -> None:
        super().__init__(
            f"{path}: changed on disk while docsync ran (an editor's save?); "
            "not overwritten, run docsync again"
        )
        self.path = path


def mutation_point(kind: str, path: Path) -> None:
    """Called before every mutation; a seam for the fault-injection tests."""


# --------------------------------------------------------------------------- mutations


def make_folders(base: Path, folder: Path) -> list[Path]:
    """Create ``folder`` and missing parents (all under ``base``); the ones created, outermost first."""
    missing: list[Path] = []
    probe = folder
    while not probe.exists() and probe != base:
        missing.append(probe)
        probe = probe.parent
    for made in reversed(missing):
        mutation_point("mkdir", made)
        os.mkdir(made)
    return list(reversed(missing))


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _normal(text: str) -> str:
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _current(full: Path) -> bytes | None:
    try:
        return full.read_bytes()
    except FileNotFoundError:
        return None


def write_atomic(
    root: Path, change: FileWrite, *, read: str | None = None, expect: bytes | None = None
) -> bytes:
    """Replace one file with ``change`` through a temporary file and a rename; the bytes written.

    ``read`` (the text docsync read, line endings aside) and ``expect`` (the
    bytes it snapshotted, ``b""`` for a file that did not exist) are what the
    file must still hold: otherwise :class:`ChangedMeanwhile`, and nothing is
    written.
    """
    full = guarded(root, change.path)
    original = _current(full)
    _refuse_changed(change.path, original, read, expect)
    _refuse_undecodable(change.path, original)
    make_folders(Path(real_base(root)), full.parent)
    mode = stat.S_IMODE(full.stat().st_mode) if original is not None else 0o644
    data = change.encoded(original)

    def unchanged() -> None:  # asked again the moment before the rename: an editor may have saved
        if _current(full) != original:
            raise ChangedMeanwhile(change.path)

    write_stream(full, lambda handle: handle.write(data), mode, unchanged)
    return data


def _refuse_undecodable(path: str, now: bytes | None) -> None:
    """A file that is not UTF-8 is checked as GitHub shows it (U+FFFD for each bad
    byte), so text made from it would lose those bytes: it is never replaced."""
    if now is None:
        return
    try:
        now.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(f"{path}: not valid UTF-8; docsync does not rewrite it (save it as UTF-8 first)") from None


def _refuse_changed(path: str, now: bytes | None, read: str | None, expect: bytes | None) -> None:
    if expect is not None and (now or b"") != expect:
        raise ChangedMeanwhile(path)
    if read is not None:
        try:
            text = (now or b"").decode("utf-8")
        except UnicodeDecodeError:
            raise ChangedMeanwhile(path) from None
        if _normal(text) != _normal(read):
            raise ChangedMeanwhile(path)


def same_text(data: bytes, read: str) -> bool:
    """Whether ``data`` holds the text ``read``, line ends and byte-order mark aside."""
    try:
        return _normal(data.decode("utf-8")) == _normal(read)
    except UnicodeDecodeError:
        return False


def write_bytes(full: Path, data: bytes, mode: int = 0o644) -> None:
    """Atomically replace ``full`` (already guarded) with ``data``; the temporary file never stays."""
    write_stream(full, lambda handle: handle.write(data), mode)


def write_stream(
    full: Path,
    fill: Callable[[BinaryIO], object],
    mode: int = 0o644,
    before_replace: Callable[[], None] | None = None,
) -> None:
    """Atomically replace ``full`` with what ``fill`` writes to a temporary file beside it;
    ``before_replace`` may refuse (raise) at the last moment, when all but the rename is done."""
    mutation_point("write", full)
    fd, tmp = tempfile.mkstemp(dir=full.parent, prefix=f".{full.name[:200]}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            fill(handle)
        os.chmod(tmp, mode)
        mutation_point("replace", full)
        if before_replace is not None:
            before_replace()
        os.replace(tmp, full)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_file(base: Path, path: str, data: bytes | Iterable[bytes]) -> None:
    """Atomically write a file docsync owns under ``base`` (the git directory), creating folders;
    ``data`` may come in pieces (the journal's pack of saved files), written one after another."""
    full = guarded(base, path)
    make_folders(Path(real_base(base)), full.parent)
    pieces = (data,) if isinstance(data, bytes) else data
    write_stream(full, lambda handle: handle.writelines(pieces))


def append_file(base: Path, path: str, data: bytes) -> None:
    """Append ``data`` to a file docsync owns under ``base`` (the git directory), creating it;
    never through a symlink. For the journal's log of what a run is about to write."""
    full = guarded(base, path)
    mutation_point("write", full)
    descriptor = os.open(full, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    with os.fdopen(descriptor, "ab") as handle:
        handle.write(data)


class Locked(DocsyncError):
    """Another process holds the lock of a file git guards (the index); nothing was touched."""


def lock_name(path: str) -> str:
    return f"{path}.lock"


def replace_locked(base: Path, path: str, data: bytes | None) -> None:
    """Replace ``path`` under ``base`` (the git directory) with ``data`` (``None``: remove it)
    as git itself changes its index: holding ``path.lock``, created here and only here
    (``O_EXCL``), then renamed over ``path``. A lock that is there already is another
    process's: :class:`Locked`, and neither it nor ``path`` is touched. docsync removes
    only a lock it created."""
    full = guarded(base, path)
    lock = guarded(base, lock_name(path))
    mutation_point("write", full)
    try:
        descriptor = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise Locked(
            f"{lock_name(path)}: another git process holds this lock; docsync leaves it and "
            f"{path} alone (if no git is running, it was left by one that crashed: remove it)"
        ) from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            if data is not None:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        if data is None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(full)
            os.unlink(lock)
        else:
            os.replace(lock, full)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(lock)  # the lock this call created
        raise


def write_cache(file: Path, fill: Callable[[BinaryIO], object]) -> None:
    """Replace one of docsync's cache files (in the git directory), creating its folder."""
    make_folders(Path(file.anchor), file.parent)
    write_stream(file, fill)


def create_secret(file: Path, data: bytes) -> os.stat_result:
    """Create ``file`` (in the git directory: the cache key), readable by its owner only,
    failing with ``FileExistsError`` when anything is there; what the kernel says of it once
    written (its inode and change time are what make it this one)."""
    make_folders(Path(file.anchor), file.parent)
    mutation_point("write", file)
    descriptor = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            return os.fstat(handle.fileno())
    except BaseException:  # a full disk: the half-written file this call created goes
        with contextlib.suppress(OSError):
            os.unlink(file)
        raise


def write_named(path: Path, data: str) -> None:
    """Write a file the user named on the command line (a plan file), wherever it is.

    The one write not confined to the repository: the user chose the place.
    A symlink is still not written through.
    """
    full = path.absolute()
    if is_link(full):
        raise Refused(f"{path} is a symlink; docsync never writes through a symlink")
    write_bytes(full, data.encode("utf-8"))


def rename(root: Path, old: str, new: str) -> None:
    """Move ``old`` to ``new`` (a symlink moves as a symlink, pointing where it did)."""
    source = guarded(root, old, final_link=True)
    target = guarded(root, new)
    if os.path.lexists(target):
        raise Refused(f"{new} already exists; not overwritten")
    make_folders(Path(real_base(root)), target.parent)
    mutation_point("rename", source)
    if is_link(source) and not os.path.isabs(link := os.readlink(source)):
        relinked = os.path.relpath(os.path.join(os.path.dirname(old), link), os.path.dirname(new) or ".")
        os.symlink(relinked, target)
        os.unlink(source)
        return
    os.rename(source, target)


def remove(base: Path, path: str) -> None:
    """Remove a file (a symlink itself, never what it points to); no error when absent."""
    full = guarded(base, path, final_link=True)
    if os.path.lexists(full):
        mutation_point("unlink", full)
        os.unlink(full)


def remove_folder(base: Path, path: str) -> None:
    """Remove a file docsync owns under ``base`` and the folder holding it, when it is left empty."""
    full = guarded(base, path, final_link=True)
    if full.is_dir() and not full.is_symlink():
        for child in sorted(full.iterdir()):
            remove(base, f"{path}/{child.name}")
        mutation_point("rmdir", full)
        os.rmdir(full)


def remove_stale_temps(root: Path, paths: Iterable[str]) -> list[str]:
    """Remove the temporary files a killed docsync left among ``paths``; the ones removed."""
    removed: list[str] = []
    for path in paths:
        if _TEMP.search(path):
            try:
                remove(root, path)
            except (OSError, Refused):
                continue
            removed.append(path)
    return removed


def remove_empty_folder(full: Path) -> None:
    """Remove ``full`` (already guarded), an empty folder."""
    mutation_point("rmdir", full)
    os.rmdir(full)


def make_symlink(full: Path, target: str) -> None:
    """Create the symlink ``full`` (already guarded) pointing at ``target``, as it was."""
    mutation_point("symlink", full)
    os.symlink(target, full)


def relink(root: Path, path: str, target: str) -> None:
    """Point the tracked symlink ``path`` at ``target``: the link itself is replaced
    (removed, then made anew), never written through; anything but a symlink is refused."""
    full = guarded(root, path, final_link=True)
    if not is_link(full):
        raise Refused(f"{path} is no longer a symlink; not relinked")
    mutation_point("unlink", full)
    os.unlink(full)
    make_symlink(full, target)


def move_back(source: Path, full: Path) -> None:
    """Rename ``source`` to ``full`` (both already guarded): a restore that needs no free space."""
    mutation_point("rename", source)
    os.rename(source, full)


def set_mode(full: Path, mode: int) -> None:
    """Set the permission bits of ``full`` (already guarded)."""
    mutation_point("chmod", full)
    os.chmod(full, mode)
