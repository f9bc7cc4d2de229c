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
unique across the page, are made again in order (:func:`chunks.merge`).
Anything else returns None, and the caller parses the new text.
``tests/test_reheaded.py`` compares the result with the parse on every case
file, on generated records, and on the migration tests' records.
"""

from __future__ import annotations

from ..model import (
    Anchor,
    Block,
    Definition,
    Document,
    Heading,
    LineSpan,
    Link,
    Paragraph,
    Span,
    constructor,
)
from . import chunks

_span = constructor(Span)
_line_span = constructor(LineSpan)
_link = constructor(Link)
_paragraph = constructor(Paragraph)
_block = constructor(Block)
_heading = constructor(Heading)
_anchor = constructor(Anchor)
_definition = constructor(Definition)


def reheaded(doc: Document, start: int, head: str, path: str) -> Document | None:
    """``parse(path, head + doc.text[start:])`` from ``doc``'s parse (see the module's
    docstring), or None when that is not provably the same."""
    text = doc.text
    if start < 2 or next(chunks.possible_starts(text, start - 2), None) != start:
        return None
    if not head.endswith("\n\n") or "[^" in head or "^[" in head or ("[" in head and doc.definitions):
        return None
    before = text[:start]
    if "[^" in before or "^[" in before:
        return None
    lines_before = before.count("\n")
    if not chunks.tokens_of_part(text, chunks.Part(0, lines_before, 0, start))[1]:
        return None
    new_text = head + text[start:]
    lines = head.count("\n")
    top, clean = chunks.parse_part(path, new_text, "\n", False, chunks.Part(0, lines, 0, len(head)))
    if not clean:
        return None
    return chunks.merge([top, _moved(doc, start, lines_before, len(head) - start, lines - lines_before)])


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
