"""The links gate's two phases (summaries made in the parse workers, fragments
finished from them) report exactly what :func:`links.check` reports per document."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

from docsync.config import Config
from docsync.config import load as load_config
from docsync.gates.links import check as links
from docsync.model import Finding
from docsync.workspace import parsing as workspace_module
from docsync.workspace.documents import Documents
from docsync.workspace.load import load_workspace
from tests.gitutil import git
from tests.test_links_conformance import build_cases_repo

BENCH = Path(__file__).resolve().parents[1] / "scripts" / "bench_corpus.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docsync_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parse in two worker processes however few the files are."""
    monkeypatch.setattr(workspace_module, "_workers", lambda config, pending: 2)


def _plain(root: Path, config: Config) -> list[Finding]:
    workspace = load_workspace(root, config=config)
    index = links.RepoIndex.build(workspace)
    found: list[Finding] = []
    for path in workspace.selected:
        doc = workspace.documents.get(path)
        if doc is not None:
            found.extend(links.check(doc, index))
    return found


def _two_phase(root: Path, config: Config) -> list[Finding]:
    workspace = load_workspace(root, config=config, summarizers={links.GATE: links.Summarizer})
    documents = workspace.documents
    assert isinstance(documents, Documents)
    assert set(documents.made(links.GATE)) == set(documents.content_keys)  # all made in workers
    found = links.check_workspace(workspace)
    assert documents._packed, "the gate unpickled the documents it has summaries of"
    return found


def _agree(root: Path, config: Config) -> list[Finding]:
    plain = _plain(root, config)
    assert _two_phase(root, config) == plain
    return plain


@pytest.mark.parametrize("strict", [False, True])
def test_conformance_cases_agree(tmp_path: Path, parallel: None, strict: bool) -> None:
    repo = build_cases_repo(tmp_path / "cases")
    config = replace(load_config(repo), cache=False, strict_fragments=strict)
    found = _agree(repo, config)
    rules = {f.rule for f in found}
    assert {"L001", "L003", "L006", "L009", "L010"} <= rules  # the cases exercise the phases


@pytest.mark.parametrize("seed", [1, 7])
def test_generated_corpus_agrees(tmp_path: Path, parallel: None, seed: int) -> None:
    bench = _bench()
    root = tmp_path / "corpus"
    root.mkdir()
    bench.generate(root, 120, 12, seed)  # commits
    # Add what the generator never writes: case slips, readme fragments, dead labels.
    extra = root / "zz-extra.md"
    extra.write_text(
        "# Extra\n\n[self](#extra) [gone](#nope) [dir](./#readme) [up](../x.md)\n"
        "[case](ZZ-EXTRA.md) [line](zz-extra.md#L3) [bad](%zz.md)\n\n"
        "[unused]: zz-extra.md\n[dup]: a.md\n[dup]: b.md\n\n[use][dup]\n",
        encoding="utf-8",
    )
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "corpus")
    config = Config(cache=False)
    found = _agree(root, config)
    assert found  # deliberately broken links were found both ways


def test_kept_summaries_and_cached_documents_report_what_a_cold_run_does(
    tmp_path: Path, parallel: None
) -> None:
    """A links-only run's parse cache keeps the summaries and no document: the next
    run reports from them without reading a document. A cache of documents alone
    (made by a run with no summarizer) is summarized in the gate, and reports the same."""
    repo = build_cases_repo(tmp_path / "cases")
    config = load_config(repo)
    summarizers = {links.GATE: links.Summarizer}
    cold = links.check_workspace(load_workspace(repo, config=config, summarizers=summarizers))
    results = repo / ".git" / "docsync" / "links-results"
    results.unlink()
    kept = load_workspace(repo, config=config, summarizers=summarizers)
    documents = kept.documents
    assert isinstance(documents, Documents)
    assert set(documents.made(links.GATE)) == set(documents.content_keys)
    assert links.check_workspace(kept) == cold
    assert documents._packed, "the gate read documents it has kept summaries of"
    shutil.rmtree(repo / ".git" / "docsync")
    load_workspace(repo, config=config)  # documents, no summaries
    warm = load_workspace(repo, config=config, summarizers=summarizers)
    assert isinstance(warm.documents, Documents) and not warm.documents.summaries
    assert links.check_workspace(warm) == cold
