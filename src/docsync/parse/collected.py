"""The document model, collected as the walk over the parser's events finds its parts.

:class:`Collected` holds what :mod:`docsync.parse.walk` has found so far and
turns each finished block into the model's objects: positions are character
offsets already (the walk converts the parser's byte ranges), so a paragraph's
lines, a link's text and destination, a heading's lines are read from the
source as written. This module imports no parser.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from typing import Any

from ..model import (
    Anchor,
    Block,
    BlockKind,
    Definition,
    Document,
    Heading,
    Link,
    LinkKind,
    Paragraph,
    Span,
    line_starts_of,
    position_of,
)
from .constructors import new_block as _block
from .constructors import new_heading as _heading
from .constructors import new_line_span as _line_span
from .constructors import new_link as _new_link
from .constructors import new_paragraph as _paragraph
from .constructors import new_span as _span
from .scanned import definitions as scan_definitions
from .scanned import html_targets
from .site_lines import container_change, shortcode_lines, split_site_lines
from .slugs import Slugger

LEAF_BLOCKS = {
    "CodeBlock": BlockKind.CODE,
    "HtmlBlock": BlockKind.HTML,
    "MetadataBlock": BlockKind.FRONT_MATTER,
    "Table": BlockKind.TABLE,
    "Heading": BlockKind.HEADING,
}

_WHITESPACE = re.compile(r"\s+")
_PLAIN_DESTINATION = re.compile(r"[^\x00-\x20()\\]*")


def normalize_label(label: str) -> str:
    """A reference label as CommonMark matches it: whitespace runs as one
    space, trimmed, case folded (lower then upper, as cmark does)."""
    return _WHITESPACE.sub(" ", label.strip()).lower().upper()


class Collected:
    """One document's parts, as the walk finds them."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.line_starts = line_starts_of(text)
        self.slugger = Slugger()
        self.headings: list[Heading] = []
        self.anchors: list[Anchor] = []
        self.links: list[Link] = []
        self.code_spans: list[Span] = []
        self.math_spans: list[Span] = []
        self.blocks: list[Block] = []
        self.paragraphs: list[Paragraph] = []
        self.used_labels: set[str] = set()
        self.footnote_refs: list[str] = []
        self.covered: list[tuple[int, int]] = []  # leaf blocks' character ranges
        self.shortcodes = shortcode_lines(text, self.line_starts)
        self.site_containers = 0  # ``:::`` containers open

    def document(self, newline: str, bom: bool, definitions: list[Definition]) -> Document:
        return Document(
            path=self.path,
            text=self.text,
            newline=newline,
            bom=bom,
            line_starts=self.line_starts,
            headings=tuple(self.headings),
            anchors=tuple(self.anchors),
            links=tuple(sorted(self.links, key=lambda link: link.span.start)),
            definitions=tuple(definitions),
            code_spans=tuple(self.code_spans),
            blocks=tuple(self.blocks),
            paragraphs=tuple(self.paragraphs),
            used_labels=frozenset(self.used_labels),
            footnote_ids=footnote_ids(self.footnote_refs),
            math_spans=tuple(self.math_spans),
        )

    # ------------------------------------------------------------------ blocks

    def lines_of(self, start: int, end: int) -> tuple[int, int]:
        """1-based first and last line of the characters ``start`` up to ``end``."""
        first = bisect.bisect_right(self.line_starts, start)
        last = bisect.bisect_right(self.line_starts, max(start, end - 1))
        return first, last

    def leaf(self, tag: str, info: Any, start: int, end: int) -> None:
        self.covered.append((start, end))
        if tag == "Heading":
            return  # added at its end, with its text
        kind = LEAF_BLOCKS[tag]
        if tag == "CodeBlock" and isinstance(info, dict) and "Fenced" in info:
            kind = BlockKind.FENCE
        first, last = self.lines_of(start, end)
        if kind is BlockKind.FENCE:
            # the range of a fence stops at its closing fence's end; an unclosed one runs on
            first = bisect.bisect_right(self.line_starts, start)
        self.blocks.append(_block(kind, _line_span(first, last)))
        if tag == "HtmlBlock":
            self.scan_html(start, end)

    def add_heading(self, level: int, start: int, end: int, text: str) -> None:
        self.covered.append((start, end))
        first, last = self.lines_of(start, end)
        self.blocks.append(_block(BlockKind.HEADING, _line_span(first, last)))
        line_start = self.line_starts[first - 1]
        line_end = self.line_starts[last] - 1 if last < len(self.line_starts) else len(self.text)
        self.headings.append(_heading(level, text, self.slugger.slug(text), first, _span(line_start, line_end)))

    def add_paragraph(
        self, start: int, end: int, protected: list[Span], math_only: bool, containers: tuple[str, ...], quotes: int
    ) -> None:
        self.covered.append((start, end))
        first, last = self.lines_of(start, end)
        if math_only and protected:
            self.blocks.append(_block(BlockKind.MATH, _line_span(first, last)))
            del self.math_spans[-len(protected) :]  # a formula on lines of its own is a block
            return
        text, starts = self.text, self.line_starts
        spans: list[Span] = []
        contents: list[str] = []  # each line's text, as its span has it
        for line in range(first, last + 1):
            line_start = starts[line - 1]
            line_end = starts[line] - 1 if line < len(starts) else len(text)
            begin = start if line == first else _content_start(text, line_start, line_end, quotes, protected)
            if line == last:
                stop = min(line_end, end)
                while stop > begin and text[stop - 1] in " \t\n":
                    stop -= 1
            else:
                stop = line_end
            stop = max(begin, stop)
            spans.append(_span(begin, stop))
            contents.append(text[begin:stop])
        pieces = split_site_lines(first, tuple(spans), contents, tuple(protected), self.shortcodes)
        for piece in pieces:
            if piece.standalone:
                self.add_standalone(piece.first, piece.last)
                self.site_containers = max(0, self.site_containers + container_change(contents[piece.first - first]))
                continue
            around = containers + ("container",) * self.site_containers if self.site_containers else containers
            around += ("admonition",) if piece.admonition else ()
            content = "\n".join(contents[piece.first - first : piece.last - first + 1])
            self.paragraphs.append(
                _paragraph(_line_span(piece.first, piece.last), piece.spans, content, around, piece.protected)
            )

    def add_standalone(self, first: int, last: int) -> None:
        """A standalone line (or lines), once: a shortcode's lines may be split among blocks."""
        for opening, closing in self.shortcodes.items():
            if opening <= first <= closing:
                first, last = opening, closing
                if self.blocks and self.blocks[-1].lines == _line_span(first, last):
                    return
                break
        self.blocks.append(_block(BlockKind.STANDALONE, _line_span(first, last)))

    # ------------------------------------------------------------------ inline

    def scan_html(self, start: int, end: int) -> None:
        for found in html_targets(self.text[start:end], start, self.line_starts):
            if isinstance(found, Anchor):
                self.anchors.append(found)
            else:
                self.links.append(found)



