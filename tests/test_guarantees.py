"""One clear line, never a traceback: every fault the attack found, through the CLI.

Each case builds its fault in a small real repository (a migrated record
tree), runs one command, and asserts the exit code, that stderr is one line
naming what went wrong, and that no traceback escaped. Then containment
(nothing outside the repository, nothing through a symlink), the journal's
refusal, writing only what was read, and output that cannot be forged.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from docsync.check import fix as checks
from docsync.cli import app
from docsync.config import parse_table
from docsync.errors import ConfigError, DocsyncError
from docsync.lifecycle import new as lifecycle_new
from docsync.migrate.apply.apply import apply
from docsync.migrate.run import Options, run
from docsync.write import snapshot, transaction, writer
from tests import forked
from tests.gitutil import GitRepo, git, git_environ

runner = CliRunner()
TODAY = date(2026, 12, 1)
RECORDS = {
    "docs/adr/0001-use-postgres.md": "# ADR 0001: Use Postgres\n\nStatus: accepted\n\nSee ADR 0002.\n",
    "docs/adr/0002-use-redis.md": "# ADR 0002: Use Redis\n\nStatus: proposed\n\nAfter ADR 0001.\n",
    "README.md": "# Project\n\nRead [the first decision](docs/adr/0001-use-postgres.md).\n",
}
HARD_WRAPPED = "# Guide\n\nA hard\nwrapped paragraph.\n"


@pytest.fixture
def legacy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GitRepo]:
    repo = GitRepo.holding(tmp_path / "repo", RECORDS, "records", when="2022-02-02 10:00:00", tz="+0100")
    monkeypatch.chdir(repo.root)
    yield repo


@pytest.fixture
def migrated(legacy: GitRepo) -> GitRepo:
    _, outcome = run(legacy.root, Options(today=TODAY))
    apply(legacy.root, outcome, commit=True)
    legacy.write("docs/guide.md", HARD_WRAPPED)
    legacy.commit("guide")
    return legacy


def _one_line(result: Result) -> str:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert "Traceback" not in result.output + result.stderr
    assert len(lines) == 1, result.stderr
    return lines[0]


def _fail_at(monkeypatch: pytest.MonkeyPatch, kind: str, error: BaseException) -> None:
    def point(seen: str, path: Path) -> None:
        if seen == kind and ".git" not in path.parts:
            raise error

    monkeypatch.setattr(writer, "mutation_point", point)


@dataclass(frozen=True)
class Case:
    name: str
    repo: str  # "legacy" or "migrated"
    prepare: Callable[[GitRepo, pytest.MonkeyPatch], list[str]]
    code: int
    says: str


def _plan(text: bytes) -> Callable[[GitRepo, pytest.MonkeyPatch], list[str]]:
    def prepare(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
        (repo.root.parent / "plan.toml").write_bytes(text)
        return ["migrate", "--apply", "--plan", str(repo.root.parent / "plan.toml")]

    return prepare


def _config(text: str, *command: str) -> Callable[[GitRepo, pytest.MonkeyPatch], list[str]]:
    def prepare(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
        repo.write(".docsync.toml", text)
        return list(command)

    return prepare


def _os_error(number: int, kind: str, *command: str) -> Callable[[GitRepo, pytest.MonkeyPatch], list[str]]:
    def prepare(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
        full = str(repo.root / "docs" / "guide.md")
        _fail_at(monkeypatch, kind, OSError(number, os.strerror(number), full))
        return list(command)

    return prepare


def _interrupt_at(kind: str, *command: str) -> Callable[[GitRepo, pytest.MonkeyPatch], list[str]]:
    def prepare(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
        _fail_at(monkeypatch, kind, KeyboardInterrupt())
        return list(command)

    return prepare


def _interrupt_before(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    def stop(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(checks, "load_workspace", stop)
    return ["fix"]


def _interrupt_after(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    import docsync.commandline.output

    def stop(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(docsync.commandline.output, "fix_report", stop)
    return ["fix"]


def _interrupt_after_move(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from docsync.lifecycle import move as lifecycle_move

    done = lifecycle_move.move

    def move_then_ctrl_c(*args: object, **kwargs: object) -> None:
        done(*args, **kwargs)  # type: ignore[arg-type]
        raise KeyboardInterrupt

    monkeypatch.setattr(lifecycle_move, "move", move_then_ctrl_c)
    return ["move", "use-redis", "implemented"]


def _interrupt_after_init(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from docsync.adopt import plan

    def stop(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(plan, "describe", stop)
    return ["init", "--hooks"]


def _outside_the_cone(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    git(repo.root, "sparse-checkout", "set", "--no-cone", "docs/rfc/")
    assert not (repo.root / "README.md").exists()
    return ["check"]


def _long_slug(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return ["new", "word " * 60]


def _missing_file(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    (repo.root / "docs" / "guide.md").unlink()
    return ["check", "--gate", "wrap"]


def _long_tracked_name(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    sha = subprocess.run(
        ["git", "hash-object", "-w", "--stdin"], cwd=repo.root, input=b"# x\n",
        capture_output=True, check=True, env=git_environ(),
    ).stdout.decode().strip()
    git(repo.root, "update-index", "--add", "--cacheinfo", f"100644,{sha},{'n' * 300}.md")
    return ["check", "--gate", "wrap"]


def _pending(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    txn = transaction.Transaction.begin(repo.root, "migrate", {}, ["README.md"])
    del txn  # a run killed here leaves its journal
    return ["fix"]


CASES = [
    Case("plan not UTF-8", "legacy", _plan(b"version = 1\ntarget = \"\xff\"\n"), 2, "not valid UTF-8"),
    Case("plan date a TOML datetime", "legacy", _plan(
        b'version = 1\ntarget = "docs/rfc"\n[[topic]]\nslug = "x"\ndate = 2020-01-01T10:00:00\n'
        b'sources = ["docs/adr/0001-use-postgres.md"]\n'), 2, "'date' must be a day"),
    Case("plan version of 5,001 digits", "legacy", _plan(b"version = " + b"9" * 5001 + b"\n"), 2, "out of range"),
    Case("config int of 5,001 digits", "migrated", _config("jobs = " + "9" * 5001 + "\n", "fix"), 2, "out of range"),
    Case("config datetime for wrap", "migrated", _config("wrap = 1979-05-27T07:32:00Z\n", "fix"), 2, "key 'wrap'"),
    Case("config target outside", "migrated", _config('target = "../escape-target"\n', "new", "X"), 2, "inside the repository"),
    Case("config state with a slash", "migrated", _config('states = { proposed = "../p", implemented = "i", rejected = "r" }\n', "new", "X"), 2, "key 'states'"),
    Case("ENOSPC during fix", "migrated", _os_error(errno.ENOSPC, "replace", "fix"), 2, "docs/guide.md: the disk is full"),
    Case("EACCES during fix", "migrated", _os_error(errno.EACCES, "write", "fix"), 2, "permission denied"),
    Case("EPERM (immutable) during move", "migrated", _os_error(errno.EPERM, "rename", "move", "use-redis", "implemented"), 2, "not permitted"),
    Case("EPERM (immutable) during new", "migrated", _os_error(errno.EPERM, "replace", "new", "Use SQLite"), 2, "not permitted"),
    Case("ENAMETOOLONG during new", "migrated", _os_error(errno.ENAMETOOLONG, "replace", "new", "Use SQLite"), 2, "too long"),
    Case("ENOENT during migrate", "legacy", _os_error(errno.ENOENT, "rename", "migrate", "--apply"), 2, "no such file"),
    Case("a slug over 255 bytes", "migrated", _long_slug, 2, "too long for the file system"),
    Case("a tracked file missing on disk", "migrated", _missing_file, 0, ""),
    Case("a tracked name over 255 bytes", "migrated", _long_tracked_name, 0, ""),
    Case("Ctrl-C midway through fix", "migrated", _interrupt_at("replace", "fix"), 130, "interrupted; every change was undone"),
    Case("Ctrl-C midway through move", "migrated", _interrupt_at("rename", "move", "use-redis", "implemented"), 130, "interrupted; every change was undone"),
    Case("Ctrl-C before fix changed anything", "migrated", _interrupt_before, 130, "before anything was changed"),
    Case("Ctrl-C after fix had finished", "migrated", _interrupt_after, 130, "had finished"),
    Case("Ctrl-C after move had finished", "migrated", _interrupt_after_move, 130, "had finished"),
    Case("Ctrl-C after init had finished", "migrated", _interrupt_after_init, 130, "had finished"),
    Case("EPERM (immutable) during migrate", "legacy", _os_error(errno.EPERM, "rename", "migrate", "--apply"), 2, "not permitted"),
    Case("a tracked file outside the sparse cone", "migrated", _outside_the_cone, 0, ""),
    Case("a journal a killed run left", "migrated", _pending, 2, "docsync migrate --abort"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_fault_is_one_line_and_no_traceback(
    case: Case, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo: GitRepo = request.getfixturevalue(case.repo)
    args = case.prepare(repo, monkeypatch)
    result = runner.invoke(app, args)
    if case.code == 0:  # not an error: the file is not there to check (exit 0, or 1 for findings)
        assert result.exit_code in (0, 1), result.output + result.stderr
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output + result.stderr
        return
    assert result.exit_code == case.code, result.output + result.stderr
    line = _one_line(result)
    assert case.says in line
    if case.code == 130:
        assert ("interrupted" in line) == ("undone" in line)  # said only when something was undone


def test_git_missing_from_path_is_one_line(legacy: GitRepo) -> None:
    env = {**git_environ(), "PATH": str(legacy.root / "nothing-here")}
    done = subprocess.run(
        [sys.executable, "-m", "docsync", "check"], cwd=legacy.root, env=env,
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "docsync: error: git is not installed or not on PATH; install git, then run docsync again"
    ]


_CTRL_C_WHILE_IMPORTING = """
import sys
AT = sys.argv[1]
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == AT:
            raise KeyboardInterrupt
