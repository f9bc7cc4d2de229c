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

import bisect
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from operator import attrgetter

from ..gates.links.check import link_url, markdown_url
from ..model import BlockKind, Document, Edit, Link, LinkKind, Span, position_of
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
# The kinds as constants: reading a member off its enum class costs more than the test.
_TABLE = BlockKind.TABLE
_INLINE = LinkKind.INLINE
_REFERENCE = LinkKind.REFERENCE
_TITLED = frozenset({LinkKind.INLINE, LinkKind.REFERENCE})
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


def prose_regions(doc: Document, holds: Callable[[int, int], bool] | None = None) -> Iterator[_Region]:
    """Paragraph lines (lists and quotes included), table rows and heading lines; never code.
    With ``holds``, only the regions whose (start, end) it holds (a paragraph line's region
    is then made only where it does)."""
    for paragraph in doc.paragraphs:
        for span in paragraph.line_spans:
            if holds is None or holds(span.start, span.end):
                yield _Region(span, False)
    for region in (*_heading_regions(doc), *_table_rows(doc)):
        if holds is None or holds(region.span.start, region.span.end):
            yield region


def _heading_regions(doc: Document) -> Iterator[_Region]:
    """The heading lines of :func:`prose_regions`, the only regions it marks ``heading``."""
    starts, size = doc.line_starts, len(doc.text)
    for heading in doc.headings:
        first = position_of(starts, heading.span.start)[0]
        last = position_of(starts, max(heading.span.start, heading.span.end - 1))[0]
        for line in range(first, last + 1):
            # The line's text (:meth:`Document.line_text`) without its newline.
            end = starts[line] - 1 if line < len(starts) else size
            yield _Region(Span(starts[line - 1], end), False, heading=True)


def _table_rows(doc: Document) -> Iterator[_Region]:
    """The table rows of :func:`prose_regions`, the only regions it marks ``table``."""
    for block in doc.blocks:
        if block.kind != _TABLE:
            continue
        for line in range(block.lines.first, block.lines.last + 1):
            start = doc.line_starts[line - 1]
            yield _Region(Span(start, start + len(doc.line_text(line))), True)


def _spans_by_line(doc: Document) -> dict[int, list[Span]]:
    """Code spans, formulas and links, filed under every line they touch (regions are single lines)."""
    by_line: dict[int, list[Span]] = {}
    starts = doc.line_starts
    for span in (*doc.code_spans, *doc.math_spans, *(link.span for link in doc.links)):
        # Lines as :meth:`Document.position` counts them, without its column.
        first = bisect.bisect_right(starts, span.start)
        last = bisect.bisect_right(starts, max(span.start, span.end - 1))
        for line in range(first, last + 1):
            by_line.setdefault(line, []).append(span)
    return by_line


def _excluded(doc: Document, region: Span, by_line: Mapping[int, list[Span]]) -> list[Span]:
    """Spans inside ``region`` that are not prose: code, links, HTML, footnote markers."""
    text, start, end = doc.text, region.start, region.end
    line = bisect.bisect_right(doc.line_starts, start)  # :meth:`Document.position`'s line
    inside = [s for s in by_line.get(line, ()) if s.start < end and s.end > start]
    # A tag or a comment opens with "<", a footnote marker with "[^": a region without them
    # holds neither (most regions).
    if text.find("<", start, end) >= 0:
        inside.extend(_opaque_html(text, start, end))
    if text.find("[^", start, end) >= 0:
        inside.extend(Span(m.start(), m.end()) for m in _FOOTNOTE_REF.finditer(text, start, end))
    inside.sort(key=_START)
    return inside


_START = attrgetter("start")


def _free(region: Span, excluded: list[Span]) -> Iterator[Span]:
    cursor = region.start
    for span in excluded:
        if span.start > cursor:
            yield Span(cursor, min(span.start, region.end))
        cursor = max(cursor, span.end)
    if cursor < region.end:
        yield Span(cursor, region.end)


