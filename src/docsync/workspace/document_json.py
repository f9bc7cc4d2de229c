"""A :class:`~docsync.model.Document` as JSON, checked field by field when read back.

What the parse cache keeps and a parse worker sends (:mod:`.cache`, :mod:`.parsing`):
one array of fixed layout whose every column is checked by type (as sets of types,
in C) and every position against the document's text and line count. Spans are
pairs of numbers in flat arrays. See :mod:`.plain` for why JSON.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain, islice
from typing import Any

from .. import model
from ..model import (
    Anchor,
    Block,
    BlockKind,
    Definition,
    Document,
    Finding,
    Heading,
    LineSpan,
    Link,
    LinkKind,
    Paragraph,
    Span,
)
from .plain import columns as _columns
from .plain import dumps, loads

DOCUMENT = "docsync-document 1"
"""The first value of an encoded document: names the layout below."""


def _flat(spans: Iterable[Span]) -> list[int]:
    return list(chain.from_iterable((s.start, s.end) for s in spans))


def _maybe(span: Span | None) -> tuple[int | None, int | None]:
    return (None, None) if span is None else (span.start, span.end)


def encode_document(doc: Document) -> bytes:
    """``doc`` as one JSON array of fixed layout (:func:`decode_document` checks it all).

    The bytes ``dumps`` gives for the whole array, made a column and a batch of rows
    at a time and joined once: for a large document, neither every row as a list nor
    a second copy of each column exists at once."""
    out: list[bytes] = []
    for value in (DOCUMENT, doc.path, doc.text, doc.newline, doc.bom):
        out += (b",", dumps(value))
    _column(out, doc.line_starts)
    _column(out, ([h.level, h.text, h.slug, h.line, h.span.start, h.span.end] for h in doc.headings))
    _column(out, ([a.name, a.line] for a in doc.anchors))
    _column(out, (
        [
            link.kind.value, link.destination, link.line, link.column, link.span.start,
            link.span.end, *_maybe(link.dest_span), link.label, link.text, *_maybe(link.text_span),
        ]
        for link in doc.links
    ))
    _column(out, (
        [
            d.label, d.normalized_label, d.destination, d.line, d.column,
            d.span.start, d.span.end, d.dest_span.start, d.dest_span.end,
        ]
        for d in doc.definitions
    ))
    _column(out, _flat_rows(doc.code_spans))
    _column(out, ([b.kind.value, b.lines.first, b.lines.last] for b in doc.blocks))
    _column(out, (
        [p.lines.first, p.lines.last, _flat(p.line_spans), p.content, list(p.containers), _flat(p.protected)]
        for p in doc.paragraphs
    ))
    out += (b",", dumps(sorted(doc.used_labels)), b",", dumps(list(doc.footnote_ids)))
    _column(out, _flat_rows(doc.math_spans))
    out[0] = b"["
    out.append(b"]")
    return b"".join(out)  # fmt: skip


_BATCH = 256


def _column(out: list[bytes], rows: Iterable[object]) -> None:
    """Append ``,`` and ``dumps(list(rows))`` to ``out``, made ``_BATCH`` rows at a time."""
    out.append(b",[")
    rows = iter(rows)
    batch = list(islice(rows, _BATCH))
    while batch:
        out.append(dumps(batch)[1:-1])
        batch = list(islice(rows, _BATCH))
        if batch:
            out.append(b",")
    out.append(b"]")


def _flat_rows(spans: Iterable[Span]) -> Iterable[int]:
    return chain.from_iterable((s.start, s.end) for s in spans)


_I, _S, _N = (int,), (str,), (int, type(None))
_HEADING = (_I, _S, _S, _I, _I, _I)
_ANCHOR = (_S, _I)
_LINK = (_S, _S, _I, _I, _I, _I, _N, _N, (str, type(None)), _S, _N, _N)
_DEFINITION = (_S, _S, _S, _I, _I, _I, _I, _I, _I)
_BLOCK = (_S, _I, _I)
_PARAGRAPH = (_I, _I, (list,), _S, (list,), (list,))
_LINK_KINDS = {k.value: k for k in LinkKind}
_BLOCK_KINDS = {k.value: k for k in BlockKind}
_NEWLINES = frozenset({"\n", "\r\n", "\r"})

_span = model.constructor(Span)
_lines = model.constructor(LineSpan)
_heading = model.constructor(Heading)
_anchor = model.constructor(Anchor)
_link = model.constructor(Link)
_definition = model.constructor(Definition)
_block = model.constructor(Block)
_paragraph = model.constructor(Paragraph)
_document = model.constructor(Document)


class _Bad(ValueError):
    pass


def _ints(value: object) -> list[int]:
    if type(value) is not list or not set(map(type, value)) <= {int}:
        raise _Bad("not numbers")
    return value


def _strings(value: object) -> list[str]:
    if type(value) is not list or not set(map(type, value)) <= {str}:
        raise _Bad("not strings")
    return value


def _rows(value: object, kinds: tuple[tuple[type, ...], ...]) -> list[list[Any]]:
    if type(value) is not list or not _columns(value, kinds):
        raise _Bad("rows of another shape")
    return value


def _within(numbers: Iterable[int | None], low: int, high: int) -> None:
    present = [n for n in numbers if n is not None]
    if present and (min(present) < low or max(present) > high):
        raise _Bad("a position out of range")


def _spans(flat: object, size: int) -> tuple[Span, ...]:
    numbers = _ints(flat)
    if len(numbers) % 2:
        raise _Bad("an odd run of span ends")
    _within(numbers, 0, size)
    ends = iter(numbers)
    return tuple(map(_span, ends, ends))


def _maybe_span(start: int | None, end: int | None) -> Span | None:
    if start is None or end is None:
        if start is not None or end is not None:
            raise _Bad("half a span")
        return None
    return _span(start, end)


def decode_document(data: bytes) -> Document | None:
    """:func:`encode_document`'s bytes back; None for anything
    else: every field is checked by type, and every position against the text."""
    try:
        raw = loads(data)
        return _decoded(raw, None)
    except (ValueError, TypeError, KeyError, IndexError):
        return None


def _decoded(raw: object, bounds: tuple[int, int] | None) -> Document:
    if type(raw) is not list or len(raw) != 16 or raw[0] != DOCUMENT:
        raise _Bad("not a document")
    _, path, text, newline, bom, starts, headings, anchors, links, definitions, code, blocks, paragraphs = raw[:13]
    used, footnotes, math = raw[13:]
    if type(path) is not str or type(text) is not str or newline not in _NEWLINES or type(bom) is not bool:
        raise _Bad("not a document")
    line_starts = tuple(_ints(starts))
    size, lines = bounds if bounds is not None else (len(text), max(len(line_starts), 1))
    _within(line_starts, 0, size)
    head_rows = _rows(headings, _HEADING)
    _within((r[3] for r in head_rows), 1, lines)
    _within(chain.from_iterable(r[4:6] for r in head_rows), 0, size)
    anchor_rows = _rows(anchors, _ANCHOR)
    _within((r[1] for r in anchor_rows), 1, lines)
    link_rows = _rows(links, _LINK)
    _within((r[2] for r in link_rows), 1, lines)
    _within(chain.from_iterable((r[4], r[5], r[6], r[7], r[10], r[11]) for r in link_rows), 0, size)
    definition_rows = _rows(definitions, _DEFINITION)
    _within((r[3] for r in definition_rows), 1, lines)
    _within(chain.from_iterable(r[5:9] for r in definition_rows), 0, size)
    block_rows = _rows(blocks, _BLOCK)
    _within(chain.from_iterable(r[1:3] for r in block_rows), 1, lines)
    paragraph_rows = _rows(paragraphs, _PARAGRAPH)
    _within(chain.from_iterable(r[0:2] for r in paragraph_rows), 1, lines)
    return _document(
        path,
        text,
        newline,
        bom,
        line_starts,
        tuple(_heading(r[0], r[1], r[2], r[3], _span(r[4], r[5])) for r in head_rows),
        tuple(_anchor(r[0], r[1]) for r in anchor_rows),
        tuple(
            _link(
                _LINK_KINDS[r[0]], r[1], r[2], r[3], _span(r[4], r[5]), _maybe_span(r[6], r[7]),
                r[8], r[9], _maybe_span(r[10], r[11]),
            )
            for r in link_rows
        ),
        tuple(
            _definition(r[0], r[1], r[2], r[3], r[4], _span(r[5], r[6]), _span(r[7], r[8]))
            for r in definition_rows
        ),
        _spans(code, size),
        tuple(_block(_BLOCK_KINDS[r[0]], _lines(r[1], r[2])) for r in block_rows),
        tuple(
            _paragraph(
                _lines(r[0], r[1]), _spans(r[2], size), r[3], tuple(_strings(r[4])), _spans(r[5], size)
            )
            for r in paragraph_rows
        ),
        frozenset(_strings(used)),
        tuple(_strings(footnotes)),
        _spans(math, size),
    )  # fmt: skip


def text_bytes(doc: Document) -> bytes:
    """The bytes a file holds whose decoded text is ``doc``'s, when its lines all end
    alike: what a cached document is checked against (:mod:`.cache`)."""
    text = doc.text if doc.newline == "\n" else doc.text.replace("\n", doc.newline)
    return (("\ufeff" if doc.bom else "") + text).encode("utf-8", "surrogatepass")


def layout() -> str:
    """The layout of an encoded document and the model's fields: a cache written under
    another is not read."""
    classes = (Span, LineSpan, Link, Definition, Heading, Anchor, Block, Paragraph, Document, Finding)
    fields = ";".join(f"{cls.__name__}({','.join(cls.__slots__)})" for cls in classes)
    return f"{DOCUMENT}|{fields}"