sys.meta_path.insert(0, Interrupt())
sys.argv = ["docsync", *sys.argv[2:]]
from docsync.__main__ import run
run()
"""


@pytest.mark.parametrize("module", ["docsync.cli", "typer", "docsync.model", "docsync.repository.plumbing"])
def test_ctrl_c_while_starting_up_is_one_line(legacy: GitRepo, module: str) -> None:
    """A real process whose Ctrl-C arrives while ``module`` is being imported (the
    start-up, most of a short run): one line, exit 130, no traceback."""
    done = subprocess.run(
        [sys.executable, "-c", _CTRL_C_WHILE_IMPORTING, module, "check"], cwd=legacy.root,
        env=git_environ(), capture_output=True, text=True, check=False,
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip().splitlines() == ["docsync: stopped by Ctrl-C while starting; nothing was changed"]


def test_ctrl_c_while_gitpython_is_first_imported_is_one_line(legacy: GitRepo) -> None:
    """GitPython is imported when a command first needs it, past start-up (``migrate
    --apply`` writes through it; the dry run never imports it): a Ctrl-C then is still one
    line and exit 130."""
    done = subprocess.run(
        [sys.executable, "-c", _CTRL_C_WHILE_IMPORTING, "git", "migrate", "--apply"], cwd=legacy.root,
        env=git_environ(), capture_output=True, text=True, check=False,
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip().splitlines() == ["docsync: stopped by Ctrl-C before anything was changed"]


def test_a_slug_over_255_bytes_leaves_nothing_behind(migrated: GitRepo) -> None:
    """Refused before any change: no traceback, no empty folders, no journal."""
    before = _full_state(migrated.root)
    folders = sorted(p for p in migrated.root.rglob("*") if p.is_dir() and ".git" not in p.parts)
    result = runner.invoke(app, ["new", "word " * 60])
    assert result.exit_code == 2 and "too long for the file system" in _one_line(result)
    assert _full_state(migrated.root) == before
    assert sorted(p for p in migrated.root.rglob("*") if p.is_dir() and ".git" not in p.parts) == folders
    assert transaction.pending(migrated.root / ".git") is None


def test_fix_that_cannot_replace_one_of_three_files_restores_all_three(
    migrated: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second of three replaces fails: the first is put back too, the third never
    written; one line naming the file, no traceback."""
    for name in ("a", "b", "c"):
        migrated.write(f"docs/{name}.md", HARD_WRAPPED)
    migrated.commit("three hard-wrapped files")
    before = _full_state(migrated.root)
    replaced: list[str] = []

    def point(kind: str, path: Path) -> None:
        if kind == "replace" and ".git" not in path.parts:
            replaced.append(path.name)
            if len(replaced) == 2:
                raise OSError(errno.EACCES, os.strerror(errno.EACCES), str(path))

    monkeypatch.setattr(writer, "mutation_point", point)
    result = runner.invoke(app, ["fix"])
    assert result.exit_code == 2
    line = _one_line(result)
    assert replaced[1] in line and "permission denied" in line and "every change was undone" in line
    assert len([n for n in replaced if n.endswith(".md")]) >= 2
    monkeypatch.undo()
    assert _full_state(migrated.root) == before


