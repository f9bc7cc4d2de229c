"""A parsed document with a new head: its tail's model moved, not parsed again.

A migrated record is its source's body under a generated header (``# title``,
``Status: …``). When the body is a tail of the source, the text to rewrite
is ``head + source.text[start:]``, and :func:`reheaded` makes its document
from the source's own parse: the head is parsed alone (a few lines), and
every item of the source at or after ``start`` is moved by the difference in
offsets and lines. That is :func:`docsync.parse.markdown.parse` of the new
text exactly when both splits are clean in the sense of
:mod:`docsync.parse.chunks`:

- ``start`` is a line a part may start on, in the source and in the new text
  (the head ends in a blank line), so nothing open at a blank line goes on;
- the source's text before ``start`` and the head, each parsed alone, end
  clean: every block they open closes before their last (blank) line, and
  they leave nothing in markdown-it's ``env`` (no reference definition, no
  footnote). Then in both parses the block rules reach ``start`` at the top
  level with nothing open, and the tail's block tokens are the same, moved;
- the inline rules read ``env``, which the tail alone fills in both parses
  (its definitions and footnotes). The tail's inline tokens are therefore the
  same. The head's are its alone-parse's when nothing in it can name what the
  tail defines: no ``[^`` (a footnote), and no ``[`` at all when the source
  defines a reference;
- the footnote ids and the labels used carry no position: the footnotes come
  from the tail alone when the source's text before ``start`` has no ``[^``
  (nor an inline ``^[``), and the labels are those of the links kept.

The builder makes an item from its tokens and the lines they map to, so the
tail's items are the source's, moved; the heading slugs, which GitHub makes
unique across the page, are made again in order (as :func:`chunks.merge` does).
Anything else returns None, and the caller parses the new text.

A record is about a kilobyte, and markdown-it's fixed cost per parse is most
of its parse, so two small parses would cost more than the one they spare.
Neither is made in the usual case. The text before ``start`` needs no parse
when it has no ``[`` and each of its lines is blank or starts with a letter
or ``#``: such lines make only ATX headings and paragraphs, which a blank
line closes, and nothing that fills ``env`` (definitions and footnotes start
with ``[``). The head needs none when it is ``# title``, a blank line,
``Status: …`` and a blank line, both of plain text (words, digits, spaces and
``,.;'?()/+=%-``, which no inline rule reads): the builder makes a level-1
heading and a one-line paragraph of them, built here directly.
``tests/test_reheaded.py`` compares the result with the parse on every case
file, on generated records, and on the migration tests' records.
"""

from __future__ import annotations

import re

from ..model import (
    BlockKind,
    Document,
    LineSpan,
    Span,
    line_starts_of,
)
from . import chunks
from .constructors import new_anchor as _anchor
from .constructors import new_block as _block
from .constructors import new_definition as _definition
from .constructors import new_heading as _heading
from .constructors import new_line_span as _line_span
from .constructors import new_link as _link
from .constructors import new_paragraph as _paragraph
from .constructors import new_span as _span
from .slugs import Slugger


def reheaded(doc: Document, start: int, head: str, path: str) -> Document | None:
    """``parse(path, head + doc.text[start:])`` from ``doc``'s parse (see the module's
    docstring), or None when that is not provably the same."""
    text = doc.text
    if start < 2 or next(chunks.possible_starts(text, start - 2), None) != start:
        return None
    if not head.endswith("\n\n") or "[^" in head or "^[" in head or ("[" in head and doc.definitions):
        return None
    before = text[:start]
    if "[^" in before or "^[" in before or not _clean(text, before):
        return None
    new_text = head + text[start:]
    top = _plain_head(path, new_text, head)
    if top is None:
        part = chunks.Part(0, head.count("\n"), 0, len(head))
        top, clean = chunks.parse_part(path, new_text, "\n", False, part)
        if not clean:
            return None
    lines_before = before.count("\n")
    tail = _moved(doc, start, lines_before, len(head) - start, head.count("\n") - lines_before)
    return _join(top, tail)


def _join(top: Document, tail: Document) -> Document:
    """:func:`chunks.merge` of the two, made in one go."""
    slugger = Slugger()
    headings = tuple(
        _heading(h.level, h.text, slugger.slug(h.text), h.line, h.span) for h in (*top.headings, *tail.headings)
    )
    return Document(
        top.path, top.text, top.newline, top.bom, top.line_starts, headings, top.anchors + tail.anchors,
        top.links + tail.links, top.definitions + tail.definitions, top.code_spans + tail.code_spans,
        top.blocks + tail.blocks, top.paragraphs + tail.paragraphs, top.used_labels | tail.used_labels,
        top.footnote_ids + tail.footnote_ids, top.math_spans + tail.math_spans,
    )


