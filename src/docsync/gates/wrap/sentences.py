"""A quick verdict for ``wrap = "sentence"``: paragraphs that certainly keep to it.

The full reading (:func:`~docsync.gates.wrap.reading.analyse` with sentence ends,
then :func:`~docsync.gates.wrap.count.reading`) says a paragraph breaks
``"sentence"`` when a line end inside a code span joins, or a gap that is not kept
disagrees with one sentence per line: a sentence end inside a line, or a line end
that ends no sentence. On a tree that follows the convention most paragraphs are
lines that each end one sentence, and :func:`keeps_sentences` tells those from the
line texts and the rooms of a few characters, without the reading. It answers only
when the reading's answer is certain, and otherwise leaves the paragraph to it:

* no gap inside a line is a sentence end: such a gap follows ``.``, ``!`` or ``?``
  and closers, then spaces, then the next word's first character
  (:func:`~docsync.gates.wrap.violations.sentence_then_text` finds every place one
  may be), and where the line has such a place, no run of non-space characters
  before spaces and another run ends a sentence by
  :func:`~docsync.gates.wrap.boundaries.is_sentence_end`. The reading's word before
  a gap is that run, or reaches further left through a space inside a code span or
  HTML; then the run starts with the span's closing backtick, ``>``, ``)`` or
  ``]``, so it is no abbreviation and no initials either, and the verdicts agree.
  Its next word starts with the next run; where that run is all openers the
  verdict leaves the paragraph to the reading;
* every line end is a gap that ends a sentence: the line ends with no space and no
  backslash (no hard break, no escape), the line end and its container prefix are
  plain text (no code span joins there, no link text), the last word of the line is
  plain and preceded by a plain space or a line end (the reading's word is then
  exactly that word), the next line starts with a plain capital letter (no block
  starts with one, and it starts a sentence), neither side is Chinese or Japanese,
  and :func:`~docsync.gates.wrap.boundaries.is_sentence_end` says the word ends one;
* the first line does not start with a backtick, a tilde or a bracket, so the
  guard on fixed line starts never unmarks a sentence end (the lines it guards,
  code fences and reference definitions, start so; every other pattern it guards
  cannot end in a sentence end). Header fields only keep line ends, which breaks
  nothing.

A paragraph whose source positions the reading refuses breaks nothing either, so
the verdict holds for it too. ``tests/test_wrap_sentences.py`` compares the verdict
with the full reading on the case files and on generated paragraphs.
"""

from __future__ import annotations

import itertools
import re

from ...model import Document, Paragraph, Span
from .boundaries import OPENERS, is_sentence_end
from .display import is_cjk
from .fields import field_key
from .prose import DocumentIndex
from .reading import reader_for
from .rooms import Rooms

SENTENCE_END_THEN_TEXT = re.compile(r"[.!?]\S*[ \t]+\S")
"""What :func:`sentence_then_text` finds; as a search it is quadratic on a run of dots
(each dot a start that scans to the run's end), so it is not searched with."""
_RUN = re.compile(r"\S+")
_GAP_THEN_TEXT = re.compile(r"[ \t]+\S")


def sentence_then_text(line: str) -> bool:
    """Whether ``SENTENCE_END_THEN_TEXT`` occurs in ``line``, in time linear in its length:
    a run of non-space characters holding ``.``, ``!`` or ``?`` followed by spaces or tabs
    and more text. Each run and each gap is read once."""
    for run in _RUN.finditer(line):
        word = run.group()
        if ("." in word or "!" in word or "?" in word) and _GAP_THEN_TEXT.match(line, run.end()):
            return True
    return False


_UNSAFE_START = "`~["
_GAP_BETWEEN = re.compile(r"(?<![^ \t])([^ \t]+)([ \t]+)(?=([^ \t]+))")
"""A run of characters other than space and tab (the reading's gaps), the spaces, and the next run."""


def _may_end_inside(line: str) -> bool:
    """Whether a sentence may end at a gap inside ``line`` (a paragraph line's text):
    some run of characters other than space and tab, before spaces and another run, ends one by
    :func:`~docsync.gates.wrap.boundaries.is_sentence_end`, or the next run is all
    openers (the reading's next word may go on past it)."""
    return any(
        is_sentence_end(found.group(1), found.group(3)) or not found.group(3).lstrip(OPENERS)
        for found in _GAP_BETWEEN.finditer(line)
    )


def keeps_sentences(doc: Document, para: Paragraph, index: DocumentIndex) -> bool:
    """True when ``para`` certainly does not break ``"sentence"`` (the full reading
    would say so too); False when the quick reading cannot tell."""
    first, last = para.lines.first, para.lines.last
    spans, text = para.line_spans, doc.text
    for n, span in zip(range(first, last + 1), spans, strict=False):
        if sentence_then_text(doc.line_text(n)) and _may_end_inside(text[span.start : span.end]):
            return False
    if first == last or len(spans) < 2:
        return True  # no line end: only gaps inside a line, none a sentence end
    if not text[spans[0].start : spans[0].end][:1] or text[spans[0].start] in _UNSAFE_START:
        return False
    rooms = Rooms(doc, index, para, Span(spans[0].start, spans[-1].end))
    for before, after in itertools.pairwise(spans):
        if not (before.start < before.end < after.start < after.end):
            return False
        end_char, next_char = text[before.end - 1], text[after.start]
        if end_char in " \t\\" or not next_char.isupper() or is_cjk(end_char) or is_cjk(next_char):
            return False
        line = text[before.start : before.end]
        word_start = before.start + max(line.rfind(" "), line.rfind("\t")) + 1
        if not rooms.plain(max(word_start - 1, spans[0].start), after.start + 1):
            return False
        if not is_sentence_end(text[word_start : before.end], text[after.start : after.end]):
            return False
    return True


def breaks_sentences(doc: Document, para: Paragraph, index: DocumentIndex) -> bool:
    """True when ``para`` certainly breaks ``"sentence"``: the reading takes it, and a
    gap inside a line is a sentence end there (plain words and spaces on both sides, a
    capital after, :func:`~docsync.gates.wrap.boundaries.is_sentence_end`), with no
    header field and no line starting where the guard on fixed line starts could
    unmark it; False when the quick reading cannot tell."""
    prepared = reader_for(doc, para, index, sentences=True)
    if prepared is None:
        return False  # the reading refuses it: it breaks nothing
    spans, reader = prepared
    text = doc.text
    if any(text[span.start : span.end][:1] in ("", *_UNSAFE_START) for span in spans):
        return False
    start = spans[0].start
    while start < spans[0].end and text[start] in " \t":
        start += 1
    if field_key(text, start, spans[0].end) is not None:
        return False
    for span in spans:
        line = text[span.start : span.end]
        if not sentence_then_text(line):
            continue
        for found in _GAP_BETWEEN.finditer(line):
            word, following = found.group(1), found.group(3)
            at = span.start + found.start()
            after = span.start + found.end(2)
            if not following[0].isupper() or is_cjk(word[-1]) or is_cjk(following[0]):
                continue
            if not is_sentence_end(word, following):
                continue
            if reader.plain(max(at - 1, span.start), after + 1) and (at > span.start or at == spans[0].start):
                return True
    return False
