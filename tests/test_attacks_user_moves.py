"""The user renames or deletes a file a write command rewrites, at every step of it, and the
command then fails at its last step: the rollback keeps the user's rename or delete.

A rollback put back every path that was absent, as if only docsync could have made it so.
A file docsync had rewritten and the user then renamed (``git mv`` in another terminal)
came back at its old path beside the new one, which kept docsync's rewrite, and the
message said the repository was as it was. Now a path is put back only when the run
itself left it absent (the old path of its own move); any other is named as kept.

Generated on the harness of :mod:`tests.test_faults`: every write command that rewrites a
file in place by every mutation step k, the user's act alternating with k (a rename at odd
k, a delete at even), so both meet every command at early and late steps.
"""

from __future__ import annotations

import errno
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from docsync.errors import DocsyncError
from docsync.write import transaction, writer
from tests.test_faults import OPERATIONS, _copy, _probe, state, templates
from tests.test_user_work import _target

__all__ = ["templates"]

RENAMED = ".renamed"
ACTS: tuple[Callable[[Path], None], ...] = (
    lambda file: file.unlink(),
    lambda file: file.rename(file.with_name(file.name + RENAMED)),
)


def _user(file: Path, k: int, last: int, held: list[bytes]) -> Callable[[str, Path], None]:
    """A mutation point at which the user renames or deletes ``file`` (the ``k``-th), keeping
    in ``held`` what it held then; the ``last`` fails."""
    seen = 0

    def point(kind: str, path: Path) -> None:
        nonlocal seen
        seen += 1
        if seen == k and file.exists():
            held.append(file.read_bytes())
            ACTS[k % 2](file)
        if seen == last:
            raise OSError(errno.EIO, "injected at the last step", str(path))

    return point


@pytest.mark.parametrize("name", ["fix", "move", "migrate", "new"])
def test_a_user_rename_or_delete_at_every_step_survives_the_rollback(
    name: str, templates: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls, after = _probe(name, templates, tmp_path, monkeypatch)
    target = _target(state(templates[name]), after)
    acted = 0
    for k in range(1, len(calls)):
        root = _copy(templates[name], tmp_path / f"k{k}")
        held: list[bytes] = []
        message = ""
        with monkeypatch.context() as patch:
            patch.setattr(writer, "mutation_point", _user(root / target, k, len(calls), held))
            try:
                OPERATIONS[name][1](root)
            except (DocsyncError, RuntimeError) as exc:
                message = str(exc)
        if held:
            acted += 1
            where = root / target
            assert not where.exists(), f"{name}: {target}, {'renamed' if k % 2 else 'deleted'} at {k}, is back"
            if k % 2:
                assert where.with_name(where.name + RENAMED).read_bytes() == held[0], f"{name}, {k}"
            # a rollback names the file it kept (a write that met the act first refused, by name)
            assert not message or target in message, f"{name}, {k}: not named: {message}"
            assert transaction.pending(root / ".git") is None, message
        shutil.rmtree(root)
    assert acted >= 2, f"{name}: the user acted at {acted} steps"
