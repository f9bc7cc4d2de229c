"""Reading a paragraph as words and gaps (:func:`analyse`).

Each gap knows whether it is a *break opportunity* (a new line may start
there without changing what the page renders) and whether a line end in it
must stay (a hard break, or a line end next to Chinese or Japanese text).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...model import Document, Paragraph, Span
from .boundaries import CLOSERS, is_sentence_end, starts_block
from .display import advance, is_cjk
from .fields import field_key, header_lines
from .prose import DocumentIndex, Gap, Prose, Room, Word
from .rooms import Rooms


def _zones(spans: Sequence[Span], region: Span, text: str) -> bytearray | None:
    """1 for each character from a line end up to the next line's text; None if malformed."""
    zones = bytearray(region.end - region.start)
    for before, after in itertools.pairwise(spans):
        between = text[before.end : after.start]
        if between.count("\n") != 1 or before.end > after.start:
            return None
        newline = before.end + between.index("\n")
        if text[before.end : newline].strip(" \t"):
            return None
        zones[newline - region.start : after.start - region.start] = b"\x01" * (
            after.start - newline
        )
    return zones


def _odd_backslashes(word: str) -> bool:
    return (len(word) - len(word.rstrip("\\"))) % 2 == 1


@dataclass(frozen=True, slots=True)
class Reader:
    """The per-character facts :func:`analyse` splits a paragraph with."""

    text: str
    region: Span
    marks: Rooms
    zones: bytearray
    sentences: bool  # whether to tell sentence ends (only the sentence convention asks)

    @property
    def rooms(self) -> bytearray:
        """The room of every character of the region (painted on the first ask)."""
        return self.marks.paint()

    def is_gap(self, offset: int) -> bool:
        if not (self.zones[offset - self.region.start] or self.text[offset] in " \t"):
            return False
        return self.marks.room(offset) <= Room.LINK_TEXT

    def room(self, offset: int) -> int:
        return self.marks.room(offset)

    def plain(self, start: int, end: int) -> bool:
        """Whether every character of ``[start, end)`` is plain text."""
        return self.marks.plain(start, end)

    def zone_start(self, span: Span) -> int | None:
        base = self.region.start
        found = self.zones.find(1, span.start - base, span.end - base)
        return None if found < 0 else found + base

    def split(self) -> tuple[tuple[Word, ...], list[Span]]:
        """The words and the gaps between them, found with regular expressions
        over masks rather than character by character (paragraphs can be long)."""
        base, end = self.region.start, self.region.end
        masked = list(self.text[base:end])
        for run in re.finditer(b"\x01+", self.zones):
            masked[run.start() : run.end()] = " " * (run.end() - run.start())
        for run in re.finditer(b"[\x02\x03]+", self.rooms):
            masked[run.start() : run.end()] = "x" * (run.end() - run.start())
        gaps = [
            Span(base + m.start(), base + m.end()) for m in re.finditer(r"[ \t]+", "".join(masked))
        ]
        joins = self._code_line_ends()
        words: list[Word] = []
        start = base
        for stop, resume in [*((gap.start, gap.end) for gap in gaps), (end, end)]:
            inside = tuple(j for j in joins if start <= j.start < stop) if joins else ()
            words.append(Word(Span(start, stop), inside))
            start = resume
        return tuple(words), gaps

    def _code_line_ends(self) -> list[Span]:
        base = self.region.start
        return [
            Span(base + run.start(), base + run.end())
            for run in re.finditer(b"\x01+", self.zones)
            if self.rooms[run.start()] == Room.CODE
        ]

    def gap(self, span: Span, before: Word, after: Word) -> Gap:
        text = self.text
        left = text[before.span.start : before.span.end]
        right = text[after.span.start : after.span.end]
        escaped = _odd_backslashes(left) and self.room(before.span.end - 1) <= Room.LINK_TEXT
        newline_at = self.zone_start(span)
        hard = newline_at is not None and (
            text[span.start : newline_at].endswith("  ") or (newline_at == span.start and escaped)
        )
        cjk = is_cjk(left[-1]) or is_cjk(right[0])
        breakable = not (
            escaped or cjk or starts_block(right) or self.room(span.start) == Room.LINK_TEXT
        )
        sentence = breakable and self.sentences and self._ends_sentence(before, right)
        newline = newline_at is not None
        kept = newline and (hard or cjk)
        return Gap(span, newline, kept, breakable and not kept, sentence and not kept)

    def _ends_sentence(self, before: Word, following: str) -> bool:
        word = self.text[before.span.start : before.span.end]
        core = word.rstrip(CLOSERS)
        if not core or self.room(before.span.start + len(core) - 1) != Room.PLAIN:
            return False  # punctuation inside a link, code span or HTML ends no sentence
        return is_sentence_end(word, following)


