"""One cache file of many entries, each read from the disk only when asked for.

The layout: a magic line naming the cache and its format, the length of the
header (8 bytes, little-endian), the header's tag under the folder's cache key
(:mod:`.cache_key`, 32 bytes), the header (JSON, with ``"index"``: key →
[offset, length, digest] of the entry's bytes after it), then the entries'
bytes. The tag makes the header docsync's own, and each entry is believed
only when its bytes have the digest the header names: a forged entry, with
the right text and other links, is parsed again. A run reads the header alone and each entry when it needs
it, so a warm run that needs few entries reads few of them, however large
the file.

Nothing here is trusted: the file is opened only when it is a regular file
(never through a symlink, a FIFO or a device), the header is JSON of bounded
size, every entry's place is checked against the file's size, and a file
that fails any check reads as no file.
"""

from __future__ import annotations

import hashlib
import os
import stat
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

from . import cache_key, plain

_LENGTH = struct.Struct("<Q")
_MAX_HEADER = 1 << 28


class Stored:
    """An entry's bytes where they lie in the file, read when first asked for.

    Read through the file object the cache opened, unbuffered (a later save
    replaces the file; the one opened stays readable through it). A short
    read, as from a file cut short meanwhile, reads as no bytes at all,
    which nothing decodes from.
    """

    __slots__ = ("_handle", "_length", "_offset", "digest")

    def __init__(self, handle: BinaryIO, offset: int, length: int, digest: str) -> None:
        self._handle, self._offset, self._length, self.digest = handle, offset, length, digest

    def __len__(self) -> int:
        return self._length

    def read(self) -> bytes:
        try:
            self._handle.seek(self._offset)
            data = self._handle.read(self._length)
        except (OSError, ValueError):
            return b""
        if len(data) != self._length or _digest(data) != self.digest:
            return b""  # cut short, or not the bytes the signed header names
        return data


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


Blob = bytes | Stored
"""An entry: its bytes, or where a cache file holds them."""


def data(blob: Blob) -> bytes:
    return blob.read() if isinstance(blob, Stored) else blob


def write(file: Path, magic: bytes, header: Mapping[str, object], entries: Mapping[str, Blob]) -> None:
    """Replace ``file`` (atomically, through the guarded writer) with ``header`` and
    ``entries``; a cache that cannot be written only costs speed."""
    secret = cache_key.key(file.parent)
    if secret is None:
        return
    index: dict[str, tuple[int, int, str]] = {}
    offset = 0
    for key, blob in entries.items():
        digest = blob.digest if isinstance(blob, Stored) else _digest(blob)
        index[key] = (offset, len(blob), digest)
        offset += len(blob)
    head = plain.dumps({**header, "index": index})

    def fill(handle: BinaryIO) -> None:
        handle.write(magic + _LENGTH.pack(len(head)) + cache_key.tag(secret, head) + head)
        for blob in entries.values():
            handle.write(data(blob))

    from ..write.writer import write_cache

    try:
        write_cache(file, fill)
    except OSError:
        return


def read(file: Path, magic: bytes) -> tuple[dict[str, Any], dict[str, Stored]] | None:
    """The header (less its index) and every entry, not yet read; None for a file
    that is missing or not, in every part, one that :func:`write` wrote under ``magic``."""
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        plain.ignored(file, "a symlink" if os.path.islink(file) else exc.strerror or "unreadable")
        return None
    handle = open(fd, "rb", buffering=0)  # noqa: SIM115 (left open: entries read from it)
    secret = cache_key.key(file.parent)
    if secret is None:
        handle.close()
        return None
    try:
        size = os.fstat(fd).st_size
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file")
        head = handle.read(len(magic) + _LENGTH.size + cache_key.TAG)
        if len(head) != len(magic) + _LENGTH.size + cache_key.TAG or not head.startswith(magic):
            raise ValueError("not this cache")
        (length,) = _LENGTH.unpack(head[len(magic) : len(magic) + _LENGTH.size])
        if length > min(size, _MAX_HEADER):
            raise ValueError("a header longer than the file")
        text = handle.read(length)
        if not cache_key.holds(secret, text, head[-cache_key.TAG :]):
            raise ValueError("not signed by this repository's cache key: planted or damaged")
        header = plain.loads(text)
        if not isinstance(header, dict):
            raise ValueError("no header")
        entries = _entries(header, handle, len(head) + length, size)
    except Exception as exc:  # any failure means: not ours, start afresh
        handle.close()
        if not cache_key.fresh(file.parent):  # else the new key's line says it for all
            plain.ignored(file, f"not a cache docsync wrote: {exc}")
        return None
    return header, entries


def _entries(header: dict[str, Any], handle: BinaryIO, start: int, size: int) -> dict[str, Stored]:
    if not isinstance(header.get("index"), dict):
        raise ValueError("no index")
    entries: dict[str, Stored] = {}
    for key, place in header.pop("index").items():
        if not (
            isinstance(key, str)
            and isinstance(place, list)
            and len(place) == 3
            and all(type(n) is int and n >= 0 for n in place[:2])
            and type(place[2]) is str
            and start + place[0] + place[1] <= size
        ):
            raise ValueError("an entry out of place")
        entries[key] = Stored(handle, start + place[0], place[1], place[2])
    return entries
