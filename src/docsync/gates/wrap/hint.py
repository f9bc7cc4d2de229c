"""What ``check``'s convention hint needs to know, read beside the gate's own rows.

A check without config whose prose breaks ``wrap = "none"`` often says which
convention the prose seems to follow instead: the candidate of
:data:`~docsync.gates.wrap.count.CANDIDATES` the fewest paragraphs break
(:func:`docsync.adopt.inspection.choose_wrap`), with how many paragraphs break
it and how many break ``"none"``. ``init`` counts every candidate exactly,
reading every paragraph in full (:func:`docsync.gates.wrap.count.document_breaks`).
The hint needs less: the exact count of the winner and of ``"none"``, and for
every other candidate only that it loses. So each candidate gets a count that
is a lower bound, exact where it says so (:class:`HintBreaks`); the winner
chosen from the bounds is the exact counts' winner when its own count is
exact, since every other candidate's true count is at least its bound
(:func:`docsync.check.convention.wrap_left_off`, which otherwise counts as
``init`` counts). A document's bounds are read as follows:

* ``"none"``: exactly, from the rows the gate has just made of the same
  document under ``"none"`` (its W001, one for each paragraph that breaks it).
* The widths: a width ``w`` is broken when a line wider than ``w`` holds a
  break opportunity, so the counts shrink as the width grows, every width
  is broken by each paragraph that breaks the widest, and a narrower width
  loses to the widest as soon as one paragraph breaks it and not the widest
  (ties go to the narrower). So a paragraph with a line wider than the
  widest candidate is read (for its widest line holding a break, every width
  at once: :func:`~docsync.gates.wrap.joined.widest_rows`), which makes the
  widest candidate's count exact; one whose lines are all narrower is read
  only until the document has, for every narrower width that it could break,
  a paragraph that breaks that width and not the widest. The rest leave
  those widths' counts as lower bounds, already above the widest's. On a
  hard-wrapped tree that is a few paragraphs a document instead of all.
* ``"sentence"``: only enough to know that it does not win, and then its
  count is never shown: a paragraph certainly breaks it when its first line
  end that may be joined follows a letter or digit (no sentence ends there,
  and a joined line end that ends no sentence is a W004), and certainly does
  not when it is one line holding no sentence end before more text, or lines
  that each end one sentence and hold no other
  (:func:`~docsync.gates.wrap.sentences.keeps_sentences`; ``breaks_sentences`` is its converse).

A paragraph the quick readings cannot tell is read in full, as ``init`` reads
it. The counts run in the parse workers (:class:`Summarizer`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any

from ...config import Config
from ...model import Document, Paragraph
from ...workspace.load import Workspace
from ...workspace.results import source_digest
from .check import rows
from .count import CANDIDATES, reading
from .joined import widest_rows
from .prose import DocumentIndex
from .reading import analyse
from .sentences import breaks_sentences, keeps_sentences
from .violations import in_scope, paragraph_widths, sentence_then_text

HINT = "wrap-hint"
"""The name :class:`Summarizer`'s results go by (:meth:`docsync.workspace.documents.Documents.made`)."""

_SENTENCE = CANDIDATES.index("sentence")
_NONE = CANDIDATES.index("none")
_WIDTHS = tuple((i, mode) for i, mode in enumerate(CANDIDATES) if isinstance(mode, int))
_NARROWEST = min(mode for _, mode in _WIDTHS)
_WIDEST = max(mode for _, mode in _WIDTHS)
NARROWER = tuple(mode for _, mode in _WIDTHS if mode < _WIDEST)
"""The widths narrower than the widest candidate."""
_TOTALLED = (_SENTENCE, _NONE, CANDIDATES.index(_WIDEST))  # what the workers add up as they go


Exactly = Callable[[Sequence[int]], bool]
"""Asked of a document's counts so far, whether to count its ``"sentence"`` exactly."""


@dataclass(frozen=True, slots=True)
class HintBreaks:
    """Per candidate (in :data:`~docsync.gates.wrap.count.CANDIDATES` order), at least
    how many paragraphs break it, and whether that count is exact."""

    counts: tuple[int, ...]
    exact: tuple[bool, ...]


