"""Bare ids in Markdown prose become links to their records; id-only link texts get titles.

Paragraph lines (in lists, quotes and footnotes too), table rows and
headings are read; code, HTML, formulas, footnote markers and links are not.
An id in a heading becomes a link whose text is the id as written: GitHub's
anchor is the heading's text, so ``## Why [ADR 7](…)`` keeps ``#why-adr-7``
and no fragment link anywhere needs to change. An id in a heading that names
the record it is written in stays as written: the link would only point the
page at itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..model import BlockKind, Document, Edit, Link, LinkKind, Span
from ..records.model import IdTarget
from .ids import (
    BareId,
    IdKey,
    Mention,
    compound,
    id_kinds,
    lookup,
    mentions,
    pattern_for,
    prose_id_pattern,
)
from .record_links import link_text, record_link, relative_destination

_FOOTNOTE_REF = re.compile(r"\[\^[^\]\s]*\]")
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)\b[^>]*>|<!--.*?-->", re.S)
# Inline HTML whose content must not become a link: a link inside <a> nests
# anchors, and code-like elements show their text literally.
_OPAQUE_ELEMENTS = frozenset({"a", "code", "kbd", "samp", "pre", "tt", "var"})


def _opaque_html(text: str, start: int, end: int) -> list[Span]:
    """Spans of inline HTML tags in ``text[start:end]``, and of what opaque elements enclose."""
    spans: list[Span] = []
    open_at: dict[str, int] = {}
    for tag in _TAG.finditer(text, start, end):
        spans.append(Span(tag.start(), tag.end()))
        name = (tag.group(2) or "").lower()
        if name not in _OPAQUE_ELEMENTS:
            continue
        if not tag.group(1):
            open_at.setdefault(name, tag.end())
        elif name in open_at:
            spans.append(Span(open_at.pop(name), tag.start()))
    return spans


@dataclass(frozen=True, slots=True)
class _Region:
    """A stretch of Markdown prose, whether it is a table row (where ``|`` splits cells),
    and whether it is a heading's (whose text is its anchor)."""

    span: Span
    table: bool
    heading: bool = False


def prose_regions(doc: Document) -> Iterator[_Region]:
    """Paragraph lines (lists and quotes included), table rows and heading lines; never code."""
    for paragraph in doc.paragraphs:
        for span in paragraph.line_spans:
            yield _Region(span, False)
    for heading in doc.headings:
        first = doc.position(heading.span.start)[0]
        last = doc.position(max(heading.span.start, heading.span.end - 1))[0]
        for line in range(first, last + 1):
            start = doc.line_starts[line - 1]
            yield _Region(Span(start, start + len(doc.line_text(line))), False, heading=True)
    yield from _table_rows(doc)


def _table_rows(doc: Document) -> Iterator[_Region]:
    """The table rows of :func:`prose_regions`, the only regions it marks ``table``."""
    for block in doc.blocks:
        if block.kind != BlockKind.TABLE:
            continue
        for line in range(block.lines.first, block.lines.last + 1):
            start = doc.line_starts[line - 1]
            yield _Region(Span(start, start + len(doc.line_text(line))), True)


def _spans_by_line(doc: Document) -> dict[int, list[Span]]:
    """Code spans, formulas and links, filed under every line they touch (regions are single lines)."""
    by_line: dict[int, list[Span]] = {}
    for span in (*doc.code_spans, *doc.math_spans, *(link.span for link in doc.links)):
        first = doc.position(span.start)[0]
        last = doc.position(max(span.start, span.end - 1))[0]
        for line in range(first, last + 1):
            by_line.setdefault(line, []).append(span)
    return by_line


def _excluded(doc: Document, region: Span, by_line: Mapping[int, list[Span]]) -> list[Span]:
    """Spans inside ``region`` that are not prose: code, links, HTML, footnote markers."""
    line = doc.position(region.start)[0]
    inside = [s for s in by_line.get(line, ()) if s.start < region.end and s.end > region.start]
    inside.extend(_opaque_html(doc.text, region.start, region.end))
    inside.extend(
        Span(m.start(), m.end()) for m in _FOOTNOTE_REF.finditer(doc.text, region.start, region.end)
    )
    return sorted(inside, key=lambda s: s.start)


def _free(region: Span, excluded: list[Span]) -> Iterator[Span]:
    cursor = region.start
    for span in excluded:
        if span.start > cursor:
            yield Span(cursor, min(span.start, region.end))
        cursor = max(cursor, span.end)
    if cursor < region.end:
        yield Span(cursor, region.end)


def _prose_mentions(
    doc: Document, ids: Mapping[IdKey, IdTarget], own: str
) -> Iterator[tuple[_Region, Mention]]:
    """Bare ids in prose, but the record's own (at ``own``) in a heading: there the id stays
    the link's text, so the link would only point the page at itself (a title-less
    record's header is ``# ADR 3``)."""
    if not ids:
        return
    by_line: dict[int, list[Span]] | None = None
    kinds = id_kinds(ids)
    pattern = prose_id_pattern(kinds)
    text = doc.text
    for region in prose_regions(doc):
        start, end = region.span.start, region.span.end
        # An id is its kind as written and more, inside one free stretch of the region:
        # a region that holds none of the kinds holds no id (most lines).
        if not any(text.find(kind, start, end) >= 0 for kind in kinds):
            continue
        if by_line is None:
            by_line = _spans_by_line(doc)
        for free in _free(region.span, _excluded(doc, region.span, by_line)):
            if not any(text.find(kind, free.start, free.end) >= 0 for kind in kinds):
                continue  # the same holds for each stretch between code, links and HTML
            for mention in mentions(doc.text, free.start, free.end, ids, pattern):
                found = [mention, *compound(doc.text, mention, free.end, ids, pattern)]
                for each in found:
                    if not region.heading or each.target is None or each.target.path != own:
                        yield region, each


