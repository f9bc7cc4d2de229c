"""Wrapping prose: the analysis the ``wrap`` gate checks with, and its fixer.

The gate and the fixer share one reading of each paragraph, so that the
check passes exactly when the fixer would change nothing. A paragraph is
read as words and the gaps between them (runs of spaces, tabs, or a line
end with the container prefix of the next line). Each gap knows whether it
is a *break opportunity* (a new line may start there without changing what
the page renders) and whether a line end in it must stay (a hard break, or a
line end next to Chinese or Japanese text). A *plan* says, for every gap,
whether a line should end there; the gate reports the gaps where the plan
and the source disagree and the fixer splices exactly those gaps, leaving
every other byte as it was. Every rewrite is re-parsed and compared twice:
with markdown-it's tokens (:func:`~docsync.parse.markdown.render_signature`) and
with the page GitHub renders (cmark-gfm plus GitHub's alert, math and id
rules, :func:`~docsync.parse.render.github_rendering`); a paragraph whose rewrite
would render differently under either is put back and reported as ``W900``.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from functools import lru_cache

from ...config import Config
from ...model import Document, Edit, Finding, Link, LinkKind, Paragraph, Span, apply_edits
from ...parse.markdown import render_signature
from ...parse.render import github_rendering

__all__ = [
    "DocumentIndex",
    "Gap",
    "Prose",
    "Violation",
    "WrapFix",
    "analyse",
    "display_width",
    "fix_document",
    "in_scope",
    "is_sentence_end",
    "prose_of",
    "starts_block",
    "violations",
]

GATE = "wrap"

# --------------------------------------------------------------------------- display width

TAB_STOP = 4


@lru_cache(maxsize=8192)
def _char_width(ch: str) -> int:
    category = unicodedata.category(ch)
    if unicodedata.combining(ch) or category in ("Mn", "Me", "Cf", "Cc"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def advance(column: int, text: str) -> int:
    """The display column after writing ``text`` from ``column`` (a newline restarts at 0)."""
    for ch in text:
        if ch == "\t":
            column += TAB_STOP - column % TAB_STOP
        elif ch == "\n":
            column = 0
        else:
            column += _char_width(ch)
    return column


_PRINTABLE_ASCII = re.compile(r"[ -~]*")


def display_width(line: str) -> int:
    """Display columns of a physical line, trailing whitespace excluded."""
    text = line.rstrip(" \t")
    if _PRINTABLE_ASCII.fullmatch(text):
        return len(text)  # one column a character: what advance() would count
    return advance(0, text)


def overflow_index(line: str, width: int) -> int:
    """Index of the first character of ``line`` that ends past display column ``width``."""
    if _PRINTABLE_ASCII.fullmatch(line):
        return min(width, len(line))  # one column a character
    column = 0
    for index, ch in enumerate(line):
        column = advance(column, ch)
        if column > width:
            return index
    return len(line)


_HANGUL = ((0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xAC00, 0xD7FF))


@lru_cache(maxsize=8192)
def _is_cjk(ch: str) -> bool:
    """A Chinese or Japanese wide character, where browsers join lines without a space."""
    if unicodedata.east_asian_width(ch) not in ("W", "F"):
        return False
    code = ord(ch)
    if any(low <= code <= high for low, high in _HANGUL):
        return False  # Korean separates words with spaces; a line end there is a space
    return unicodedata.category(ch) != "So"  # emoji and symbols are not CJK text


# --------------------------------------------------------------------------- words that must not start a line

_HTML_BLOCK_NAMES = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|"
    "details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|"
    "h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|"
    "noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|"
    "thead|title|tr|track|ul"
)
# Each alternative is a word that, at the start of a continuation line, would
# open or end a block (CommonMark and GFM block starts that can interrupt a
# paragraph, plus a few that cannot but are cheap to avoid).
_STARTER = re.compile(
    r"""(?: \#{1,6}$                         # ATX heading
          | >                                # block quote
          | [-+*]$                           # bullet list item
          | [-*_=+]+$                        # thematic break, setext underline
          | \d{1,9}[.)]$                     # ordered list item
          | `{3} | ~{3}                      # code fence
          | <(?: /?(?:"""
    + _HTML_BLOCK_NAMES
    + r""")(?:[\s/>]|$)                      # HTML block, type 6
               | (?:script|pre|style|textarea)(?:[\s>]|$)
               | !-- | \? | ![A-Za-z] | !\[CDATA\[ )
          | \[\^[^\]]+\]:                    # footnote definition
          | [|:-]*[|-][|:-]*$                # table delimiter row
          | :{3}                             # ::: container (VitePress, Docusaurus)
          | !!!(?:\s|$) | \?{3}\+?(?:\s|$)    # MkDocs admonition
          | \$\$                             # display math
          | \{\{[<%] | \{%                    # Hugo shortcode, Liquid tag
          | \[\[_TOC_\]\] | \[TOC\]           # table-of-contents marker
        )""",
    re.VERBOSE | re.IGNORECASE,
)


def starts_block(word: str) -> bool:
    """Whether ``word`` would start a block if a line began with it."""
    return _STARTER.match(word) is not None


# --------------------------------------------------------------------------- sentences

# Abbreviations that are not sentence ends even before a capital letter.
# ("etc." and "Inc." often end a sentence, so they are not here.)
_ABBREVIATIONS = frozenset(
    {
        *("e.g.", "i.e.", "cf.", "vs.", "viz.", "approx.", "ca.", "al.", "resp.", "incl."),
        *("esp.", "fig.", "figs.", "eq.", "eqs.", "no.", "nos.", "vol.", "vols.", "pp."),
        *("p.", "ch.", "sec.", "sect.", "ref.", "refs.", "dept.", "op.", "ed.", "eds."),
        *("mr.", "mrs.", "ms.", "mx.", "dr.", "prof.", "st.", "jr.", "sr.", "gen.", "gov."),
        *("sen.", "rep.", "rev.", "hon.", "capt.", "col.", "lt.", "sgt.", "mt.", "ft.", "tel."),
    }
)
_OPENERS = "\"'\u201c\u2018([{*_~"  # quotes, brackets, emphasis
_CLOSERS = "\"'\u201d\u2019)]}*_~"
_INITIALS = re.compile(r"(?:[^\W\d_]\.)+")


def is_sentence_end(word: str, following: str) -> bool:
    """Whether a sentence ends after ``word`` when ``following`` comes next.

    A sentence end is ``.``, ``!`` or ``?`` (closing quotes, brackets and
    emphasis may follow) before a word that starts with a capital letter or
    a code span. Listed abbreviations, initials (``J.``, ``U.S.``) and
    decimals (``3.14`` has no space) are not sentence ends.
    """
    core = word.rstrip(_CLOSERS)
    if not core or core[-1] not in ".!?":
        return False
    if core[-1] == "." and not core.endswith(".."):
        token = core.lstrip(_OPENERS).lower()
        if token in _ABBREVIATIONS or _INITIALS.fullmatch(token):
            return False
    start = following.lstrip(_OPENERS)
    return bool(start) and (start[0] == "`" or start[0].isupper())