def _line_spans(doc: Document, para: Paragraph) -> tuple[Span, ...] | None:
    """Each line's paragraph text in the source, checked against the parsed content.

    markdown-it expands a tab that is only partly container indentation into
    spaces, so such a line's content is not a slice of the source: the
    model's span for it leaves out the leading whitespace, and what follows
    must be the content's text exactly (inline positions on such a line are
    exact, see ``markdown.content_line_offsets``). Anything else means the
    paragraph cannot be read safely, and None is returned.
    """
    pieces = para.content.split("\n")
    if len(pieces) != len(para.line_spans):
        return None
    for piece, span in zip(pieces, para.line_spans, strict=True):
        source = doc.text[span.start : span.end]
        if source != piece and source != piece.lstrip(" \t"):
            return None
    return para.line_spans


def reader_for(
    doc: Document, para: Paragraph, index: DocumentIndex, *, sentences: bool
) -> tuple[tuple[Span, ...], Reader] | None:
    """Each line's text and the per-character facts of ``para``; None when its
    source positions cannot be trusted (then the paragraph is not read at all)."""
    spans = _line_spans(doc, para)
    if not spans or spans[0].start >= spans[-1].end:
        return None
    region = Span(spans[0].start, spans[-1].end)
    zones = _zones(spans, region, doc.text)
    if zones is None:
        return None
    reader = Reader(doc.text, region, Rooms(doc, index, para, region), zones, sentences)
    if reader.is_gap(region.start) or reader.is_gap(region.end - 1):
        return None
    return spans, reader


def analyse(
    doc: Document, para: Paragraph, index: DocumentIndex | None = None, *, sentences: bool = True
) -> Prose | None:
    """Read ``para`` as words and gaps; None if its source positions cannot be trusted.

    Without ``sentences`` no gap is marked as a sentence end (telling them is
    a third of the reading, and only the sentence convention needs them).
    """
    prepared = reader_for(doc, para, index or DocumentIndex.of(doc), sentences=sentences)
    if prepared is None:
        return None
    spans, reader = prepared
    words, gap_spans = reader.split()
    read = [reader.gap(span, words[i], words[i + 1]) for i, span in enumerate(gap_spans)]
    fields = () if "list" in para.containers else field_lines(spans, reader)
    if fields:
        read = _keep_fields(read, spans, fields)
    gaps = _guard_line_starts(doc.text, words, read)
    first_line_start = doc.line_starts[para.lines.first - 1]
    first_prefix = doc.text[first_line_start : spans[0].start]
    return Prose(
        para,
        words,
        gaps,
        advance(0, first_prefix),
        _continuation_prefix(doc, para.lines.first, spans, reader, first_prefix),
        spans,
        frozenset(doc.position(spans[k].start)[0] for k in fields),
    )


def field_lines(spans: Sequence[Span], reader: Reader) -> tuple[int, ...]:
    """The indexes (into ``spans``) of the lines that are header fields
    (:func:`~docsync.gates.wrap.fields.header_lines`), a key's text plain,
    outside any code span, link or HTML."""
    text, base = reader.text, reader.region.start
    keys: list[str | None] = []
    for span in spans:
        start = span.start
        while start < span.end and text[start] in " \t":
            start += 1
        found = field_key(text, start, span.end)
        plain = found is not None and not any(reader.rooms[start - base : found[1] - base])
        keys.append(found[0] if found is not None and plain else None)
        if keys[0] is None:
            return ()  # the first line starts no field: no header here
    return header_lines(keys)


