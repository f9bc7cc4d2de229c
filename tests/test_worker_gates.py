"""The gates' per-file work done in the parse workers reports exactly what it reports
when done in the main process, and a cold check then unpickles no document there.

The parse workers make, beside each document, the links gate's summary, the
wrap gate's findings and the file's inline suppressions
(:mod:`docsync.workspace.summaries`). A repository of fewer than 64 files is
parsed in the main process, where the gates read the documents themselves:
that path is the reference. Each repository here is checked both ways, cold,
and then warm (every result from the caches), and must report the same
findings, silence the same number and word the same hint.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from docsync.check.check import CheckResult, run_check
from docsync.config import Config
from docsync.config import load as load_config
from docsync.workspace import documents as documents_module
from docsync.workspace import parsing
from tests.gitutil import git
from tests.test_links_conformance import build_cases_repo

HERE = Path(__file__).resolve().parent
WRAP_CASES = [HERE / "cases" / "wrap", HERE / "golden" / "wrap" / "cases"]

SUPPRESSED = {
    "quiet/next-line.md": (
        "# Next\n\n<!-- docsync-disable-next-line L001 W001 -->\nA paragraph\nwrapped [x](gone.md)\n\n"
        "<!-- docsync-disable-next-line L -->\n[y](gone-too.md)\n\n[z](also-gone.md)\n"
    ),
    "quiet/range.md": (
        "# Range\n\n<!-- docsync-disable -->\n[a](nope.md)\n\nhard\nwrapped\n<!-- docsync-enable W001 -->\n\n"
        "still\nwrapped [b](nope.md)\n\n<!-- docsync-enable -->\n[c](nope.md)\n"
    ),
    "quiet/file.md": "<!-- docsync-disable-file links -->\n# File\n\n[gone](gone.md)\nand more\n",
    "quiet/idle.md": (
        "# Idle\n\n<!-- docsync-disable-line W003 -->\n<!-- docsync-disable-next-line L001 -->\nfine\n\n"
        "```\n<!-- docsync-disable-file -->\n```\n\n`<!-- docsync-disable -->` [d](missing.md)\n"
    ),
    "quiet/mention.md": "# Mention\n\nThe word docsync-disable in prose\nsilences nothing [e](gone.md).\n",
}


def _commit(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "more")


def _cases_repo(root: Path) -> Path:
    """The links and wrap case files and some suppressions: more than 64 files."""
    repo = build_cases_repo(root)
    for n, folder in enumerate(WRAP_CASES):
        into = repo / f"wrap-{n}"
        into.mkdir()
        for case in folder.glob("*.md"):
            shutil.copyfile(case, into / case.name)
    for path, text in SUPPRESSED.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, encoding="utf-8")
    _commit(repo)
    return repo


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every document unpickled in this process, by path."""
    read: list[str] = []
    unpickled = documents_module._unpickled

    def counting(path: str, blob: object, data: bytes, key: str | None) -> object:
        read.append(path)
        return unpickled(path, blob, data, key)  # type: ignore[arg-type]

    monkeypatch.setattr(documents_module, "_unpickled", counting)
    yield read


def _serial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parsing, "_PARALLEL_THRESHOLD", 10**9)


def _check(repo: Path, config: Config, gates: list[str]) -> CheckResult:
    shutil.rmtree(repo / ".git" / "docsync", ignore_errors=True)
    return run_check(repo, gates=gates, config=config, report_unused=True)


def _same(a: CheckResult, b: CheckResult) -> None:
    assert a.findings == b.findings
    assert (a.silenced, a.hint, a.files) == (b.silenced, b.hint, b.files)


@pytest.mark.parametrize("wrap", ["none", 80, "sentence"])
def test_worker_results_are_the_main_process_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wrap: str | int
) -> None:
    repo = _cases_repo(tmp_path / "repo")
    config = replace(load_config(repo), wrap=wrap, jobs=2, origin="the test")  # as a config file says
    gates = ["links", "wrap"]
    in_workers = _check(repo, config, gates)
    warm = run_check(repo, gates=gates, config=config, report_unused=True)
    with monkeypatch.context() as here:
        _serial(here)
        in_main = _check(repo, config, gates)
    _same(in_workers, in_main)
    _same(warm, in_main)
    rules = {f.rule for f in in_main.findings}
    assert {"L001", "S001"} <= rules and rules & {"W001", "W002", "W003", "W004"}
    assert in_main.silenced >= 4  # the suppressions silenced something in each mode


def test_a_cold_check_unpickles_no_document(tmp_path: Path, counted: list[str]) -> None:
    repo = _cases_repo(tmp_path / "repo")
    (repo / ".docsync.toml").write_text('wrap = "none"\n', encoding="utf-8")
    _commit(repo)
    config = replace(load_config(repo), jobs=2)
    assert config.origin != "(defaults)"
    result = _check(repo, config, ["links", "wrap"])
    assert result.files > 64 and result.silenced and result.findings
    assert counted == []  # every gate answered from what the workers made


@pytest.mark.parametrize(("seed", "wrap"), [(1, "none"), (7, 72)])
def test_a_generated_corpus_agrees(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, wrap: str | int
) -> None:
    from tests.test_links_two_phase import _bench

    root = tmp_path / "corpus"
    root.mkdir()
    _bench().generate(root, 120, 12, seed)  # commits
    (root / "wrapped.md").write_text(
        "# Wrapped\n\n<!-- docsync-disable-next-line W -->\n" + "word " * 40 + "\nand on\n\n"
        + "Two sentences. On one line\nand a break [gone](gone.md).\n",
        encoding="utf-8",
    )
    _commit(root)
    config = Config(wrap=wrap, jobs=2)
    gates = ["links", "wrap", "layout", "refs"]
    in_workers = _check(root, config, gates)
    with monkeypatch.context() as here:
        _serial(here)
        in_main = _check(root, config, gates)
    _same(in_workers, in_main)
    assert {f.gate for f in in_main.findings} >= {"links", "wrap"} and in_main.silenced
