"""check's convention hint, from the parse workers' bounds, says what init's exact counts
would have it say, and a cold check without config reads no document for it.

:func:`docsync.gates.wrap.hint.hint_breaks` counts each candidate from below, exactly
where it says so (``"none"`` and the widest width always). The bounds are held to
init's count (:func:`docsync.gates.wrap.count.document_breaks`, itself held to the
gate's own verdicts in ``tests/test_wrapcount.py``) on every case file and on
generated documents; the hint they give (:func:`docsync.check.convention.decided`)
is held to the one init's counts give on generated trees of documents; and a whole
check is run on repositories wrapped to each convention.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.adopt.inspection import choose_wrap, wrap_counts
from docsync.check.check import run_check
from docsync.check.convention import LEAVE_OFF_FROM, decided, settled, worded
from docsync.config import Config, WrapMode
from docsync.config import load as load_config
from docsync.gates.wrap.count import CANDIDATES, Breaks, document_breaks
from docsync.gates.wrap.hint import NARROWER, Exactly, HintBreaks, hint_breaks
from docsync.model import Document
from docsync.parse.native import parse
from docsync.workspace import parsing
from tests.case_readings import case_breaks, case_documents
from tests.gitutil import git
from tests.test_wrap_properties import DOCUMENTS, TOKENS
from tests.test_wrapcount import SCOPES, WIDE_DOCUMENTS

SENTENCE = CANDIDATES.index("sentence")
ALWAYS_EXACT = (CANDIDATES.index("none"), CANDIDATES.index(120))


def _always(counts: object) -> bool:
    return True


def _agrees(
    doc: Document,
    config: Config,
    shown: list[int] | None = None,
    sentences: Exactly | None = None,
    exact_of: Callable[[Document, Config], Breaks] = document_breaks,
) -> HintBreaks:
    quick = hint_breaks(doc, config, shown, sentences)
    exact = exact_of(doc, config).counts
    if sentences is _always:
        assert quick.exact[SENTENCE] and quick.counts[SENTENCE] == exact[SENTENCE], doc.path
    for i, mode in enumerate(CANDIDATES):
        assert quick.counts[i] <= exact[i], (doc.path, mode)
        if quick.exact[i]:
            assert quick.counts[i] == exact[i], (doc.path, mode)
    assert all(quick.exact[i] for i in ALWAYS_EXACT), doc.path
    return quick


@pytest.mark.parametrize("config", SCOPES, ids=["default", "no-lists", "no-quotes"])
def test_case_files_count_as_init_counts(config: Config) -> None:
    bounded = [0] * len(CANDIDATES)
    certain = 0
    for doc in case_documents():  # parsed once per process, and counted once per scope
        quick = _agrees(doc, config, exact_of=case_breaks)
        bounded = [n + (not e) for n, e in zip(bounded, quick.exact, strict=True)]
        certain += quick.counts[SENTENCE]
    # both kinds of verdict occur: bounds below the widest width and for "sentence", and
    # paragraphs certain to break "sentence"
    assert bounded[SENTENCE] and any(bounded[1:4]) and certain


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(DOCUMENTS, WIDE_DOCUMENTS), scope=st.sampled_from(SCOPES))
def test_generated_documents_count_as_init_counts(text: str, scope: Config) -> None:
    doc = parse("generated.md", text)
    _agrees(doc, scope)
    _agrees(doc, scope, sentences=_always)  # "sentence" counted exactly, as the workers may


def test_a_paragraph_is_counted_once_whichever_widths_it_is_read_for() -> None:
    """A paragraph whose widest line holds no break is read for the narrowest width, breaks
    it through a narrower line, and is still a candidate for the next width: it is not
    counted again. Each document alone, and a run's documents sharing what they showed."""
    url = "https://example.com/" + "x" * 70  # 90 columns, no break
    words = " ".join(["word"] * 15)  # 74 columns
    text = f"{words}\n{url}\n\n{words}\n{url}\n"
    doc = parse("once.md", text)
    alone = _agrees(doc, Config())
    assert alone.counts[CANDIDATES.index(72)] == 2 and alone.counts[CANDIDATES.index(80)] == 0
    shown = [0] * len(NARROWER)
    for _ in range(2):
        _agrees(doc, Config(), shown)
    assert shown == [1, 0, 0]


@st.composite
def _wrapped(draw: st.DrawFn, width: int) -> str:
    """A paragraph of the generated tokens, wrapped near ``width`` columns (a token may
    run past it), or on one line."""
    tokens = draw(st.lists(TOKENS, min_size=3, max_size=40))
    if draw(st.integers(0, 5)) == 0:
        return " ".join(token.replace("\n", " ") for token in tokens)
    lines, line = [], ""
    for token in " ".join(tokens).split(" "):
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    return "\n".join([*lines, line])


@st.composite
def _trees(draw: st.DrawFn) -> list[str]:
    """A few documents, most paragraphs wrapped near one width (so that widths tie, and
    the narrowest of the tied must win), some near another, some of the other generators."""
    width = draw(st.sampled_from([60, 72, 80, 90, 100, 110, 120, 130]))
    other = st.integers(50, 150).flatmap(_wrapped)
    paragraph = st.one_of(_wrapped(width), _wrapped(width), _wrapped(width), other)
    page = st.lists(paragraph, min_size=1, max_size=6).map("\n\n".join)
    return draw(st.lists(st.one_of(page, page, page, DOCUMENTS, WIDE_DOCUMENTS), min_size=1, max_size=5))