def bare_ids(doc: Document, ids: Mapping[IdKey, IdTarget]) -> list[BareId]:
    """The bare ids :func:`rewrite_document` would consider in ``doc`` (for gates)."""
    return [BareId(m.span, m.written, m.target) for _, m in _prose_mentions(doc, ids, doc.path)]


_ID_SEPARATOR = re.compile(r"[ \t]*[:\u2013\u2014-]?[ \t]+")


@dataclass
class _IdRewrite:
    """Accumulates the edits and findings of one document's id pass."""

    doc: Document
    new_path: str
    ids: Mapping[IdKey, IdTarget]
    edits: list[Edit]
    unresolved: list[str]
    targets: list[str]

    def bare(self) -> None:
        for region, mention in _prose_mentions(self.doc, self.ids, self.new_path):
            if mention.target is None:
                self.unresolved.append(mention.written)
                continue
            written = self.doc.text[mention.replace.start : mention.replace.end]
            if region.heading:  # the id stays the text, so the heading's anchor stays
                destination = relative_destination(self.new_path, mention.target.path)
                link = f"[{link_text(written)}]({destination})"
            else:
                link = record_link(mention.target, self.new_path, written, region.table)
            self.edits.append(Edit(mention.replace, link))
            self.targets.append(mention.target.path)

    def link_texts(self, tables: list[Span]) -> None:
        """Links whose whole text is one id get the record's title as text; a text that is an
        id plus words (``[ADR 0007 quality gates](…)``) keeps the words and drops the id."""
        headings = [h.span for h in self.doc.headings]
        for link in self.doc.links:
            if any(h.start <= link.span.start < h.end for h in headings):
                continue  # a heading's text is its anchor: fragment links would break
            target = self._sole_id(link)
            if target is None and link.text_span is not None:
                self._leading_id(link, link.text_span)
            if target is None or link.text_span is None:
                continue
            table = any(t.start <= link.span.start < t.end for t in tables)
            title = link_text(target.title, table=table)
            edit = self._text_edit(link, link.text_span, title)
            if edit is not None:
                self.edits.append(edit)

    def _leading_id(self, link: Link, text_span: Span) -> None:
        if link.kind != LinkKind.INLINE or not self.ids:
            return
        text = self.doc.text[text_span.start : text_span.end]
        match = pattern_for(self.ids).match(text)
        if match is None or match.start() != 0 or match.group("version"):
            return
        rest = _ID_SEPARATOR.match(text, match.end())
        if rest is None or rest.end() == len(text) or not text[rest.end()].isalnum():
            return
        part = match.group("part")
        found, whole_only = lookup(
            self.ids, match.group("kind"), int(match.group("number")), int(part) if part else None
        )
        if found is not None and not whole_only:
            self.edits.append(Edit(Span(text_span.start, text_span.start + rest.end()), ""))

    def _sole_id(self, link: Link) -> IdTarget | None:
        if link.kind not in (LinkKind.INLINE, LinkKind.REFERENCE) or not self.ids:
            return None
        match = pattern_for(self.ids).fullmatch(link.text.strip())
        if match is None or match.group("version"):  # "[RFC-057-v2](…)" names a version
            return None
        part = match.group("part")
        found, whole_only = lookup(
            self.ids, match.group("kind"), int(match.group("number")), int(part) if part else None
        )
        return None if whole_only or found is None or not found.title else found

    def _text_edit(self, link: Link, text_span: Span, title: str) -> Edit | None:
        if title == self.doc.text[text_span.start : text_span.end]:
            return None
        if link.kind == LinkKind.INLINE:
            return Edit(text_span, title)
        after = self.doc.text[text_span.end : link.span.end]
        if after not in ("]", "][]"):
            return Edit(text_span, title)  # full reference: the label is separate
        # Shortcut or collapsed reference: the text is the label, so keep it as one.
        label = self.doc.text[text_span.start : text_span.end]
        return Edit(link.span, f"[{title}][{label}]")


def prose_id_edits(
    doc: Document, new_path: str, ids: Mapping[IdKey, IdTarget]
) -> tuple[list[Edit], list[str], list[str]]:
    """Edits for bare ids and id-only link texts, the unresolved ids, and the new link targets.

    Every id, bare or a link's whole text, is written with its kind (``ADR``) as in the
    table: a text (and its link texts) holding none of the kinds holds no id (most
    documents)."""
    kinds = id_kinds(ids)
    if not any(k in doc.text for k in kinds) and not any(k in n.text for n in doc.links for k in kinds):
        return [], [], []
    return every_id_edit(doc, new_path, ids)


def every_id_edit(
    doc: Document, new_path: str, ids: Mapping[IdKey, IdTarget]
) -> tuple[list[Edit], list[str], list[str]]:
    """:func:`prose_id_edits` without its shortcut: every region and link read."""
    job = _IdRewrite(doc, new_path, ids, [], [], [])
    job.bare()
    tables = [region.span for region in _table_rows(doc)]
    job.link_texts(tables)
    return job.edits, list(dict.fromkeys(job.unresolved)), job.targets
