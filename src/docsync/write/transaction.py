"""Changes that complete, or leave the repository exactly as it was: even after a kill.

``migrate --apply``, ``fix``, ``move`` and ``new`` change a repository inside
a :class:`Transaction`. Before its first change, it records HEAD, the index
and every path it will touch (bytes and mode, a symlink's target, or
absence) in a journal under the git directory, ``docsync/journal/``: the
bytes of all of them in one pack file (:mod:`docsync.write.packs`), then
``state.json``, which names each file's digest and place in the pack and
whose presence means "a run is under way". It changes files only through
:mod:`docsync.write.writer`, and removes the journal after the last change.

Any failure (an error, Ctrl-C, a full disk) rolls back: HEAD, the index and
every path are put back, one failure never stopping the others, and the
journal goes. When something cannot be put back, the journal stays. A run
that was killed leaves it too; every later run then refuses other work with
one message naming ``docsync <command> --abort`` (:func:`abort`: put
everything back, from the journal) and ``--continue`` (abort, then run the
recorded command again to its end).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO

from ..errors import DocsyncError, describe_os_error
from ..repository import gitrepo, plumbing
from . import finished, journal_schema, run_lock, snapshot, undo, writer
from .finished import JOURNAL, STATE
from .packs import Packs
from .pending import Pending, _pending_message, _saved_index, pending, refuse_pending
from .produced import ProducedLog
from .put_back import index_name, no_interrupts, put_back
from .snapshot import Files, FileState, NotRestored
from .writer import FileWrite

FORMAT = journal_schema.FORMAT

__all__ = ["FORMAT", "Pending", "pending", "refuse_pending"]  # the journal read back, beside its writer


@dataclass
class Transaction:
    """One all-or-nothing change to a repository; see the module docstring."""

    root: Path
    git_dir: Path
    command: str
    redo: Mapping[str, Any]
    tree: gitrepo.Worktree  # where the repository is and its index, asked of git once per command
    head: str | None = None
    index: bytes | None = None
    files: Files = field(default_factory=lambda: Files(()))
    seal: journal_schema.Seal | None = None
    _expected: dict[str, bytes | None] = field(default_factory=dict)
    _produced: ProducedLog = field(default_factory=ProducedLog)
    kept: tuple[str, ...] = ()
    """After a rollback: files someone else saved while the run went on, kept as they are."""
    _packs: Packs = field(default_factory=lambda: Packs(JOURNAL))
    _lock: BinaryIO | None = None  # the open file holding :mod:`.run_lock` while the run may change anything

    @classmethod
    def begin(
        cls, root: Path, command: str, redo: Mapping[str, Any], paths: Iterable[str],
        read: Mapping[str, str | None] | None = None, tree: gitrepo.Worktree | None = None,
    ) -> Transaction:
        """Take the run's lock, record HEAD, the index and ``paths`` in the journal; nothing else
        changes yet. ``read`` is what the plan read, by path (a text, or None: absent); a path
        saved since is :class:`~.writer.ChangedMeanwhile`, nothing changed. ``tree``: the repository
        as the command found it; HEAD, the index's bytes and ``paths`` are read afresh here."""
        tree = tree or gitrepo.worktree(root)
        git_dir, lock = tree.git_dir, run_lock.hold(tree.git_dir)
        with run_lock.released_on_error(lock):
            _may_start(tree)
            txn = cls(root, git_dir, command, redo, tree, plumbing.head_commit(root), _lock=lock)
            txn.index = _index_bytes(tree)
        try:
            _open_journal(txn, paths, read or {})
        except BaseException as exc:
            _journal_failed(root, git_dir, exc)
            txn.release()
            raise
        return txn

    def release(self) -> None:
        """Let another run start (:mod:`.run_lock`): this one changes nothing more."""
        run_lock.release(self._lock)
        self._lock = None

    def cover(self, paths: Iterable[str]) -> None:
        """Add ``paths`` to what a rollback puts back (before the first change to them)."""
        fresh = [p for p in dict.fromkeys(paths) if self.files.state(p) is None]
        if not fresh and self.files.states:
            return
        more = snapshot.snapshot(self.root, fresh)
        self._packs.save(self.git_dir, [s for s in more.states if s.kind == "file"])
        for state in more.states:
            self._expected[state.path] = _expected_bytes(state)
        self.files = self.files.merged(more)
        writer.write_file(self.git_dir, STATE, json.dumps(_state(self), indent=1).encode())

    # ----------------------------------------------------------------- changes

    def announce(self, changes: Iterable[FileWrite]) -> None:
        """Log, before writing them, the bytes ``changes`` will leave: ``--abort`` after a
        kill then puts back only files that hold those bytes (or their old ones), and keeps
        any other, someone's save after the kill. One append for the whole batch."""
        pairs = []
        for change in changes:
            if self.files.state(change.path) is None:
                self.cover([change.path])
            expect = self._expected.get(change.path)
            pairs.append((change.path, writer.digest(change.encoded(expect or None))))
        self._produced.log(self.git_dir, pairs)

    def write(self, change: FileWrite, read: str | None = None) -> None:
        """Write one file, only while it still holds what was read and snapshotted."""
        if self.files.state(change.path) is None:
            self.cover([change.path])
        expect = self._expected.get(change.path)
        self._produced.log(self.git_dir, [(change.path, writer.digest(change.encoded(expect or None)))])
        written = writer.write_atomic(self.root, change, read=read, expect=expect)
        self._expected[change.path] = written
        self._produced.left(self.git_dir, change.path, written)  # when the guess above missed

    def write_all(self, changes: Sequence[FileWrite]) -> None:
        writer.preflight(self.root, [c.path for c in changes])
        self.announce(changes)
        for change in changes:
            self.write(change)

    def move(self, moves: Sequence[tuple[str, str]]) -> None:
        """``git mv`` each (old, new); a symlink moves as a symlink."""
        for old, new in moves:
            state = self.files.state(old)
            before = state.data if state is not None and state.kind == "file" else None
            self._produced.moved(self.git_dir, old, new, before)
        gitrepo.move_files(self.tree, list(moves))
        for old, new in moves:
            self._expected[new] = self._expected.pop(old, None)

    def remove(self, paths: Sequence[str]) -> None:
        """``git rm`` each path, logged first as left absent by this run (a rollback puts
        back only a path the run left absent; see :data:`.snapshot.ABSENT`)."""
        if not paths:
            return
        self.cover(paths)
        self._produced.removed(self.git_dir, paths)
        gitrepo.remove_files(self.tree, list(paths))

    def relink(self, links: Sequence[tuple[str, str]]) -> None:
        """Point each symlink (path, target) elsewhere; :meth:`begin` journalled its old target.
        A symlink is replaced by removing it first: logged as one the run may leave absent."""
        if links:
            self._produced.removed(self.git_dir, [path for path, _ in links])
        for path, target in links:
            writer.relink(self.root, path, target)

    # ----------------------------------------------------------------- the end

    def finish(self) -> None:
        """The last change is made: the journal goes. Removing ``state.json`` is
        the moment the run counts as done; what else the journal holds is
        removed now or, should that fail, by a later run."""
        writer.remove(self.git_dir, STATE)
        finished.record(self.command)
        with contextlib.suppress(Exception):  # the run is done; a later run tidies up
            _remove_leftover_journal(self.git_dir)
        self.release()

    def rollback(self) -> list[NotRestored]:
        """Put everything back; what could not be. The journal goes only when all was."""
        try:
            with no_interrupts():
                failed, self.kept = put_back(self.tree, self.head, self.index, self.files, self._produced.digests)
                if not failed:
                    try:
                        _remove_journal(self.git_dir)
                    except (OSError, DocsyncError) as exc:
                        failed.append(NotRestored(f"(remove) {JOURNAL}", undo.message(self.git_dir, exc)))
        finally:
            self.release()
        return failed

    def __enter__(self) -> Transaction:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        _end(self, exc)


