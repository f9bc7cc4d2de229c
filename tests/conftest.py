"""Every test runs git, in-process (GitPython) or as a subprocess, isolated from the machine.

Inherited ``GIT_*`` variables (set when the suite runs inside a git hook) and
the user's and system's git config would otherwise leak into the
repositories the tests build; see :mod:`tests.gitutil`.
"""

from __future__ import annotations

import compileall
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer.main
import typer.testing

from tests.gitutil import GitRepo, isolate_git_environ

SOURCE = Path(__file__).resolve().parents[1] / "src" / "docsync"

# pytest rewrites the asserts of every test module as it imports it, and keeps the result as
# bytecode only where bytecode is written: under ``PYTHONDONTWRITEBYTECODE`` each test
# process would rewrite all of them again (most of a collection's 9 s of CPU).
sys.dont_write_bytecode = False


def pytest_configure(config: pytest.Config) -> None:
    """docsync's bytecode, compiled once before the test processes start (up to date, this
    is a check of each file's time). Where ``PYTHONDONTWRITEBYTECODE`` is set, as on the
    project's machine, no process writes it, and every ``docsync`` process a test starts
    (a few hundred) would compile the package again: a third of a short run's CPU."""
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(SOURCE, quiet=1)
        _temporary_files_in_memory()


_BUILT: dict[tuple[int, ...], tuple[object, object]] = {}


def _command_built_once(typer_app: typer.Typer) -> object:
    """typer's click command for ``typer_app``, built once per test process.

    ``CliRunner.invoke`` turns the whole app into a click group on every call: every
    command's signature read into options, about 25 ms of CPU, more than many of the runs it
    precedes (the suite invokes the app some thousands of times). The group it builds is
    the same each time (the same registered functions, no state between runs: click makes a
    new context per run), so it is kept, keyed by the app and what is registered on it."""
    key = (id(typer_app), id(typer_app.registered_callback),
           *(id(c) for c in typer_app.registered_commands), *(id(g) for g in typer_app.registered_groups))
    if key not in _BUILT:
        _BUILT[key] = (typer_app, typer.main.get_command(typer_app))  # the app kept: its id stays its own
    return _BUILT[key][1]


typer.testing._get_command = _command_built_once  # type: ignore[attr-defined]


def _temporary_files_in_memory() -> None:
    """The suite builds and removes some 65,000 files (thousands of git repositories); on a
    disk file system, creating and unlinking them costs more than the tests' own work (a
    run's tree took 164 s to remove on the project's shared disk). Where the machine has a
    file system in memory (``/dev/shm``) and ``TMPDIR`` is not set, the temporary folders go
    there: pytest's ``tmp_path`` and ``tempfile``'s, in this process, the test processes it
    starts and every process they start (set before pytest-xdist starts its workers)."""
    shm = Path("/dev/shm")
    if "TMPDIR" in os.environ or not shm.is_dir() or not os.access(shm, os.W_OK | os.X_OK):
        return
    os.environ["TMPDIR"] = str(shm)
    tempfile.tempdir = None  # read TMPDIR again


# CPU seconds each test module took in a whole run (the tests' own and their processes'),
# measured on 2026-12-07 (07:26 UTC; the four modules whose kill runs are forked children,
# counted only as their worker ends, keep the earlier whole figure where it is larger);
# only the order matters, so it need not be current to the second.
MODULE_SECONDS = Path(__file__).with_name("durations.json")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The costliest modules first, each module's tests kept together and in their order.

    pytest-xdist's worksteal gives each worker a run of the collection and lets an idle
    worker take the end of another's queue; with the long modules (pre-commit environments,
    a fault at every step) at the front, what is left at the end is short tests, and no
    core waits on one long test at the tail. Modules not in the file go last, as found."""
    seconds: dict[str, float] = json.loads(MODULE_SECONDS.read_text()) if MODULE_SECONDS.exists() else {}
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::")[0], []).append(item)
    order = sorted(modules, key=lambda module: -seconds.get(module, 0.0))
    items[:] = [item for module in order for item in modules[module]]


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git_environ(monkeypatch)


@pytest.fixture(scope="session")
def _migration_start(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    """The repository every ``migration_repo`` starts as, built once per test process."""
    repo = GitRepo.init(tmp_path_factory.mktemp("migration") / "repo")
    repo.write("README.md", "# Project\n")
    repo.commit("start", when="2019-01-01 10:00:00")
    return repo


@pytest.fixture
def migration_repo(
    _migration_start: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[GitRepo]:
    """A repository with one commit (a README, on 2019-01-01), the working folder inside it:
    where the migrate tests write their legacy trees. A copy of one built per test process
    (the same commit: dates and identity are fixed), not three git processes per test."""
    repo = _migration_start.copy(tmp_path / "repo")
    monkeypatch.chdir(repo.root)
    yield repo
