"""A warm check replays its kept report (:mod:`docsync.commandline.replay`): byte for byte
what a run writes, for every format and option, never after any input changed, and never
from a report file that docsync did not keep as it is.

Runs are real ``docsync`` processes (forked, :mod:`tests.forked`, through
``docsync.__main__.run`` as the command starts). Belief is proven, not assumed: a replay
leaves the report file as it was (a run that checks replaces it), and a report planted
with the true key, the repository's signature and another body is what a run writes
only when it believes it. Files a test has just written are "racy" (changed within
:data:`RACY_SLACK_NS` of the run that kept the report), so a test that wants a report
believed ages it: it moves the file's mtime later, as if that run had come well after.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from docsync.commandline import replay, replay_key
from docsync.commandline.replay_key import MAGIC, RACY_SLACK_NS, asked, observe
from docsync.workspace import cache_key, notes
from tests.forked import docsync
from tests.gitutil import GitRepo, git_environ

PAGES = {
    ".docsync.toml": "wrap = 60\n",
    "README.md": "# Café\n\nRead [the guide](docs/guide.md#install) and [nothing](docs/nope.md).\n\n"
    "A line of prose that runs on well past sixty columns, so the wrap gate has a word.\n",
    "docs/guide.md": "# Guide\n\n## Install\n\nSee [missing](#nowhere) and [ok](#install).\n\n"
    "<!-- docsync-disable-next-line L001 -->\nA [silenced](gone.md) link.\n",
    "docs/ünï.md": "# Ünï\n\n[back](../README.md#café) and [x](../x.md \"t\\u001b[31m\").\n",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    return GitRepo.holding(tmp_path_factory.mktemp("replay") / "repo", PAGES)


def _slot(root: Path, argv: list[str], cwd: Path | None = None) -> Path:
    return replay_key.slot_file(root / ".git", argv, os.path.realpath(cwd or root))


def _age(file: Path, seconds: float = 10) -> None:
    """Move the report's mtime later: the run that kept it came ``seconds`` after every change."""
    later = os.stat(file).st_mtime_ns + int(seconds * 1e9)
    os.utime(file, ns=(later, later))


def _kept_and_replayed(root: Path, argv: list[str], cwd: Path | None = None) -> None:
    """A run that keeps its report, then one that replays it: the same bytes and code."""
    fresh = docsync(cwd or root, *argv)
    assert fresh.returncode in (0, 1), fresh.stderr
    kept = _slot(root, argv, cwd)
    _age(kept)
    before = os.stat(kept)
    again = docsync(cwd or root, *argv)
    after = os.stat(kept)
    assert (again.returncode, again.stdout, again.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns), "checked, not replayed"


OPTION_SETS = {
    "plain": [],
    "selected, quiet, exit zero, one gate": ["--select", "L001,W", "--quiet", "--exit-zero", "--gate", "links"],
}


@pytest.mark.parametrize("options", list(OPTION_SETS), ids=list(OPTION_SETS))
@pytest.mark.parametrize("form", replay_key.FORMATS)
def test_a_replayed_report_is_the_run_s_byte_for_byte(repo: GitRepo, form: str, options: str) -> None:
    _kept_and_replayed(repo.root, ["check", "--format", form, *OPTION_SETS[options]])


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--statistics"],
        ["check", "--verbose", "--format=json-lines"],
        ["check", "-f", "concise", "docs", "--ignore", "W"],
        ["check", "--config", ".docsync.toml", "-q", "-v"],
        ["check", "--gate", "links", "--gate", "wrap", "--", "README.md"],
        ["check", "--report-unused-suppressions", "--color", "never", "--format", "sarif"],
    ],
    ids=["statistics", "verbose", "a folder", "config named", "paths after --", "unused suppressions"],
)
def test_other_command_lines_replay_byte_for_byte(repo: GitRepo, argv: list[str]) -> None:
    _kept_and_replayed(repo.root, argv)


def test_a_report_run_from_a_folder_replays_its_own_paths(repo: GitRepo) -> None:
    _kept_and_replayed(repo.root, ["check"], cwd=repo.root / "docs")


def test_a_clean_tree_replays_its_exit_code(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "clean")
    repo.write("README.md", "# Clean\n\nNothing to see.\n")
    repo.commit()
    _kept_and_replayed(repo.root, ["check", "--format", "json"])


# --------------------------------------------------------------------------- misses


PLANTED = b"PLANTED REPORT\n"