# --------------------------------------------------------------------------- reading a paragraph


class Room(IntEnum):
    """What a character of paragraph text belongs to."""

    PLAIN = 0
    LINK_TEXT = 1  # whitespace here may be joined, never broken
    SEALED = 2  # raw HTML, autolinks, link destinations and labels: kept byte for byte
    CODE = 3  # code spans: line ends joined as one space, never broken


@dataclass(frozen=True, slots=True)
class Word:
    """A run of text between gaps; ``joins`` are line ends inside its code spans."""

    span: Span
    joins: tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class Gap:
    """Whitespace between two words, possibly holding a line end.

    ``kept``: holds a line end that must stay (hard break, CJK text on either
    side). ``breakable``: a line may start after it. ``sentence``: a sentence
    ends before it and a line may start after it.
    """

    span: Span
    newline: bool
    kept: bool
    breakable: bool
    sentence: bool


@dataclass(frozen=True, slots=True)
class Prose:
    """A paragraph read as words and gaps (``gaps[i]`` follows ``words[i]``)."""

    paragraph: Paragraph
    words: tuple[Word, ...]
    gaps: tuple[Gap, ...]
    first_column: int
    prefix: str | None  # what a new continuation line starts with; None if unknown
    lines: tuple[Span, ...]  # each physical line's paragraph text, as in the source


