"""What ``check``'s convention hint needs to know, from the gate's quick reading.

A check without config whose prose breaks ``wrap = "none"`` often says which
convention the prose seems to follow instead: the candidate of
:data:`~docsync.gates.wrap.count.CANDIDATES` the fewest paragraphs break
(:func:`docsync.adopt.inspection.choose_wrap`). ``init`` counts that exactly,
reading every paragraph in full (:func:`docsync.gates.wrap.count.document_breaks`),
which costs several times the check itself. The hint needs less:

* under ``"none"`` and under each width, whether the gate reports a
  paragraph, which the gate's quick reading (:mod:`~docsync.gates.wrap.scan`)
  answers for most paragraphs without building their words and gaps; for
  every width at once it is enough to know whether the widest line holds a
  break opportunity;
* under ``"sentence"``, only enough to know that it does not win, and then
  its count is never shown: a paragraph certainly breaks it when its first
  line end that may be joined follows a letter or digit (no sentence ends
  there, and a joined line end that ends no sentence is a W004).

So a paragraph is read in full only where the quick reading is not certain
of a verdict under ``"none"`` or a width. The counts for ``"none"`` and the
widths are exact; the one for ``"sentence"`` is a lower bound, and exact when
no paragraph's sentence verdict was in doubt. Where the bound is not enough
to rule ``"sentence"`` out, the hint counts exactly, as ``init`` does.
The counts run in the parse workers (:class:`Summarizer`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...config import Config
from ...model import Document, Paragraph
from ...workspace.load import Workspace
from ...workspace.results import source_digest
from .count import CANDIDATES, reading
from .display import display_width
from .prose import DocumentIndex
from .reading import analyse, reader_for
from .scan import joined_read, widest_read
from .violations import in_scope, sentence_then_text

HINT = "wrap-hint"
"""The name :class:`Summarizer`'s results go by (:meth:`docsync.workspace.documents.Documents.made`)."""

_SENTENCE = CANDIDATES.index("sentence")
_NONE = CANDIDATES.index("none")
_WIDTHS = tuple(i for i, mode in enumerate(CANDIDATES) if isinstance(mode, int))
_NARROWEST = min(mode for mode in CANDIDATES if isinstance(mode, int))


@dataclass(frozen=True, slots=True)
class HintBreaks:
    """Per candidate, the paragraphs that break it; the ``"sentence"`` entry is a
    lower bound unless ``sentence_exact``."""

    counts: tuple[int, ...]
    sentence_exact: bool


def _may(doc: Document, para: Paragraph) -> tuple[list[bool], list[int]]:
    """:func:`~docsync.gates.wrap.violations.may_violate` under each candidate,
    and each line's display width, each line measured once."""
    first, last = para.lines.first, para.lines.last
    lines = [doc.line_text(n) for n in range(first, last + 1)]
    widths = [display_width(line) for line in lines]
    widest = max(widths)
    multiline = last > first
    may = [False] * len(CANDIDATES)
    for i, mode in enumerate(CANDIDATES):
        if isinstance(mode, int):
            may[i] = widest > mode
        elif mode == "none":
            may[i] = multiline
        else:
            may[i] = multiline or any(sentence_then_text(line) for line in lines)
    return may, widths


def _quick(
    doc: Document, para: Paragraph, index: DocumentIndex, may: list[bool], widths: list[int]
) -> tuple[list[bool], bool] | None:
    """Each candidate's verdict on ``para`` and whether the ``"sentence"`` one is
    certain (False there then means "not known"); None when the quick reading
    is not certain under ``"none"`` or a width."""
    verdicts = [False] * len(CANDIDATES)
    prepared = reader_for(doc, para, index, sentences=False)
    if prepared is None:
        return verdicts, True  # the full reading refuses it too: it breaks nothing
    joined: list[int] | None = []
    if may[_NONE]:
        joined = joined_read(para, prepared)
        if joined is None:
            return None
        verdicts[_NONE] = bool(joined)
    if any(may[i] for i in _WIDTHS):
        widest = widest_read(doc, para, prepared, widths, _NARROWEST)
        if widest is None:
            return None
        for i in _WIDTHS:
            mode = CANDIDATES[i]
            verdicts[i] = isinstance(mode, int) and widest > mode
    if not may[_SENTENCE]:
        return verdicts, True
    if joined and doc.text[joined[0] - 1].isalnum():
        verdicts[_SENTENCE] = True
        return verdicts, True
    return verdicts, False