@dataclass(frozen=True, slots=True)
class _Kinds:
    """Where each of the id table's kinds occurs in a text, as written (overlaps included):
    a stretch of it holds an id only if it holds one of these whole."""

    starts: list[int]
    ends: list[int]

    @classmethod
    def find(cls, text: str, kinds: frozenset[str]) -> _Kinds:
        found: list[tuple[int, int]] = []
        for kind in kinds:
            at = text.find(kind)
            while at >= 0:
                found.append((at, at + len(kind)))
                at = text.find(kind, at + 1)
        found.sort()
        return cls([at for at, _ in found], [end for _, end in found])

    def within(self, start: int, end: int) -> bool:
        """Whether a kind lies whole in ``[start, end)``: what ``text.find(kind, start, end)``
        tells for each kind in turn."""
        index = bisect.bisect_left(self.starts, start)
        while index < len(self.starts) and self.starts[index] < end:
            if self.ends[index] <= end:
                return True
            index += 1
        return False


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
    # An id is its kind as written and more, inside one free stretch of a region: a region
    # (or a stretch between code, links and HTML) that holds none of the kinds holds no id.
    where = _Kinds.find(doc.text, kinds)
    if not where.starts:
        return
    pattern = prose_id_pattern(kinds)
    text = doc.text
    for region in prose_regions(doc, where.within):
        if by_line is None:
            by_line = _spans_by_line(doc)
        for free in _free(region.span, _excluded(doc, region.span, by_line)):
            if not where.within(free.start, free.end):
                continue
            for mention in mentions(text, free.start, free.end, ids, pattern):
                found = [mention, *compound(text, mention, free.end, ids, pattern)]
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
    pattern: re.Pattern[str]
    """The table's id pattern (:func:`.ids.pattern_for`), read once for every link text."""
    leads_to: Callable[[str], str | None]
    """The repository path a link to a URL leads to after the moves (None: elsewhere)."""

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
        """Links into a record whose whole text is its id get the record's title as text; a
        text that is the id plus words (``[ADR 0007 quality gates](…)``) keeps the words and
        drops the id. A link elsewhere (``[RFC 42](…/pull/42)``, the discussion) keeps its
        text: the id names what it points at."""
        headings = [h.span for h in self.doc.headings]
        for link in self.doc.links:
            if any(h.start <= link.span.start < h.end for h in headings):
                continue  # a heading's text is its anchor: fragment links would break
            target = self._sole_id(link)
            if target is None and link.text_span is not None:
                self._leading_id(link, link.text_span)
            if target is None or link.text_span is None or self._leads(link) != target.path:
                continue
            table = any(t.start <= link.span.start < t.end for t in tables)
            title = link_text(target.title, table=table)
            edit = self._text_edit(link, link.text_span, title)
            if edit is not None:
                self.edits.append(edit)

    def _leading_id(self, link: Link, text_span: Span) -> None:
        if link.kind != _INLINE or not self.ids:
            return
        text = self.doc.text[text_span.start : text_span.end]
        match = self.pattern.match(text)
        if match is None or match.start() != 0 or match.group("version"):
            return
        rest = _ID_SEPARATOR.match(text, match.end())
        if rest is None or rest.end() == len(text) or not text[rest.end()].isalnum():
            return
        part = match.group("part")
        found, whole_only = lookup(
            self.ids, match.group("kind"), int(match.group("number")), int(part) if part else None
        )
        if found is not None and not whole_only and self._leads(link) == found.path:
            self.edits.append(Edit(Span(text_span.start, text_span.start + rest.end()), ""))

    def _leads(self, link: Link) -> str | None:
        """Where ``link`` leads after the moves; a reference, where its definition does."""
        url = link_url(link)
        if link.kind == _REFERENCE:
            found = next((d for d in self.doc.definitions if d.normalized_label == link.label), None)
            url = markdown_url(found.destination) if found is not None else ""
        return self.leads_to(url) if url else None

    def _sole_id(self, link: Link) -> IdTarget | None:
        if link.kind not in _TITLED or not self.ids:
            return None
        match = self.pattern.fullmatch(link.text.strip())
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
        if link.kind == _INLINE:
            return Edit(text_span, title)
        after = self.doc.text[text_span.end : link.span.end]
        if after not in ("]", "][]"):
            return Edit(text_span, title)  # full reference: the label is separate
        # Shortcut or collapsed reference: the text is the label, so keep it as one.
        label = self.doc.text[text_span.start : text_span.end]
        return Edit(link.span, f"[{title}][{label}]")


def prose_id_edits(
    doc: Document,
    new_path: str,
    ids: Mapping[IdKey, IdTarget],
    leads_to: Callable[[str], str | None],
) -> tuple[list[Edit], list[str], list[str]]:
    """Edits for bare ids and id-only link texts, the unresolved ids, and the new link targets.

    Every id, bare or a link's whole text, is written with its kind (``ADR``) as in the
    table: a text (and its link texts) holding none of the kinds holds no id (most
    documents). ``leads_to`` says where a link leads after the moves: only a link into
    the record its text names loses the id from its text."""
    kinds = id_kinds(ids)
    if not any(k in doc.text for k in kinds) and not any(k in n.text for n in doc.links for k in kinds):
        return [], [], []
    return every_id_edit(doc, new_path, ids, leads_to)


def every_id_edit(
    doc: Document,
    new_path: str,
    ids: Mapping[IdKey, IdTarget],
    leads_to: Callable[[str], str | None],
) -> tuple[list[Edit], list[str], list[str]]:
    """:func:`prose_id_edits` without its shortcut: every region and link read."""
    job = _IdRewrite(doc, new_path, ids, [], [], [], pattern_for(ids), leads_to)
    job.bare()
    tables = [region.span for region in _table_rows(doc)]
    job.link_texts(tables)
    return job.edits, list(dict.fromkeys(job.unresolved)), job.targets