def _line(mode: WrapMode, breaking: Mapping[WrapMode, int]) -> str | None:
    """The hint's line, as if the tree were large enough to be given one."""
    return worded(mode, {m: n * LEAVE_OFF_FROM for m, n in breaking.items()}, "none")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=_trees(), scope=st.sampled_from(SCOPES))
def test_generated_trees_hint_as_init_counts(texts: Sequence[str], scope: Config) -> None:
    """On a tree of documents, the bounds choose the convention init's exact counts choose,
    with its exact count and the default's, and so word the same hint, or leave the choice to
    those exact counts: each document read alone, or the documents read in turn as a run's
    workers read them, sharing which narrower widths one has shown to lose to the widest."""
    docs = [parse(f"page-{n}.md", text) for n, text in enumerate(texts)]
    exact = wrap_counts(docs, scope)
    mode = choose_wrap(exact)
    counts = {c.mode: c.paragraphs for c in exact}
    shown = [0] * len(NARROWER)
    for chosen in (
        decided([_agrees(doc, scope) for doc in docs], "none"),
        decided([_agrees(doc, scope, shown) for doc in docs], "none"),
    ):
        if chosen is None:
            continue
        assert chosen[0] == mode
        assert chosen[1][mode] == counts[mode] and chosen[1]["none"] == counts["none"]
        assert _line(*chosen) == _line(mode, counts)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=_trees(), scope=st.sampled_from(SCOPES), data=st.data())
def test_summed_counts_hint_as_init_counts_whatever_the_workers_counted_exactly(
    texts: Sequence[str], scope: Config, data: st.DataObject
) -> None:
    """The workers count "sentence" exactly in some documents and leave a bound in the
    others (:meth:`Summarizer._may_win`, on the run's counts so far); whichever they were,
    the summed counts, the documents left a bound read again (:func:`settled`), choose what
    init's whole-tree count chooses, with its exact counts, and so word the same hint."""
    docs = {f"page-{n}.md": parse(f"page-{n}.md", text) for n, text in enumerate(texts)}
    exact = wrap_counts(list(docs.values()), scope)
    mode, counts = choose_wrap(exact), {c.mode: c.paragraphs for c in exact}
    shown = [0] * len(NARROWER)
    exactly = data.draw(st.lists(st.booleans(), min_size=len(docs), max_size=len(docs)))
    known = {
        path: _agrees(doc, scope, shown, _always if counted else None)
        for (path, doc), counted in zip(docs.items(), exactly, strict=True)
    }
    read: list[str] = []
    chosen = settled(known, lambda path: read.append(path) or docs[path], scope)
    assert chosen is not None
    assert chosen[0] == mode
    assert chosen[1][mode] == counts[mode] and chosen[1]["none"] == counts["none"]
    assert _line(*chosen) == _line(mode, counts)
    if all(exactly):  # every document counted exactly in its worker: the numbers settle it
        assert not read


def test_bounds_choose_only_where_the_choice_is_exact() -> None:
    """Bounds settle the choice only when the candidate they choose is counted exactly
    (the default too): a candidate with an inexact, lower count might have the fewest."""
    order = ["none", 72, 80, 100, 120, "sentence"]
    everything = (True,) * 6

    def of(counts: tuple[int, ...], exact: tuple[bool, ...] = everything) -> HintBreaks:
        return HintBreaks(counts, exact)

    assert tuple(order) == CANDIDATES
    assert decided([of((50, 9, 9, 9, 9, 60))], "none") == (
        72, dict(zip(CANDIDATES, (50, 9, 9, 9, 9, 60), strict=True))
    )  # widths tie: the narrowest wins
    below_widest = (True, False, False, False, True, False)
    assert decided([of((50, 12, 11, 10, 9, 60), below_widest)], "none") == (120, {"none": 50, 120: 9})
    assert decided([of((50, 9, 9, 9, 9, 60), below_widest)], "none") is None  # 72 may tie with 120
    assert decided([of((50, 12, 11, 10, 9, 9), below_widest)], "none") is None  # "sentence" may win
    assert decided([of((50, 12, 11, 10, 9, 10), below_widest)], "none") == (120, {"none": 50, 120: 9})
    assert decided([of((5, 12, 11, 10, 9, 2), below_widest)], "none") is None
    assert decided([of((5, 12, 11, 10, 9, 6), below_widest)], "none") == ("none", {"none": 5, 120: 9})
    # summed over files: exact only where every file's is
    assert decided([of((30, 9, 9, 9, 9, 60)), of((30, 9, 9, 9, 9, 60), below_widest)], "none") is None
    assert decided([of((30, 9, 9, 9, 9, 60)), of((30, 12, 11, 10, 9, 60), below_widest)], "none") == (
        120, {"none": 60, 120: 18}
    )


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


@pytest.mark.parametrize(("width", "sentences"), [(80, False), (None, True)])
def test_a_cold_check_without_config_unpickles_no_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int | None, sentences: bool
) -> None:
    """Hard-wrapped or a sentence a line: the workers' numbers settle the hint (one sentence
    a line, "sentence" is counted exactly in them), and no document is read again for it."""
    from docsync.workspace import documents as documents_module

    repo = tmp_path / "repo"
    repo.mkdir()
    for n in range(70):
        (repo / f"page-{n}.md").write_text(_prose(n, width, sentences), encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "pages")
    read: list[str] = []
    unpickled = documents_module._unpickled
    monkeypatch.setattr(
        documents_module, "_unpickled", lambda path, *rest: read.append(path) or unpickled(path, *rest)
    )
    result = run_check(repo, gates=["links", "wrap"], config=replace(load_config(repo), jobs=2))
    assert result.hint is not None and ('"sentence"' if sentences else "wrap = 80") in result.hint
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