def summed(per_file: Iterable[HintBreaks]) -> HintBreaks:
    """The documents' bounds added up: exact where every document's is."""
    counts, exact = [0] * len(CANDIDATES), [True] * len(CANDIDATES)
    for breaks in per_file:
        for i in range(len(CANDIDATES)):
            counts[i] += breaks.counts[i]
            exact[i] = exact[i] and breaks.exact[i]
    return HintBreaks(tuple(counts), tuple(exact))


def _joins(doc: Document, config: Config) -> list[int]:
    """Where each paragraph that breaks ``"none"`` is first joined: the gate's W001 rows,
    in source order (the rows its own summarizer has just made, in a worker)."""
    unwrapped = config if config.wrap == "none" else replace(config, wrap="none")
    starts = doc.line_starts
    return [starts[line - 1] + column - 1 for rule, line, column, _ in rows(doc, unwrapped) if rule == "W001"]


def hint_breaks(
    doc: Document, config: Config, shown: MutableSequence[int] | None = None, sentences: Exactly | None = None
) -> HintBreaks:
    """Per candidate, at least how many of ``doc``'s paragraphs (in ``config``'s scope)
    break it, as :func:`~docsync.gates.wrap.count.document_breaks` counts them, and
    whether exactly (see the module docstring). ``sentences``, when given and true of the
    counts so far, has ``"sentence"`` counted exactly where the quick verdicts leave it in
    doubt: every paragraph they cannot tell is read in full, as ``init`` reads it.

    ``shown``, when given, is shared by the documents of one run (:class:`Summarizer`):
    for each width narrower than the widest (in :data:`NARROWER` order), whether one of
    them has a paragraph that breaks it and not the widest. A document it names none
    for reads no paragraph to find one: that document's paragraph is counted in that
    document's bound, which the run adds up with this one's."""
    everything = config.wrap_lists and config.wrap_blockquotes  # every paragraph is in scope
    chosen = doc.paragraphs if everything else [p for p in doc.paragraphs if in_scope(p, config)]
    paragraphs = sorted(chosen, key=_first_line)
    tally = _Tally(doc, paragraphs, _joins(doc, config), shown)
    tally.widths()
    tally.sentences(sentences)
    return HintBreaks(tuple(tally.counts), tuple(tally.exact))


_first_line = attrgetter("lines.first")

_LONGER = {width: re.compile(rf"\n[^\n]{{{width + 1}}}") for _, width in _WIDTHS}
"""A line end, then a line of more than ``width`` characters: in text of ASCII and no tab,
the only lines whose display width can be more than ``width`` (a search for a line end,
with no ``^``, runs several times faster)."""


def _longer(text: str, width: int, at: int) -> int | None:
    """The start of the first line from the line start ``at`` on with more than ``width`` characters."""
    if at == 0:
        end = text.find("\n")
        if (end if end >= 0 else len(text)) > width:
            return 0
    found = _LONGER[width].search(text, max(at - 1, 0))
    return None if found is None else found.start() + 1


