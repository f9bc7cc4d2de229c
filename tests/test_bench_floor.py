"""The floor ``scripts/bench_floor.py`` times: the native parser's events alone.

It must parse what docsync parses (every Markdown file git lists, a file
docsync reports as not Markdown text skipped), with the options docsync's
parse uses, across the processes docsync's cold check would use on that many files.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from docsync.config import Config
from docsync.parse import native
from docsync.workspace import parsing
from tests.gitutil import git

FLOOR = Path(__file__).resolve().parents[1] / "scripts" / "bench_floor.py"


def _floor() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docsync_bench_floor", FLOOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("files", [0, 1, 63, 64, 65, 100, 2500, 3112])
@pytest.mark.parametrize("cores", [1, 2, 8])
def test_the_floor_uses_the_processes_docsync_uses(
    files: int, cores: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: cores)  # what worker_cores reads
    assert _floor().processes(files, cores) == parsing._workers(Config(), files)


@pytest.mark.parametrize("native_only", [False, True])
@pytest.mark.parametrize("jobs", [1, 2])
def test_the_floor_parses_every_markdown_file_git_lists(tmp_path: Path, jobs: int, native_only: bool) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "docs").mkdir()
    for k in range(5):
        (tmp_path / "docs" / f"page-{k}.md").write_text(f"# Page {k}\n\nSee [next](page-{k + 1}.md).\n")
    (tmp_path / "notes.markdown").write_text("- a\n- b\n")
    (tmp_path / "latin1.md").write_bytes(b"caf\xe9\n")  # F001: docsync parses nothing of it
    (tmp_path / "untracked.md").write_text("# not listed\n")
    (tmp_path / "readme.txt").write_text("not Markdown\n")
    git(tmp_path, "add", "docs", "notes.markdown", "latin1.md", "readme.txt")
    done = subprocess.run(
        [sys.executable, str(FLOOR), str(tmp_path), "--jobs", str(jobs), *(["--native"] if native_only else [])],
        capture_output=True, text=True, check=True,
    )
    count = _floor()._rendered if native_only else native.events  # HTML made in Rust, or every event
    expected = sum(len(count(p.read_text())) for p in [*tmp_path.glob("docs/*.md"), tmp_path / "notes.markdown"])
    assert native_only or expected > 6  # events, not one per file
    assert json.loads(done.stdout) == {"files": 6, "tokens": expected, "processes": jobs}