@dataclass(frozen=True, slots=True)
class DocumentIndex:
    """Per-document lookups, built once so that reading each paragraph stays cheap."""

    link_starts: tuple[int, ...]
    code_spans: frozenset[Span]

    @classmethod
    def of(cls, doc: Document) -> DocumentIndex:
        return cls(tuple(link.span.start for link in doc.links), frozenset(doc.code_spans))


def _rooms(doc: Document, index: DocumentIndex, para: Paragraph, region: Span) -> bytearray:
    """The :class:`Room` of every character of ``region``."""
    rooms = bytearray(region.end - region.start)

    def mark(span: Span, room: Room) -> None:
        start, end = max(span.start, region.start), min(span.end, region.end)
        if start < end:
            rooms[start - region.start : end - region.start] = bytes([room]) * (end - start)

    link_spans: set[Span] = set()
    for link in sorted(_links_in(doc, index, region), key=lambda k: k.span.start - k.span.end):
        link_spans.add(link.span)
        mark(link.span, Room.SEALED)
        # An image's alt text is compared exactly (it becomes an attribute), so
        # only a link's text reads its line ends as spaces.
        if link.text_span is not None and link.kind != LinkKind.IMAGE:
            mark(_text_span(para, link.text_span), Room.LINK_TEXT)
    for span in para.protected:
        if span in index.code_spans:
            mark(span, Room.CODE)
        elif span not in link_spans:
            mark(span, Room.SEALED)
    return rooms


_TEXTUAL = frozenset({LinkKind.INLINE, LinkKind.IMAGE, LinkKind.REFERENCE})


def _links_in(doc: Document, index: DocumentIndex, region: Span) -> list[Link]:
    first = bisect.bisect_left(index.link_starts, region.start)
    last = bisect.bisect_left(index.link_starts, region.end)
    return [
        link
        for link in doc.links[first:last]
        if link.kind in _TEXTUAL and link.span.end <= region.end
    ]


def _text_span(para: Paragraph, span: Span) -> Span:
    """The source span of a link's text.

    The model measures the text's length in paragraph-content characters, which
    are fewer than source characters when the text crosses a container prefix;
    map the end through the paragraph's lines instead.
    """
    lines = para.line_spans
    starts = [s.start for s in lines]
    k = max(0, bisect.bisect_right(starts, span.start) - 1)
    remaining = (span.end - span.start) + (span.start - lines[k].start)
    while k < len(lines) - 1 and remaining > lines[k].end - lines[k].start:
        remaining -= lines[k].end - lines[k].start + 1
        k += 1
    return Span(span.start, min(lines[k].start + remaining, lines[-1].end))


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
class _Reader:
    """The per-character facts :func:`analyse` splits a paragraph with."""

    text: str
    region: Span
    rooms: bytearray
    zones: bytearray
    sentences: bool  # whether to tell sentence ends (only the sentence convention asks)

    def is_gap(self, offset: int) -> bool:
        index = offset - self.region.start
        if self.rooms[index] > Room.LINK_TEXT:
            return False
        return bool(self.zones[index]) or self.text[offset] in " \t"

    def room(self, offset: int) -> int:
        return self.rooms[offset - self.region.start]

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
        cjk = _is_cjk(left[-1]) or _is_cjk(right[0])
        breakable = not (
            escaped or cjk or starts_block(right) or self.room(span.start) == Room.LINK_TEXT
        )
        sentence = breakable and self.sentences and self._ends_sentence(before, right)
        newline = newline_at is not None
        kept = newline and (hard or cjk)
        return Gap(span, newline, kept, breakable and not kept, sentence and not kept)

    def _ends_sentence(self, before: Word, following: str) -> bool:
        word = self.text[before.span.start : before.span.end]
        core = word.rstrip(_CLOSERS)
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


