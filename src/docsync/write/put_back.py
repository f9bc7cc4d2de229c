"""Putting a repository back as a journal recorded it: HEAD, the index and every file,
one failure never stopping the others (:mod:`docsync.write.transaction`'s rollback and
``--abort``)."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import DocsyncError
from ..repository import gitrepo
from . import snapshot, undo, writer
from .snapshot import Files, NotRestored


def index_name(tree: gitrepo.Worktree) -> str:
    return tree.index.resolve().relative_to(tree.git_dir.resolve()).as_posix()


def put_back(
    tree: gitrepo.Worktree,
    head: str | None,
    index: bytes | None,
    files: Files,
    produced: snapshot.Produced | None = None,
) -> tuple[list[NotRestored], tuple[str, ...]]:
    """Put HEAD, the index and every file back; what failed, and the files kept because
    someone else saved them meanwhile (only with ``produced``)."""
    failed: list[NotRestored] = []
    root = tree.root
    try:
        gitrepo.set_head(tree, head)
    except (OSError, DocsyncError) as exc:
        failed.append(NotRestored("HEAD", undo.message(root, exc)))
    try:
        _put_back_index(tree, index)
    except (OSError, DocsyncError) as exc:
        failed.append(NotRestored("the git index", undo.message(root, exc)))
    folders = {os.path.dirname(s.path) for s in files.states}
    # A killed write's temporary file first: a folder the run made is removed only when empty.
    writer.remove_stale_temps(root, _temps_in(root, folders))
    restored = snapshot.restore_ours(root, files, produced)
    failed.extend(restored.failed)
    return failed, tuple(restored.paths)


def _put_back_index(tree: gitrepo.Worktree, index: bytes | None) -> None:
    """The index as it was, written under git's own lock (``index.lock``), taken here;
    a lock another process holds is left alone (:class:`~docsync.write.writer.Locked`)."""
    git_dir = tree.git_dir
    name = index_name(tree)
    try:
        now: bytes | None = (git_dir / name).read_bytes()
    except FileNotFoundError:
        now = None
    if now != index:
        writer.replace_locked(git_dir, name, index)


def _temps_in(root: Path, folders: Iterable[str]) -> Iterator[str]:
    for folder in folders:
        try:
            names = os.listdir(root / folder) if (root / folder).is_dir() else []
        except OSError:
            continue
        for name in names:
            yield f"{folder}/{name}" if folder else name


@contextmanager
def no_interrupts() -> Iterator[None]:
    """Ctrl-C while putting things back would leave them half put back: it waits."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
