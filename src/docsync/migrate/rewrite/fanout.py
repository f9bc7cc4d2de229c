"""Work a migration shares with forked processes: the rewrite of each file, across cores.

Computing a plan's changes rewrites and verifies every Markdown file the
moves touch: each record and each other document on its own. This process
and the processes it forks (one fewer than the cores) share those tasks:
the forked ones inherit everything read so far (the parsed documents, the
plan, the routes) without a byte of it pickled, and only what each of their
tasks makes travels back; what runs here is neither pickled nor copied. Each
process takes the next task of one shared order when it is free, so all end
together; the results are read by index, so what they tally adds up in the
order one process would have. A fork is the only way that costs nothing to
set up, so there is no fork where it is not safe or not worth it (another
thread alive, a platform without ``fork``, one core, ``jobs = 1``): the same
tasks then run here, one by one as their results are read, with the same
results (tests compare both).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from types import TracebackType
from typing import Any, Generic, TypeVar

from ...config_values import worker_cores
from ...workspace.collector import collector_off
from ...workspace.forked import fork_safe

T = TypeVar("T")

_PIPE_BYTES = 1 << 20
"""A forked process's results wait in its pipe while this one runs a task: room for a
dry run's whole share, so it never waits to send (Linux; elsewhere the pipe's default)."""


def workers_for(jobs: int, tasks: int) -> int:
    """How many processes share ``tasks`` tasks, this one included (0: no fork, each runs
    here): one per core (``jobs``, 0 meaning every core, never more than the cores), when ``fork`` is there and no
    other thread is."""
    cores = min(worker_cores(jobs), tasks)
    return cores if cores > 1 and fork_safe() else 0


@dataclass(frozen=True, slots=True)
class _Outcome(Generic[T]):
    """What one task made, or what it raised."""

    value: T | None = None
    error: BaseException | None = None


class Fanout(Generic[T]):
    """``tasks`` shared by ``workers`` processes, this one and ``workers - 1`` forked ones
    (0 or 1: none forked, each task run here when its result is read).

    Every process takes the tasks in ``order`` (indexes; by default, as given),
    the next one left whenever it is free: a long task put early leaves short
    ones for the end, so all end together. Results are read by index; while
    the one asked for is not there, this process runs the next task left, or
    waits for it. A forked process's tasks come back through ``pack`` (the
    identity by default), which may turn what pickles slowly into bytes."""

    def __init__(
        self,
        tasks: Sequence[Callable[[], T]],
        workers: int,
        order: Sequence[int] | None = None,
        pack: Callable[[T], T] | None = None,
    ) -> None:
        taken = list(range(len(tasks))) if order is None else list(order)
        if sorted(taken) != list(range(len(tasks))):
            raise ValueError(f"order {taken} is not an order of {len(tasks)} tasks")
        self._tasks, self._order, self._pack = tasks, taken, pack
        self._outcomes: dict[int, _Outcome[T]] = {}
        self._children: list[BaseProcess] = []
        self._sources: list[Connection] = []
        self._next: Any = None  # the next place in the order to take, shared with the children
        if workers > 1:
            self._fork(workers - 1)

    def _fork(self, children: int) -> None:
        context = multiprocessing.get_context("fork")
        self._next = context.Value("i", 0)
        for _ in range(children):
            source, sink = context.Pipe(duplex=False)
            _widen(sink)
            child = context.Process(target=self._serve, args=(sink,), daemon=True)
            child.start()  # forks: the child inherits the tasks, never pickled
            sink.close()
            self._children.append(child)
            self._sources.append(source)

    @property
    def forked(self) -> bool:
        return bool(self._children)

    def _take(self) -> int | None:
        """The next task in the order that no process has taken (None: none left)."""
        with self._next.get_lock():
            place: int = self._next.value
            if place >= len(self._order):
                return None
            self._next.value = place + 1
        return self._order[place]

    def _run(self, index: int) -> _Outcome[T]:
        """One task, with the collector off (what a task makes holds no cycles; in a child,
        walking the inherited heap would copy every page it shares with its parent)."""
        try:
            with collector_off():
                return _Outcome(self._tasks[index]())
        except Exception as error:
            return _Outcome(error=error)

    def _serve(self, sink: Connection) -> None:
        """In a forked process: take and run tasks until none is left, sending each outcome."""
        try:
            while (index := self._take()) is not None:
                sink.send_bytes(self._packed(index, self._run(index)))
        except OSError:
            pass  # this process's parent reads no more: nothing else is wanted
        finally:
            sink.close()

    def _packed(self, index: int, outcome: _Outcome[T]) -> bytes:
        """``(index, outcome)`` pickled, what it made through ``pack``; what does not pickle
        travels as the text of an error."""
        if outcome.error is None and self._pack is not None:
            outcome = _Outcome(self._pack(outcome.value))  # type: ignore[arg-type]
        try:
            return bytes(ForkingPickler.dumps((index, outcome)))
        except Exception as error:
            made = repr(outcome.error) if outcome.error is not None else "its result"
            failed = RuntimeError(f"task {index}: {made} does not pickle ({error!r})")
            return bytes(ForkingPickler.dumps((index, _Outcome(error=failed))))

    def result(self, index: int) -> T:
        """What task ``index`` returned (its exception, raised here, if it raised)."""
        if not self._children:
            return self._tasks[index]()
        while index not in self._outcomes:
            if self._receive(block=False):
                continue
            mine = self._take()
            if mine is not None:
                self._outcomes[mine] = self._run(mine)
            elif self._sources:
                self._receive(block=True)
            else:
                self._outcomes[index] = self._run(index)  # its child is gone: run it here
        outcome = self._outcomes[index]
        if outcome.error is not None:
            raise outcome.error
        return outcome.value  # type: ignore[return-value]

    def _receive(self, *, block: bool) -> bool:
        """Store what the children have sent (waiting for a child to send or end when
        ``block``); whether anything came."""
        received = False
        for source in wait(self._sources, None if block else 0):
            assert isinstance(source, Connection)
            try:
                index, outcome = source.recv()
            except EOFError:
                source.close()
                self._sources.remove(source)
                continue
            self._outcomes[index] = outcome
            received = True
        return received

    def __enter__(self) -> Fanout[T]:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._next is not None:
            with self._next.get_lock():
                self._next.value = len(self._order)  # no task left to take
        for child in self._children:
            if kind is not None:
                child.terminate()  # what it would still send is not wanted
            child.join()  # reaped here: the command ends without teardown (see __main__)
        for source in self._sources:
            source.close()
        self._children, self._sources = [], []


def _widen(sink: Connection) -> None:
    try:
        import fcntl

        fcntl.fcntl(sink.fileno(), fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
    except (ImportError, AttributeError, OSError):
        pass  # the default size: a child may wait to send while this process runs a task
