"""Nothing lost under any fault: fail the k-th guarded mutation, for every k.

For ``migrate --apply --commit``, ``fix``, ``move``, ``new`` and ``init``, a run that
counts the guarded writer's mutation points (file writes, renames, folders,
removals and the git commands that change the repository) says how many
there are; then each k in turn fails once (an exception, ENOSPC, EACCES),
and the repository's whole state must be what it was: HEAD, the index,
every file's bytes and mode, symlinks (one the migration retargets), no new files and
no journal. A disk
that stays full from k on fails the rollback too: the journal stays, and
``--abort`` once there is space again restores the same state.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from docsync.adopt import plan as adopt
from docsync.check.fix import run_fix
from docsync.errors import DocsyncError
from docsync.lifecycle import move as lifecycle_move
from docsync.lifecycle import new as lifecycle_new
from docsync.migrate.apply.apply import apply
from docsync.migrate.run import Options, run
from docsync.write import transaction, writer
from tests.gitutil import GitRepo, git
from tests.untrusted import Entry, picture

TODAY = date(2026, 12, 1)
LEGACY = {
    ".docsync.toml": "cache = false\n",
    "docs/adr/0001-use-postgres.md": "# ADR 0001: Use Postgres\n\nStatus: accepted\n\nSee ADR 0002.\n",
    "docs/adr/0002-use-redis.md": "# ADR 0002: Use Redis\n\nStatus: proposed\n\nAfter ADR 0001.\n",
    "README.md": "# Project\n\nRead [the first decision](docs/adr/0001-use-postgres.md).\n",
    "AGENTS.md": "# Agents\n\nHand-written.\n",
}

State = tuple[str, str, dict[str, Entry]]


def state(root: Path) -> State:
    """HEAD, the index's entries (``git status`` refreshes its cached file times,
    as any read does), and every path outside .git: (kind, bytes or link target, mode)."""
    files = picture(root, git=())
    head = (root / ".git" / "HEAD").read_text()
    ref = root / ".git" / head.removeprefix("ref: ").strip()
    head_sha = ref.read_text() if head.startswith("ref: ") and ref.exists() else head
    return head_sha, git(root, "ls-files", "-s"), files


def _legacy_repo(root: Path) -> GitRepo:
    repo = GitRepo.init(root)
    for path, text in LEGACY.items():
        repo.write(path, text)
    (repo.root / "notes.txt").symlink_to("AGENTS.md")
    (repo.root / "docs/latest").symlink_to("adr/0002-use-redis.md")  # the migration retargets it
    (repo.root / "docs/adr/0002-use-redis.md").chmod(0o600)
    repo.commit("records", when="2022-02-02 10:00:00", tz="+0100")
    return repo


def _symlinked_index_repo(root: Path) -> GitRepo:
    """A legacy tree whose index is a tracked symlink: the apply removes it, a rollback
    must put the symlink back (not a file, not nothing)."""
    repo = GitRepo.init(root)
    for path, text in LEGACY.items():
        repo.write(path, text)
    repo.write("INDEX.md", "# Decisions\n\nOur decisions.\n")
    (repo.root / "docs/adr/README.md").symlink_to("../../INDEX.md")
    repo.commit("records", when="2022-02-02 10:00:00", tz="+0100")
    return repo


def _migrated_repo(root: Path) -> GitRepo:
    repo = _legacy_repo(root)
    _, outcome = run(repo.root, Options(today=TODAY))
    apply(repo.root, outcome, commit=True)
    repo.write("docs/guide.md", "# Guide\n\nA hard\nwrapped paragraph, see [Redis](rfc/proposed/2022-02-02-use-redis.md).\n")
    repo.commit("guide")
    return repo


_PLANS: dict[str, object] = {}


def _migrate(root: Path, key: str = "legacy") -> None:
    """The plan is computed once per template (the copies are alike) and applied to each copy."""
    if key not in _PLANS:
        _PLANS[key] = run(root, Options(today=TODAY))[1]
    apply(root, _PLANS[key], commit=True)  # type: ignore[arg-type]


def _migrate_symlinked_index(root: Path) -> None:
    _migrate(root, "symlinked index")


def _fix(root: Path) -> None:
    run_fix(root)


def _move(root: Path) -> None:
    lifecycle_move.move(root, "use-redis", "implemented", "benchmarks", TODAY)


def _new(root: Path) -> None:
    lifecycle_new.create(root, "Use SQLite", "proposed", None, TODAY)


def _init(root: Path) -> None:
    """The config differs (replaced: --force), the hook config and the workflow (in new folders) are created."""
    adopt.apply(adopt.plan_init(root, adopt.InitOptions(hooks=True, force=True)))


OPERATIONS: dict[str, tuple[Callable[[Path], GitRepo], Callable[[Path], None]]] = {
    "migrate": (_legacy_repo, _migrate),
    "fix": (_migrated_repo, _fix),
    "move": (_migrated_repo, _move),
    "new": (_migrated_repo, _new),
    "init": (_legacy_repo, _init),
    "migrate, symlinked index": (_symlinked_index_repo, _migrate_symlinked_index),
}


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One repository per operation, built once and copied for every k."""
    with pytest.MonkeyPatch.context() as patch:
        from tests.gitutil import isolate_git_environ

        isolate_git_environ(patch)
        base = tmp_path_factory.mktemp("templates")
        built = {"legacy": _legacy_repo(base / "legacy").root}
        built["migrated"] = _migrated_repo(base / "migrated").root
        built["symlinked"] = _symlinked_index_repo(base / "symlinked").root
    which = {"migrate": "legacy", "init": "legacy", "migrate, symlinked index": "symlinked"}
    return {name: built[which.get(name, "migrated")] for name in OPERATIONS}


