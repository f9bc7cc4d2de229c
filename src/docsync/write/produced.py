"""The journal's log of what a run is about to write (issue #35, class 4).

Before each write, a run appends ``[path, sha256]`` of the bytes it will leave there
to ``journal/produced`` (one JSON array a line), and the digest of what a ``git mv``
lands at its new path. ``--abort`` after a kill reads it back: a file holding its
old bytes or one of those is docsync's to put back; any other was saved by someone
after the kill, and is kept as it is, named.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from . import writer
from .finished import PRODUCED
from .snapshot import Files


@dataclass
class Log:
    """The pairs this run has logged, so each is appended once."""

    logged: set[tuple[str, str]] = field(default_factory=set)

    def add(self, git_dir: Path, pairs: Iterable[tuple[str, str]]) -> None:
        fresh = [pair for pair in dict.fromkeys(pairs) if pair not in self.logged]
        if not fresh:
            return
        writer.append_file(git_dir, PRODUCED, b"".join(json.dumps(p).encode() + b"\n" for p in fresh))
        self.logged.update(fresh)


def read(git_dir: Path, files: Files) -> dict[str, set[str]]:
    """The log, each line checked: a path the journal names and a digest. A line that is
    not (a kill mid-append) is skipped: a file whose bytes it would have named is then
    kept, not overwritten, the side that loses nobody's work. ``OSError`` or
    :class:`~docsync.errors.DocsyncError` when the log is there but cannot be read."""
    try:
        data = writer.read_regular(writer.guarded(git_dir, PRODUCED))
    except FileNotFoundError:
        return {}
    found: dict[str, set[str]] = {}
    for line in data.splitlines():
        try:
            path, digest = json.loads(line)
        except (ValueError, TypeError, RecursionError):
            continue
        if isinstance(path, str) and files.state(path) is not None and type(digest) is str and len(digest) == 64:
            found.setdefault(path, set()).add(digest)
    return found