class _Tally:
    """One document's bounds."""

    def __init__(
        self, doc: Document, paragraphs: list[Paragraph], joins: list[int], shown: MutableSequence[int] | None
    ) -> None:
        self.doc = doc
        self.shown = shown
        self.paragraphs = paragraphs
        self.firsts = [p.lines.first for p in paragraphs]
        plain = doc.text.isascii() and "\t" not in doc.text
        self.measured = None if plain else [(p, paragraph_widths(doc, p)) for p in paragraphs]
        self.joins = joins
        self.index: DocumentIndex | None = None
        self.counts = [0] * len(CANDIDATES)
        self.exact = [True] * len(CANDIDATES)
        self.counts[_NONE] = len(joins)
        self.read: set[int] = set()  # the first lines of the paragraphs counted
        self.told: set[int] = set()  # those of the paragraphs read in full
        # per width below the widest: a paragraph of this document (or, told by ``shown``, of
        # another) breaks it and not the widest
        self.beyond = dict.fromkeys(NARROWER, False)

    def widths(self) -> None:
        """Count the widths: every paragraph with a line wider than the widest candidate,
        then, for each narrower width from the narrowest, paragraphs with a line wider than
        it until one breaks it and not the widest (then it loses to the widest)."""
        for para, widths in self._wider(_WIDEST):
            if max(widths) > _WIDEST:
                self._read(para, widths, full=True)
        for width in NARROWER:
            if self._known(width):
                continue
            deferred: list[tuple[Paragraph, list[int]]] = []
            for para, widths in self._wider(width):
                if self._known(width):
                    break
                if self._needed(para, widths) and not self._read(para, widths, full=False):
                    deferred.append((para, widths))  # read in full only if still needed
            for para, widths in deferred:
                if self._needed(para, widths):
                    self._read(para, widths, full=True)
        for i, width in _WIDTHS:
            if width < _WIDEST:  # a paragraph left unread could add only where one is known
                self.exact[i] = not self.beyond[width]

    def _wider(self, width: int) -> Iterator[tuple[Paragraph, list[int]]]:
        """The paragraphs that may hold a line wider than ``width``, with their lines' widths."""
        doc = self.doc
        if self.measured is not None:  # text whose characters may be other than one column
            yield from ((para, widths) for para, widths in self.measured if max(widths) > width)
            return
        text, starts, firsts = doc.text, doc.line_starts, self.firsts
        found = _longer(text, width, 0)
        while found is not None:
            at = found
            number = bisect.bisect_right(starts, at)
            k = bisect.bisect_right(firsts, number) - 1
            last = self.paragraphs[k].lines.last if k >= 0 else 0
            if last < number:  # in no paragraph of the scope: on from the next one's start
                if k + 1 == len(firsts):
                    return
                found = _longer(text, width, starts[firsts[k + 1] - 1])
                continue
            yield self.paragraphs[k], paragraph_widths(doc, self.paragraphs[k])
            found = _longer(text, width, starts[last] if last < len(starts) else len(text))

    def _known(self, width: int) -> bool:
        """Whether a paragraph is known to break ``width`` (narrower than the widest) and not
        the widest: one of this document's, or, as ``shown`` tells, another's."""
        if not self.beyond[width] and self.shown is not None and self.shown[NARROWER.index(width)]:
            self.beyond[width] = True
        return self.beyond[width]

    def _needed(self, para: Paragraph, widths: list[int]) -> bool:
        """Whether ``para``, not read yet, could tell of a width narrower than the widest
        that loses to it."""
        widest = max(widths)
        if widest > _WIDEST or para.lines.first in self.read:
            return False
        return any(not self._known(w) for w in NARROWER if w < widest)

    def _read(self, para: Paragraph, widths: list[int], *, full: bool) -> bool:
        """Count ``para`` under every width, reading it in full where the quick reading
        cannot tell and ``full`` allows; False when it was not counted."""
        doc, index = self.doc, self._index()
        breakable = widest_rows(doc, para, index, widths, _NARROWEST)
        if breakable is None:
            if not full:
                return False
            prose = analyse(doc, para, index, sentences=False)  # the widths need no sentence ends
            breakable = 0 if prose is None else reading(doc, prose).widest_breakable
            if prose is None:  # the full reading refuses it: it breaks nothing, "sentence" neither
                self.told.add(para.lines.first)
        self.read.add(para.lines.first)
        for i, width in _WIDTHS:
            if breakable > width:
                self.counts[i] += 1
                if width < _WIDEST and breakable <= _WIDEST:
                    self.beyond[width] = True
                    if self.shown is not None:
                        self.shown[NARROWER.index(width)] = 1
        return True

    def _join(self, para: Paragraph) -> int | None:
        """Where the gate's row says ``para`` is first joined; None when it is not."""
        starts, text = self.doc.line_starts, self.doc.text
        first, last = para.lines.first, para.lines.last
        k = bisect.bisect_left(self.joins, starts[first - 1])
        end = starts[last] if last < len(starts) else len(text)
        return self.joins[k] if k < len(self.joins) and self.joins[k] < end else None

    def _joined_in_word(self, para: Paragraph) -> bool:
        """Whether ``para`` is first joined after a letter or digit: it certainly breaks
        ``"sentence"``."""
        at = self._join(para)
        return at is not None and self.doc.text[at - 1].isalnum()

    def sentences(self, exactly: Exactly | None) -> None:
        """Count ``"sentence"`` from below: the paragraphs first joined after a letter or digit,
        and those read in full that break it; exact while none is in doubt (as one joined after
        a sentence end is), or when ``exactly`` (asked of the counts so far) has those read."""
        text = self.doc.text
        in_word = sum(1 for at in self.joins if text[at - 1].isalnum())
        self.counts[_SENTENCE] += in_word
        if exactly is None or not exactly(self.counts):
            if in_word < len(self.joins) or any(map(self._in_doubt, self.paragraphs)):
                self.exact[_SENTENCE] = False
            return
        doubt = [p for p in self.paragraphs if self._in_doubt(p)]  # each asked once
        self.counts[_SENTENCE] += sum(_breaks_sentences(self.doc, p, self._index()) for p in doubt)

    def _in_doubt(self, para: Paragraph) -> bool:
        """Whether the quick verdicts leave it open if ``para`` breaks ``"sentence"``: not read
        in full already, not first joined after a letter or digit (it breaks it), not one
        line holding no sentence end before more text, and not lines that each end one
        sentence (:func:`~docsync.gates.wrap.sentences.keeps_sentences`: it keeps to it)."""
        if para.lines.first in self.told or self._joined_in_word(para):
            return False
        one_line = para.lines.first == para.lines.last and self._join(para) is None
        if one_line and not sentence_then_text(self.doc.line_text(para.lines.first)):
            return False
        return not keeps_sentences(self.doc, para, self._index())

    def _index(self) -> DocumentIndex:
        """The document's index, made when a paragraph first needs it."""
        if self.index is None:
            self.index = DocumentIndex.of(self.doc)
        return self.index


