"""check's convention hint, from the parse workers' quick counts, says what init's exact
counts would have it say, and a cold check without config reads no document for it.

:func:`docsync.gates.wrap.hint.hint_breaks` counts ``"none"`` and every width
exactly and ``"sentence"`` from below (exactly when it says so). Both are held
to init's count (:func:`docsync.gates.wrap.count.document_breaks`, itself held to
the gate's own verdicts in ``tests/test_wrapcount.py``) on every case file, on
generated documents, and through a whole check on repositories wrapped to each
convention.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.check.check import run_check
from docsync.check.convention import LEAVE_OFF_FROM
from docsync.config import Config
from docsync.config import load as load_config
from docsync.gates.wrap.count import CANDIDATES, document_breaks
from docsync.gates.wrap.hint import HintBreaks, hint_breaks, sentence_ruled_out
from docsync.model import Document
from docsync.parse.native import parse
from docsync.workspace import parsing
from tests.case_readings import CASE_FILES, ROOT
from tests.gitutil import git
from tests.test_wrap_properties import DOCUMENTS
from tests.test_wrapcount import SCOPES, WIDE_DOCUMENTS

SENTENCE = CANDIDATES.index("sentence")


def _agrees(doc: Document, config: Config) -> HintBreaks:
    quick = hint_breaks(doc, config)
    exact = document_breaks(doc, config).counts
    others = [n for i, n in enumerate(quick.counts) if i != SENTENCE]
    assert others == [n for i, n in enumerate(exact) if i != SENTENCE], doc.path
    assert quick.counts[SENTENCE] <= exact[SENTENCE], doc.path
    if quick.sentence_exact:
        assert quick.counts[SENTENCE] == exact[SENTENCE], doc.path
    return quick


@pytest.mark.parametrize("config", SCOPES, ids=["default", "no-lists", "no-quotes"])
def test_case_files_count_as_init_counts(config: Config) -> None:
    bounded = certain = 0
    for path in CASE_FILES:
        quick = _agrees(parse(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")), config)
        bounded += not quick.sentence_exact
        certain += quick.counts[SENTENCE]
    assert bounded and certain  # both kinds of sentence verdict occur


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(DOCUMENTS, WIDE_DOCUMENTS), scope=st.sampled_from(SCOPES))
def test_generated_documents_count_as_init_counts(text: str, scope: Config) -> None:
    _agrees(parse("generated.md", text), scope)


def test_sentence_is_ruled_out_only_by_a_bound_above_another_count() -> None:
    exact = HintBreaks((5, 9, 9, 9, 9, 2), True)
    low = HintBreaks((5, 9, 9, 9, 9, 2), False)
    high = HintBreaks((5, 9, 9, 9, 9, 6), False)
    assert sentence_ruled_out([exact]) == exact.counts
    assert sentence_ruled_out([low]) is None  # "sentence" might have the fewest
    assert sentence_ruled_out([high]) == high.counts  # 6 or more, and "none" has 5
    assert sentence_ruled_out([high, exact]) is None  # 8 or more, and "none" has 10
    assert sentence_ruled_out([high, high]) == (10, 18, 18, 18, 18, 12)


WORDS = ("the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "and", "then", "some")


def _prose(n: int, width: int | None, sentences: bool) -> str:
    """Paragraphs of several sentences: on one line each (``width`` None), wrapped
    at ``width``, or one sentence per line."""
    paragraphs = []
    for k in range(4):
        # long sentences, so that one per line breaks every width
        sentences_of = [" ".join((WORDS * 3)[(n + k + i) % 7 :][:30]).capitalize() + "." for i in range(5)]
        if sentences:
            paragraphs.append("\n".join(sentences_of))
            continue
        text = " ".join(sentences_of)
        if width is None:
            paragraphs.append(text)
            continue
        lines, line = [], ""
        for word in text.split():
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        paragraphs.append("\n".join([*lines, line]))
    return f"# Page {n}\n\n" + "\n\n".join(paragraphs) + "\n"


@pytest.mark.parametrize(
    ("width", "sentences"), [(72, False), (100, False), (None, True), (None, False)]
)
def test_a_check_without_config_hints_as_init_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int | None, sentences: bool
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    for n in range(70):
        (repo / f"page-{n}.md").write_text(_prose(n, width, sentences), encoding="utf-8")
    (repo / "odd.md").write_text("Short\nlines\nhere.\n\n" * 30, encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "pages")
    config = replace(load_config(repo), jobs=2)
    assert config.origin == "(defaults)"
    shutil.rmtree(repo / ".git" / "docsync", ignore_errors=True)
    quick = run_check(repo, config=config)
    with monkeypatch.context() as here:  # parsed here: the hint counts exactly
        here.setattr(parsing, "_PARALLEL_THRESHOLD", 10**9)
        shutil.rmtree(repo / ".git" / "docsync", ignore_errors=True)
        exact = run_check(repo, config=config)
    assert quick.findings == exact.findings
    assert quick.hint == exact.hint
    if width is None and not sentences:
        assert quick.hint is None  # one line per paragraph: "none" is followed
    else:
        assert quick.hint is not None
        assert ("sentence" in quick.hint) == sentences and (f"= {width} " in quick.hint) == bool(width)


def test_a_cold_check_without_config_unpickles_no_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsync.workspace import documents as documents_module

    repo = tmp_path / "repo"
    repo.mkdir()
    for n in range(70):
        (repo / f"page-{n}.md").write_text(_prose(n, 80, False), encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "pages")
    read: list[str] = []
    unpickled = documents_module._unpickled
    monkeypatch.setattr(
        documents_module, "_unpickled", lambda path, *rest: read.append(path) or unpickled(path, *rest)
    )
    result = run_check(repo, gates=["links", "wrap"], config=replace(load_config(repo), jobs=2))
    assert result.hint is not None and "wrap = 80" in result.hint
    # only the pages parsed before LEAVE_OFF_FROM paragraphs broke "none" (4 a page) are read
    # for the hint here; the workers read every other one
    assert len(read) < LEAVE_OFF_FROM / 4


def test_a_check_without_config_whose_prose_follows_none_reads_no_hint(tmp_path: Path) -> None:
    """Fewer than LEAVE_OFF_FROM paragraphs break "none": no hint is shown, so none is made."""
    from docsync.check.check import _in_workers
    from docsync.gates.wrap.hint import HINT
    from docsync.workspace.documents import Documents
    from docsync.workspace.load import load_workspace

    repo = tmp_path / "repo"
    repo.mkdir()
    for n in range(70):
        wrapped = n < LEAVE_OFF_FROM // 4 - 1  # a few hard-wrapped pages, 4 breaks each: under LEAVE_OFF_FROM
        (repo / f"page-{n}.md").write_text(_prose(n, 80 if wrapped else None, False), encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "pages")
    config = replace(load_config(repo), jobs=2)
    workspace = load_workspace(repo, config=config, summarizers=_in_workers(["wrap"], config))
    assert isinstance(workspace.documents, Documents)
    assert len(workspace.documents.made("wrap")) == 70  # the workers made the summaries
    assert len(workspace.documents.made(HINT)) == 0
    assert run_check(repo, gates=["wrap"], config=config).hint is None


def test_the_hint_counts_the_rows_the_gate_just_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a worker of a run without config, the wrap gate's summarizer and then the hint's
    read each document: its rows under "none" are made once, not once for each. Another
    document or config is read afresh."""
    from docsync.gates.wrap import check as wrap_check
    from docsync.gates.wrap import hint, violations

    made: list[str] = []
    joined_rows = violations.joined_rows

    def counted(doc: Document, config: Config) -> object:
        made.append(doc.path)
        return joined_rows(doc, config)

    monkeypatch.setattr(violations, "joined_rows", counted)
    config = Config()
    first, second = (parse(f"{name}.md", _prose(n, 80, False)) for n, name in enumerate(("a", "b")))
    rows = wrap_check.rows(first, config)
    needs = hint.Summarizer.__new__(hint.Summarizer)
    needs._config, needs._breaking, needs._needed_from = config, _Count(), 1
    assert needs._needed(first) == (len(rows) >= 1) and made == ["a.md"]
    assert wrap_check.rows(first, config) == rows and made == ["a.md"]
    wrap_check.rows(second, config)
    wrap_check.rows(first, replace(config, jobs=3))
    assert made == ["a.md", "b.md", "a.md"]


class _Count:
    """multiprocessing's shared count, in one process."""

    def __init__(self) -> None:
        self.value = 0

    def get_lock(self) -> object:
        import contextlib

        return contextlib.nullcontext()
