"""Parse workers forked with every batch already made: nothing feeds them, nothing holds them up.

A process pool feeds its workers through threads of this process and reads
their results through another, and a worker that sends a batch's results
waits while the pipe is full. Those threads need the interpreter lock, which
this process holds while it imports what the run needs next and unpickles
the documents that came back: on a dry run each worker sat idle for a fifth
to a third of its life, waiting for them. Forked once every batch is made, a worker has
all of them (the fork's copy), takes batches by number from a
counter it shares with the other workers, writes each batch's results to a
file of its own and says where in a note on a pipe that never fills. This
process reads the notes, and the results they point to, when it is ready to.

A batch no worker reported (a worker killed, or one that raised; or all of
them, when no memory file or pipe could be made) is left to the caller, which parses it here: as if there were no workers, so an error
in the parse is raised here as it would be without them.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import struct
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

Batch = Sequence[Any]
"""One batch of work (the paths a parse worker reads and parses)."""

_NOTE = struct.Struct("<iiqq")
"""worker, batch, offset, length: where a batch's results lie in its worker's file
(a write this short to a pipe is never split nor interleaved with another)."""


def can_fork() -> bool:
    """Whether workers may be forked here: the start method is fork, no other thread is
    alive (a fork copies only the calling thread; a lock another one holds stays held),
    and the system makes files in memory for their results."""
    return (
        hasattr(os, "memfd_create")
        and multiprocessing.get_start_method() == "fork"
        and threading.active_count() == 1
    )


def fork_safe() -> bool:
    """Whether this process may fork: the platform has ``fork``, there is more than one
    core, and no other thread is alive (a fork copies only the calling thread, and any
    lock another one holds stays locked in the child)."""
    cores = os.cpu_count() or 1
    return cores > 1 and "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def _memory_file() -> IO[bytes]:
    """A file in memory for one worker's results (never on a disk, inside the repository or out)."""
    return os.fdopen(os.memfd_create("docsync-parse", os.MFD_CLOEXEC), "w+b")


def _serve(
    batches: Sequence[Batch], work: Callable[[Batch], object], taken: Any, worker: int, out: int, notes: int
) -> None:
    """In a worker: the next batch nobody took, until none is left; any error ends it quietly
    (its batches stay unreported, for the caller to parse)."""
    offset = 0
    try:
        while True:
            index = _next(taken)
            if index is None or index >= len(batches):
                return
            blob = pickle.dumps(work(batches[index]), protocol=pickle.HIGHEST_PROTOCOL)
            _write_all(out, blob)
            _write_all(notes, _NOTE.pack(worker, index, offset, len(blob)))
            offset += len(blob)
    except BaseException:
        return


LOCK_WAIT = 2.0
"""Seconds a worker waits for the shared counter's lock before it stops taking batches. It is
held for a read and a write of one integer; a worker killed in between (the OOM killer's
SIGKILL) never lets it go, and the others would wait on it, and the run with them: they stop
instead, and the caller parses what none of them reported."""


def _next(taken: Any) -> int | None:
    """The number of the next batch nobody took, counted in ``taken``; None when its lock
    was not had within :data:`LOCK_WAIT`."""
    lock = taken.get_lock()
    if not lock.acquire(timeout=LOCK_WAIT):
        return None
    try:
        index: int = taken.value
        taken.value = index + 1
    finally:
        lock.release()
    return index


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def run(
    batches: Sequence[Batch], workers: int, work: Callable[[Batch], object], started: Callable[[], None]
) -> Iterator[tuple[int, Any]]:
    """(batch number, what ``work`` made of it) as the workers finish them, in no
    particular order; a batch not among them was not done. ``started`` is called
    once the workers are."""
    context = multiprocessing.get_context("fork")
    outs: list[IO[bytes]] = []
    try:
        taken = context.Value("i", 0)
        outs.extend(_memory_file() for _ in range(workers))
        read_notes, write_notes = os.pipe()
    except OSError:  # no memory file, no pipe: no batch is done, all are parsed here
        for out in outs:
            out.close()
        started()
        return
    processes = [
        context.Process(
            target=_serve, args=(batches, work, taken, k, outs[k].fileno(), write_notes), daemon=True
        )
        for k in range(workers)
    ]
    try:
        for process in processes:
            process.start()
        os.close(write_notes)
        write_notes = -1
        started()
        yield from _reported(read_notes, outs)
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
            process.join()
        for fd in (read_notes, write_notes):
            if fd >= 0:
                os.close(fd)
        for out in outs:
            out.close()


def _reported(read_notes: int, outs: list[IO[bytes]]) -> Iterator[tuple[int, Any]]:
    """Each note's batch, until every worker has closed the pipe (exited)."""
    with open(read_notes, "rb", closefd=False) as notes:
        while len(note := notes.read(_NOTE.size)) == _NOTE.size:
            worker, index, offset, length = _NOTE.unpack(note)
            blob = os.pread(outs[worker].fileno(), length, offset)
            if len(blob) == length:  # else the file was cut short: the batch is not done
                yield index, pickle.loads(blob)