def _open_journal(txn: Transaction, paths: Iterable[str], read: Mapping[str, str | None]) -> None:
    """The journal's seal, the index's bytes and ``paths``' snapshots; a path saved since the
    plan ``read`` it is :class:`~.writer.ChangedMeanwhile`."""
    txn.seal = journal_schema.write_seal(txn.git_dir)
    if txn.index is not None:
        writer.write_file(txn.git_dir, f"{JOURNAL}/index", txn.index)
    txn.cover(paths)
    _refuse_saved_since_read(txn.files, read)


def _end(txn: Transaction, exc: BaseException | None) -> None:
    """The run's end: finished when it raised nothing (and finishing raised nothing), else
    rolled back, raising what says so."""
    if exc is None:
        try:
            txn.finish()
            return
        except BaseException as error:  # not done yet: undo it all
            exc = error
    failed = txn.rollback()
    raise undo.after_rollback(txn.root, txn.command, exc, failed, txn.kept) from (
        None if undo.expected_error(exc) else exc
    )


def _state(txn: Transaction) -> dict[str, Any]:
    """What ``state.json`` holds: the run, and where each journalled file's bytes are."""
    return {
        "format": FORMAT,
        "command": txn.command,
        "redo": dict(txn.redo),
        "head": txn.head,
        "index": writer.digest(txn.index) if txn.index is not None else None,
        "files": [txn._packs.item(s) for s in txn.files.states],
        "absent_folders": list(txn.files.absent_folders),
        "seal": txn.seal.record() if txn.seal is not None else None,
    }