def analyse(
    doc: Document, para: Paragraph, index: DocumentIndex | None = None, *, sentences: bool = True
) -> Prose | None:
    """Read ``para`` as words and gaps; None if its source positions cannot be trusted.

    Without ``sentences`` no gap is marked as a sentence end (telling them is
    a third of the reading, and only the sentence convention needs them).
    """
    index = index or DocumentIndex.of(doc)
    spans = _line_spans(doc, para)
    if not spans or spans[0].start >= spans[-1].end:
        return None
    region = Span(spans[0].start, spans[-1].end)
    zones = _zones(spans, region, doc.text)
    if zones is None:
        return None
    reader = _Reader(doc.text, region, _rooms(doc, index, para, region), zones, sentences)
    if reader.is_gap(region.start) or reader.is_gap(region.end - 1):
        return None
    words, gap_spans = reader.split()
    gaps = _guard_line_starts(
        doc.text,
        words,
        [reader.gap(span, words[i], words[i + 1]) for i, span in enumerate(gap_spans)],
    )
    first_line_start = doc.line_starts[para.lines.first - 1]
    first_prefix = doc.text[first_line_start : spans[0].start]
    return Prose(
        para,
        words,
        gaps,
        advance(0, first_prefix),
        _continuation_prefix(doc, para.lines.first, spans, reader, first_prefix),
        spans,
    )


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
    doc: Document, first_line: int, spans: Sequence[Span], reader: _Reader, first_prefix: str
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


# --------------------------------------------------------------------------- plans

# A plan holds, for each gap, whether a line should end there.
Plan = tuple[bool, ...]


def plan_joined(prose: Prose) -> Plan:
    """``wrap = "none"``: one line per paragraph, except where a line end must stay."""
    return tuple(gap.kept for gap in prose.gaps)


def plan_sentences(prose: Prose) -> Plan:
    """``wrap = "sentence"``: a line ends after each sentence and nowhere else."""
    return tuple(gap.kept or gap.sentence for gap in prose.gaps)


def _joined_gap(text: str, gap: Gap) -> str:
    return " " if gap.newline else text[gap.span.start : gap.span.end]


def _word_text(text: str, word: Word) -> str:
    """A word as it reads once the line ends inside its code spans are joined."""
    if not word.joins:
        return text[word.span.start : word.span.end]
    parts: list[str] = []
    cursor = word.span.start
    for join in word.joins:
        parts.append(text[cursor : join.start])
        parts.append(" ")
        cursor = join.end
    parts.append(text[cursor : word.span.end])
    return "".join(parts)


def _chunk_heads(text: str, prose: Prose) -> list[str]:
    """For each word, the text up to its line's end of the run it starts.

    A run is the words joined by gaps that are neither breakable nor kept:
    they must stay on one line, so the greedy fill places them as one.
    """
    heads = [""] * len(prose.words)
    following = ""
    for i in range(len(prose.words) - 1, -1, -1):
        own = _word_text(text, prose.words[i])
        if i < len(prose.gaps) and not (prose.gaps[i].breakable or prose.gaps[i].kept):
            own += _joined_gap(text, prose.gaps[i]) + following
        heads[i] = own.split("\n", 1)[0]
        following = own
    return heads


def _after_newline(text: str, gap: Gap) -> str:
    gap_text = text[gap.span.start : gap.span.end]
    return gap_text[gap_text.index("\n") + 1 :]


def plan_width(text: str, prose: Prose, width: int) -> Plan:
    """``wrap = <width>``: greedy fill, breaking only at break opportunities.

    A line past ``width`` can only be a single unbreakable run, which is what
    the check exempts, so the result of this plan never fails the check.
    """
    heads = _chunk_heads(text, prose)
    prefix_width = advance(0, prose.prefix or "")
    column = advance(prose.first_column, _word_text(text, prose.words[0]))
    plan: list[bool] = []
    for i, gap in enumerate(prose.gaps):
        if gap.kept:
            line_ends = True
        elif gap.breakable:
            line_ends = advance(column, _joined_gap(text, gap) + heads[i + 1]) > width
        else:
            line_ends = False
        plan.append(line_ends)
        if not line_ends:
            column = advance(column, _joined_gap(text, gap))
        elif gap.newline:
            column = advance(0, _after_newline(text, gap))
        else:
            column = prefix_width
        column = advance(column, _word_text(text, prose.words[i + 1]))
    return tuple(plan)


# --------------------------------------------------------------------------- violations


@dataclass(frozen=True, slots=True)
class Violation:
    """One thing the gate reports: a rule code, where, and numbers for its message."""

    rule: str
    offset: int
    measured: int = 0


def _plan_changes(prose: Prose, plan: Plan) -> Iterable[tuple[Gap, bool]]:
    """The gaps where ``plan`` disagrees with the source, with the wanted line end."""
    for gap, line_ends in zip(prose.gaps, plan, strict=True):
        if not gap.kept and line_ends != gap.newline:
            yield gap, line_ends