def link_of(collected: Collected, opened: list[Any]) -> tuple[Link, Span | None]:
    """The link a Start/End Link or Image pair made (``opened``: tag, info, start,
end, last child's end), and the span it protects in its paragraph (an
image's or an autolink's, else None)."""
    tag, info, start, end, last = opened
    text = collected.text
    span = _span(start, end)
    line, column = position_of(collected.line_starts, start)
    link_type = info["link_type"]
    if link_type in ("Autolink", "Email"):
        inner = _span(start + 1, end - 1)
        return _new_link(LinkKind.AUTOLINK, text[start + 1 : end - 1], line, column, span, inner), span
    image = tag == "Image"
    text_start = start + (2 if image else 1)
    close = _closing_bracket(text, max(last, text_start), end)
    text_span = _span(text_start, close)
    link_text = text[text_start:close]
    if link_type.startswith("Collapsed") and text.startswith("][]", close):
        end = close + 3  # pulldown-cmark's range stops before the empty label
        span = _span(start, end)
    protect = span if image else None
    if link_type == "Inline":
        dest_start, dest_end = _destination(text, close + 2, end)
        raw = text[dest_start:dest_end]
        if raw.startswith("<") and raw.endswith(">") and len(raw) >= 2:
            dest_start, dest_end, raw = dest_start + 1, dest_end - 1, raw[1:-1]
        kind = LinkKind.IMAGE if image else LinkKind.INLINE
        made = _new_link(kind, raw, line, column, span, _span(dest_start, dest_end), None, link_text, text_span)
        return made, protect
    label = normalize_label(info["id"])
    collected.used_labels.add(label)
    kind = LinkKind.IMAGE if image else LinkKind.REFERENCE
    return _new_link(kind, "", line, column, span, None, label, link_text, text_span), protect



