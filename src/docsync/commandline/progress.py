"""The progress bar the command line gives the core's progress hook (rich, on a terminal only)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..closing import Closing

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

PROGRESS_MINIMUM = 50
"""Fewer files than this to parse show no bar: it would only flash."""


class ProgressBar(Closing):
    """A rich progress bar on ``console`` for the core's progress hook.

    It shows only on a terminal, only when ``enabled`` (text output) and given a
    console (none: the command writes nothing through rich, which stays unimported), and only
    once a step has at least :data:`PROGRESS_MINIMUM` items; otherwise the hook
    does nothing, so piped and machine-readable output stays byte-exact.
    """

    def __init__(self, console: Console | None, *, enabled: bool = True) -> None:
        self._console = console
        self._enabled = enabled and console is not None and console.is_terminal
        self._bar: Progress | None = None
        self._tasks: dict[str, TaskID] = {}

    @property
    def can_show(self) -> bool:
        """Whether a bar can ever show (a terminal, text output); if not, the core need not
        report progress at all: counting what there is to do can cost (a git command)."""
        return self._enabled

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __call__(self, description: str, done: int, total: int) -> None:
        if not self._enabled or (self._bar is None and total < PROGRESS_MINIMUM):
            return
        if self._bar is None:
            # Imported here: only a terminal ever shows a bar.
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                console=self._console,
                transient=True,
            )
            self._bar.start()
        task = self._tasks.get(description)
        if task is None:
            task = self._tasks[description] = self._bar.add_task(description, total=total)
        self._bar.update(task, completed=done, total=total)