def _clean(text: str, before: str) -> bool:
    """Whether ``before``, the start of ``text``, ends clean (see :mod:`.chunks`): at once
    when its lines are only headings and paragraphs that no ``[`` can fill ``env`` from
    (each starts with a letter or ``#``: no list, quote, fence, HTML, table, container,
    definition, setext underline or front matter can open there); else by parsing it."""
    if "[" not in before and all(not line or line[0] in _PLAIN_START for line in before.split("\n")):
        return True
    return chunks.tokens_of_part(text, chunks.Part(0, before.count("\n"), 0, len(before)))[1]


_PLAIN_START = frozenset("#ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
# Text no inline rule reads: words, digits, spaces and a few marks (no emphasis,
# code, link, HTML, entity, escape or math), no double space, nothing at either end.
_PLAIN = r"[A-Za-z0-9](?:[A-Za-z0-9 ,.;'?()/+=%-]*[A-Za-z0-9.?)])?"
_HEAD = re.compile(rf"# (?P<title>{_PLAIN})\n\n(?P<status>Status: {_PLAIN})\n\n")


def _plain_head(path: str, text: str, head: str) -> Document | None:
    """The document of ``text`` up to the end of ``head``, when ``head`` is a title of plain
    text and a status line of plain text: an ATX heading and a one-line paragraph, which
    is what the builder makes of them (None for any other head)."""
    found = _HEAD.fullmatch(head)
    if found is None or "  " in head:
        return None
    title, status = found.group("title"), found.group("status")
    at = found.start("status")
    return Document(
        path=path,
        text=text,
        newline="\n",
        bom=False,
        line_starts=line_starts_of(text),
        headings=(_heading(1, title, "", 1, _span(0, found.end("title"))),),
        anchors=(),
        links=(),
        definitions=(),
        code_spans=(),
        blocks=(_block(BlockKind.HEADING, _line_span(1, 1)),),
        paragraphs=(_paragraph(_line_span(3, 3), (_span(at, at + len(status)),), status, (), ()),),
    )


def _moved(doc: Document, start: int, lines_before: int, by: int, down: int) -> Document:
    """``doc``'s items at or after ``start`` (line ``lines_before + 1``), ``by`` characters
    and ``down`` lines on."""

    def span(s: Span) -> Span:
        return _span(s.start + by, s.end + by)

    def maybe(s: Span | None) -> Span | None:
        return None if s is None else _span(s.start + by, s.end + by)

    def lines(s: LineSpan) -> LineSpan:
        return _line_span(s.first + down, s.last + down)

    links = tuple(
        _link(k.kind, k.destination, k.line + down, k.column, span(k.span), maybe(k.dest_span), k.label, k.text,
              maybe(k.text_span))
        for k in doc.links if k.span.start >= start
    )
    return Document(
        path=doc.path,
        text="",
        newline=doc.newline,
        bom=doc.bom,
        line_starts=(),
        headings=tuple(
            _heading(h.level, h.text, h.slug, h.line + down, span(h.span))
            for h in doc.headings if h.line > lines_before
        ),
        anchors=tuple(_anchor(a.name, a.line + down) for a in doc.anchors if a.line > lines_before),
        links=links,
        definitions=tuple(
            _definition(d.label, d.normalized_label, d.destination, d.line + down, d.column, span(d.span),
                        span(d.dest_span))
            for d in doc.definitions if d.span.start >= start
        ),
        code_spans=tuple(span(s) for s in doc.code_spans if s.start >= start),
        blocks=tuple(_block(b.kind, lines(b.lines)) for b in doc.blocks if b.lines.first > lines_before),
        paragraphs=tuple(
            _paragraph(lines(p.lines), tuple(map(span, p.line_spans)), p.content, p.containers,
                       tuple(map(span, p.protected)))
            for p in doc.paragraphs if p.lines.first > lines_before
        ),
        used_labels=frozenset(k.label for k in links if k.label is not None),
        footnote_ids=doc.footnote_ids,
        math_spans=tuple(span(s) for s in doc.math_spans if s.start >= start),
    )