def test_a_failed_git_command_shows_its_first_line_without_hints() -> None:
    from docsync.repository.git_output import first_line

    stderr = "stderr: 'The following paths are ignored:\ndocs/AGENTS.md\nhint: Use -f\nhint: Turn this off'"
    assert first_line(stderr) == "The following paths are ignored:"


# --------------------------------------------------------------------------- containment


def _outside(root: Path) -> set[str]:
    return {p.name for p in root.parent.iterdir()}


def test_a_tree_that_is_a_symlink_to_an_outside_folder_is_refused_before_any_change(
    legacy: GitRepo,
) -> None:
    outside = legacy.root.parent / "outside"
    outside.mkdir()
    (legacy.root / "docs" / "rfc").symlink_to(outside)
    legacy.git("add", "docs/rfc")
    legacy.commit("tree is a link")
    head, status = legacy.head(), legacy.git("status", "--porcelain")
    result = runner.invoke(app, ["migrate", "--apply"])
    assert result.exit_code == 2
    line = _one_line(result)  # refused where the config meets the repository, or by the writer's guard
    assert "'docs/rfc' leads out of the repository" in line or "docs/rfc is a symlink" in line
    assert list(outside.iterdir()) == []
    assert (legacy.head(), legacy.git("status", "--porcelain")) == (head, status)