def _code_joins(prose: Prose) -> list[Span]:
    return [join for word in prose.words for join in word.joins]


def _violations_joined(prose: Prose) -> list[Violation]:
    offsets = [gap.span.start for gap, _ in _plan_changes(prose, plan_joined(prose))]
    offsets += [join.start for join in _code_joins(prose)]
    lines = prose.paragraph.lines.last - prose.paragraph.lines.first + 1
    return [Violation("W001", min(offsets), lines)] if offsets else []


def _violations_sentences(prose: Prose) -> list[Violation]:
    found: list[Violation] = []
    for gap, line_ends in _plan_changes(prose, plan_sentences(prose)):
        if line_ends:
            found.append(Violation("W003", gap.span.end))
        else:
            found.append(Violation("W004", gap.span.start))
    found += [Violation("W004", join.start) for join in _code_joins(prose)]
    return found


def _violations_width(doc: Document, prose: Prose, width: int, strict: bool) -> list[Violation]:
    breakable_lines = {
        doc.position(gap.span.start)[0] for gap in prose.gaps if gap.breakable and not gap.newline
    }
    found: list[Violation] = []
    for line in range(prose.paragraph.lines.first, prose.paragraph.lines.last + 1):
        source = doc.line_text(line)
        measured = display_width(source)
        if measured <= width:
            continue
        offset = doc.line_starts[line - 1] + overflow_index(source, width)
        if line in breakable_lines:
            found.append(Violation("W002", offset, measured))
        elif strict:
            found.append(Violation("W005", offset, measured))
    return found


def violations(doc: Document, prose: Prose, config: Config) -> list[Violation]:
    """What the gate reports for one paragraph under ``config.wrap``."""
    mode = config.wrap
    if isinstance(mode, int):
        return _violations_width(doc, prose, mode, config.wrap_strict)
    if mode == "none":
        return _violations_joined(prose)
    if mode == "sentence":
        return _violations_sentences(prose)
    return []


def in_scope(para: Paragraph, config: Config) -> bool:
    """Whether ``config`` asks for ``para`` to be checked (lists and quotes can opt out)."""
    if not config.wrap_lists and "list" in para.containers:
        return False
    return config.wrap_blockquotes or "blockquote" not in para.containers


_SENTENCE_END_THEN_TEXT = re.compile(r"[.!?]\S*[ \t]+\S")


def may_violate(doc: Document, para: Paragraph, config: Config) -> bool:
    """False when ``para`` cannot break ``config.wrap``, judged from its raw lines alone.

    A cheap, conservative filter in front of :func:`analyse` (which reads every
    word): most paragraphs of a conforming repository are skipped without it.
    Under a width only a line wider than the width is ever reported, so the
    filter measures each line exactly as the gate does.
    """
    mode = config.wrap
    multiline = para.lines.last > para.lines.first
    if mode == "none":
        return multiline
    lines = [doc.line_text(n) for n in range(para.lines.first, para.lines.last + 1)]
    if isinstance(mode, int):
        return any(display_width(line) > mode for line in lines)
    if mode == "sentence":
        return multiline or any(_SENTENCE_END_THEN_TEXT.search(line) for line in lines)
    return False


def prose_of(
    doc: Document, config: Config, conventions: Sequence[Config] | None = None
) -> list[Prose]:
    """The paragraphs ``config`` checks, read as words and gaps, in source order;
    paragraphs that cannot break ``config.wrap`` (or, given ``conventions``, any
    of theirs: measuring one reading against several) are left out."""
    candidates = [config] if conventions is None else conventions
    found: list[Prose] = []
    index = DocumentIndex.of(doc)
    sentences = any(c.wrap == "sentence" for c in candidates)
    for para in sorted(doc.paragraphs, key=lambda p: p.lines.first):
        if in_scope(para, config) and any(may_violate(doc, para, c) for c in candidates):
            prose = analyse(doc, para, index, sentences=sentences)
            if prose is not None:
                found.append(prose)
    return found


# --------------------------------------------------------------------------- fixing


@dataclass(frozen=True)
class WrapFix:
    """The fixed text of one document.

    ``skipped`` holds a ``W900`` finding for each paragraph left as it was
    because its rewrite would render differently or its continuation prefix
    could not be told.
    """

    text: str
    changed: bool
    skipped: tuple[Finding, ...]


