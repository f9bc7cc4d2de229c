"""A save made after a kill survives ``--abort`` (issue #35, known gap a).

For every write command of :mod:`tests.test_faults` and a spread of steps k, a
child process (a fork: nothing to import again) runs the command and SIGKILLs
itself at its k-th guarded mutation. Nothing runs after that: no rollback, no
``finally``. Then an editor saves a file the command rewrites, and
``--abort`` runs. Invariants: the editor's bytes are on the disk and named as
kept, every other path is as it was before the run, and no journal stays.
"""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest

from docsync.write import transaction, writer
from tests.test_faults import OPERATIONS, _copy, _probe, state, templates
from tests.test_user_work import _target, _without

__all__ = ["templates"]  # the fixture, shared with tests.test_faults

SAVED = b"# Saved after docsync was killed\n"
STEPS = 5
"""How many kill points each command is tried at, spread over its mutations."""


def _killed_at(operation_name: str, root: Path, k: int) -> int:
    """Run the operation in a forked child that SIGKILLs itself at mutation ``k``; its status."""
    child = os.fork()
    if child == 0:  # pragma: no cover (the child never returns)
        try:
            seen = [0]

            def point(kind: str, path: Path) -> None:
                seen[0] += 1
                if seen[0] == k:
                    os.kill(os.getpid(), signal.SIGKILL)

            writer.mutation_point = point  # type: ignore[assignment]
            OPERATIONS[operation_name][1](root)
        finally:
            os._exit(0)
    _, status = os.waitpid(child, 0)
    return status


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_a_save_after_a_kill_survives_abort(
    name: str, templates: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls, after = _probe(name, templates, tmp_path, monkeypatch)
    before = state(templates[name])
    target = _target(before, after)
    aborted = 0
    for k in sorted({max(1, len(calls) * i // STEPS) for i in range(1, STEPS + 1)}):
        root = _copy(templates[name], tmp_path / f"k{k}")
        status = _killed_at(name, root, k)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (name, k, status)
        if transaction.pending(root / ".git") is None:
            shutil.rmtree(root)
            continue  # killed before the journal, or after the run counted as done
        journalled = transaction.pending(root / ".git").files.state(target) is not None  # type: ignore[union-attr]
        (root / target).write_bytes(SAVED)  # the editor, after the kill, before --abort
        found = transaction.abort(root, name.split(",")[0])
        assert (root / target).read_bytes() == SAVED, f"{name}: the save after a kill at {k} was lost"
        assert found.kept == ((target,) if journalled else ()), (name, k, found.kept)
        assert _without(state(root), target) == _without(before, target), f"{name}: kill at {k}"
        assert transaction.pending(root / ".git") is None
        aborted += 1
        shutil.rmtree(root)
    assert aborted >= 2, f"{name}: too few kills left a journal to abort"


def test_without_a_save_abort_still_puts_back_every_file(
    templates: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log of what docsync wrote makes its own bytes recognisable: a killed run's
    half-written tree is put back whole, nothing kept."""
    calls, _ = _probe("migrate", templates, tmp_path, monkeypatch)
    before = state(templates["migrate"])
    root = _copy(templates["migrate"], tmp_path / "late")
    status = _killed_at("migrate", root, len(calls) // 2)
    assert os.WIFSIGNALED(status)
    found = transaction.abort(root, "migrate")
    assert found.kept == ()
    assert state(root) == before
