"""The stat index: a warm run believes a file's content key while its stat is the one seen
when it was last read, and reads and hashes it again whenever git would (and then some).

Every test runs on a real git repository. Belief is proven, not assumed: a test plants an
entry that names the key of other bytes under the file's real stat, and checks whether a
run reports the other bytes' findings. Files a test has just written are "racy" (changed
within :data:`RACY_SLACK_NS` of the run that saw them), so a test that wants a stat
believed ages the index: it moves the index file's mtime later, as if the run that wrote
it had come well after the files' last change.
"""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest

from docsync.check.check import run_check
from docsync.config import load as load_config
from docsync.model import Finding
from docsync.report.suppressions import MARKER
from docsync.workspace import cache, plain, stat_index
from docsync.workspace.load import load_workspace
from docsync.workspace.stat_index import RACY_SLACK_NS, index_file
from tests.gitutil import GitRepo

BROKEN = "# A\n\nSee [b](b.md).\n"  # b.md does not exist: L001
FIXED_ = "# A\n\nSee [a](a.md).\n"  # the same size, and the link resolves


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("a.md", BROKEN)
    repo.write("c.md", "# C\n\nPlain.\n")
    repo.commit("pages")
    return repo


def _findings(repo: GitRepo) -> list[tuple[str, str, int]]:
    return [(f.path, f.rule, f.line) for f in run_check(repo.root).findings]


def _uncached(repo: GitRepo) -> list[tuple[str, str, int]]:
    from dataclasses import replace

    config = replace(load_config(repo.root), cache=False)
    return [(f.path, f.rule, f.line) for f in run_check(repo.root, config=config).findings]


def _index(repo: GitRepo) -> dict[str, object]:
    """The index read back, each entry as (stamp, key, marker)."""
    payload: dict[str, object] = json.loads(plain.read_file(index_file(repo.root / ".git")) or b"")
    rows = payload["entries"]
    assert isinstance(rows, dict)
    return {**payload, "entries": {p: (tuple(row[:5]), row[5], row[6]) for p, row in rows.items()}}


def _write_index(repo: GitRepo, payload: dict[str, object]) -> None:
    """Write ``payload`` in the index's layout: an entry given as (stamp, key, marker) as
    its row, a list as it is (a row of another shape)."""
    entries = payload["entries"]
    assert isinstance(entries, dict)
    rows = {p: e if isinstance(e, list) else [*e[0], e[1], e[2]] for p, e in entries.items()}
    plain.write_json(index_file(repo.root / ".git"), {**payload, "entries": rows})  # signed: believed


def _age(repo: GitRepo, seconds: float = 10) -> None:
    """Move the index's mtime later: the run that wrote it came ``seconds`` after every change."""
    later = os.stat(index_file(repo.root / ".git")).st_mtime_ns + int(seconds * 1e9)
    os.utime(index_file(repo.root / ".git"), ns=(later, later))


def _entries(repo: GitRepo) -> dict[str, tuple[tuple[int, ...], str, bool]]:
    entries = _index(repo)["entries"]
    assert isinstance(entries, dict)
    return entries


def _plant_other_bytes(repo: GitRepo, path: str, before: str, after: str) -> None:
    """Write ``after`` into ``path`` and leave the index saying its bytes are ``before``'s,
    under the file's new stat: only a run that believes the stat reports ``before``'s findings."""
    assert len(before) == len(after)
    _findings(repo)  # the index and the parse cache know ``before``
    old_key = _entries(repo)[path][1]
    full = repo.write(path, after)
    _findings(repo)  # and now ``after`` (its parse is cached too)
    payload = _index(repo)
    entries = _entries(repo)
    entries[path] = (stat_index.stamp(os.stat(full)), old_key, entries[path][2])
    _write_index(repo, {**payload, "entries": entries})


def test_a_file_whose_stat_is_the_one_seen_is_not_read_again(repo: GitRepo) -> None:
    _plant_other_bytes(repo, "a.md", BROKEN, FIXED_)
    _age(repo)
    assert _findings(repo) == [("a.md", "L001", 3)]  # believed: the stat says "BROKEN's bytes"
    assert _uncached(repo) == []


def test_a_file_changed_close_to_the_run_that_saw_it_is_read_again(repo: GitRepo) -> None:
    """git's racy rule, stricter: the file changed within RACY_SLACK_NS of when the run
    that wrote the index began reading, so the same stat proves nothing."""
    _plant_other_bytes(repo, "a.md", BROKEN, FIXED_)
    assert _findings(repo) == [] == _uncached(repo)
    _plant_other_bytes(repo, "a.md", FIXED_, BROKEN)
    _age(repo, seconds=RACY_SLACK_NS / 1e9 / 2)  # later, but not by enough
    assert _findings(repo) == [("a.md", "L001", 3)] == _uncached(repo)


