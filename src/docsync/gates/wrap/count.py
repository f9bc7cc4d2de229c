"""How many paragraphs of a document break each wrap convention ``init`` weighs.

``docsync init`` picks the wrap convention the prose already follows by
counting, for each candidate, the paragraphs the ``wrap`` gate would report.
Asking the gate once per candidate reads every paragraph's violations six
times; instead each paragraph is read once (:func:`docsync.gates.wrap.violations.prose_of`,
the reading the gate checks with) and reduced to three facts, from which every
candidate's verdict follows exactly as :func:`docsync.gates.wrap.violations.violations`
(not strict) would give it:

* the widest source line that holds a break opportunity (a breakable gap
  that is not a line end): a width ``w`` is broken when that line is wider
  than ``w`` (W002; a wider line with no opportunity is W005, strict only);
* whether any line end could be joined (a line end that is not kept, or one
  inside a code span): ``"none"`` is broken (W001);
* whether any gap disagrees with one-sentence-per-line (a sentence end not
  followed by a line end, or a line end that is not kept and follows no
  sentence end, or a line end inside a code span): ``"sentence"`` is broken
  (W003/W004).

The counts run in the parse workers (:class:`Summarizer`), so on a cold run
the paragraphs are read on every core, and the main process neither reads
them nor unpickles the documents they came from. A test compares these
counts with the gate's own, candidate by candidate.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...config import Config, WrapMode
from ...model import Document
from ...workspace.load import Workspace
from .display import display_width
from .prose import Prose
from .violations import prose_of

CANDIDATES: tuple[WrapMode, ...] = ("none", 72, 80, 100, 120, "sentence")
COUNTS = "wrap-counts"
"""The name :class:`Summarizer`'s results go by (:meth:`docsync.workspace.documents.Documents.made`)."""


@dataclass(frozen=True, slots=True)
class Breaks:
    """Per candidate (in :data:`CANDIDATES` order), how many of a document's paragraphs break it."""

    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Reading:
    """What one paragraph's reading says about every candidate."""

    widest_breakable: int  # 0 when no line holds a break opportunity
    joinable: bool
    off_sentences: bool

    def breaks(self, mode: WrapMode) -> bool:
        if isinstance(mode, int):
            return self.widest_breakable > mode
        if mode == "none":
            return self.joinable
        return mode == "sentence" and self.off_sentences


def _widest_breakable(doc: Document, prose: Prose) -> int:
    lines = range(prose.paragraph.lines.first, prose.paragraph.lines.last + 1)
    widths = {n: display_width(doc.line_text(n)) for n in lines}
    narrowest = min((mode for mode in CANDIDATES if isinstance(mode, int)), default=0)
    if max(widths.values()) <= narrowest:
        return 0  # no line breaks any width, whatever its break opportunities
    holding = {
        doc.position(gap.span.start)[0] for gap in prose.gaps if gap.breakable and not gap.newline
    }
    return max((widths[n] for n in holding if n in widths), default=0)


def reading(doc: Document, prose: Prose) -> Reading:
    """Reduce one paragraph's reading to what every candidate's verdict needs."""
    code_joins = any(word.joins for word in prose.words)
    joinable = code_joins or any(gap.newline and not gap.kept for gap in prose.gaps)
    off_sentences = code_joins or any(
        not gap.kept and gap.sentence != gap.newline for gap in prose.gaps
    )
    return Reading(_widest_breakable(doc, prose), joinable, off_sentences)


def document_breaks(doc: Document, config: Config) -> Breaks:
    """For each candidate, how many of ``doc``'s paragraphs (in ``config``'s scope) break it."""
    conventions = [replace(config, wrap=mode) for mode in CANDIDATES]
    readings = [reading(doc, prose) for prose in prose_of(doc, config, conventions)]
    return Breaks(tuple(sum(1 for r in readings if r.breaks(mode)) for mode in CANDIDATES))


class Summarizer:
    """:func:`document_breaks` for the parse workers, under the workspace's config."""

    def __init__(self, workspace: Workspace) -> None:
        self._config = workspace.config

    def __call__(self, doc: Document) -> Breaks:
        return document_breaks(doc, self._config)