def _copy(template: Path, target: Path) -> Path:
    shutil.copytree(template, target, symlinks=True)
    return target


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    monkeypatch.setattr(writer, "mutation_point", lambda kind, path: calls.append(kind))
    return calls


FAULTS: list[Callable[[Path], BaseException]] = [
    lambda path: RuntimeError("injected"),
    lambda path: OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path)),
    lambda path: OSError(errno.EACCES, os.strerror(errno.EACCES), str(path)),
]


def _failing(monkeypatch: pytest.MonkeyPatch, k: int, *, persistent: bool = False) -> None:
    seen = 0

    def point(kind: str, path: Path) -> None:
        nonlocal seen
        seen += 1
        if seen == k or (persistent and seen > k):
            raise FAULTS[k % len(FAULTS)](path)

    monkeypatch.setattr(writer, "mutation_point", point)


def _probe(
    name: str, templates: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], State]:
    """The operation run once without faults: the mutations it makes, and the state it leaves.
    The copy's state before is its template's (the loops compare each copy with it)."""
    probe = _copy(templates[name], tmp_path / "probe")
    before = state(probe)
    assert before == state(templates[name])
    with monkeypatch.context() as patch:
        calls = _counting(patch)
        OPERATIONS[name][1](probe)
    after = state(probe)
    assert after != before  # the operation does change something
    return calls, after


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_a_failure_at_every_step_leaves_the_repository_exactly_as_it_was(
    name: str, templates: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    operation = OPERATIONS[name][1]
    calls, after = _probe(name, templates, tmp_path, monkeypatch)
    assert len(calls) >= 5, calls
    assert name != "migrate" or "symlink" in calls  # docs/latest is retargeted, k covers it
    completed = []
    before = state(templates[name])  # each copy's, as copytree keeps bytes, modes, links and the index
    for k in range(1, len(calls) + 1):
        root = _copy(templates[name], tmp_path / f"k{k}")
        with monkeypatch.context() as patch:
            _failing(patch, k)
            try:
                operation(root)
            except (DocsyncError, RuntimeError):
                assert state(root) == before, f"{name}: failing mutation {k} of {len(calls)} ({calls[k - 1]})"
            else:  # only tidying after the run counted as done failed
                completed.append(k)
                assert state(root) == after, f"{name}: mutation {k} failed after the end"
        assert transaction.pending(root / ".git") is None
        shutil.rmtree(root)
    assert completed == list(range(len(calls) - len(completed) + 1, len(calls) + 1))


@pytest.mark.parametrize("name", ["migrate", "move", "init"])
def test_a_disk_that_stays_full_keeps_the_journal_and_abort_restores(
    name: str, templates: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    operation = OPERATIONS[name][1]
    calls, after = _probe(name, templates, tmp_path, monkeypatch)
    kept = 0
    before = state(templates[name])
    for k in range(1, len(calls) + 1, 3):
        root = _copy(templates[name], tmp_path / f"k{k}")
        with monkeypatch.context() as patch:
            _failing(patch, k, persistent=True)
            try:
                operation(root)
            except (DocsyncError, RuntimeError) as exc:
                raised: BaseException | None = exc
            else:
                raised = None
        if raised is None:  # the disk filled after the run counted as done
            assert state(root) == after
        elif transaction.pending(root / ".git") is not None:
            kept += 1
            told = str(raised) + "".join(getattr(raised, "__notes__", []))
            assert "could not restore" in told and f"docsync {name} --abort" in told
            with pytest.raises(DocsyncError, match=f"docsync {name} --abort"):
                transaction.refuse_pending(root / ".git")
            transaction.abort(root, name)
        assert raised is None or state(root) == before, f"{name}: disk full from mutation {k}"
        shutil.rmtree(root)
    assert kept > 0  # some rollbacks did need the journal