def definitions_in_gaps(
    text: str, line_starts: tuple[int, ...], covered: list[tuple[int, int]], known: Callable[[], set[str]]
) -> list[Definition]:
    """The reference definitions: in the stretches of source no leaf block covers,
    where only definitions, container markers and blank lines are; ``known`` gives
    the labels the parser defined (normalised), asked only when a stretch may hold one."""
    found: list[Definition] = []
    if "]:" not in text:
        return found
    labels: set[str] | None = None
    cursor = 0
    gaps: list[tuple[int, int]] = []
    for start, end in sorted(covered):
        if start > cursor:
            gaps.append((cursor, start))
        cursor = max(cursor, end)
    if cursor < len(text):
        gaps.append((cursor, len(text)))
    for start, end in gaps:
        if "]:" not in text[start:end]:
            continue
        if labels is None:
            labels = known()
        first = bisect.bisect_right(line_starts, start) - 1
        last = bisect.bisect_right(line_starts, max(start, end - 1))
        for definition in scan_definitions(text, line_starts, first, last, normalize_label):
            inside = start <= definition.span.start and definition.span.end <= end
            if inside and definition.normalized_label in labels and not definition.label.startswith("^"):
                found.append(definition)
    return found


def char_offsets(text: str) -> Callable[[int], int] | None:
    """Byte offset in ``text``'s UTF-8 to character offset (None: ASCII, the same)."""
    if text.isascii():
        return None
    at: list[int] = []  # byte offsets where a character of more than one byte ends
    extra: list[int] = []  # bytes beyond one per character, up to there
    total = byte = char = 0
    for match in re.finditer(r"[^\x00-\x7f]+", text):
        byte += match.start() - char
        for ch in match.group():
            size = len(ch.encode())
            byte += size
            total += size - 1
            at.append(byte)
            extra.append(total)
        char = match.end()

    def convert(offset: int) -> int:
        index = bisect.bisect_right(at, offset) - 1
        return offset - (extra[index] if index >= 0 else 0)

    return convert


def _content_start(text: str, line_start: int, line_end: int, quotes: int, protected: list[Span]) -> int:
    """Where a paragraph's continuation line's text starts: after its indentation
    and up to ``quotes`` block-quote markers. Inside a code span or formula that
    crosses lines, the spaces before the text are the span's own (markdown-it
    keeps them in its content, which ``fix`` compares): the line then starts
    after the block-quote markers and one space each."""
    at = line_start
    after_quotes = line_start
    while at < line_end:
        char = text[at]
        if char in " \t":
            at += 1
        elif char == ">" and quotes:
            quotes -= 1
            at += 1
            after_quotes = at + 1 if text.startswith(" ", at) else at
        else:
            break
    if at > after_quotes and any(span.start < at < span.end for span in protected):
        return after_quotes
    return at


def _closing_bracket(text: str, at: int, end: int) -> int:
    """The ``]`` that ends a link's text, at or after ``at`` (its last child's end)."""
    while at < end:
        char = text[at]
        if char == "]":
            return at
        at += 2 if char == "\\" else 1
    return max(at - 1, 0)


def _destination(text: str, at: int, end: int) -> tuple[int, int]:
    """The span of an inline link's destination as written, from just after its ``(``."""
    while at < end and text[at] in " \t\n":
        at += 1
    start = at
    if at < end and text[at] != "<":
        stop = _PLAIN_DESTINATION.match(text, at, end).end()  # type: ignore[union-attr]
        if stop == end or text[stop] not in "(\\":
            return start, stop  # no parenthesis or escape: where the loop below stops too
    if at < end and text[at] == "<":
        at += 1
        while at < end and text[at] not in ">\n":
            at += 2 if text[at] == "\\" else 1
        return start, min(at + 1, end)
    depth = 0
    while at < end:
        char = text[at]
        if char == "\\" and at + 1 < end:
            at += 2
            continue
        if char <= " ":
            break
        if char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                break
            depth -= 1
        at += 1
    return start, at


def footnote_ids(labels: list[str]) -> tuple[str, ...]:
    """The element ids cmark-gfm gives footnotes referenced with ``labels``
    (in order): ``fn-x`` for each note, ``fnref-x``, ``fnref-x-2``… for its
    references. GitHub prefixes every id with ``user-content-``."""
    ids: list[str] = []
    seen: dict[str, int] = {}
    for label in labels:
        count = seen[label] = seen.get(label, 0) + 1
        if count == 1:
            ids += [f"fn-{label}", f"fnref-{label}"]
        else:
            ids.append(f"fnref-{label}-{count}")
    return tuple(ids)