def test_an_edit_that_keeps_the_size_and_the_mtime_is_seen(repo: GitRepo) -> None:
    """The ctime moves on every change and cannot be set back: an edit of the same size
    whose mtime is put back is a new stat, as git (core.trustctime) sees it too."""
    _findings(repo)
    _age(repo)
    full = repo.root / "a.md"
    before = os.stat(full)
    full.write_text(FIXED_)
    os.utime(full, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(full)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert _findings(repo) == [] == _uncached(repo)


def test_an_edit_in_a_new_file_under_the_old_name_is_seen(repo: GitRepo) -> None:
    """What an editor that writes a new file and renames it over the old one does."""
    _findings(repo)
    _age(repo)
    full = repo.root / "a.md"
    before = os.stat(full)
    (repo.root / "a.md.new").write_text(FIXED_)
    os.utime(repo.root / "a.md.new", ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(repo.root / "a.md.new", full)
    assert _findings(repo) == [] == _uncached(repo)


def test_a_touched_but_unchanged_file_gives_the_same_findings(repo: GitRepo) -> None:
    cold = _findings(repo)
    _age(repo)
    seen = _entries(repo)["a.md"]
    full = repo.root / "a.md"
    later = os.stat(full).st_mtime_ns + 5_000_000_000
    os.utime(full, ns=(later, later))
    assert _findings(repo) == cold == _uncached(repo)
    now = _entries(repo)["a.md"]
    assert now[1] == seen[1]  # the same bytes, the same content key
    assert now[0] == stat_index.stamp(os.stat(full)) != seen[0]  # under the new stat


def test_an_unread_file_keeps_its_inline_suppressions(repo: GitRepo) -> None:
    """Whether a file holds the suppression marker is kept with its stat: a file that
    has one is unpickled to learn what it silences, without reading its bytes."""
    repo.write("d.md", "# D\n\n<!-- docsync-disable-next-line L001 -->\nSee [x](x.md).\n\nSee [y](y.md).\n")
    cold = _findings(repo)
    assert ("d.md", "L001", 6) in cold and ("d.md", "L001", 4) not in cold
    _age(repo)
    assert _entries(repo)["d.md"][2] is True and _entries(repo)["a.md"][2] is False
    assert _findings(repo) == cold == _uncached(repo)
    workspace = load_workspace(repo.root)
    assert workspace.documents["d.md"].path == "d.md"  # an unread file's document is still served


def test_the_kept_marker_is_the_suppressions_marker() -> None:
    assert MARKER.encode() == stat_index.MARKER


def test_an_unread_file_whose_entry_is_spoilt_is_parsed_from_its_bytes(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unread file's document that does not unpickle is parsed again: its bytes are
    read then, from the disk."""
    _findings(repo)
    _age(repo)
    documents = load_workspace(repo.root).documents
    monkeypatch.setattr(cache, "loads", lambda blob: None)  # every entry spoilt
    assert documents["a.md"].text == BROKEN


@pytest.mark.parametrize(
    "garbage",
    [
        b"junk",
        json.dumps({"magic": "docsync-stat-index 2", "salt": "other", "elapsed": 0, "entries": {}}).encode(),
        json.dumps({"magic": "docsync-stat-index 2", "elapsed": -1, "entries": {}}).encode(),
        pickle.dumps({"magic": "docsync-stat-index 1", "elapsed": 0, "entries": {}}),
        b"[" * 100_000 + b"]" * 100_000,
    ],
)
def test_a_corrupt_or_foreign_index_is_ignored_and_rebuilt(repo: GitRepo, garbage: bytes) -> None:
    cold = _findings(repo)
    index_file(repo.root / ".git").write_bytes(garbage)
    assert _findings(repo) == cold
    assert set(_entries(repo)) == {"a.md", "c.md"}


def test_an_entry_of_another_shape_makes_the_index_ignored(repo: GitRepo) -> None:
    _plant_other_bytes(repo, "a.md", BROKEN, FIXED_)
    payload = _index(repo)
    entries = _entries(repo)
    stamp, key, marker = entries["a.md"]
    for spoilt in (
        [*stamp, key],
        [*stamp[:4], key, marker],
        [*stamp, key, 1],
        [[*stamp], key, marker],
        [*stamp, key, marker, None],
    ):
        _write_index(repo, {**payload, "entries": {**entries, "a.md": spoilt}})
        _age(repo)
        assert _findings(repo) == [] == _uncached(repo)


def test_a_pickle_that_runs_a_command_is_not_an_index(repo: GitRepo, tmp_path: Path) -> None:
    cold = _findings(repo)
    marker = tmp_path / "pwned"

    class RunsACommand:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {marker}",))

    index_file(repo.root / ".git").write_bytes(pickle.dumps(RunsACommand()))
    assert _findings(repo) == cold
    assert not marker.exists()


def test_a_deleted_file_is_dropped_from_the_index(repo: GitRepo) -> None:
    _findings(repo)
    (repo.root / "c.md").unlink()
    repo.write("e.md", "# E\n")
    _findings(repo)
    assert set(_entries(repo)) == {"a.md", "e.md"}


def test_no_index_without_the_cache(repo: GitRepo) -> None:
    repo.write(".docsync.toml", "cache = false\n")
    found = run_check(repo.root).findings
    assert all(isinstance(f, Finding) for f in found)
    assert not index_file(repo.root / ".git").exists()
