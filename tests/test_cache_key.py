"""A cache entry is believed only when docsync's own key signed it (issue #35, known gap c).

The attack: ``.git/docsync/`` comes from an archive or a network disk, with a parse
cache entry that holds a file's true text and other links (none), so ``check`` would
pass a broken link. Generated over how the entry is forged (bytes changed under a
signed header; a whole cache signed with a key planted beside it, as an archive
brings it) and over every spoilt form of the key and its stamp. Invariants: the
findings of a run without a cache, at most one warning line, naming the key.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from docsync.workspace import cache, cache_key, document_json
from tests.gitutil import GitRepo
from tests.signed_cache import read_indexed, rekey, write_indexed

runner = CliRunner()
MAGIC = b"docsync-parse-cache 5\n"
PAGES = {
    "README.md": "# Project\n\nRead [the guide](docs/guide.md) and [nothing](docs/nope.md).\n",
    "docs/guide.md": "# Guide\n\nBack to [the readme](../README.md).\n",
}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = GitRepo.holding(tmp_path_factory.mktemp("key") / "repo", PAGES)
    _check(repo.root)  # warm: the key, its stamp and every cache
    return repo.root


@pytest.fixture
def victim(template: Path, tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "victim"
    shutil.copytree(template, root, symlinks=True)
    rekey(root)
    yield root


def _check(root: Path) -> tuple[int, str, list[str]]:
    old = Path.cwd()
    os.chdir(root)
    try:
        result = runner.invoke(app, ["check", "--format", "concise"])
    finally:
        os.chdir(old)
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    return result.exit_code, result.stdout, warnings


def _forged_documents(root: Path) -> tuple[dict[str, object], dict[str, bytes]]:
    """Every cached document with its true text and no links: what check must not believe."""
    file = cache.cache_file(root / ".git")
    header, entries = read_indexed(file, MAGIC)
    forged = {}
    for key, blob in entries.items():
        document = cache.loads(blob)
        assert document is not None
        forged[key] = document_json.encode_document(replace(document, links=()))
    return header, forged


def _bytes_under_a_signed_header(root: Path) -> None:
    """The forged entries in place of the real ones, the header (and its tag) untouched."""
    file = cache.cache_file(root / ".git")
    _, forged = _forged_documents(root)
    data = file.read_bytes()
    _, real = read_indexed(file, MAGIC)
    for key, blob in real.items():
        if len(forged[key]) == len(blob):  # same length: only the bytes differ
            data = data.replace(blob, forged[key])
    data = data.replace(b'"docs/nope.md"', b'"docs/guide.md"')  # a same-length edit in place
    file.write_bytes(data)


def _a_planted_key_and_its_caches(root: Path) -> None:
    """What an archive brings: a key and a stamp of its own, and caches that key signed."""
    header, forged = _forged_documents(root)
    folder = root / ".git" / "docsync"
    for name in (cache_key.KEY, cache_key.STAMP):
        (folder / name).unlink()
    cache_key.forget()
    attacker = bytes(range(32))
    (folder / cache_key.KEY).write_bytes(attacker)
    (folder / cache_key.STAMP).write_text('{"device": 1, "inode": 2, "ctime": 3}')
    cache_key._keys[os.fspath(folder)] = (cache_key._lidentity(folder / cache_key.KEY), attacker)
    write_indexed(cache.cache_file(root / ".git"), MAGIC, header, forged)  # signed with the planted key
    cache_key.forget()


FORGERIES: dict[str, Callable[[Path], None]] = {
    "bytes under a signed header": _bytes_under_a_signed_header,
    "a planted key and its caches": _a_planted_key_and_its_caches,
}


@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_a_forged_entry_never_hides_a_broken_link(victim: Path, forgery: str) -> None:
    code, out, _ = _check(victim)
    assert code == 1 and "docs/nope.md" in out
    FORGERIES[forgery](victim)
    assert _check(victim)[:2] == (code, out)
    assert _check(victim)[:2] == (code, out)  # and the run after it, from the rebuilt cache


def _stamp_of_another(folder: Path) -> None:
    (folder / cache_key.STAMP).write_text('{"device": 1, "inode": 2, "ctime": 3}')


def _stamp_wrong_shape(folder: Path) -> None:
    (folder / cache_key.STAMP).write_text('[[[[[[[[["deep"]]]]]]]]]')


def _key_empty(folder: Path) -> None:
    (folder / cache_key.KEY).write_bytes(b"")


def _key_symlink(folder: Path) -> None:
    (folder / cache_key.KEY).unlink()
    (folder / cache_key.KEY).symlink_to("/dev/zero")


def _key_fifo(folder: Path) -> None:
    (folder / cache_key.KEY).unlink()
    os.mkfifo(folder / cache_key.KEY)


def _key_missing(folder: Path) -> None:
    (folder / cache_key.KEY).unlink()


KEY_FORMS: dict[str, Callable[[Path], None]] = {
    "stamp of another key": _stamp_of_another,
    "stamp of the wrong shape": _stamp_wrong_shape,
    "key empty": _key_empty,
    "key a symlink to a device": _key_symlink,
    "key a FIFO": _key_fifo,
    "key missing, stamp left": _key_missing,
}


def test_a_key_without_its_stamp_is_replaced_without_a_warning(victim: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run killed after it made the key and before its stamp (or a key planted without
    one): the key is not believed, and no run warns of a planted key for it."""
    code, out, _ = _check(victim)
    cache_key.forget()
    folder = victim / ".git" / "docsync"
    (folder / cache_key.STAMP).unlink()
    before = (folder / cache_key.KEY).read_bytes()
    later = time.time_ns() + 10**10  # this run starts 10 s after the kill: no docsync is making it now
    monkeypatch.setattr(cache_key.time, "time_ns", lambda: later)
    assert _check(victim) == (code, out, [])
    assert (folder / cache_key.KEY).read_bytes() != before  # not believed: a new key
    assert _check(victim) == (code, out, [])


@pytest.mark.parametrize("form", list(KEY_FORMS))
def test_a_spoilt_key_costs_the_cache_never_a_finding(victim: Path, form: str) -> None:
    code, out, _ = _check(victim)
    cache_key.forget()
    KEY_FORMS[form](victim / ".git" / "docsync")
    again, shown, warnings = _check(victim)
    assert (again, shown) == (code, out)
    assert len(warnings) == 1 and ".git/docsync/cache-key" in warnings[0], warnings
    assert _check(victim) == (code, out, [])  # a new key, made by docsync, believed from then on
    assert (victim / ".git" / "docsync" / cache_key.KEY).stat().st_mode & 0o777 == 0o600