def test_a_symlinked_conventions_doc_is_never_written_through(legacy: GitRepo) -> None:
    (legacy.root / "AGENTS.md").write_text("# Agents\n\nHand-written text.\n")
    (legacy.root / "docs" / "AGENTS.md").symlink_to("../AGENTS.md")
    legacy.commit("conventions doc is a link")
    result = runner.invoke(app, ["migrate", "--apply"])
    assert result.exit_code == 2
    assert "docs/AGENTS.md is a symlink (to ../AGENTS.md)" in _one_line(result)
    assert (legacy.root / "AGENTS.md").read_text() == "# Agents\n\nHand-written text.\n"
    assert os.readlink(legacy.root / "docs" / "AGENTS.md") == "../AGENTS.md"
    assert legacy.git("status", "--porcelain") == ""


def test_a_tracked_symlink_moves_as_a_symlink_pointing_where_it_did(tmp_path: Path) -> None:
    root = tmp_path / "r"
    (root / "a").mkdir(parents=True)
    (root / "target.md").write_text("x\n")
    (root / "a" / "link.md").symlink_to("../target.md")
    writer.rename(root, "a/link.md", "b/c/link.md")
    assert os.readlink(root / "b" / "c" / "link.md") == "../../target.md"
    assert (root / "b" / "c" / "link.md").read_text() == "x\n"


