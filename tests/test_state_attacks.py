"""docsync's own state under ``.git/docsync/`` is untrusted input: every file, in every bad form.

Generated, not listed: every file docsync keeps there x {missing, empty,
truncated, wrong shape, deeply nested, planted from another repository, a
symlink out of the repository, a symlink to a device, a FIFO} x every command
that reads it. The invariants: no traceback, no hang, the findings of a run
without any cache (never a wrong "All clear"), at most one warning line per
file, naming it. Then the journal, whose every file in every form must leave
the repository and ``.git/hooks`` exactly as they were, with one line and
exit 2; and ``.git/docsync`` itself as a symlink, refused by every command.

Each form is applied to a real repository whose state a real run made, so a
test that passes proves the file was read and distrusted, not absent.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import chdir
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.adopt.inspection import workspace_wrap_counts
from docsync.cli import app
from docsync.config import load as load_config
from docsync.gates.wrap.count import COUNTS, Summarizer
from docsync.workspace.load import load_workspace
from docsync.write import transaction, writer
from tests import forked
from tests.gitutil import git
from tests.signed_cache import rekey
from tests.untrusted import Entry, picture

runner = CliRunner()

PAGES = {
    "README.md": "# Project\n\nRead [the guide](docs/guide.md#install) and [nothing](docs/nope.md).\n",
    "docs/guide.md": "# Guide\n\n## Install\n\nSee [the readme](../README.md).\n",
    "docs/faq.md": "# FAQ\n\n" + "alpha " * 20 + "end.\nThen more.\n",
}
OTHER = {  # the repository whose state is planted: other files, the same names
    "README.md": "# Other\n\nAll [fine](docs/guide.md).\n",
    "docs/guide.md": "# Guide\n\nNothing here.\n",
    "docs/faq.md": "# FAQ\n\nShort.\n",
}

CACHES = (
    "parse-cache",
    "links-results",
    "wrap-results",
    "stat-index.json",
    "anchors.json",
    "link-targets.json",
    "wrap-counts.json",
)
COMMANDS: dict[str, list[str]] = {
    "check": ["check"],
    "check-json": ["check", "--format", "json"],
    "check-staged": ["check", "--staged"],
    "fix-check": ["fix", "--check"],
}


def _make(root: Path, pages: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    for path, text in pages.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "pages")
    return root


def _warm(root: Path) -> None:
    """Every cache file docsync keeps, made by real runs."""
    with chdir(root):
        for args in (["check"], ["check", "--staged"]):
            runner.invoke(app, args)
    config = replace(load_config(root), cache=True)
    workspace_wrap_counts(load_workspace(root, config=config, summarizers={COUNTS: Summarizer}))
    made = {p.name for p in (root / ".git" / "docsync").iterdir()}
    assert set(CACHES) <= made, made


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("state")
    victim = _make(base / "victim", PAGES)
    other = _make(base / "other", OTHER)
    _warm(victim)
    _warm(other)
    with (victim / "README.md").open("a") as handle:  # staged: what --staged checks
        handle.write("\nStaged.\n")
    git(victim, "add", "README.md")
    return {"victim": victim, "other": other}


@pytest.fixture
def victim(templates: dict[str, Path], tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "victim"
    shutil.copytree(templates["victim"], root, symlinks=True)
    rekey(root)  # the copy's caches are believed, so a spoilt one is distrusted, not unread
    yield root


Form = Callable[[Path, Path, Path], None]
"""Spoil ``file`` (in the victim), given the same file in another repository and a scratch folder."""


def _missing(file: Path, other: Path, scratch: Path) -> None:
    file.unlink()


def _empty(file: Path, other: Path, scratch: Path) -> None:
    file.write_bytes(b"")


def _truncated(file: Path, other: Path, scratch: Path) -> None:
    data = file.read_bytes()
    file.write_bytes(data[: len(data) // 2])


def _wrong_shape(file: Path, other: Path, scratch: Path) -> None:
    data = file.read_bytes()
    if data.startswith(b"docsync-"):  # an indexed file: keep the magic line, spoil the header
        magic = data[: data.index(b"\n") + 1]
        header = b'{"index": {"x": [0, 99999999]}, "used": 5}'
        file.write_bytes(magic + len(header).to_bytes(8, "little") + header)
    else:
        file.write_bytes(b'{"magic": ["not", "it"], "entries": {"a.md": [1, 2]}, "counts": 7}')


def _deep(file: Path, other: Path, scratch: Path) -> None:
    nested = b"[" * 200_000 + b"]" * 200_000
    data = file.read_bytes()
    if data.startswith(b"docsync-"):
        magic = data[: data.index(b"\n") + 1]
        file.write_bytes(magic + len(nested).to_bytes(8, "little") + nested)
    else:
        file.write_bytes(nested)


def _planted(file: Path, other: Path, scratch: Path) -> None:
    shutil.copyfile(other, file)


def _symlink_out(file: Path, other: Path, scratch: Path) -> None:
    outside = scratch / f"outside-{file.name}"
    shutil.copyfile(other, outside)
    file.unlink()
    file.symlink_to(outside)


def _symlink_device(file: Path, other: Path, scratch: Path) -> None:
    file.unlink()
    file.symlink_to("/dev/zero")


def _fifo(file: Path, other: Path, scratch: Path) -> None:
    file.unlink()
    os.mkfifo(file)


def _pickle_bomb(file: Path, other: Path, scratch: Path) -> None:
    """A pickle whose dictionary key is a tuple nested 200,000 deep: hashing it overflowed
    the C stack of any unpickler that built it (a segmentation fault on every run)."""
    file.unlink()
    file.write_bytes(b"\x80\x02}" + b")" + b"\x85" * 200_000 + b"Ns.")


FORMS: dict[str, Form] = {
    "missing": _missing,
    "empty": _empty,
    "truncated": _truncated,
    "wrong-shape": _wrong_shape,
    "deeply-nested": _deep,
    "planted": _planted,
    "symlink-outside": _symlink_out,
    "symlink-device": _symlink_device,
    "fifo": _fifo,
    "pickle-bomb": _pickle_bomb,
}


def _uncached(root: Path, args: list[str]) -> tuple[int, str]:
    """What ``args`` says with the cache off: the oracle."""
    (root / ".docsync.toml").write_text("cache = false\n")
    try:
        with chdir(root):
            result = runner.invoke(app, args)
    finally:
        (root / ".docsync.toml").unlink()
    return result.exit_code, result.stdout


@pytest.fixture(scope="module")
def uncached(templates: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str]]:
    """Each command's oracle, on a copy of the victim as every test starts from it: the
    same for every file and form, so run once per command, not once per test."""
    root = tmp_path_factory.mktemp("uncached") / "victim"
    shutil.copytree(templates["victim"], root, symlinks=True)
    found = {command: _uncached(root, args) for command, args in COMMANDS.items()}
    for command, (code, out) in found.items():
        if COMMANDS[command][0] == "check":  # the broken link is found: an "All clear" would be wrong
            assert code == 1 and "docs/nope.md" in out, command
    return found


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("form", list(FORMS))
@pytest.mark.parametrize("name", CACHES)
def test_a_spoilt_cache_file_costs_speed_never_a_finding(
    victim: Path,
    templates: dict[str, Path],
    uncached: dict[str, tuple[int, str]],
    tmp_path: Path,
    name: str,
    form: str,
    command: str,
) -> None:
    args = COMMANDS[command]
    expected_code, expected_out = uncached[command]
    file = victim / ".git" / "docsync" / name
    FORMS[form](file, templates["other"] / ".git" / "docsync" / name, tmp_path)
    with chdir(victim):
        result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert (result.exit_code, result.stdout) == (expected_code, expected_out)
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warnings) <= 1, warnings
    assert all(f".git/docsync/{name}" in line for line in warnings), warnings
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("form", ["deeply-nested", "wrong-shape", "planted", "pickle-bomb"])
def test_no_state_file_crashes_the_interpreter(victim: Path, templates: dict[str, Path], tmp_path: Path, form: str) -> None:
    """In a process of its own (a C stack overflow is a signal, not an exception): every
    cache file spoilt at once, then a real ``docsync check``."""
    for name in CACHES:
        FORMS[form](victim / ".git" / "docsync" / name, templates["other"] / ".git" / "docsync" / name, tmp_path)
    done = forked.docsync(victim, "check")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "docs/nope.md" in done.stdout


# --------------------------------------------------------------------------- the journal


def _interrupted_fix(root: Path) -> None:
    """A ``fix`` killed after its first change: a real journal."""
    txn = transaction.Transaction.begin(root, "fix", {}, ["docs/guide.md", "docs/new.md"])
    txn.write(writer.FileWrite("docs/guide.md", "# Changed by the run\n"))
    txn.write(writer.FileWrite("docs/new.md", "# New\n"))


JOURNAL_FILES = ("state.json", "pack-0", "seal", "index")


def _tree(root: Path) -> dict[str, Entry]:
    """Every path in the work tree and in ``.git/hooks``: kind, bytes, mode."""
    return picture(root, git=("hooks",))


@pytest.fixture(scope="module")
def other_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The journal of a killed run in another repository (its files' bytes other ones)."""
    other = _make(tmp_path_factory.mktemp("other") / "other", OTHER)
    with chdir(other):
        _interrupted_fix(other)
    return other / ".git" / transaction.JOURNAL


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The victim's repository as :func:`_make` builds it, built once: each journal test
    copies it and makes its journal in the copy (a journal's seal is its own folder's)."""
    return _make(tmp_path_factory.mktemp("pages") / "pages", PAGES)


@pytest.mark.parametrize("command", [["fix"], ["fix", "--abort"], ["fix", "--continue"], ["move", "x", "y"]])
@pytest.mark.parametrize("form", [f for f in FORMS if f != "missing"] + ["planted-whole"])
@pytest.mark.parametrize("name", JOURNAL_FILES)
def test_a_spoilt_or_planted_journal_changes_nothing(
    other_journal: Path, pages: Path, tmp_path: Path, name: str, form: str, command: list[str]
) -> None:
    """The journal a killed run left in place, one file of it spoilt (or all of it
    replaced by another repository's): one line, exit 2, not a byte changed."""
    root = Path(shutil.copytree(pages, tmp_path / "victim", symlinks=True))
    with chdir(root):
        _interrupted_fix(root)
    journal = root / ".git" / transaction.JOURNAL
    if form == "planted-whole":
        shutil.rmtree(journal)
        shutil.copytree(other_journal, journal)
    else:
        FORMS[form](journal / name, other_journal / name, tmp_path)
    before = _tree(root)
    with chdir(root):
        result = runner.invoke(app, command)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line]
    assert len(lines) == 1 and "journal" in lines[0], lines
    assert _tree(root) == before


