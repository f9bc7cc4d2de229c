"""Work a migration hands to forked processes: the rewrite of each file, across cores.

Computing a plan's changes rewrites and verifies every Markdown file the
moves touch: each record and each other document on its own. Those rewrites
go to forked worker processes, which inherit everything read so far (the
parsed documents, the plan, the routes) without a byte of it pickled; only
what each task makes travels back, and the tasks are cut in contiguous runs
whose results are read in order, so what they tally adds up in the order one
process would have. A fork is the only way that costs nothing to set up, so
there is no fork where it is not safe or not worth it (another thread alive,
a platform without ``fork``, one core, ``jobs = 1``): the same tasks then
run here, one by one as their results are read, with the same results
(tests compare both).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from types import TracebackType
from typing import Generic, TypeVar

from ..workspace.collector import collector_off

T = TypeVar("T")

# The tasks of the pool being forked: set before the fork, read by index in the workers.
_tasks: Sequence[Callable[[], object]] = ()


def _run_task(index: int) -> object:
    """In a worker: one inherited task, with the collector off (the inherited heap holds no
    cycles, and walking it would copy every page the worker shares with its parent)."""
    with collector_off():
        return _tasks[index]()


def workers_for(jobs: int, tasks: int) -> int:
    """How many processes to fork for ``tasks`` tasks (0: none, run them here): one per
    core (``jobs``, 0 meaning every core), when ``fork`` is there and no other thread is."""
    cores = min(jobs or os.cpu_count() or 1, tasks)
    return cores if cores > 1 and fork_safe() else 0


def fork_safe() -> bool:
    """Whether this process may fork: the platform has ``fork``, there is more than one
    core, and no other thread is alive (a fork copies only the calling thread, and any
    lock another one holds stays locked in the child)."""
    cores = os.cpu_count() or 1
    return cores > 1 and "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


class Fanout(Generic[T]):
    """``tasks`` running in ``workers`` forked processes (0: each run here when read).

    The workers take the tasks in ``order`` (indexes; by default, as given):
    a long task put early leaves short ones for the end, so both workers end
    together. Results are still read by index."""

    def __init__(
        self, tasks: Sequence[Callable[[], T]], workers: int, order: Sequence[int] | None = None
    ) -> None:
        global _tasks
        self._tasks = tasks
        self._pool: ProcessPoolExecutor | None = None
        self._futures: list[Future[object]] = []
        taken = list(range(len(tasks))) if order is None else list(order)
        if sorted(taken) != list(range(len(tasks))):
            raise ValueError(f"order {taken} is not an order of {len(tasks)} tasks")
        if workers:
            _tasks = tasks  # a fork context forks in the first submit, before any thread
            self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
            submitted = {k: self._pool.submit(_run_task, k) for k in taken}
            self._futures = [submitted[k] for k in range(len(tasks))]

    def result(self, index: int) -> T:
        """What task ``index`` returned (its exception, raised here, if it raised)."""
        if not self._futures:
            return self._tasks[index]()
        done: T = self._futures[index].result()  # type: ignore[assignment]
        return done

    def __enter__(self) -> Fanout[T]:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        global _tasks
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            _tasks = ()
