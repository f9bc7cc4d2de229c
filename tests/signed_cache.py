"""docsync's indexed cache files read and written as docsync itself does, signed with the
repository's own cache key (:mod:`docsync.workspace.cache_key`): what a test plants this
way is believed, so a test can prove a cache is used, or that a check behind it holds."""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path

from docsync.workspace import cache_key

TAG = cache_key.TAG


def read_indexed(file: Path, magic: bytes) -> tuple[dict[str, object], dict[str, bytes]]:
    """The header (less its index) and every entry's bytes, by key."""
    data = file.read_bytes()
    assert data.startswith(magic), data[:40]
    (length,) = struct.unpack("<Q", data[len(magic) : len(magic) + 8])
    start = len(magic) + 8 + TAG + length
    header = json.loads(data[len(magic) + 8 + TAG : start])
    entries = {
        key: data[start + offset : start + offset + size]
        for key, (offset, size, _) in header.pop("index").items()
    }
    return header, entries


def write_indexed(file: Path, magic: bytes, header: dict[str, object], entries: dict[str, bytes]) -> None:
    """``header`` and ``entries`` in the layout docsync writes, signed with the real key."""
    index, offset = {}, 0
    for key, blob in entries.items():
        index[key] = (offset, len(blob), hashlib.sha256(blob).hexdigest()[:32])
        offset += len(blob)
    head = json.dumps(header | {"index": index}).encode()
    secret = cache_key.key(file.parent)
    assert secret is not None
    file.write_bytes(magic + struct.pack("<Q", len(head)) + cache_key.tag(secret, head) + head + b"".join(entries.values()))


def rekey(root: Path) -> None:
    """Record the key of a copied repository as the one docsync made there (a copy gets a
    new inode and change time, so its caches would be ignored): for tests that copy a
    warmed template to save time, not to test the key."""
    folder = root / ".git" / "docsync"
    info = (folder / cache_key.KEY).lstat()
    stamp = {"device": info.st_dev, "inode": info.st_ino, "ctime": info.st_ctime_ns}
    (folder / cache_key.STAMP).write_text(json.dumps(stamp))
