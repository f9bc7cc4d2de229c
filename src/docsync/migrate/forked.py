"""Pure work over many items, in forked worker processes, with the results in order.

A migration rewrites and verifies every record and every other document
whose references change: each one parsed again and rendered twice by
cmark-gfm, with nothing shared between them. That work is spread over the
cores here. The workers are forked once everything the work reads is in
memory (documents, routes, the plan), so nothing is pickled on the way
there; each result travels back pickled, and the caller merges the results
in their order, so the outcome is what the same work done here gives.

Done here instead, one item after the other, when there are few items, one
core, or other threads (a progress bar's): a forked child gets only the
thread that forked, and with it any lock another thread held.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

Result = TypeVar("Result")

_THRESHOLD = 64  # items: fewer are done here (a fork and the pickling back cost more)
_PER_WORKER = 32

_work: Callable[[int], object] | None = None
"""The work of the map running now, inherited by its forked workers."""


def _run(index: int) -> object:
    assert _work is not None
    return _work(index)


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def workers(count: int, jobs: int) -> int:
    """How many worker processes ``count`` items get (``jobs``: config's, 0 for one per core)."""
    if count < _THRESHOLD or threading.active_count() > 1 or not _can_fork():
        return 1
    cores = jobs or os.cpu_count() or 1
    return max(1, min(cores, count // _PER_WORKER))


def forked_map(work: Callable[[int], Result], count: int, jobs: int = 0) -> list[Result]:
    """``[work(0), …, work(count - 1)]``, computed in forked workers when that is worth it.

    ``work`` must read only what exists before the call and change nothing
    the caller reads (its changes stay in the worker that made them); each
    result must pickle.
    """
    pool_size = workers(count, jobs)
    if pool_size == 1:
        return [work(index) for index in range(count)]
    # Imported here: a run with little to rewrite never starts a process.
    import multiprocessing

    global _work
    _work = work
    try:
        with multiprocessing.get_context("fork").Pool(pool_size) as pool:
            chunk = max(1, count // (pool_size * 8))
            results: Sequence[Result] = pool.map(_run, range(count), chunksize=chunk)  # type: ignore[arg-type]
    finally:
        _work = None
    return list(results)