def hint_breaks(doc: Document, config: Config) -> HintBreaks:
    """:func:`~docsync.gates.wrap.count.document_breaks`, its ``"sentence"`` count
    a lower bound where only a full reading could tell."""
    index = DocumentIndex.of(doc)
    counts = [0] * len(CANDIDATES)
    exact = True
    for para in sorted(doc.paragraphs, key=lambda p: p.lines.first):
        if not in_scope(para, config):
            continue
        may, widths = _may(doc, para)
        if not any(may):
            continue
        quick = _quick(doc, para, index, may, widths)
        if quick is None:
            prose = analyse(doc, para, index, sentences=True)
            if prose is None:
                continue
            read = reading(doc, prose)
            quick = [read.breaks(mode) for mode in CANDIDATES], True
        verdicts, certain = quick
        exact = exact and certain
        for i, broken in enumerate(verdicts):
            counts[i] += broken
    return HintBreaks(tuple(counts), exact)


class Summarizer:
    """:func:`hint_breaks` in the parse workers, on the selected documents, once the run
    is known to need them.

    The hint is shown only when at least :data:`~docsync.check.convention.LEAVE_OFF_FROM`
    paragraphs break ``"none"``, and most repositories have fewer. So the workers share
    one count of the paragraphs the gate reports under ``"none"`` (its W001 rows, cheap
    beside the hint's reading), and a document is read for the hint only once that count
    has reached ``needed_from``. A run that ends below it never reads one; a run that
    needs the hint lacks it only for the documents parsed before the count got there,
    which :func:`docsync.check.convention.wrap_left_off` reads itself."""

    def __init__(self, workspace: Workspace, needed_from: int = 0) -> None:
        from pathlib import Path

        from .check import _run_key

        self._config = workspace.config
        self._selected = frozenset(workspace.selected)
        self._needed_from = needed_from
        self._breaking: Any = None  # the shared count, made by share() before workers start
        # the counts depend on the document, the config and the wrap gate's code: the parse
        # cache may keep them in place of the document (docsync.workspace.summaries.Kept)
        here = Path(__file__)
        self.context = f"{_run_key(workspace.config)}|{source_digest(str(here), str(here.with_name('count.py')))}"

    def share(self) -> None:
        """Make the count the workers share; called before they start (forked workers and a
        pool's inherit it), so that a run served by the caches imports no multiprocessing."""
        import multiprocessing

        if self._needed_from:
            self._breaking = multiprocessing.get_context().Value("q", 0)

    def __call__(self, doc: Document) -> HintBreaks | None:
        if doc.path not in self._selected:
            return None
        if self._breaking is not None and not self._needed(doc):
            return None
        return hint_breaks(doc, self._config)

    def _needed(self, doc: Document) -> bool:
        """Whether the run has reached ``needed_from`` paragraphs breaking ``"none"`` (the
        config's wrap: a run without config checks ``"none"``), this document's counted."""
        from .check import rows

        assert self._breaking is not None
        joined = sum(1 for row in rows(doc, self._config) if row[0] == "W001")
        with self._breaking.get_lock():
            self._breaking.value += joined
            return bool(self._breaking.value >= self._needed_from)

    def pack(self, result: object) -> object:
        assert isinstance(result, HintBreaks)
        return (result.counts, result.sentence_exact)

    def unpack(self, data: object) -> HintBreaks | None:
        """:meth:`pack`'s data back, checked."""
        if not (type(data) is tuple and len(data) == 2 and type(data[1]) is bool):
            return None
        counts = data[0]
        if type(counts) is not tuple or len(counts) != len(CANDIDATES):
            return None
        if not all(type(n) is int and n >= 0 for n in counts):
            return None
        return HintBreaks(counts, data[1])


def sentence_ruled_out(per_file: list[HintBreaks]) -> tuple[int, ...] | None:
    """The summed counts when they choose as the exact counts would: every
    ``"sentence"`` count exact, or their bound above another candidate's count
    (then ``"sentence"`` neither wins nor is shown). None otherwise."""
    counts = tuple(sum(f.counts[i] for f in per_file) for i in range(len(CANDIDATES)))
    if all(f.sentence_exact for f in per_file):
        return counts
    others = [n for i, n in enumerate(counts) if i != _SENTENCE]
    return counts if counts[_SENTENCE] > min(others) else None