def _plant(file: Path, key: str, body: bytes = PLANTED, header: object = None, age: float = 10) -> None:
    """A report in the layout docsync keeps, signed with the repository's real key."""
    head = json.dumps(header if header is not None else {"key": key, "code": 1, "before": [], "after": []}).encode()
    secret = cache_key.key(file.parent)
    assert secret is not None
    signed = MAGIC + body + head + len(head).to_bytes(4, "big") + (0).to_bytes(8, "big")
    file.write_bytes(signed + cache_key.tag(secret, signed))
    _age(file, age)


def _key_of(root: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> replay_key.Observed:
    """This process's observation of ``argv`` run in ``root``, as a forked run makes it: with
    stdout a file (pytest's capture has no descriptor) and the forked runs' environment."""
    monkeypatch.chdir(root)
    original = sys.__stdout__
    assert original is not None
    with (
        open(os.devnull, "w", encoding=original.encoding, errors=original.errors) as stdout,
        monkeypatch.context() as patched,
    ):
        patched.setattr(sys, "stdout", stdout)
        observed = observe(argv)
    assert observed is not None
    return observed


CHANGES: dict[str, Callable[[Path], object]] = {
    "same size, mtime put back": lambda root: _same_size_edit(root / "README.md"),
    "config edited": lambda root: (root / ".docsync.toml").write_text("wrap = 61\n"),
    "untracked page": lambda root: (root / "docs" / "new.md").write_text("# New\n\n[x](y.md)\n"),
    "page removed": lambda root: (root / "docs" / "guide.md").unlink(),
    "config in the folder": lambda root: (root / "docs" / ".docsync.toml").write_text('wrap = "none"\n'),
    "symlink added": lambda root: (root / "docs" / "link.md").symlink_to("guide.md"),
}


def _same_size_edit(page: Path) -> None:
    info = os.stat(page)
    page.write_text(page.read_text().replace("[nothing](docs/nope.md)", "[nothinx](docs/nopx.md)"))
    assert os.stat(page).st_size == info.st_size
    os.utime(page, ns=(info.st_atime_ns, info.st_mtime_ns))  # the ctime still moves


def test_any_change_of_input_is_a_fresh_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each change in turn, on one repository: before it, a planted report under the key
    of the inputs as they are is believed; after it, the run checks, and its findings are
    those of a run under another command line (which has no report of its own)."""
    repo = GitRepo.init(tmp_path / "repo")
    for path, text in PAGES.items():
        repo.write(path, text)
    repo.commit("pages")
    argv = ["check", "--format", "json", "--select", "L,W"]
    docsync(repo.root, *argv)  # the caches warm
    kept = _slot(repo.root, argv, repo.root)
    for name, change in CHANGES.items():
        _plant(kept, _key_of(repo.root, argv, monkeypatch).key)
        assert docsync(repo.root, *argv).stdout == PLANTED.decode(), f"not believed before {name}"
        change(repo.root)
        ran = docsync(repo.root, *argv)
        assert ran.stdout != PLANTED.decode() and ran.returncode in (0, 1), (name, ran.stderr)
        other = docsync(repo.root, *argv[:3], "--select=L,W")
        assert json.loads(ran.stdout) == json.loads(other.stdout), name


@pytest.mark.parametrize(
    "other",
    [["check", "--format", "json", "--select", "L"], ["check", "--format", "json", "--select", "L,W", "-q"]],
)
def test_another_command_line_is_not_served_this_one_s_report(
    repo: GitRepo, other: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["check", "--format", "json", "--select", "L,W"]
    observed = _key_of(repo.root, argv, monkeypatch)
    assert _key_of(repo.root, other, monkeypatch).key != observed.key
    for slot in range(replay_key.SLOTS):  # wherever the other command line looks
        _plant(repo.root / ".git" / "docsync" / f"replay-{slot}", observed.key)
    ran = docsync(repo.root, *other)
    assert PLANTED.decode() not in ran.stdout and ran.returncode == 1
    for slot in range(replay_key.SLOTS):
        (repo.root / ".git" / "docsync" / f"replay-{slot}").unlink(missing_ok=True)


def test_the_environment_and_folder_are_in_the_key(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["check", "--format", "json"]
    first = _key_of(repo.root, argv, monkeypatch).key
    assert _key_of(repo.root, argv, monkeypatch).key == first
    assert _key_of(repo.root / "docs", argv, monkeypatch).key != first
    for name, value in (("NO_COLOR", "1"), ("GIT_CONFIG_COUNT", "0"), ("COLUMNS", "40")):
        with monkeypatch.context() as env:
            env.setenv(name, value)
            assert _key_of(repo.root, argv, env).key != first, name


def test_a_report_kept_too_soon_after_a_change_is_not_believed(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git's racy rule: a file changed within the slack of the run that kept the report may
    have changed again in the same tick, keeping its stat."""
    argv = ["check", "--format", "json", "--ignore", "W"]
    observed = _key_of(repo.root, argv, monkeypatch)
    kept = _slot(repo.root, argv)
    _plant(kept, observed.key, age=0)
    newest = observed.newest_ns + RACY_SLACK_NS - 1  # the report's run began just too soon
    os.utime(kept, ns=(newest, newest))
    assert replay.read(observed) is None
    _age(kept, 2)
    assert replay.read(observed) is not None


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--staged"], ["check", "--changed"], ["check", "--since", "HEAD"], ["check", "-"],
        ["check", "--stdin-filename", "a.md", "-"], ["check", "--help"], ["fix"], ["check", "-qv"],
        ["check", "--format", "yaml"], ["check", "--gate"], [],
    ],
)
def test_runs_whose_inputs_are_not_all_known_are_never_replayed(argv: list[str]) -> None:
    assert asked(argv) is None


