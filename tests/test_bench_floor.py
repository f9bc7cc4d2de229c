"""The floor ``scripts/bench_floor.py`` times: markdown-it-py's block-level parse alone.

It must parse what docsync parses (every Markdown file git lists, a file
docsync reports as not Markdown text skipped), with markdown-it-py's block
tokens (docsync's shortcuts give the library's own), across the processes
docsync's cold check would use on that many files.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings

from docsync.config import Config
from docsync.parse import markdown
from docsync.workspace import parsing
from tests.gitutil import git
from tests.test_fast_paths import CASES, documents

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
    monkeypatch.setattr(parsing.os, "cpu_count", lambda: cores)
    assert _floor().processes(files, cores) == parsing._workers(Config(), files)


def _block_view(tokens: list[markdown.Token]) -> list[tuple[object, ...]]:
    return [
        (t.type, t.tag, t.nesting, t.level, t.content, t.markup, t.info, t.map, t.block, sorted(t.attrs.items()))
        for t in tokens
    ]


def _same_blocks(text: str) -> None:
    ours, library = markdown.block_tokens(text), markdown.block_tokens(text, library=True)
    assert ours == library
    assert all(t.children in (None, []) for t in ours)  # no inline content parsed
    full = markdown.tokenize(text)[0]
    # the whole parse's block tokens; the footnotes it lists at the end are
    # those the inline parse found references to
    listed = next((k for k, t in enumerate(full) if t.type == "footnote_block_open"), len(full))
    assert _block_view(ours) == _block_view(full[:listed])


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_the_block_parse_is_the_whole_parse_without_inline(case: Path) -> None:
    _same_blocks(markdown.decode(case.read_bytes())[0])


@settings(max_examples=200, deadline=None)
@given(documents)
def test_the_block_parse_of_generated_markdown(text: str) -> None:
    _same_blocks(text)


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_floor_parses_every_markdown_file_git_lists(tmp_path: Path, jobs: int) -> None:
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
        [sys.executable, str(FLOOR), str(tmp_path), "--jobs", str(jobs)],
        capture_output=True, text=True, check=True,
    )
    expected = sum(len(markdown.block_tokens(p.read_text())) for p in [*tmp_path.glob("docs/*.md"), tmp_path / "notes.markdown"])
    assert json.loads(done.stdout) == {"files": 6, "tokens": expected, "processes": jobs}
