"""docsync's state on disk as plain JSON: nothing read back can run code or blow the C stack.

Everything under ``<git dir>/docsync/`` is untrusted input: a repository
unpacked from an archive, shared over a network disk or restored from a CI
cache brings its own. So the caches and the stat index hold JSON, read with
the standard library's parser (a nesting too deep for it is a
``RecursionError``, caught, not a crash), and every value is checked for
its shape before it becomes anything else:

* a :class:`~docsync.model.Document` is one array of fixed shape whose every
  field is checked by type and range (:func:`encode_document`,
  :func:`decode_document`); spans are pairs of numbers in a flat array;
* the gates' findings are rows of fixed shape (:func:`encode_findings`);
* other results (the summaries the parse workers make) are tagged plain data
  (:func:`to_plain`, :func:`from_plain`): tuples, lists, string-keyed maps,
  frozensets and findings, at most :data:`MAX_DEPTH` deep, a map's keys
  plain scalars, so no hash of a deep value is ever taken.

A file is read only when it is a regular file (never through a symlink, a
FIFO or a device) of at most :data:`MAX_FILE` bytes. Anything that fails a
check reads as nothing, and the caller starts afresh.

This replaced pickle, whose restricted unpicklers could still be made to
build a deeply nested tuple as a dictionary key: hashing it overflowed the C
stack (a segmentation fault on every run until the file was deleted).
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable
from itertools import chain
from operator import attrgetter
from pathlib import Path
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
    Severity,
    Span,
)

MAX_DEPTH = 24
"""How deep :func:`from_plain` follows nested values."""
MAX_FILE = 1 << 31
"""Bytes past which a file under ``.git/docsync/`` is not one docsync wrote."""

_ignored: dict[str, str] = {}


def ignored(file: Path, why: str) -> None:
    """Note that the state file ``file`` was ignored, and why: the command line says so
    in one line (:func:`ignored_notes`); the core prints nothing."""
    _ignored.setdefault(os.fspath(file), why)


def ignored_notes() -> list[str]:
    """One line per state file ignored since the last call, for the command line."""
    notes = [
        f"warning: {_shown(name)}: ignored ({why}); docsync starts it afresh"
        for name, why in _ignored.items()
    ]
    _ignored.clear()
    return notes


def _shown(name: str) -> str:
    at = name.replace(os.sep, "/").rfind("/.git/")
    return name[at + 1 :] if at >= 0 else name


_dumps = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), check_circular=False).encode


def dumps(value: object) -> bytes:
    """JSON bytes (ASCII: a name that is not UTF-8 keeps its escapes)."""
    return _dumps(value).encode("ascii")


def loads(data: bytes | str) -> object:
    """JSON back; ``ValueError`` for anything else (too deep included)."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("nested too deep") from None


def read_file(file: Path, limit: int = MAX_FILE) -> bytes | None:
    """A state file's bytes: None when missing, not a regular file (a symlink, a FIFO,
    a device, a folder), larger than ``limit`` or unreadable."""
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        ignored(file, "a symlink" if os.path.islink(file) else exc.strerror or "unreadable")
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            ignored(file, "not a regular file" if not stat.S_ISREG(info.st_mode) else "too large")
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
        return data if len(data) <= limit else None
    except OSError as exc:
        ignored(file, exc.strerror or "unreadable")
        return None
    finally:
        os.close(fd)


def read_json(file: Path, limit: int = MAX_FILE) -> object | None:
    """A state file's JSON; None for anything that is not (see :func:`read_file`)."""
    data = read_file(file, limit)
    if data is None:
        return None
    try:
        return loads(data)
    except ValueError:
        ignored(file, "not JSON docsync wrote")
        return None


def write_json(file: Path, payload: object) -> None:
    """Replace ``file`` atomically (through the guarded writer) with ``payload`` as JSON;
    a cache that cannot be written only costs speed."""
    from ..write.writer import write_cache

    data = dumps(payload)
    try:
        write_cache(file, lambda handle: handle.write(data))
    except OSError:
        return


# --------------------------------------------------------------------------- tagged plain data

_TUPLE, _LIST, _MAP, _FROZENSET, _FINDING = "t", "l", "m", "f", "F"
_KEYS = (str, int, bool, type(None))
_finding_fields = attrgetter("gate", "rule", "path", "line", "column", "message", "suggestion")


def to_plain(value: object) -> object:
    """``value`` as JSON-able data that :func:`from_plain` makes again: scalars as they are,
    a tuple, list, frozenset, map (scalar keys) or finding as a one-key object."""
    if value is None or type(value) in (str, int, bool, float):
        return value
    if type(value) is tuple:
        return {_TUPLE: [to_plain(v) for v in value]}
    if type(value) is list:
        return {_LIST: [to_plain(v) for v in value]}
    if type(value) is frozenset:
        return {_FROZENSET: [to_plain(v) for v in value]}
    if type(value) is dict:
        if not all(type(k) in _KEYS for k in value):
            raise TypeError("a map's keys must be plain scalars")
        return {_MAP: [[k, to_plain(v)] for k, v in value.items()]}
    if type(value) is Finding:
        return {_FINDING: [*_finding_fields(value), value.severity.value]}
    raise TypeError(f"not plain data: {type(value).__name__}")