def test_coloured_text_is_never_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    assert replay_key.plain_stdout("auto")  # pytest's capture: no terminal
    assert not replay_key.plain_stdout("always")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert not replay_key.plain_stdout("auto")
    assert observe(["check", "--format", "text"]) is None
    monkeypatch.setenv("TTY_COMPATIBLE", "0")
    assert replay_key.plain_stdout("auto")


# --------------------------------------------------------------------------- spoilt reports


@pytest.fixture(scope="module")
def spoilt(repo: GitRepo) -> tuple[GitRepo, list[str], bytes]:
    """A report kept by a run, and its bytes."""
    argv = ["check", "--format", "json-lines", "--ignore", "W"]
    docsync(repo.root, *argv)
    return repo, argv, _slot(repo.root, argv).read_bytes()


def _opened(
    spoilt: tuple[GitRepo, list[str], bytes], monkeypatch: pytest.MonkeyPatch
) -> tuple[replay_key.Observed, Path, bytes]:
    """The kept report's key, its slot and its bytes."""
    repo, argv, data = spoilt
    return _key_of(repo.root, argv, monkeypatch), _slot(repo.root, argv), data


def _believed(observed: replay_key.Observed, file: Path, data: bytes) -> bool:
    file.unlink(missing_ok=True)
    file.write_bytes(data)
    _age(file)
    return replay.read(observed) is not None


