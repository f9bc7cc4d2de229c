"""Keeping a check's report for :mod:`.replay`: the stdout bytes are copied into the report's
file as they are written (a report of 34 MB is never held whole), the header follows them,
everything is signed with the cache key, and the file is replaced through the guarded
writer. A report that cannot be kept (a full disk, no cache key, too large) costs the next
run its speed, never this run's output."""

from __future__ import annotations

import contextlib
import hmac
import json
import sys
import time
from collections.abc import Callable, Iterable
from typing import IO, Any, BinaryIO

from ..workspace import cache_key
from .replay_key import MAGIC, MAX_HEADER, MAX_REPORT, Observed


class _Unkept(Exception):
    """The report was written, but not all of it was kept: no file is left."""


class _Tee:
    """stdout, whose every write is also kept, encoded as stdout encodes it."""

    def __init__(self, real: IO[str], sink: Callable[[bytes], None]) -> None:
        self._real = real
        self._sink = sink
        self._encoding = getattr(real, "encoding", None) or "utf-8"
        self._errors = getattr(real, "errors", None) or "strict"

    def write(self, text: str) -> int:
        written = self._real.write(text)
        self._sink(text.encode(self._encoding, self._errors))
        return written

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self._real.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class _Sink:
    """The report's file while the report is written: what fits, signed as it goes."""

    def __init__(self, handle: BinaryIO, secret: bytes) -> None:
        self.handle = handle
        self.mac = hmac.new(secret, digestmod="sha256")
        self.size = 0
        self.broken = False

    def __call__(self, data: bytes) -> None:
        if self.broken:
            return
        self.size += len(data)
        try:
            if self.size > MAX_REPORT:
                raise OSError("too large to keep")
            self.handle.write(data)
        except (OSError, ValueError):  # a full disk: the report is written, not kept
            self.broken = True
            return
        self.mac.update(data)


def keep(
    observed: Observed, code: int, before: list[str], after: list[str], render: Callable[[], None]
) -> None:
    """Run ``render``, which writes the report on stdout, and keep what it wrote with ``code``
    and the stderr lines said ``before`` and ``after`` it (by the caller), for
    :func:`.replay.replayed`.
    What ``render`` raises is raised; nothing that keeping meets is."""
    header = json.dumps(
        {"key": observed.key, "code": code, "before": before, "after": after}, ensure_ascii=True
    ).encode("ascii")
    _keep(observed, header, render)


def _keep(observed: Observed, header: bytes, render: Callable[[], None]) -> None:
    secret = cache_key.key(observed.file.parent)
    if secret is None or len(header) > MAX_HEADER:
        render()
        return
    from ..write.writer import write_cache

    outcome: list[BaseException | None] = []

    def fill(handle: BinaryIO) -> None:
        sink = _Sink(handle, secret)
        sink(MAGIC)
        real = sys.stdout
        sys.stdout = _Tee(real, sink)
        try:
            render()
        except BaseException as exc:
            outcome.append(exc)
            raise _Unkept from None
        finally:
            sys.stdout = real
        outcome.append(None)
        elapsed = time.monotonic_ns() - observed.began_ns
        sink(header + len(header).to_bytes(4, "big") + elapsed.to_bytes(8, "big"))
        if sink.broken:
            raise _Unkept
        handle.write(sink.mac.digest())

    with contextlib.suppress(_Unkept, OSError):
        write_cache(observed.file, fill)
    if not outcome:  # the file could not even be begun (a full disk, a read-only folder)
        render()
    elif outcome[0] is not None:
        raise outcome[0]