def test_rollback_puts_back_symlinks_modes_and_absence_and_continues_past_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "r"
    root.mkdir()
    (root / "plain.md").write_text("plain\n")
    (root / "secret.md").write_text("secret\n")
    (root / "secret.md").chmod(0o600)
    (root / "link.md").symlink_to("plain.md")
    before = snapshot.snapshot(root, ["plain.md", "secret.md", "link.md", "new/deep/file.md"])
    (root / "link.md").unlink()
    (root / "secret.md").write_text("changed\n")
    (root / "secret.md").chmod(0o644)
    (root / "plain.md").write_text("changed\n")
    (root / "new" / "deep").mkdir(parents=True)
    (root / "new" / "deep" / "file.md").write_text("created\n")

    def failing(kind: str, path: Path) -> None:
        if path.name == "plain.md" and kind == "write":
            raise OSError(errno.EIO, "I/O error", str(path))

    monkeypatch.setattr(writer, "mutation_point", failing)
    failed = snapshot.restore(root, before)
    assert [f.path for f in failed] == ["plain.md"]
    assert "input/output error" in failed[0].reason
    assert os.readlink(root / "link.md") == "plain.md"
    assert (root / "secret.md").read_text() == "secret\n"
    assert (root / "secret.md").stat().st_mode & 0o777 == 0o600
    assert not (root / "new").exists()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.sampled_from(["..", ".", "a", "b", "/", "..%2f", "x" * 256, "\0", "docs", ""]),
        min_size=1,
        max_size=5,
    )
)
def test_nothing_is_ever_created_outside_the_root(tmp_path: Path, parts: list[str]) -> None:
    """Random paths (as a plan or config might spell them) through every mutation."""
    root = tmp_path / "root"
    root.mkdir(exist_ok=True)
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "out").unlink(missing_ok=True)
    (root / "docs" / "out").symlink_to(tmp_path)
    around = set(os.listdir(tmp_path))
    path = "/".join(parts)
    for attempt in (
        lambda: writer.write_atomic(root, writer.FileWrite(path, "x\n")),
        lambda: writer.write_atomic(root, writer.FileWrite(f"docs/out/{path}", "x\n")),
        lambda: writer.rename(root, "docs/out", path),
        lambda: writer.remove(root, f"docs/out/{path}"),
    ):
        with contextlib.suppress(DocsyncError, OSError):
            attempt()
    assert set(os.listdir(tmp_path)) == around


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.sampled_from(["..", ".", "docs", "out", "rfc", "", "x" * 256]), min_size=1, max_size=4).map("/".join),
    st.lists(st.sampled_from(["Use", "a", "/", "..", ".", "\0", " ", "x" * 130, "\\"]), min_size=1, max_size=6).map("".join),
)
@example("docs/rfc", "Use a")  # written, inside
@example("docs/out", "Use a")  # through the symlink: refused
@example("docs/out/..", "Use a")
def test_random_configs_and_titles_never_create_anything_outside_the_root(
    tmp_path: Path, target: str, title: str
) -> None:
    """A config's ``target`` and a record's title, at random (``docs/out`` is a symlink to a
    folder outside): ``docsync new`` is refused or writes inside the repository, never outside."""
    base = tmp_path / str(len(os.listdir(tmp_path)))
    outside = base / "outside"
    outside.mkdir(parents=True)
    repo = GitRepo.init(base / "root")
    repo.write(".docsync.toml", f"target = {json.dumps(target)}\ncache = false\n")
    (repo.root / "docs").mkdir()
    (repo.root / "docs" / "out").symlink_to(outside)
    repo.commit("config")
    with contextlib.suppress(DocsyncError, OSError):
        lifecycle_new.create(repo.root, title, "proposed", None, TODAY)
    assert sorted(os.listdir(base)) == ["outside", "root"]
    assert os.listdir(outside) == []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["..", "/", "a", "\0", "\\", "."]), max_size=8).map("".join))
def test_config_paths_outside_the_repository_are_refused_at_load(value: str) -> None:
    for key in ("target", "conventions"):
        try:
            config = parse_table({key: value}, ".docsync.toml")
        except ConfigError:
            continue
        chosen = getattr(config, key)
        assert ".." not in chosen.split("/") and not chosen.startswith("/") and "\0" not in chosen


# --------------------------------------------------------------------------- write only what was read