def test_a_journal_copied_with_its_repository_is_refused(tmp_path: Path) -> None:
    """A copy is a new inode and a new change time: the seal says it is not this
    repository's journal any more, so ``--abort`` puts nothing back from it."""
    source = _make(tmp_path / "source", PAGES)
    with chdir(source):
        _interrupted_fix(source)
    root = tmp_path / "copy"
    shutil.copytree(source, root, symlinks=True)
    before = _tree(root)
    with chdir(root):
        refused = runner.invoke(app, ["fix", "--abort"])
    assert refused.exit_code == 2 and "seal does not match" in refused.stderr
    assert _tree(root) == before


def test_the_journal_the_run_left_in_place_is_aborted(tmp_path: Path) -> None:
    """The control for the tests above: the journal as the run left it is believed."""
    root = _make(tmp_path / "victim", PAGES)
    before = _tree(root)
    with chdir(root):
        _interrupted_fix(root)
        assert _tree(root) != before
        refused = runner.invoke(app, ["fix"])
        assert refused.exit_code == 2 and "docsync fix --abort" in refused.stderr
        aborted = runner.invoke(app, ["fix", "--abort"])
    assert aborted.exit_code == 0, aborted.output
    assert _tree(root) == before


HOOK = ".git/hooks/pre-commit"


