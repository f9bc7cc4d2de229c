"""What each file's bytes were when its stat was last seen: a warm run neither reads
nor hashes a file that has not changed, the way git's index spares ``git status``.

``<git dir>/docsync/stat-index.json`` holds, per path, the stat taken just before
the file was last read (size, mtime and ctime in nanoseconds, inode, device), the
content key of the bytes read, and whether they hold :data:`MARKER`. A file whose
stat is the same now is taken to hold the same bytes: its content key is believed,
and its bytes are read only if something asks for them (:class:`Unread`).

A stat is only as good as the clock's granularity: a file written again within
the same tick as it was read, at the same size, keeps its stat. So, like git's
"racy" rule and stricter, an entry is believed only when the file's mtime and
ctime are both earlier than the moment the index's run began to read, less
:data:`RACY_SLACK_NS`. That moment is on the file system's own clock: the index
file's mtime when it was written, less how long the run had been reading by then.
A file changed in the last seconds before a run is read and hashed again.
ctime is set by the kernel on every change and cannot be set back, so an edit
that keeps the size and restores the mtime is still seen.

Nothing here is trusted: the file is plain JSON (:mod:`.plain`), read only when
it is a regular file, every entry is checked for its shape, and a file that
fails any check, or was written by another docsync, reads as an empty index. A
planted index cannot make a changed file's stat believed: an inode and a change
time are the kernel's, and an unpacked or copied file has new ones.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from . import plain

_MAGIC = "docsync-stat-index 2"
RACY_SLACK_NS = 2_000_000_000
"""How much earlier than the run that recorded it a file's last change must be for its
stat to be believed: coarser than any file system's timestamps (FAT's are 2 s)."""
MARKER = b"docsync-"
"""The bytes whose presence is kept with each entry: the inline suppressions' marker
(``report.suppressions.MARKER``, a test checks), so that a run learns a file has
none without reading it."""

Stamp = tuple[int, int, int, int, int]
"""size, mtime_ns, ctime_ns, inode, device."""


def stamp(status: os.stat_result) -> Stamp:
    return (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino, status.st_dev)


@dataclass(frozen=True, slots=True)
class Unread:
    """A file's bytes not read this run (its stat was believed): read when asked for."""

    full: str
    marker: bool

    def read(self) -> bytes:
        """The bytes as they are now; none if the file cannot be read any more."""
        try:
            with open(self.full, "rb") as handle:
                return handle.read()
        except (OSError, ValueError):
            return b""


Source = bytes | Unread
"""A file's bytes, read, or where to read them."""


def source_bytes(source: Source) -> bytes:
    return source.read() if isinstance(source, Unread) else source


def lacks(source: Source, needle: bytes) -> bool:
    """Whether the file's bytes do not hold ``needle``; for :data:`MARKER` answered
    without reading an unread file."""
    if isinstance(source, Unread) and needle == MARKER:
        return not source.marker
    return needle not in source_bytes(source)


@dataclass(frozen=True, slots=True)
class Seen:
    key: str
    marker: bool


class StatIndex:
    """Content keys by path and stat; ``get`` before reading, ``put`` after, ``save`` once."""

    def __init__(
        self,
        file: Path | None,
        root: Path,
        salt: str,
        entries: dict[str, tuple[Stamp, str, bool]],
        before_ns: int,
    ) -> None:
        self._file = file
        self._root = root
        self._salt = salt
        self._entries = entries
        self._before_ns = before_ns  # changes at or after this are too recent to believe
        self._started = time.monotonic_ns()
        self._dirty = False
        self._present: set[str] = set()  # stat'ed this run: known to exist at save

    def get(self, path: str, status: os.stat_result) -> Seen | None:
        """The key and marker of ``path``'s bytes, if its stat says they are the ones seen."""
        self._present.add(path)
        entry = self._entries.get(path)
        if entry is None:
            return None
        recorded, key, marker = entry
        if recorded != stamp(status) or max(recorded[1], recorded[2]) >= self._before_ns:
            return None
        return Seen(key, marker)

    def remembers(self, path: str) -> bool:
        """Whether the index has an entry for ``path`` (believed by :meth:`get` or not)."""
        return path in self._entries

    def put(self, path: str, status: os.stat_result, key: str, marker: bool) -> None:
        """``path`` was read after ``status`` was taken, and its bytes have ``key`` (and
        hold :data:`MARKER` when ``marker``)."""
        if self._file is None:
            return
        self._present.add(path)
        entry = (stamp(status), key, marker)
        if self._entries.get(path) != entry:
            self._entries[path] = entry
            self._dirty = True

    def forget(self, path: str) -> None:
        """``path`` could not be read: nothing is believed of it."""
        if self._entries.pop(path, None) is not None:
            self._dirty = True

    def save(self) -> None:
        """Write the index if an entry changed (an entry whose file is gone is dropped:
        asked of the disk only for a path this run did not stat)."""
        if self._file is None or not self._dirty:
            return
        present, root = self._present, str(self._root)
        kept = {
            p: entry
            for p, entry in self._entries.items()
            if p in present or os.path.lexists(os.path.join(root, p))
        }
        elapsed = time.monotonic_ns() - self._started
        rows = {p: [*entry[0], entry[1], entry[2]] for p, entry in kept.items()}
        payload = {"magic": _MAGIC, "salt": self._salt, "elapsed": elapsed, "entries": rows}
        plain.write_json(self._file, payload)


def disabled() -> StatIndex:
    return StatIndex(None, Path(), "", {}, 0)


def index_file(git_dir: Path) -> Path:
    return git_dir / "docsync" / "stat-index.json"


def open_index(git_dir: Path, root: Path, salt: str) -> StatIndex:
    """The index of the work tree at ``root``; ``salt`` names what a content key means
    (docsync's version and the parse cache's fingerprint): under another, it is empty."""
    file = index_file(git_dir)
    entries, before = _load(file, salt)
    return StatIndex(file, root, salt, entries, before)


def _load(file: Path, salt: str) -> tuple[dict[str, tuple[Stamp, str, bool]], int]:
    """The entries, and the moment before which a change is old enough to believe;
    nothing for a file that is missing or not, in every part, one this docsync wrote."""
    try:
        written = os.lstat(file).st_mtime_ns
    except OSError:
        return {}, 0
    payload = plain.read_json(file)
    if payload is None:
        return {}, 0
    if isinstance(payload, dict) and payload.get("magic") == _MAGIC and payload.get("salt") != salt:
        return {}, 0  # another docsync version's: not damaged, only of no use
    if (
        not isinstance(payload, dict)
        or payload.get("magic") != _MAGIC
        or type(payload.get("elapsed")) is not int
        or payload["elapsed"] < 0
        or not isinstance(payload.get("entries"), dict)
        or not all(_row(row) for row in payload["entries"].values())
    ):
        plain.ignored(file, "not a stat index docsync wrote")
        return {}, 0
    rows = payload["entries"]
    entries = {path: (tuple(row[:5]), row[5], row[6]) for path, row in rows.items()}
    return entries, written - payload["elapsed"] - RACY_SLACK_NS


def _row(row: object) -> bool:
    return (
        type(row) is list
        and len(row) == 7
        and all(type(n) is int for n in row[:5])
        and type(row[5]) is str
        and type(row[6]) is bool
    )