def _may_start(tree: gitrepo.Worktree) -> None:
    """Refuse to start while a journal is there, or git holds the index; tidy a half-removed journal."""
    refuse_pending(tree.git_dir, tree.root)
    refuse_foreign_lock(tree)
    _remove_leftover_journal(tree.git_dir)


def _index_bytes(tree: gitrepo.Worktree) -> bytes | None:
    return tree.index.read_bytes() if tree.index.is_file() else None


def _journal_failed(root: Path, git_dir: Path, exc: BaseException) -> None:
    """Writing the journal failed, before any change: it goes, and an OS error is told as one."""
    with no_interrupts():
        _discard_journal(git_dir)
    if isinstance(exc, OSError):
        raise DocsyncError(f"{describe_os_error(exc, root)}; could not write the journal, nothing was changed") from None


def _refuse_saved_since_read(files: Files, read: Mapping[str, str | None]) -> None:
    """Every path as the plan read it (issue #35: a save between the plan's read and the
    journal's snapshot was taken as the plan's input, and lost)."""
    for path, text in read.items():
        state = files.state(path)
        if state is None:
            continue
        if text is None:
            if state.kind != "absent":
                raise writer.ChangedMeanwhile(path)
        elif state.kind != "file" or not writer.same_text(state.data, text):
            raise writer.ChangedMeanwhile(path)


def _expected_bytes(state: FileState) -> bytes | None:
    if state.kind == "file":
        return state.data
    return b"" if state.kind == "absent" else None


def refuse_foreign_lock(tree: gitrepo.Worktree) -> None:
    """Refuse to begin while another git process holds the index's lock: docsync would
    fail at its first git command, and must never take or remove a lock it did not create."""
    name = index_name(tree)
    if os.path.lexists(tree.git_dir / writer.lock_name(name)):
        raise DocsyncError(
            f"{writer.lock_name(name)} exists: another git process is changing this repository; "
            "nothing was changed, run docsync again when it has finished (if no git is running, "
            "one that crashed left the lock: remove it)"
        )


def _remove_journal(git_dir: Path) -> None:
    writer.remove(git_dir, STATE)
    _remove_leftover_journal(git_dir)


def _discard_journal(git_dir: Path) -> None:
    """Best effort: remove a journal whose writing failed (nothing was changed yet)."""
    try:
        _remove_journal(git_dir)
    except (OSError, DocsyncError):
        return


def _remove_leftover_journal(git_dir: Path) -> None:
    """A journal folder without ``state.json`` is what a run killed while removing it left."""
    if (git_dir / JOURNAL).is_dir() and not (git_dir / STATE).exists():
        writer.remove_folder(git_dir, JOURNAL)


def abort(start: Path, command: str, asked: str = "abort") -> Pending:
    """``docsync <command> --abort`` (and the first half of ``--continue``, ``asked``): put
    back what the journal recorded, and remove it."""
    tree = gitrepo.worktree(start)
    repo = tree.paths
    run_lock.refuse_busy(repo.git_dir)  # a live run's journal is no unfinished run's
    found = pending(repo.git_dir, repo.root)
    if found is None:
        raise DocsyncError(f"no unfinished `docsync {command}` to {asked}; nothing was changed")
    if found.command != command:
        raise DocsyncError(_pending_message(found.command))
    index = _saved_index(repo.git_dir, found.index)
    lock = run_lock.hold(repo.git_dir)
    try:
        with no_interrupts():
            failed, kept = put_back(tree, found.head, index, found.files, found.produced)
            if failed:
                raise DocsyncError(
                    f"{snapshot.not_restored_note(failed)}; the journal is kept: fix that, "
                    f"then run `docsync {command} --abort` again"
                )
            _remove_journal(repo.git_dir)
    finally:
        run_lock.release(lock)
    return replace(found, kept=kept)
