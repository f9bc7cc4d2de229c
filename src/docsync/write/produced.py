"""What a run leaves at each path, and the journal's append-only log of it.

Before each write, :class:`~.transaction.Transaction` logs the digest of the bytes it is
about to leave (``PRODUCED``). ``--abort`` after a kill then puts back only files holding
those bytes or their old ones, and keeps any other: someone's save after the kill.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from . import writer
from .finished import PRODUCED
from .snapshot import ABSENT, Files


@dataclass
class ProducedLog:
    """Per path, the digests of what this run left there (see :func:`snapshot.restore_ours`),
    and the (path, digest) pairs already in the journal's log."""

    digests: dict[str, set[str]] = field(default_factory=dict)
    _logged: set[tuple[str, str]] = field(default_factory=set)

    def log(self, git_dir: Path, pairs: Iterable[tuple[str, str]]) -> None:
        """Append the pairs not logged yet, in one write."""
        fresh = [pair for pair in dict.fromkeys(pairs) if pair not in self._logged]
        if not fresh:
            return
        writer.append_file(
            git_dir, PRODUCED, b"".join(json.dumps(p).encode() + b"\n" for p in fresh)
        )
        self._logged.update(fresh)

    def left(self, git_dir: Path, path: str, data: bytes) -> None:
        """``data`` is now at ``path``."""
        digest = writer.digest(data)
        self.digests.setdefault(path, set()).add(digest)
        self.log(git_dir, [(path, digest)])

    def removed(self, git_dir: Path, paths: Iterable[str]) -> None:
        """This run is about to leave ``paths`` absent (see :data:`.snapshot.ABSENT`)."""
        paths = list(paths)
        for path in paths:
            self.digests.setdefault(path, set()).add(ABSENT)
        self.log(git_dir, [(path, ABSENT) for path in paths])

    def moved(self, git_dir: Path, old: str, new: str, before: bytes | None) -> None:
        """What lands at ``new`` by a move: ``old``'s bytes, saved (``before``) or written."""
        moved = self.digests.setdefault(new, set())
        moved |= self.digests.get(old, set()) - {ABSENT}
        if before is not None:
            moved.add(writer.digest(before))
        self.digests.setdefault(old, set()).add(ABSENT)  # this run leaves ``old`` absent
        self.log(git_dir, [(old, ABSENT), *((new, d) for d in sorted(moved))])


def read(git_dir: Path, files: Files) -> dict[str, set[str]]:
    """The log read back by ``--abort``, each line checked: a path the journal names and a
    digest. A line that is not (a kill mid-append) is skipped: a file whose bytes it would
    have named is then kept, not overwritten, the side that loses nobody's work. ``OSError``
    or :class:`~docsync.errors.DocsyncError` when the log is there but cannot be read."""
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