@dataclass(frozen=True, slots=True)
class _Rewrite:
    prose: Prose
    edits: tuple[Edit, ...]


class _NoPrefix(Exception):
    """A new line is needed but the paragraph's continuation prefix is unknown."""


def _plan_for(doc: Document, prose: Prose, config: Config) -> Plan | None:
    """The fixer's plan for a paragraph, or None when the gate has nothing to fix there.

    Under a width, a paragraph is re-filled only when one of its lines is too
    wide and could be broken: re-filling lines that already fit would churn
    diffs for nothing, and the check would not have asked for it.
    """
    mode = config.wrap
    if isinstance(mode, int):
        if not _violations_width(doc, prose, mode, strict=False):
            return None
        return plan_width(doc.text, prose, mode)
    if mode == "none":
        return plan_joined(prose)
    if mode == "sentence":
        return plan_sentences(prose)
    return None


def _edits(prose: Prose, plan: Plan) -> tuple[Edit, ...]:
    edits: list[Edit] = []
    for gap, line_ends in _plan_changes(prose, plan):
        if not line_ends:
            edits.append(Edit(gap.span, " "))
        elif prose.prefix is None:
            raise _NoPrefix
        else:
            edits.append(Edit(gap.span, "\n" + prose.prefix))
    edits += [Edit(join, " ") for join in _code_joins(prose)]
    return tuple(edits)


def _skipped(doc: Document, prose: Prose, why: str) -> Finding:
    line, column = doc.position(prose.lines[0].start)
    return Finding(GATE, "W900", doc.path, line, column, why)


_NO_PREFIX = (
    "paragraph left as it was: cannot tell what its continuation lines should start with "
    "(container prefix); wrap it by hand"
)
_RENDERS_DIFFERENTLY = (
    "paragraph left as it was: re-wrapping it would change how it renders; wrap it by hand"
)


def fix_document(
    doc: Document, config: Config, only: Callable[[Paragraph], bool] | None = None
) -> WrapFix:
    """Re-wrap every paragraph the gate would report; prove each rewrite renders the same.

    ``only`` limits the re-wrap to the paragraphs it accepts (every other
    byte stays as it was): a migration re-wraps only what its edits changed.
    """
    if config.wrap == "off":
        return WrapFix(doc.text, False, ())
    rewrites: list[_Rewrite] = []
    skipped: list[Finding] = []
    for prose in prose_of(doc, config):
        if only is not None and not only(prose.paragraph):
            continue
        plan = _plan_for(doc, prose, config)
        if plan is None:
            continue
        try:
            edits = _edits(prose, plan)
        except _NoPrefix:
            skipped.append(_skipped(doc, prose, _NO_PREFIX))
            continue
        if not edits:
            continue
        rewrites.append(_Rewrite(prose, edits))
    accepted, rejected = _proven(doc.text, rewrites)
    skipped += [_skipped(doc, r.prose, _RENDERS_DIFFERENTLY) for r in rejected]
    text = apply_edits(doc.text, [e for r in accepted for e in r.edits])
    ordered = tuple(sorted(skipped, key=Finding.sort_key))
    return WrapFix(text, text != doc.text, ordered)


def _proven(text: str, rewrites: Sequence[_Rewrite]) -> tuple[list[_Rewrite], list[_Rewrite]]:
    """Split rewrites into those that keep the rendering and those that do not.

    All together first (one parse in the common case); when that fails, each
    paragraph alone, then the survivors added one at a time in case two
    rewrites only break the rendering together.
    """
    if not rewrites:
        return [], []
    expected = render_signature(text)
    on_github = github_rendering(text)

    def renders_same(chosen: Sequence[_Rewrite]) -> bool:
        edited = apply_edits(text, [e for r in chosen for e in r.edits])
        return render_signature(edited) == expected and github_rendering(edited) == on_github

    if renders_same(rewrites):
        return list(rewrites), []
    alone = [r for r in rewrites if renders_same([r])]
    rejected = [r for r in rewrites if r not in alone]
    if renders_same(alone):
        return alone, rejected
    accepted: list[_Rewrite] = []
    for rewrite in alone:
        if renders_same([*accepted, rewrite]):
            accepted.append(rewrite)
        else:
            rejected.append(rewrite)
    return accepted, rejected
