"""What holds a child process, a pipe or a terminal line until it is closed, and is used
in a ``with`` block: ``close()`` is the one place that lets go, whether the block ends or
raises."""

from __future__ import annotations

from typing import Self


class Closing:
    """``with`` for a class that defines :meth:`close`."""

    __slots__ = ()

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_raised: object) -> None:
        self.close()
