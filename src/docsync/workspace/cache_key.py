"""The key that makes docsync's caches verifiably its own (issue #35, class 2).

A cache entry can be well formed, hold the right text, and still lie: a
forged entry with a file's true text and other links would make ``check``
pass a broken link, and a forged gate result would hide a finding. The
caches live in ``.git/docsync/``, which an archive or a network disk can
bring. So every cache file carries an HMAC (SHA-256) under a key of 32
random bytes in ``.git/docsync/cache-key`` (mode 0600), which docsync
creates itself, ``O_EXCL``, never through a symlink.

The key is believed only while its device, inode and change time are what
docsync recorded, in ``cache-key.stamp``, when it created it. The kernel
sets the change time and nobody can set it back; unpacking or copying a
file gives it a new inode and change time. So a key planted with the caches
it signed (an archive, a copy from another repository) does not match: the
whole cache is ignored with one warning line, and a new key is made, under
which every old entry fails and is rebuilt. The same mechanism seals the
journal (:func:`docsync.write.journal_schema.write_seal`).

What it does not stop: someone who can write ``.git/docsync/`` *while* the
key is in place can read the key too, and can as well write ``.git/hooks``.
That is the user's own account, outside the threat model.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import secrets
import stat
import time
from pathlib import Path

from . import notes

KEY = "cache-key"
STAMP = "cache-key.stamp"
TAG = 32
"""Bytes of a tag (HMAC-SHA256)."""

_keys: dict[str, tuple[tuple[int, int, int] | None, bytes | None]] = {}
"""Per folder, the key file's identity when last read, and the key it held (or None)."""
_made: set[str] = set()


def key(folder: Path) -> bytes | None:
    """The believed key of the cache folder ``folder`` (``.git/docsync``), made when missing;
    None when none can be had this run (then no cache is read or written)."""
    name = os.fspath(folder)
    now = _lidentity(folder / KEY)
    known = _keys.get(name)
    if known is not None and now is not None and known[0] == now:
        return known[1]
    secret = _believed(folder)
    _keys[name] = (_lidentity(folder / KEY), secret)
    return secret


def _lidentity(file: Path) -> tuple[int, int, int] | None:
    try:
        return _identity(os.lstat(file))
    except OSError:
        return None


def tag(secret: bytes, data: bytes) -> bytes:
    return hmac.digest(secret, data, "sha256")


def holds(secret: bytes, data: bytes, expected: bytes) -> bool:
    return hmac.compare_digest(tag(secret, data), expected)


def forget() -> None:
    """Forget the keys read in this process (tests that plant a key)."""
    _keys.clear()
    _made.clear()


def _believed(folder: Path) -> bytes | None:
    secret, info = _read_key(folder / KEY)
    recorded = _stamp(folder / STAMP)
    if secret is not None and info is not None and recorded == _identity(info):
        return secret
    if secret is None and recorded is None and not os.path.lexists(folder / KEY):
        return _create(folder)
    unstamped = recorded is None and info is not None and not os.path.lexists(folder / STAMP)
    if unstamped and info is not None and _just_made(info):
        return None  # another docsync is making it this instant: no cache for this run
    if not unstamped:
        notes.ignored(
            folder / KEY,
            "not the key docsync made here: planted, copied or unpacked; every cache is ignored",
        )
    # else a run killed between the key and its stamp: no key is believed without its stamp,
    # and what it signed fails under the new one, so a planted key gains nothing by it either
    from ..write import writer

    try:
        writer.remove(folder, STAMP)
        writer.remove(folder, KEY)
    except OSError:
        return None
    return _create(folder)


def _create(folder: Path) -> bytes | None:
    from ..write import writer

    secret = secrets.token_bytes(32)
    try:
        info = writer.create_secret(folder / KEY, secret)
    except OSError:  # another docsync made it this instant, or the folder is read-only
        return None
    _made.add(os.fspath(folder))
    stamp = json.dumps(dict(zip(("device", "inode", "ctime"), _identity(info), strict=True))).encode()
    try:
        writer.write_cache(folder / STAMP, lambda handle: handle.write(stamp))
    except OSError:  # a full disk: the key goes too, or the next run would take it as planted
        with contextlib.suppress(OSError):
            writer.remove(folder, KEY)
        return None
    return secret


def fresh(folder: Path) -> bool:
    """Whether this run made the key of ``folder``: every cache there was signed by none
    (an older docsync) or by a key not believed, and is ignored without a line each."""
    return os.fspath(folder) in _made


def _just_made(info: os.stat_result) -> bool:
    return abs(time.time_ns() - info.st_ctime_ns) < 2_000_000_000


def _identity(info: os.stat_result) -> tuple[int, int, int]:
    return info.st_dev, info.st_ino, info.st_ctime_ns


def _read_key(file: Path) -> tuple[bytes | None, os.stat_result | None]:
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None, None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != 32:
            return None, None
        data = os.read(fd, 33)
        return (data, info) if len(data) == 32 else (None, None)
    except OSError:
        return None, None
    finally:
        os.close(fd)


def _stamp(file: Path) -> tuple[int, int, int] | None:
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        data = os.read(fd, 257) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        raw = json.loads(data)
    except ValueError:
        return None
    if not (isinstance(raw, dict) and raw.keys() == {"device", "inode", "ctime"}):
        return None
    values = (raw["device"], raw["inode"], raw["ctime"])
    return values if all(type(v) is int for v in values) else None
