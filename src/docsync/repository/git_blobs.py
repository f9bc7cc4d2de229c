"""Blobs by id, through ``git cat-file --batch``: one process answering one id at a time, and
a second that reads a known list ahead, in a thread, while the caller works on what came.

The history reader's resurrection reads every grave's blob and each new record's, in an
order known before it starts: read ahead, git inflates the next blobs while Python cuts the
last into chunks.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import tempfile
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO

from ..closing import Closing
from .plumbing import NO_MONITOR, executable

_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def environment() -> dict[str, str]:
    """git's messages untranslated, as GitPython asked for them: some are read."""
    return {**os.environ, "LANGUAGE": "C", "LC_ALL": "C"}


def read_blobs(root: Path, shas: Iterable[str]) -> dict[str, bytes]:
    """The contents of blobs by id (those git has), through one cat-file process."""
    with CatFile(root) as read:
        found = {sha: read(sha) for sha in dict.fromkeys(shas)}
    return {sha: data for sha, data in found.items() if data is not None}


class CatFile(Closing):
    """The content of a blob by id (None if missing), through one ``git cat-file
    --batch`` process, started on first use and ended by :meth:`close`; blobs given to
    :meth:`read_ahead` come from a second one, read in a thread."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._process: subprocess.Popen[bytes] | None = None
        self._ahead: _ReadAhead | None = None

    def read_ahead(self, blobs: Sequence[str]) -> None:
        """Start reading ``blobs`` (in that order, as they will be asked for) in a thread."""
        wanted = [blob for blob in dict.fromkeys(blobs) if _OBJECT_ID.fullmatch(blob)]
        if wanted and self._ahead is None:
            self._ahead = _ReadAhead(self._root, wanted)

    def __call__(self, blob: str) -> bytes | None:
        if not _OBJECT_ID.fullmatch(blob):
            return None
        if self._ahead is not None:
            read, data = self._ahead.get(blob)
            if read:
                return data
        process = self._started()
        stdin: IO[bytes] = process.stdin  # type: ignore[assignment]
        stdout: IO[bytes] = process.stdout  # type: ignore[assignment]
        try:
            stdin.write(blob.encode("ascii") + b"\n")
            stdin.flush()
            header = stdout.readline().split()
            if len(header) != 3:  # "<id> missing", or git is gone
                return None
            data = stdout.read(int(header[2]))
            stdout.read(1)  # the newline after the content
        except (OSError, ValueError):
            return None
        return data

    def _started(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            self._process = subprocess.Popen(
                [executable(), *NO_MONITOR, "cat-file", "--batch"],
                cwd=self._root,
                env=environment(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        return self._process

    def close(self) -> None:
        ahead, self._ahead = self._ahead, None
        if ahead is not None:
            ahead.close()
        process, self._process = self._process, None
        if process is not None:
            if process.stdin is not None:
                process.stdin.close()
            if process.stdout is not None:
                process.stdout.close()
            process.wait()


class _ReadAhead:
    """A ``git cat-file --batch`` given a list of ids from a file; a thread reads its answers
    into a table that :meth:`get` waits on, each blob handed out once."""

    def __init__(self, root: Path, blobs: list[str]) -> None:
        self._order = blobs
        self._wanted = set(blobs)
        self._found: dict[str, bytes | None] = {}
        self._done = False
        self._ready = threading.Condition()
        with tempfile.TemporaryFile() as ids:
            ids.write("".join(f"{blob}\n" for blob in blobs).encode("ascii"))
            ids.seek(0)
            self._process = subprocess.Popen(
                [executable(), *NO_MONITOR, "cat-file", "--batch"],
                cwd=root,
                env=environment(),
                stdin=ids,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        stdout: IO[bytes] = self._process.stdout  # type: ignore[assignment]
        try:
            for blob in self._order:
                header = stdout.readline().split()
                if not header:
                    break  # git is gone: the blobs left are read one by one
                data = None
                if len(header) == 3:  # "<id> missing" has two
                    data = stdout.read(int(header[2]))
                    stdout.read(1)
                with self._ready:
                    self._found[blob] = data
                    self._ready.notify_all()
        except (OSError, ValueError):
            pass
        finally:
            with self._ready:
                self._done = True
                self._ready.notify_all()

    def get(self, blob: str) -> tuple[bool, bytes | None]:
        """(True, the content or None if git lacks it) once read ahead; (False, None) for a
        blob not on the list, asked twice, or never read."""
        if blob not in self._wanted:
            return False, None
        with self._ready:
            while blob not in self._found and not self._done:
                self._ready.wait()
            if blob not in self._found:
                return False, None
            self._wanted.discard(blob)
            return True, self._found.pop(blob)

    def close(self) -> None:
        process = self._process
        if process.poll() is None:
            process.kill()
        self._thread.join()
        process.wait()
        if process.stdout is not None:
            with contextlib.suppress(OSError):
                process.stdout.close()