def from_plain(data: object, depth: int = 0) -> object:
    """:func:`to_plain`'s data back; ``ValueError`` for anything it does not make."""
    if data is None or type(data) in (str, int, bool, float):
        return data
    if depth >= MAX_DEPTH or type(data) is not dict or len(data) != 1:
        raise ValueError("not plain data")
    ((tag, items),) = data.items()
    if type(items) is not list:
        raise ValueError("not plain data")
    if tag == _FINDING:
        return finding_of(items)
    values = [from_plain(v, depth + 1) for v in items] if tag != _MAP else []
    if tag == _TUPLE:
        return tuple(values)
    if tag == _LIST:
        return values
    if tag == _FROZENSET:
        if not all(type(v) in _KEYS for v in values):
            raise ValueError("a set of values that are not plain scalars")
        return frozenset(values)
    if tag == _MAP:
        made: dict[object, object] = {}
        for pair in items:
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) not in _KEYS:
                raise ValueError("not a map entry")
            made[pair[0]] = from_plain(pair[1], depth + 1)
        return made
    raise ValueError(f"an unknown tag {tag!r}")


_FINDING_TYPES = ((str,), (str,), (str,), (int,), (int,), (str,), (str, type(None)), (str,))
_new_finding = model.constructor(Finding)


def finding_of(row: object) -> Finding:
    """A finding from its row (gate, rule, path, line, column, message, suggestion, severity)."""
    if type(row) is not list or len(row) != len(_FINDING_TYPES):
        raise ValueError("not a finding")
    if not all(type(v) in kinds for v, kinds in zip(row, _FINDING_TYPES, strict=True)):
        raise ValueError("not a finding")
    return _new_finding(*row[:7], Severity(row[7]))


# --------------------------------------------------------------------------- findings by key


def encode_findings(findings: dict[str, tuple[Finding, ...]]) -> bytes:
    """A gate's findings by key, as rows."""
    return dumps(
        {key: [[*_finding_fields(f), f.severity.value] for f in found] for key, found in findings.items()}
    )


_SEVERITIES = {s.value: s for s in Severity}


def decode_findings(data: bytes) -> dict[str, tuple[Finding, ...]] | None:
    """:func:`encode_findings`'s bytes back; None for anything else. The rows' fields are
    checked column by column, in C: a warm run has tens of thousands of findings."""
    try:
        raw = loads(data)
    except ValueError:
        return None
    if type(raw) is not dict or not set(map(type, raw.values())) <= {list}:
        return None
    rows = list(chain.from_iterable(raw.values()))
    if not _columns(rows, _FINDING_TYPES):
        return None
    if not set(row[7] for row in rows) <= _SEVERITIES.keys():
        return None
    make, severity = _new_finding, _SEVERITIES
    return {
        key: tuple(make(*row[:7], severity[row[7]]) for row in found)
        for key, found in raw.items()
    }


def _columns(rows: list[Any], kinds: tuple[tuple[type, ...], ...]) -> bool:
    """Whether every row is a list of ``len(kinds)`` values, each column of its types."""
    if not rows:
        return True
    if set(map(type, rows)) != {list} or set(map(len, rows)) != {len(kinds)}:
        return False
    return all(
        set(map(type, column)) <= set(types) for column, types in zip(zip(*rows, strict=True), kinds, strict=True)
    )


# --------------------------------------------------------------------------- documents

DOCUMENT = "docsync-document 1"
"""The first value of an encoded document: names the layout below."""


def _flat(spans: Iterable[Span]) -> list[int]:
    return list(chain.from_iterable((s.start, s.end) for s in spans))


def _maybe(span: Span | None) -> tuple[int | None, int | None]:
    return (None, None) if span is None else (span.start, span.end)


def encode_document(doc: Document) -> bytes:
    """``doc`` as one JSON array of fixed layout (:func:`decode_document` checks it all)."""
    return dumps(
        [
            DOCUMENT,
            doc.path,
            doc.text,
            doc.newline,
            doc.bom,
            list(doc.line_starts),
            [[h.level, h.text, h.slug, h.line, h.span.start, h.span.end] for h in doc.headings],
            [[a.name, a.line] for a in doc.anchors],
            [
                [
                    link.kind.value, link.destination, link.line, link.column, link.span.start,
                    link.span.end, *_maybe(link.dest_span), link.label, link.text, *_maybe(link.text_span),
                ]
                for link in doc.links
            ],
            [
                [
                    d.label, d.normalized_label, d.destination, d.line, d.column,
                    d.span.start, d.span.end, d.dest_span.start, d.dest_span.end,
                ]
                for d in doc.definitions
            ],
            _flat(doc.code_spans),
            [[b.kind.value, b.lines.first, b.lines.last] for b in doc.blocks],
            [
                [p.lines.first, p.lines.last, _flat(p.line_spans), p.content, list(p.containers), _flat(p.protected)]
                for p in doc.paragraphs
            ],
            sorted(doc.used_labels),
            list(doc.footnote_ids),
            _flat(doc.math_spans),
        ]
    )  # fmt: skip


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