def test_a_file_saved_while_fix_runs_is_not_overwritten(
    migrated: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = "# Guide\n\nThe editor's\nsave.\n"
    real = checks.load_workspace
    calls = 0

    def save_after_read(*args: object, **kwargs: object) -> object:
        nonlocal calls
        workspace = real(*args, **kwargs)  # type: ignore[arg-type]
        calls += 1
        if calls == 1:
            (migrated.root / "docs" / "guide.md").write_text(saved)
        return workspace

    monkeypatch.setattr(checks, "load_workspace", save_after_read)
    result = runner.invoke(app, ["fix"])
    assert result.exit_code == 1
    assert "docs/guide.md changed on disk while fix ran; not overwritten" in result.stderr
    assert (migrated.root / "docs" / "guide.md").read_text() == saved


def test_a_later_run_removes_the_temp_files_a_killed_run_left(migrated: GitRepo) -> None:
    stale = migrated.root / "docs" / ".guide.md.ab12cd_9.docsync"
    stale.write_text("half")
    assert runner.invoke(app, ["fix"]).exit_code == 0
    assert not stale.exists()


# --------------------------------------------------------------------------- the journal, for real


def _full_state(root: Path) -> tuple[str, str, dict[str, tuple[bytes, int]]]:
    files = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in names:
            full = Path(folder, name)
            files[full.relative_to(root).as_posix()] = (full.read_bytes(), full.lstat().st_mode)
    return git(root, "rev-parse", "HEAD"), git(root, "ls-files", "-s"), files


def test_sigkill_at_many_points_then_abort_restores_everything(legacy: GitRepo) -> None:
    """A real ``docsync migrate --apply --commit`` process SIGKILLed at its k-th
    mutation (a journal write, a rename, a git command, a file replace, ...);
    then the journal is there, every other command refuses naming
    ``--abort``, and ``--abort`` restores HEAD, the index and every file's
    bytes and mode. A k past the last mutation lets the run finish."""
    clean = legacy.clone(legacy.root.parent / "clean")
    pristine = clean.clone(legacy.root.parent / "pristine")  # as each kill's clone was, copied
    aborted = []
    for k in (3, 18, 24, 30, 36, 80):
        root = legacy.root.parent / f"kill{k}"
        pristine.copy(root)
        before = _full_state(root)
        killed = _killed_at(root, k, "migrate", "--apply", "--commit")
        if killed.returncode == 0:
            assert git(root, "status", "--porcelain") == ""
            continue
        assert killed.returncode == -signal.SIGKILL
        if transaction.pending(root / ".git") is None:
            # killed before its journal existed, or after the run counted as done
            if _full_state(root) != before:
                assert git(root, "status", "--porcelain") == ""
                assert len(git(root, "log", "--format=%H").split()) == 3
            continue
        aborted.append(k)
        refused = _docsync(root, "fix")
        assert refused.returncode == 2 and "docsync migrate --abort" in refused.stderr
        assert "docsync migrate --continue" in refused.stderr
        undo = _docsync(root, "migrate", "--abort")
        assert undo.returncode == 0, undo.stderr
        assert _full_state(root) == before, f"killed at mutation {k}"
    assert len(aborted) >= 3, aborted


def test_continue_finishes_what_a_killed_run_began(legacy: GitRepo) -> None:
    """A journal as a kill leaves it (changes half made); --continue undoes and finishes."""
    _, outcome = run(legacy.root, Options(today=TODAY))
    redo = {
        "sources": [], "target": None, "plan_file": None, "adoption_record": True,
        "today": TODAY.isoformat(), "apply": True, "commit": True, "allow_dirty": False,
    }
    txn = transaction.Transaction.begin(legacy.root, "migrate", redo, outcome.changes.touched)
    txn.move(list(outcome.changes.moves))  # ...and the process dies here
    txn.release()  # as the kernel drops a dead process's lock
    result = runner.invoke(app, ["migrate", "--continue"])
    assert result.exit_code == 0, result.stderr
    assert transaction.pending(legacy.root / ".git") is None
    assert legacy.git("status", "--porcelain") == ""
    assert len(legacy.git("log", "--format=%H").split()) == 3
    assert runner.invoke(app, ["check"]).exit_code == 0


def _killed_at(root: Path, k: int, *args: str) -> subprocess.CompletedProcess[str]:
    """A real ``docsync *args`` process in ``root``, SIGKILLed at its k-th guarded mutation
    (forked from a parent that imported docsync once: :mod:`tests.forked`); a run that
    ends first says on stderr how many mutations it passed (``mutations=N``)."""
    return forked.docsync(root, *args, kill_at=k, count=True)


def _docsync(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A real ``python -m docsync *args`` process in ``root`` (forked: :mod:`tests.forked`)."""
    return forked.docsync(root, *args)


def test_fix_continue_runs_with_the_config_the_killed_fix_was_given(migrated: GitRepo) -> None:
    """``fix --config X`` killed mid-way: ``fix --continue`` (without --config)
    finishes with X, as the interrupted run would have, not with the repository's config."""
    narrow = migrated.root.parent / "narrow.toml"
    narrow.write_text("wrap = 20\n")
    reference = migrated.clone(migrated.root.parent / "reference")
    finished = _docsync(reference.root, "fix", "--config", str(narrow))
    assert finished.returncode == 1, finished.stderr  # a generated index line stays over 20 columns
    wanted = _full_state(reference.root)
    default = migrated.clone(migrated.root.parent / "default")
    _docsync(default.root, "fix")
    assert _full_state(default.root) != wanted  # the test tells the two configs apart
    pristine = migrated.clone(migrated.root.parent / "pristine")  # as each k's clone was, copied
    for k in range(1, 30):
        root = pristine.copy(migrated.root.parent / f"fix{k}").root
        killed = _killed_at(root, k, "fix", "--config", str(narrow))
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        if transaction.pending(root / ".git") is not None:
            break
    else:
        pytest.fail("no kill left a journal")
    assert transaction.pending(root / ".git").redo["config"] == str(narrow)  # type: ignore[union-attr]
    done = _docsync(root, "fix", "--continue")
    assert done.returncode == finished.returncode, done.stderr
    assert _full_state(root) == wanted


INIT = ("init", "--hooks", "--force")


def test_init_sigkilled_at_every_mutation_is_aborted_or_continued(legacy: GitRepo) -> None:
    """``docsync init`` writes through the same journal: a real process SIGKILLed
    at its k-th mutation, for every k, leaves either nothing changed, or its
    whole result, or a journal; then other commands refuse naming
    ``docsync init --abort``, and ``--abort`` restores every byte and mode
    (odd k) while ``--continue`` ends exactly as an uninterrupted run (even k)."""
    legacy.write(".docsync.toml", "cache = false\n")  # replaced (--force): its bytes are journalled
    legacy.commit("config")
    clean = legacy.clone(legacy.root.parent / "clean")
    reference = clean.clone(legacy.root.parent / "reference")
    pristine = clean.clone(legacy.root.parent / "pristine")  # as each k's clone was, copied
    before = _full_state(reference.root)
    counted = _killed_at(reference.root, 10**9, *INIT)
    assert counted.returncode == 0, counted.stderr
    after = _full_state(reference.root)
    assert after != before
    total = int(counted.stderr.rsplit("mutations=", 1)[1])
    assert total >= 10
    journalled = []
    for k in range(1, total + 1):
        root = pristine.copy(legacy.root.parent / f"init{k}").root
        killed = _killed_at(root, k, *INIT)
        assert killed.returncode == -signal.SIGKILL, (k, killed.stderr)
        if transaction.pending(root / ".git") is None:  # before the journal, or after the end
            assert _full_state(root) in (before, after), f"killed at mutation {k}"
            continue
        journalled.append(k)
        if len(journalled) == 1:
            refused = _docsync(root, "fix")
            assert refused.returncode == 2 and "docsync init --abort" in refused.stderr
            assert "docsync init --continue" in refused.stderr
        with pytest.raises(DocsyncError, match="docsync init --abort"):
            transaction.refuse_pending(root / ".git")
        if k % 2:
            undo = _docsync(root, "init", "--abort")
            assert undo.returncode == 0, undo.stderr
            assert _full_state(root) == before, f"killed at mutation {k}, then --abort"
        else:
            redo = _docsync(root, "init", "--continue")
            assert redo.returncode == 0, redo.stderr
            assert _full_state(root) == after, f"killed at mutation {k}, then --continue"
        assert transaction.pending(root / ".git") is None
    assert len(journalled) >= 5, (journalled, total)


# --------------------------------------------------------------------------- output that cannot be forged

HOSTILE = "evil\x1b]0;owned\x07\x1b[2J\x9b31m\u202egnp.md\nsrc/a.md:1:1: L001 forged"
TARGET = "missing-\x1b]0;owned\x07\x1b[2J\x9b31m\u202egnp.md"
NAME = "ev\x1b[2Jil\u202e\na.md:1:1: L001 forged.md"


def test_control_characters_in_names_and_links_are_shown_as_escapes(
    migrated: GitRepo,
) -> None:
    migrated.write("docs/notes.md", f"# Notes\n\nSee [x](<{TARGET}>).\n")
    (migrated.root / "docs" / NAME).write_text("# Named\n\nSee [x](missing.md).\n")
    for args in (["check"], ["check", "--format", "github"], ["fix"]):
        result = runner.invoke(app, args)
        shown = result.output + result.stderr
        for char in ("\x1b", "\x07", "\x9b", "\u202e"):
            assert char not in shown, (args, char)
        assert not [line for line in shown.splitlines() if line.startswith("a.md:1:1")]
        assert "\\x1b[2J" in shown, args
    assert "\\x1b]0;owned" in runner.invoke(app, ["check"]).output


def test_json_output_keeps_the_value_but_escapes_what_a_terminal_would_act_on() -> None:
    import json

    from docsync.model import Finding
    from docsync.report.formats import as_json

    text = as_json(1, [Finding("links", "L001", "a.md", 1, 1, HOSTILE)])
    assert not set(text) & {"\x1b", "\x9b", "\u202e"}
    assert json.loads(text)["findings"][0]["message"] == HOSTILE


@pytest.mark.skipif(
    subprocess.run(["which", "tmux"], capture_output=True, check=False).returncode != 0
    and not os.environ.get("CI"),
    reason="tmux is not installed (.ci/run installs it, and under CI this test always runs)",
)
def test_a_terminal_shows_no_effect_of_the_sequences(migrated: GitRepo) -> None:
    migrated.write("docs/notes.md", f"# Notes\n\nSee [x](<{TARGET}>).\n")
    session = f"docsync-{os.getpid()}"
    command = f"{sys.executable} -m docsync check; sleep 5"
    env = {**git_environ(), "TERM": "xterm-256color"}
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "200", "-y", "50", command],
        cwd=migrated.root, env=env, check=True,
    )
    try:
        screen = ""
        for _ in range(50):
            time.sleep(0.2)
            screen = subprocess.run(
                ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True,
                check=True,
            ).stdout
            if "finding" in screen:
                break
        title = subprocess.run(
            ["tmux", "display-message", "-p", "-t", session, "#{pane_title}"],
            capture_output=True, text=True, check=True,
        ).stdout
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)
    assert "finding" in screen  # the report is on the screen: nothing cleared it
    assert "\\x1b]0;owned" in screen
    assert "owned" not in title


# --------------------------------------------------------------------------- ignored and sparse paths


def test_an_ignored_conventions_doc_is_staged_deliberately_and_said(legacy: GitRepo) -> None:
    legacy.write(".gitignore", "AGENTS.md\n")
    legacy.commit("ignore agents files")
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.stderr
    assert "note: docs/AGENTS.md is ignored by .gitignore; staged it deliberately (git add -f)" in result.stderr
    assert "docs/AGENTS.md" in legacy.git("ls-files")
    assert legacy.git("status", "--porcelain") == ""


def test_a_sparse_checkout_is_refused_before_any_change(migrated: GitRepo) -> None:
    migrated.git("config", "core.sparseCheckout", "true")
    head = migrated.head()
    result = runner.invoke(app, ["move", "use-redis", "implemented"])
    assert result.exit_code == 2
    assert "sparse checkout" in _one_line(result)
    assert migrated.head() == head and migrated.git("status", "--porcelain") == ""