def _keep_fields(gaps: list[Gap], spans: Sequence[Span], fields: Sequence[int]) -> list[Gap]:
    """``gaps`` with the line end before each field line kept, no break or
    sentence end inside a field line, and the line end after one marked."""
    starts = [span.start for span in spans]
    chosen = set(fields)
    kept: list[Gap] = []
    for gap in gaps:
        line = bisect.bisect_right(starts, gap.span.end) - 1  # the line the next word starts on
        if gap.newline and line in chosen:
            gap = replace(gap, kept=True, breakable=False, sentence=False)
        elif not gap.newline and line in chosen:
            gap = replace(gap, breakable=False, sentence=False)
        elif gap.newline and line - 1 in chosen:
            gap = replace(gap, ends_field=True)
        kept.append(gap)
    return kept


# A line that starts where the fixer cannot move its start (the paragraph's
# first line, a line after a hard break) may become a block of its own when
# cut short, where the whole line did not: a lone HTML tag (type 7 HTML blocks
# cannot interrupt a paragraph, but can start one), a thematic break, a setext
# underline, a code fence (its info string may no longer hold a backtick), a
# reference definition.
_OPENS_BLOCK_ALONE = re.compile(
    r"""(?: (?:\*[ \t]*){3,} | (?:-[ \t]*){3,} | (?:_[ \t]*){3,} | =+ | -+
          | `{3,}[^`]* | ~{3,}.*
          | </?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>
          | \[(?:[^\]\\]|\\.)+\]:.*
        )""",
    re.VERBOSE | re.DOTALL,
)


def _guard_line_starts(text: str, words: Sequence[Word], gaps: list[Gap]) -> tuple[Gap, ...]:
    """Adjust the gaps of lines whose start is fixed.

    A break may not cut such a line down to a block of its own; and a line
    that starts with a block-starting word (legal there only because the
    rest of the line, or its emptiness, keeps it prose: ``+`` alone after a
    hard break) keeps the line end that follows that word.
    """
    line = _text(text, words[0].span)
    for i, gap in enumerate(gaps):
        following = _text(text, words[i + 1].span)
        if gap.kept:
            line = following
            if i + 1 < len(gaps) and gaps[i + 1].newline and starts_block(following):
                gaps[i + 1] = replace(gaps[i + 1], kept=True, breakable=False, sentence=False)
            continue
        if gap.breakable and _OPENS_BLOCK_ALONE.fullmatch(line.strip()):
            gaps[i] = replace(gap, breakable=False, sentence=False)
        line += " " + following
    return tuple(gaps)


def _text(text: str, span: Span) -> str:
    return text[span.start : span.end]


# --------------------------------------------------------------------------- continuation prefix

_PREFIX_PART = re.compile(
    r"(?P<space>[ \t]+)|(?P<quote>>)|(?P<marker>[-+*]|\d{1,9}[.)])(?=[ \t]|$)"
    r"|(?P<footnote>\[\^[^\]\s]+\]:[ \t]*)"
)


def _derived_prefix(first_prefix: str) -> str | None:
    """The continuation prefix implied by the first line's container markers.

    List markers become spaces of the same width (the item's content column),
    block-quote markers stay, and a footnote label becomes the four spaces of
    indentation a footnote body continues with.
    """
    out: list[str] = []
    pos = 0
    while pos < len(first_prefix):
        match = _PREFIX_PART.match(first_prefix, pos)
        if match is None:
            return None
        if match.group("marker"):
            out.append(" " * len(match.group("marker")))
        elif match.group("footnote"):
            out.append(" " * 4)
        else:
            out.append(match.group(0))
        pos = match.end()
    return "".join(out)


def _continuation_prefix(
    doc: Document, first_line: int, spans: Sequence[Span], reader: Reader, first_prefix: str
) -> str | None:
    """What a new continuation line of ``para`` starts with.

    The author's own continuation lines win when they agree with each other
    and are not lazy (same block-quote depth, at least the item's indent);
    otherwise the prefix is derived from the first line's markers.
    """
    derived = _derived_prefix(first_prefix)
    existing = set()
    for k, span in enumerate(spans[1:], start=first_line + 1):
        end = span.start
        while end < span.end and reader.is_gap(end):
            end += 1  # the line's own indent, unless it is inside a code span
        existing.add(reader.text[doc.line_starts[k - 1] : end])
    if len(existing) == 1:
        (author,) = existing
        if derived is None or (
            author.count(">") == derived.count(">") and advance(0, author) >= advance(0, derived)
        ):
            return author
    return derived
