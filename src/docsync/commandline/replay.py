"""A check's report replayed from the last run with the same inputs, before the command
line is even built: a warm run of an unchanged tree writes the bytes it wrote last time.

A report depends on: docsync's code and the libraries installed beside it, the command
line (exactly as typed), where it was run from, the environment that can change what is
written (colour, terminal, git's variables, stdout's encoding), the repository git
lists (every path and mode), HEAD's tree and the index's blobs (a staged rename names a
broken link's candidate), each path named on the command line (a file git ignores is
checked when named, and no listing shows it), the config files that can apply, and every listed file's
content. The last is known the way git's index knows it, and the way the stat index
(:mod:`docsync.workspace.stat_index`) already knows it for a warm run: by each file's
stat (mode, size, mtime and ctime in nanoseconds, inode, device), believed only when
the file's last change is :data:`RACY_SLACK_NS` older than the run that kept the report.
An edit that keeps the size and restores the mtime still changes the ctime. Config files
are read and hashed whole (they are small, and ``--config`` may name one outside the
tree). All of it is hashed into one key (:func:`observe`).

A run with a report to keep (:func:`.replay_keep.keep`) writes it under
``.git/docsync/replay-N``: the key, the exit code, the lines said on stderr and the
stdout bytes, signed with the cache key (:mod:`docsync.workspace.cache_key`) like
every other cache. ``N`` is one of :data:`SLOTS`, by a hash of the command line and
folder, so at most that many reports are kept; a report larger than :data:`MAX_REPORT`
is not kept. Nothing here is trusted: the file is read only when it is a regular file
no larger than that (never through a symlink), its tag must be the cache key's, its
layout exact, and its key this run's; anything else reads as no report, and the run
checks as it would have. Replayed are only runs whose every input is in the key:
``check`` without ``--staged``, ``--changed``, ``--since`` or stdin, and ``text``
output only where it is plain (no terminal, no forced colour: rich's colours and
widths depend on more of the terminal than is worth keying on).
"""

from __future__ import annotations

import hmac
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from ..repository.plumbing import Listing, RepoPaths
from ..workspace import cache_key, notes
from ..workspace.state_file import read_state_file
from .replay_key import MAGIC, MAX_HEADER, MAX_REPORT, RACY_SLACK_NS, TRAILER, Observed, observe


@dataclass(frozen=True)
class Kept:
    """A kept report: its exit code, what was said on stderr before and after, the stdout bytes."""

    code: int
    before: tuple[str, ...]
    after: tuple[str, ...]
    data: bytes
    start: int
    end: int


_observed: list[Observed] = []
_invoked: list[tuple[str, ...]] = []


def observation() -> Observed | None:
    """This run's inputs, for the command line :func:`replayed` was given before the command
    line was built: as it observed them then (the files are not stat'ed twice), else observed
    now. None when the command did not start there (``docsync.cli.main`` called in a process
    that may have changed docsync itself, as tests do): only a real run keeps its report.
    The report files it passed over as damaged are noted now, for the run to say."""
    for file, why in _unbelieved:
        notes.ignored(Path(file), why)
    _unbelieved.clear()
    argv = _invoked.pop() if _invoked else None
    made = _observed.pop() if _observed else None
    if argv is None:
        return None
    observed = made if made is not None and made.argv == argv else observe(list(argv))
    if observed is not None:
        from .output import remember_here  # the checking run's, which has loaded it

        remember_here(observed.repo)  # the arguments and the report ask git nothing more
    return observed


class Known(TypedDict, total=False):
    """What the observation asked git, for the run to check (``run_check``'s keywords)."""

    repo: RepoPaths
    listing: Listing


def known(observed: Observed | None) -> Known:
    """The repository and listing ``observed`` was keyed on: the run checks the very files its
    report will be kept under, and asks git neither question again."""
    return Known(repo=observed.repo, listing=observed.listing) if observed is not None else Known()


def replayed(argv: list[str]) -> int | None:
    """Write the kept report of a run with this run's inputs, and return its exit code;
    None (nothing written) when there is none to believe."""
    _invoked[:] = [tuple(argv)]
    if getattr(sys.stdout, "buffer", None) is None:  # closed, or no bytes beneath: the run says
        return None
    observed = observe(argv)
    if observed is None:
        return None
    _observed[:] = [observed]
    kept = read(observed)
    if kept is None:  # what was noted (a damaged report, a planted key) is said by the run
        _unbelieved.extend(notes.taken())
        return None
    write(kept)
    return kept.code