@pytest.mark.parametrize(
    "path",
    [HOOK, ".GIT/hooks/pre-commit", "./.git/config", "sub/.git/config", "../outside.md", "/etc/passwd", "a/../../x"],
)
def test_a_sealed_journal_naming_a_path_no_command_writes_is_refused(tmp_path: Path, path: str) -> None:
    """Even with its seal intact (written by this docsync here, then edited), a journal
    that names a path in ``.git`` or outside the work tree puts nothing back."""
    import json

    root = _make(tmp_path / "victim", PAGES)
    with chdir(root):
        _interrupted_fix(root)
    state = root / ".git" / transaction.STATE
    raw = json.loads(state.read_text())
    raw["files"][0]["path"] = path
    raw["files"][0]["mode"] = 0o755
    state.write_text(json.dumps(raw))
    before = _tree(root)
    with chdir(root):
        result = runner.invoke(app, ["fix", "--abort"])
    assert result.exit_code == 2, result.output
    assert _tree(root) == before
    assert not (root / HOOK).exists()


@pytest.mark.parametrize("command", [["check"], ["fix"], ["fix", "--abort"], ["check", "--staged"], ["migrate"]])
def test_a_docsync_folder_that_is_a_symlink_is_refused(victim: Path, tmp_path: Path, command: list[str]) -> None:
    own = victim / ".git" / "docsync"
    elsewhere = tmp_path / "elsewhere"
    shutil.move(own, elsewhere)
    own.symlink_to(elsewhere)
    listing = sorted(p.name for p in elsewhere.iterdir())
    with chdir(victim):
        result = runner.invoke(app, command)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line]
    assert len(lines) == 1 and "is a symlink" in lines[0], lines
    assert sorted(p.name for p in elsewhere.iterdir()) == listing  # nothing written through it
