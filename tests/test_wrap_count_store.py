"""init's wrap counts are kept by content key: a warm run counts what a cold one counts.

A real git repository is built; the counts come from ``workspace_wrap_counts``
(what ``docsync init`` shows) with the parse cache cold, then warm (the
documents come from the parse cache, with no worker summaries, and the
counts from ``.git/docsync/wrap-counts.json``), after an edit, and with the
kept file corrupted, each compared with the counts made with every cache off.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from docsync.adopt.inspection import workspace_wrap_counts
from docsync.config import load as load_config
from docsync.gates.wrap.count import COUNTS, Summarizer
from docsync.workspace import plain
from docsync.workspace.load import load_workspace
from tests.gitutil import git

WIDE = "alpha " * 20 + "end.\nThen more.\n"
WRAPPED = "one\ntwo\nthree\n"


def _repo(root: Path) -> Path:
    root.mkdir()
    git(root, "init", "-q")
    (root / "a.md").write_text(f"# A\n\n{WIDE}\n{WRAPPED}")
    (root / "b.md").write_text(f"# B\n\n{WRAPPED}\n- {WIDE}")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "docs")
    return root


def _counts(root: Path, cache: bool = True) -> tuple[object, ...]:
    config = replace(load_config(root), cache=cache)
    return workspace_wrap_counts(load_workspace(root, config=config, summarizers={COUNTS: Summarizer}))


def test_kept_counts_equal_fresh_ones(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo")
    kept = root / ".git" / "docsync" / "wrap-counts.json"
    fresh = _counts(root, cache=False)
    assert not kept.exists()
    assert _counts(root) == fresh  # cold: counted in the parse workers
    stored = plain.read_json(kept)
    assert isinstance(stored, dict) and len(stored["counts"]) == 2
    assert _counts(root) == fresh  # warm: documents and counts from the caches

    (root / "b.md").write_text(f"# B\n\n{WIDE}\n{WIDE}")
    edited = _counts(root, cache=False)
    assert edited != fresh
    assert _counts(root) == edited
    stored = plain.read_json(kept)
    assert isinstance(stored, dict) and len(stored["counts"]) == 2  # the old b.md is dropped

    kept.write_text('{"run": "x", "counts": {"k": [1]}}')
    assert _counts(root) == edited
    kept.write_text("not json")
    assert _counts(root) == edited


def test_a_forged_count_for_the_run_is_ignored_unless_well_formed(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo")
    fresh = _counts(root)
    kept = root / ".git" / "docsync" / "wrap-counts.json"
    stored = plain.read_json(kept)
    assert isinstance(stored, dict)
    stored["counts"] = {key: ["1", -1] for key in stored["counts"]}
    plain.write_json(kept, stored)
    assert _counts(root) == fresh


def test_a_warm_run_reads_the_kept_counts(tmp_path: Path) -> None:
    """The warm counts above are the kept ones, not made again: a kept count is what is shown."""
    root = _repo(tmp_path / "repo")
    _counts(root)
    kept = root / ".git" / "docsync" / "wrap-counts.json"
    stored = plain.read_json(kept)
    assert isinstance(stored, dict)
    stored["counts"] = {key: [9] * len(value) for key, value in stored["counts"].items()}
    plain.write_json(kept, stored)
    assert {count.paragraphs for count in _counts(root)} == {18}  # type: ignore[attr-defined]