def _breaks_sentences(doc: Document, para: Paragraph, index: DocumentIndex) -> bool:
    """Whether ``para`` breaks ``"sentence"``: certainly (a sentence end inside a line),
    or else read in full."""
    if breaks_sentences(doc, para, index):
        return True
    prose = analyse(doc, para, index, sentences=True)
    return prose is not None and reading(doc, prose).off_sentences


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
        self._shown: Any = None  # hint_breaks's shown, shared likewise
        self._totals: Any = None  # the run's counts so far: "sentence" (from below), "none", the widest
        # the counts depend on the document, the config and the wrap gate's code: the parse
        # cache may keep them in place of the document (docsync.workspace.summaries.Kept)
        here = Path(__file__)
        code = source_digest(*(str(here.with_name(name)) for name in ("hint.py", "count.py", "sentences.py")))
        self.context = f"{_run_key(workspace.config)}|{code}"

    def share(self) -> None:
        """Make what the workers share (the count, and which narrower widths a document has
        shown to lose to the widest); called before they start (forked workers and a pool's
        inherit it), so that a run served by the caches imports no multiprocessing."""
        import multiprocessing

        context = multiprocessing.get_context()
        if self._needed_from:
            self._breaking = context.Value("q", 0)
        self._shown = context.Array("b", len(NARROWER), lock=False)  # set once, never cleared
        self._totals = context.Array("q", 3)

    def __call__(self, doc: Document) -> HintBreaks | None:
        if doc.path not in self._selected:
            return None
        if self._breaking is not None and not self._needed(doc):
            return None
        if self._totals is None:
            return hint_breaks(doc, self._config, self._shown)
        found = hint_breaks(doc, self._config, self._shown, self._may_win)
        with self._totals.get_lock():
            for k, i in enumerate(_TOTALLED):
                self._totals[k] += found.counts[i]
        return found

    def _may_win(self, counts: Sequence[int]) -> bool:
        """Whether ``"sentence"`` is worth counting exactly in this document: the run's
        documents so far, this one's counts added, place its bound no higher than both
        ``"none"`` and the widest width. A tree that follows it counts it exactly as it goes;
        one that does not soon stops, and its documents keep the bound, which the hint then
        reads again only if ``"sentence"`` might win after all
        (:func:`docsync.check.convention.wrap_left_off`)."""
        with self._totals.get_lock():
            sentence, unwrapped, widest = (self._totals[k] + counts[i] for k, i in enumerate(_TOTALLED))
        return bool(sentence <= min(unwrapped, widest))

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
        return (result.counts, result.exact)

    def unpack(self, data: object) -> HintBreaks | None:
        """:meth:`pack`'s data back, checked."""
        if not (type(data) is tuple and len(data) == 2):
            return None
        counts, exact = data
        if type(counts) is not tuple or type(exact) is not tuple:
            return None
        if len(counts) != len(CANDIDATES) or len(exact) != len(CANDIDATES):
            return None
        if not all(type(n) is int and n >= 0 for n in counts) or not all(type(e) is bool for e in exact):
            return None
        return HintBreaks(counts, exact)
