"""Snapshots and exact restores of the files a run changes.

:func:`snapshot` records each path as it is (a file's bytes and mode, a
symlink's target, or absence, and the folders on the way that do not
exist); :func:`restore` puts every one back, and goes on past a path it
cannot restore, so one failure never leaves the others changed. Every
change goes through :mod:`docsync.write.writer`, the guarded path.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..errors import DocsyncError, describe_os_error
from . import writer

Kind = Literal["absent", "file", "symlink"]


@dataclass(frozen=True, slots=True)
class FileState:
    """A path as it was: absent, a file (bytes and mode) or a symlink (its target)."""

    path: str
    kind: Kind
    data: bytes = b""
    mode: int = 0o644


@dataclass(frozen=True, slots=True)
class Files:
    """Paths as they were, and the folders on their way that did not exist."""

    states: tuple[FileState, ...]
    absent_folders: tuple[str, ...] = ()
    _by_path: dict[str, FileState] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_path: dict[str, FileState] = {}
        for state in self.states:
            by_path.setdefault(state.path, state)
        object.__setattr__(self, "_by_path", by_path)

    def state(self, path: str) -> FileState | None:
        return self._by_path.get(path)

    def merged(self, other: Files) -> Files:
        folders = dict.fromkeys(self.absent_folders + other.absent_folders)
        return Files(
            self.states + tuple(s for s in other.states if s.path not in self._by_path),
            tuple(folders),
        )


def file_state(root: Path, path: str) -> FileState:
    full = root / path
    try:
        info = os.lstat(full)
    except FileNotFoundError:
        return FileState(path, "absent")
    except NotADirectoryError:
        return FileState(path, "absent")
    if stat.S_ISLNK(info.st_mode):
        return FileState(path, "symlink", os.fsencode(os.readlink(full)))
    if not stat.S_ISREG(info.st_mode):
        raise writer.Refused(f"{path} is not a regular file; docsync does not change it")
    return FileState(path, "file", full.read_bytes(), stat.S_IMODE(info.st_mode))


def _absent_folders(root: Path, paths: Iterable[str]) -> Iterator[str]:
    seen: set[str] = set()
    for path in paths:
        folder = os.path.dirname(path)
        while folder and folder not in seen:
            seen.add(folder)
            if not os.path.lexists(root / folder):
                yield folder
            folder = os.path.dirname(folder)


def snapshot(root: Path, paths: Iterable[str]) -> Files:
    """Every path in ``paths`` as it is now, and the folders on their way that do not exist."""
    unique = list(dict.fromkeys(paths))
    return Files(
        tuple(file_state(root, p) for p in unique), tuple(_absent_folders(root, unique))
    )


@dataclass(frozen=True, slots=True)
class NotRestored:
    path: str
    reason: str


Produced = Mapping[str, set[str]]
"""Per path, the digests of every content docsync itself left there (what it wrote, or
what it moved there): what a rollback may replace."""


def restore(root: Path, files: Files, produced: Produced | None = None) -> list[NotRestored]:
    """Put every path back as it was; a failure on one never stops the others.

    A file moved away is renamed back rather than rewritten, which needs no
    free space. Returns what could not be put back (empty when all was).

    With ``produced``, a file whose bytes are neither what it was nor something
    docsync left there was saved by someone else while docsync ran (an editor):
    it is kept as it is, and named in :attr:`Kept.paths` (see :func:`restore_ours`).
    """
    return restore_ours(root, files, produced).failed


@dataclass(frozen=True, slots=True)
class Kept:
    """What :func:`restore_ours` could not put back, and what it left alone on purpose."""

    failed: list[NotRestored]
    paths: list[str]


ABSENT = "0" * 64
"""The digest :class:`~.produced.ProducedLog` logs for a path the run leaves absent (the old
path of a move). A path absent at a rollback is put back only when the run left it so: a
file someone renamed or deleted meanwhile (an editor, ``git mv`` in another terminal) is
not brought back beside its new name, and is named as kept."""


def restore_ours(root: Path, files: Files, produced: Produced | None) -> Kept:
    """:func:`restore`, keeping every file someone else changed meanwhile."""
    failed: list[NotRestored] = []
    kept: list[str] = []
    movable = _moved_away(root, files)
    for state in files.states:
        if produced is not None and not _ours(root, state, produced.get(state.path, set())):
            kept.append(state.path)
            continue
        try:
            _restore_one(root, state, movable)
        except (OSError, DocsyncError) as exc:
            failed.append(NotRestored(state.path, _reason(exc, root, state.path)))
    for folder in sorted(files.absent_folders, key=lambda f: -f.count("/")):
        full = root / folder
        try:
            if full.is_dir() and not full.is_symlink() and not any(full.iterdir()):
                writer.remove_empty_folder(full)
        except OSError as exc:
            failed.append(NotRestored(folder + "/", _reason(exc, root, folder)))
    return Kept(failed, kept)


def _ours(root: Path, state: FileState, produced: set[str]) -> bool:
    """Whether the path holds what it held, or what docsync left there: a regular file
    holding anything else was written by someone else while docsync ran."""
    full = root / state.path
    try:
        info = os.lstat(full)
    except OSError:  # absent now: this run's doing (a move), or someone's rename or delete
        return state.kind == "absent" or ABSENT in produced
    if not stat.S_ISREG(info.st_mode):
        return True
    try:
        data = full.read_bytes()
    except OSError:
        return True  # unreadable: the restore says why
    return (state.kind == "file" and data == state.data) or writer.digest(data) in produced


def _moved_away(root: Path, files: Files) -> dict[str, list[str]]:
    """Paths that did not exist and now hold a file, by the digest of their bytes."""
    found: dict[str, list[str]] = {}
    for state in files.states:
        if state.kind == "absent" and (root / state.path).is_file() and not writer.is_link(root / state.path):
            try:
                data = (root / state.path).read_bytes()
            except OSError:
                continue
            found.setdefault(writer.digest(data), []).append(state.path)
    return found


def _reason(exc: BaseException, root: Path, path: str) -> str:
    if not isinstance(exc, OSError):
        return str(exc)
    text = describe_os_error(exc, root)
    return text.removeprefix(f"{path}: ")


def _restore_one(root: Path, state: FileState, movable: dict[str, list[str]]) -> None:
    full = writer.guarded(root, state.path, final_link=True)
    if file_state_equal(root, state):
        return
    if state.kind == "absent":
        writer.remove(root, state.path)
        return
    writer.make_folders(Path(writer.real_base(root)), full.parent)
    if state.kind == "symlink":
        writer.remove(root, state.path)
        writer.make_symlink(full, os.fsdecode(state.data))
        return
    if writer.is_link(full):
        writer.remove(root, state.path)
    candidates = movable.get(writer.digest(state.data), [])
    if candidates and not os.path.lexists(full):
        source = writer.guarded(root, candidates.pop())
        writer.move_back(source, full)
        if stat.S_IMODE(os.lstat(full).st_mode) == state.mode:
            return
        writer.set_mode(full, state.mode)
        return
    writer.write_bytes(full, state.data, state.mode)


def file_state_equal(root: Path, state: FileState) -> bool:
    try:
        return file_state(root, state.path) == state
    except (OSError, DocsyncError):
        return False


def not_restored_note(failed: Sequence[NotRestored]) -> str:
    shown = "; ".join(f"{f.path} ({f.reason})" for f in failed[:5])
    more = f" and {len(failed) - 5} more" if len(failed) > 5 else ""
    return f"could not restore {shown}{more}"
