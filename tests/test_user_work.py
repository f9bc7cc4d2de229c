"""The user's work survives every write command, whatever happens between its steps.

The fault-injection harness of :mod:`tests.test_faults`, on a new axis: at the
k-th guarded mutation of ``migrate --apply --commit``, ``fix``, ``move``,
``new`` and ``init``, for every k, an editor saves a file the command changes.
Then either the command goes on to its end, or it is made to fail at its last
step, which rolls everything back. Invariants: the editor's bytes are on the
disk at the end (a rollback puts back only what docsync itself left), every
other path is as it was before the run or as the run leaves it, and no
journal stays. Plus ``migrate --apply --commit --allow-dirty`` never commits
unstaged work.
"""

from __future__ import annotations

import errno
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from docsync.errors import DocsyncError
from docsync.migrate.apply.apply import apply
from docsync.migrate.run import Options, run
from docsync.write import transaction, writer
from tests.gitutil import GitRepo, git
from tests.test_faults import LEGACY, OPERATIONS, TODAY, State, _copy, _probe, state, templates

__all__ = ["templates"]  # the fixture, shared with tests.test_faults

SAVED = b"# Saved in an editor while docsync ran\n"


def _target(before: State, after: State) -> str:
    """A file the operation rewrites in place (there before and after, other bytes)."""
    changed = [
        path
        for path, entry in sorted(before[2].items())
        if entry[0] == "file" and path in after[2] and after[2][path] != entry
    ]
    assert changed, "the operation rewrites no file in place"
    return changed[0]


def _without(found: State, path: str) -> dict[str, tuple[str, bytes, int]]:
    return {p: entry for p, entry in found[2].items() if p != path}


@pytest.mark.parametrize("ending", ["completes", "fails at its last step"])
@pytest.mark.parametrize("name", list(OPERATIONS))
def test_an_editor_save_at_every_step_survives(
    name: str, ending: str, templates: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    operation = OPERATIONS[name][1]
    calls, after = _probe(name, templates, tmp_path, monkeypatch)
    before = state(templates[name])
    target = _target(before, after)
    for k in range(_first_step(name, templates, tmp_path, monkeypatch), len(calls) + 1):
        root = _copy(templates[name], tmp_path / f"k{k}")
        with monkeypatch.context() as patch:
            patch.setattr(writer, "mutation_point", _editor(root / target, k, len(calls), ending != "completes"))
            message = ""
            try:
                operation(root)
            except (DocsyncError, RuntimeError) as exc:
                message = f"{exc} {getattr(exc, '__notes__', '')}"
                ended = state(root)
                assert _without(ended, target) == _without(before, target), f"{name}, save at {k}: {exc}"
            else:
                ended = state(root)
                assert _without(ended, target) in (_without(after, target), _without(before, target)), (
                    f"{name}, save at {k}: neither done nor undone"
                )
        assert (root / target).read_bytes() == SAVED, f"{name}: the editor's save at step {k} was lost"
        # the injected failure can land in the rollback itself: then, and only then, the journal stays
        assert transaction.pending(root / ".git") is None or "the journal is kept" in message, message
        shutil.rmtree(root)


def _first_step(name: str, templates: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """The first mutation at which an editor's save must survive: the first, for every
    command, since every write compares its file with the text the plan read (issue #35,
    gap b); the moment before the first mutation is :func:`test_a_save_between_plan_and_journal_survives`."""
    return 1


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_a_save_between_plan_and_journal_survives(
    name: str, templates: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor saves a file the command rewrites after the plan read it and before the
    journal is begun: the command refuses, by name, and changes nothing (``fix`` skips
    that file, names it, and fixes the others)."""
    _, after = _probe(name, templates, tmp_path, monkeypatch)
    before = state(templates[name])
    target = _target(before, after)
    root = _copy(templates[name], tmp_path / "between")
    begin = transaction.Transaction.begin.__func__  # type: ignore[attr-defined]

    def saved_first(cls: type, *args: object, **kwargs: object) -> transaction.Transaction:
        (root / target).write_bytes(SAVED)
        return begin(cls, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(transaction.Transaction, "begin", classmethod(saved_first))
    try:
        OPERATIONS[name][1](root)
    except DocsyncError as exc:
        assert f"{target}: changed on disk" in str(exc), exc
        assert _without(state(root), target) == _without(before, target)
    else:  # fix skips (and names) a file saved since it read it, and fixes the others
        assert name == "fix", f"{name}: a save between the plan and the journal went unseen"
        assert _without(state(root), target) == _without(after, target)
    assert (root / target).read_bytes() == SAVED
    assert transaction.pending(root / ".git") is None


def _editor(file: Path, k: int, last: int, fail: bool) -> Callable[[str, Path], None]:
    """A mutation point that saves ``file`` as an editor would at the ``k``-th mutation,
    and (``fail``) fails the ``last``."""
    seen = 0

    def point(kind: str, path: Path) -> None:
        nonlocal seen
        seen += 1
        if seen == k:
            file.write_bytes(SAVED)
        if fail and seen == last:
            raise OSError(errno.EIO, "injected at the last step", str(path))

    return point


def test_a_rollback_names_the_file_it_kept(tmp_path: Path) -> None:
    """The message of a rollback that kept a file says so, naming it."""
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("a.md", "# A\n")
    repo.write("b.md", "# B\n")
    repo.commit("files")
    txn = transaction.Transaction.begin(repo.root, "fix", {}, ["a.md", "b.md"])
    with pytest.raises(DocsyncError) as raised, txn:
        txn.write(writer.FileWrite("a.md", "# A by docsync\n"))
        (repo.root / "a.md").write_bytes(SAVED)  # an editor, after docsync wrote it
        txn.write(writer.FileWrite("b.md", "# B by docsync\n"))
        raise DocsyncError("stopped")
    assert "kept as they are now" in str(raised.value) and "a.md" in str(raised.value)
    assert (repo.root / "a.md").read_bytes() == SAVED
    assert (repo.root / "b.md").read_bytes() == b"# B\n"


# --------------------------------------------------------------------------- --allow-dirty


@pytest.mark.parametrize("dirty", ["README.md", "docs/adr/0001-use-postgres.md"])
def test_allow_dirty_never_commits_unstaged_work(tmp_path: Path, dirty: str) -> None:
    """A file the migration rewrites, with unstaged edits: ``--commit`` refuses it by name
    and changes nothing; without ``--commit`` the work stays on the disk, uncommitted."""
    repo = GitRepo.init(tmp_path / "repo")
    for path, text in LEGACY.items():
        repo.write(path, text)
    repo.commit("legacy")
    (repo.root / dirty).write_text(LEGACY[dirty] + "\nMy unsaved thought.\n")
    before = state(repo.root)
    plan = run(repo.root, Options(today=TODAY))[1]
    with pytest.raises(DocsyncError, match=f"unstaged changes to files the migration rewrites: {dirty}"):
        apply(repo.root, plan, commit=True, allow_dirty=True)
    assert state(repo.root) == before
    apply(repo.root, plan, commit=False, allow_dirty=True)
    assert git(repo.root, "log", "--oneline").count("\n") == 1  # nothing committed
    found = [p for p in (repo.root).rglob("*.md") if b"My unsaved thought." in p.read_bytes()]
    assert found, "the unstaged work is gone"
