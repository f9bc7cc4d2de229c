"""A tracked Markdown file swapped for something else after its stat is read as a finding
(or, by the refs gate's reader, as nothing), never waited on or read without end.

Generated over what the path can become (every kind of file a work tree can hold at a
tracked path) and both readers: the parse's (:class:`~docsync.workspace.parsing.Reader`,
which follows a symlink as GitHub's rendering of the target would) and the plain-text
reader of code and config (:func:`~docsync.workspace.load.read_text`, which follows none).
Each read runs in a thread, so a reader that blocks fails the test instead of hanging it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from docsync.model import Finding
from docsync.workspace.load import read_text
from docsync.workspace.parsing import Reader

CAP = 64


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _folder(path: Path) -> None:
    path.mkdir()


def _device(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _loop(path: Path) -> None:
    path.symlink_to(path.name)


def _gone(path: Path) -> None:
    pass


def _grown(path: Path) -> None:
    path.write_bytes(b"x" * (CAP + 1))


def _understated(path: Path) -> None:
    path.symlink_to("/proc/self/status")  # its stat says 0 bytes; it holds more than CAP


def _link_to_page(path: Path) -> None:
    (path.parent / "real.md").write_bytes(b"# Real\n")
    path.symlink_to("real.md")


def _page(path: Path) -> None:
    path.write_bytes(b"# Page\n")


# what the path became: (rule the parse's reader gives, or None for the bytes; whether
# the plain-text reader gives the text)
SWAPS: dict[str, tuple[Callable[[Path], None], str | None, bool]] = {
    "fifo": (_fifo, "F004", False),
    "folder": (_folder, "F004", False),
    "device": (_device, "F004", False),
    "symlink loop": (_loop, "F004", False),
    "gone": (_gone, "F004", False),
    "grown past the cap": (_grown, "F003", False),
    "grown after its stat": (_understated, "F003", False),
    "symlink to a page": (_link_to_page, None, False),
    "page": (_page, None, True),
}


def _within(seconds: float, call: Callable[[], object]) -> object:
    done: list[object] = []
    thread = threading.Thread(target=lambda: done.append(call()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert done, "the read blocked"
    return done[0]


@pytest.mark.parametrize("swap", SWAPS)
def test_a_swapped_path_is_a_finding_never_a_wait(tmp_path: Path, swap: str) -> None:
    make, rule, text = SWAPS[swap]
    make(tmp_path / "a.md")
    result, data = _within(5, lambda: Reader(str(tmp_path), CAP).read("a.md"))  # type: ignore[misc]
    problem = result[4]
    if rule is None:
        assert problem is None and data is not None and data.startswith(b"# ")
    else:
        assert isinstance(problem, Finding) and problem.rule == rule and data is None
        assert (problem.path, problem.line, problem.column) == ("a.md", 1, 1)
    read = _within(5, lambda: read_text(tmp_path, "a.md", CAP))
    assert (read is not None) == text