def read(observed: Observed) -> Kept | None:
    """The report kept under ``observed``'s key, if it is one docsync kept and believed."""
    found = _read_file(observed.file, observed.key)
    if found is None:
        return None
    data, written_ns = found
    secret = cache_key.key(observed.file.parent)
    if secret is None:
        return None
    body = memoryview(data)[: -cache_key.TAG] if len(data) >= TRAILER + len(MAGIC) else None
    if body is None or not hmac.compare_digest(hmac.digest(secret, body, "sha256"), data[-cache_key.TAG :]):
        if not cache_key.fresh(observed.file.parent):
            _ignored(observed.file, "not signed by this repository's cache key: planted or damaged")
        return None
    kept = _parse(data)
    if kept is None:
        _ignored(observed.file, "not a report docsync kept")
        return None
    key, elapsed, made = kept
    if key != observed.key or observed.newest_ns >= written_ns - elapsed - RACY_SLACK_NS:
        return None  # another run's inputs, or a file changed too close to that run to tell
    return made


def _parse(data: bytes) -> tuple[str, int, Kept] | None:
    """The key, how long the run had been going when it wrote, and the report; None for
    anything but the exact layout: :data:`MAGIC`, the stdout bytes, the header (JSON),
    its length (4 bytes), the time the run took (8 bytes), the tag (see :data:`TRAILER`)."""
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + TRAILER:
        return None
    tail = len(data) - TRAILER
    length = int.from_bytes(data[tail : tail + 4], "big")
    end = tail - length
    if length > MAX_HEADER or end < len(MAGIC):
        return None
    try:
        header = json.loads(data[end:tail])
    except (ValueError, RecursionError):
        return None
    if not isinstance(header, dict) or header.keys() != {"key", "code", "before", "after"}:
        return None
    key, code, before, after = (header[k] for k in ("key", "code", "before", "after"))
    if type(key) is not str or type(code) is not int or code not in (0, 1):
        return None
    if not all(type(lines) is list and all(type(line) is str for line in lines) for lines in (before, after)):
        return None
    elapsed = int.from_bytes(data[tail + 4 : tail + 12], "big")
    return key, elapsed, Kept(code, tuple(before), tuple(after), data, len(MAGIC), end)


def _read_file(file: Path, key: str) -> tuple[bytes, int] | None:
    """The bytes of ``file`` and its mtime, when it is a regular file of a size a report can
    have, never read through a symlink (as the caches are read), and its header does not
    name another key: a report of other inputs is not read whole."""
    limit = len(MAGIC) + MAX_HEADER + MAX_REPORT + TRAILER
    found = read_state_file(file, limit, _ignored, lambda fd, info: _other_key(fd, info.st_size, key))
    return None if found is None else (found[0], found[1].st_mtime_ns)


def _other_key(fd: int, size: int, key: str) -> bool:
    """Whether the header, read alone and not yet believed, names a key other than ``key``
    (believing it only to pass a file over is safe: a report is served only once verified)."""
    if size < len(MAGIC) + TRAILER:
        return False
    length = int.from_bytes(os.pread(fd, 4, size - TRAILER), "big")
    if length > MAX_HEADER or size - TRAILER - length < len(MAGIC):
        return False
    try:
        header = json.loads(os.pread(fd, length, size - TRAILER - length))
    except (ValueError, RecursionError):
        return False
    return isinstance(header, dict) and type(header.get("key")) is str and header["key"] != key


_unbelieved: list[tuple[str, str]] = []
"""What :func:`replayed` noted before it found no report to believe: said by the run."""


def _ignored(file: Path, why: str) -> None:
    notes.ignored(file, why)


def write(kept: Kept) -> None:
    """The kept report as the run wrote it: the stderr lines before, the stdout bytes, the
    lines after (a closed pipe ends the command as it does in a run)."""
    for line in kept.before:
        _say(line)
    try:
        sys.stdout.flush()
        out = sys.stdout.buffer
        out.write(memoryview(kept.data)[kept.start : kept.end])
        out.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)  # as rich's Console.on_broken_pipe
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(1) from None
    for line in kept.after:
        _say(line)


def _say(line: str) -> None:
    from .output import say  # rich: only when there is a line to say

    say(line)