def test_a_report_cut_or_changed_anywhere_is_not_believed(
    spoilt: tuple[GitRepo, list[str], bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    observed, file, data = _opened(spoilt, monkeypatch)
    assert _believed(observed, file, data)
    for k in range(len(data)):
        assert not _believed(observed, file, data[:k]), f"cut at {k}"
        flipped = data[:k] + bytes([data[k] ^ 0x20]) + data[k + 1 :]
        assert not _believed(observed, file, flipped), f"byte {k} changed"
    assert not _believed(observed, file, data + b"\n")
    assert _believed(observed, file, data)
    notes.ignored_notes()


def _resigned(data: bytes, header: object) -> bytes:
    """``data``'s report with another header, signed with the real key (a bug, not an attack)."""
    tail = len(data) - replay_key.TRAILER
    length = int.from_bytes(data[tail : tail + 4], "big")
    head = json.dumps(header).encode()
    body = data[: tail - length] + head + len(head).to_bytes(4, "big") + data[tail + 4 : tail + 12]
    return body


def test_a_signed_report_of_the_wrong_shape_is_not_believed(
    spoilt: tuple[GitRepo, list[str], bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    observed, file, data = _opened(spoilt, monkeypatch)
    secret = cache_key.key(file.parent)
    assert secret is not None
    good = {"key": observed.key, "code": 1, "before": [], "after": []}
    shapes = [
        good | {"code": 2}, good | {"code": True}, good | {"extra": 1}, good | {"before": "x"},
        good | {"after": [1]}, [observed.key], good | {"key": None}, {k: v for k, v in good.items() if k != "after"},
    ]
    assert _believed(observed, file, _sign(_resigned(data, good), secret))
    for shape in shapes:
        assert not _believed(observed, file, _sign(_resigned(data, shape), secret)), shape
    notes.ignored_notes()


def _sign(body: bytes, secret: bytes) -> bytes:
    return body + cache_key.tag(secret, body)


def test_a_report_that_is_not_a_file_docsync_wrote_is_passed_over_with_a_line(
    spoilt: tuple[GitRepo, list[str], bytes], tmp_path: Path
) -> None:
    repo, argv, data = spoilt
    file = _slot(repo.root, argv)
    reference = docsync(repo.root, *argv[:3], "--ignore=W")  # no report of its own: a run
    elsewhere = tmp_path / "report"
    elsewhere.write_bytes(data)
    _age(elsewhere)
    other_key = b"\x00" * 32
    forms: dict[str, Callable[[], object]] = {
        "a symlink to a good report": lambda: file.symlink_to(elsewhere),
        "a folder": lambda: file.mkdir(),
        "a FIFO": lambda: os.mkfifo(file),
        "huge": lambda: os.truncate(_touched(file), replay_key.MAX_REPORT + (1 << 20)),
        "signed by another key": lambda: file.write_bytes(data[: -cache_key.TAG] + cache_key.tag(other_key, data[: -cache_key.TAG])),
        "empty": lambda: file.write_bytes(b""),
    }
    for name, make in forms.items():
        _clear(file)
        make()
        ran = docsync(repo.root, *argv)
        assert (ran.returncode, ran.stdout) == (reference.returncode, reference.stdout), name
        warnings = [line for line in ran.stderr.splitlines() if "replay-" in line]
        assert len(warnings) == 1 and "ignored" in warnings[0], (name, ran.stderr)
        assert elsewhere.read_bytes() == data, "written through a symlink"
    _clear(file)


def _touched(file: Path) -> Path:
    file.write_bytes(b"")
    return file


def _clear(file: Path) -> None:
    if file.is_dir() and not file.is_symlink():
        file.rmdir()
    else:
        file.unlink(missing_ok=True)


# --------------------------------------------------------------------------- a full disk


_LIMITED = r"""
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
sys.argv = ["docsync", *sys.argv[2:]]
from docsync.__main__ import run
run()
"""


def test_a_report_that_cannot_be_kept_costs_the_run_nothing(tmp_path: Path) -> None:
    """Files may grow only so far (``RLIMIT_FSIZE``): the report is cut off at the start, in
    the middle (past the writer's buffer) or at its tag. The run's output is whole, and no
    report, nor any temporary file, is left."""
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("README.md", "# Links\n\n" + "".join(f"See [page {i}](gone/{i}.md).\n" for i in range(400)))
    repo.commit()
    argv = ["check", "--format", "json"]
    reference = docsync(repo.root, *argv)  # keeps its report; every other cache is warm
    kept = _slot(repo.root, argv)
    size = kept.stat().st_size
    assert reference.returncode == 1 and size > 3 * 8192
    for limit in (8, 8192 + 100, size - 10):
        kept.unlink(missing_ok=True)
        ran = subprocess.run(
            [sys.executable, "-c", _LIMITED, str(limit), *argv],
            cwd=repo.root, env=git_environ(), capture_output=True, text=True, check=False,
        )
        assert (ran.returncode, ran.stdout) == (1, reference.stdout), (limit, ran.stderr)
        assert "Traceback" not in ran.stderr
        assert not [p.name for p in kept.parent.iterdir() if "replay" in p.name], limit


@pytest.mark.parametrize("form", ["a FIFO", "a symlink to /dev/zero", "a folder"])
def test_a_config_that_is_not_a_file_is_observed_without_reading_it(
    tmp_path: Path, form: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key is made before the run refuses such a config: it must neither block on a
    FIFO nor read a device, and a run then refuses it as ever (exit 2, one line)."""
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("README.md", "# A\n")
    repo.commit()
    config = repo.root / ".docsync.toml"
    {"a FIFO": lambda: os.mkfifo(config), "a symlink to /dev/zero": lambda: config.symlink_to("/dev/zero"),
     "a folder": lambda: config.mkdir()}[form]()
    assert _key_of(repo.root, ["check", "--format", "json"], monkeypatch).key
    ran = docsync(repo.root, "check", "--format", "json")
    assert ran.returncode == (0 if form == "a folder" else 2) and "Traceback" not in ran.stderr, ran.stderr


def test_a_report_signed_by_a_planted_key_is_not_believed_and_the_key_is_said(tmp_path: Path) -> None:
    """``.git/docsync`` restored with its key (a CI cache, an archive): the key is not the one
    docsync made here, so the report it signed is not believed. The run says so once, for
    the key, though the replay met it before the command line was built."""
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("README.md", "# A\n\n[gone](gone.md)\n")
    repo.commit()
    argv = ["check", "--format", "json"]
    fresh = docsync(repo.root, *argv)
    kept = _slot(repo.root, argv)
    _age(kept)
    key = repo.root / ".git" / "docsync" / cache_key.KEY
    data = key.read_bytes()
    key.unlink()
    key.write_bytes(data)  # the same bytes, but not the file docsync made: a new inode and ctime
    key.chmod(0o600)
    ran = docsync(repo.root, *argv)
    assert (ran.returncode, ran.stdout) == (fresh.returncode, fresh.stdout)
    warnings = [line for line in ran.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 1 and cache_key.KEY in warnings[0], ran.stderr
