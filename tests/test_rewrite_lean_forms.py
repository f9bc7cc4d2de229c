"""The rewrite step's lean forms give exactly what the forms they replace gave.

- ``prose_ids._Kinds`` finds where the id table's kinds occur once per text, and
  tells whether a stretch holds one whole by bisection, where each region and each
  free stretch searched the text for every kind;
- :func:`~docsync.rewrite.prose_ids.prose_regions` given what a region must hold is
  its regions less those that hold no kind, without making a region of each first;
- ``prose_ids._excluded`` runs the HTML and footnote searches only over regions that
  hold a ``<`` or a ``[^``, and it and ``_spans_by_line`` count lines by bisection
  without :meth:`~docsync.model.Document.position`'s column;
- ``ids.mentions`` reads a match's groups at once;
- ``destinations.planned`` is :func:`~docsync.rewrite.destinations.rewritten_raw` and
  :func:`~docsync.rewrite.destinations.expected_target` at once, so that
  ``references._expected_targets`` reads the targets ``_link_edits`` found;
- ``references._resolved_targets`` counts in one ``Counter`` call, and
  ``destinations.unquoted`` skips ``unquote`` for a text without ``%``;
- ``record_links.relative_destination`` is kept per pair, ``record_links._escape`` returns
  a text without the characters it escapes as it is, and ``destinations._relpath``
  normalises a path of plain parts without ``posixpath.normpath``;
- enum members read once into module constants.

Each is held here to the form it replaced, written out again as it was.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.gates.links import check as links_check
from docsync.gates.links import urls as link_urls
from docsync.gates.links.check import link_targets
from docsync.model import HTML_KINDS, BlockKind, Definition, Document, Link, LinkKind, Span
from docsync.parse.native import parse
from docsync.records.model import IdTarget
from docsync.rewrite import destinations, prose_ids, record_links, references
from docsync.rewrite.destinations import (
    Destination,
    Moves,
    encode,
    expected_target,
    locate,
    planned,
    relative,
    relative_destinations,
    rewritten_raw,
    unquoted,
)
from docsync.rewrite.ids import (
    IdKey,
    Mention,
    id_kinds,
    id_matches,
    lookup,
    mentions,
    prose_id_pattern,
)
from tests.test_rewrite_properties import FRAGMENTS, IDS, MOVES, NEW, OLD, documents
from tests.test_rewrite_shortcuts import texts

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Kinds that overlap one another and themselves ("AA" in "AAA" twice), beside the table's.
_KIND_SETS = [
    frozenset({"ADR", "RFC"}), frozenset({"AD", "ADR", "DR"}), frozenset({"AA", "A"}), frozenset({"RFC"}),
]
_KIND_PIECES = ["ADR", "AD", "DR", "RFC", "AAA", "A", "x", " ", "\n", "7", "R"]
kind_texts = st.lists(st.sampled_from(_KIND_PIECES), max_size=14).map("".join)
_TABLES: list[dict[IdKey, IdTarget]] = [
    IDS,
    {**IDS, ("AD", 7, None): IdTarget("docs/x.md", "X"), ("DR", 1, None): IdTarget("docs/y.md", "Y")},
    {("PEP", 8, None): IdTarget("docs/p.md", "P")},
]
markdown = st.one_of(texts, documents)


# --------------------------------------------------------------------------- the forms as they were


def _regions_as_they_were(doc: Document) -> Iterator[prose_ids._Region]:
    for paragraph in doc.paragraphs:
        for span in paragraph.line_spans:
            yield prose_ids._Region(span, False)
    for heading in doc.headings:
        first = doc.position(heading.span.start)[0]
        last = doc.position(max(heading.span.start, heading.span.end - 1))[0]
        for line in range(first, last + 1):
            start = doc.line_starts[line - 1]
            yield prose_ids._Region(Span(start, start + len(doc.line_text(line))), False, heading=True)
    for block in doc.blocks:
        if block.kind != BlockKind.TABLE:
            continue
        for line in range(block.lines.first, block.lines.last + 1):
            start = doc.line_starts[line - 1]
            yield prose_ids._Region(Span(start, start + len(doc.line_text(line))), True)


def _spans_by_line_as_it_was(doc: Document) -> dict[int, list[Span]]:
    by_line: dict[int, list[Span]] = {}
    for span in (*doc.code_spans, *doc.math_spans, *(link.span for link in doc.links)):
        first = doc.position(span.start)[0]
        last = doc.position(max(span.start, span.end - 1))[0]
        for line in range(first, last + 1):
            by_line.setdefault(line, []).append(span)
    return by_line


def _excluded_as_it_was(doc: Document, region: Span, by_line: Mapping[int, list[Span]]) -> list[Span]:
    line = doc.position(region.start)[0]
    inside = [s for s in by_line.get(line, ()) if s.start < region.end and s.end > region.start]
    inside.extend(prose_ids._opaque_html(doc.text, region.start, region.end))
    inside.extend(
        Span(m.start(), m.end())
        for m in prose_ids._FOOTNOTE_REF.finditer(doc.text, region.start, region.end)
    )
    return sorted(inside, key=lambda s: s.start)


def _holds_kind_as_it_was(text: str, kinds: frozenset[str], start: int, end: int) -> bool:
    return any(text.find(kind, start, end) >= 0 for kind in kinds)


def _mentions_as_they_were(
    text: str, start: int, end: int, ids: Mapping[IdKey, IdTarget]
) -> Iterator[Mention]:
    for match in id_matches(prose_id_pattern(id_kinds(ids)), text, start, end):
        part = match.group("part")
        target, whole_only = lookup(
            ids, match.group("kind"), int(match.group("number")), int(part) if part else None
        )
        span = Span(match.start(), match.end())
        whole_only = whole_only or match.group("version") is not None
        replace = Span(match.start(), match.end("number")) if whole_only else span
        yield Mention(span, replace, match.group(0), target)


def _rewritten_raw_as_it_was(dest: Destination, moves: Moves) -> str | None:
    if moves.left_as_written(dest):
        return None
    target = moves.target(dest.path)
    renamed = moves.fragment(dest.path, dest.fragment)
    parts = destinations._RawParts.split(dest.raw)
    written = dest.url(parts.path).strip()
    still = locate(moves.new_path, written) if written else (moves.new_path, "")
    path_ok = still is not None and still[0] == target
    if path_ok and renamed is None:
        return None
    ascii_only = bool(destinations._NON_ASCII_ESCAPE.search(dest.raw))
    path = (
        parts.path
        if path_ok
        else encode(relative(moves.new_path, target, written), angle=dest.angle, ascii_only=ascii_only)
    )
    fragment, query = parts.fragment, parts.query
    if not dest.angle and not path_ok:
        fragment, query = destinations._escape_parens(fragment), destinations._escape_parens(query)
    if renamed is not None:
        fragment = "#" + encode(renamed, angle=dest.angle, ascii_only=ascii_only)
    return path + query + fragment


def _expected_target_as_it_was(dest: Destination, moves: Moves) -> tuple[str, str]:
    if moves.left_as_written(dest):
        kept = locate(moves.new_path, dest.url(dest.raw))
        return ("url", dest.url(dest.raw)) if kept is None else (kept[0], unquote(kept[1]))
    renamed = moves.fragment(dest.path, dest.fragment)
    return moves.target(dest.path), renamed if renamed is not None else unquote(dest.fragment)


_Targets = list[tuple[Link | Definition, str]]


def _expected_targets_as_they_were(
    targets: _Targets, moves: Moves, id_targets: list[str], before: list[Destination]
) -> Counter[tuple[str, str]]:
    expected: Counter[tuple[str, str]] = Counter()
    by_span = {d.span: d for d in before}
    for item, url in targets:
        dest = by_span.get(item.dest_span) if item.dest_span is not None else None
        expected[("url", url) if dest is None else _expected_target_as_it_was(dest, moves)] += 1
    expected.update((path, "") for path in id_targets)
    return expected


def _resolved_targets_as_they_were(located: references._Located) -> Counter[tuple[str, str]]:
    found: Counter[tuple[str, str]] = Counter()
    for _item, url, resolved in located:
        found[("url", url) if resolved is None else (resolved[0], unquote(resolved[1]))] += 1
    return found


# --------------------------------------------------------------------------- prose regions and ids


@PROPERTY
@given(kind_texts, st.sampled_from(_KIND_SETS), st.data())
def test_kinds_within_is_a_search_for_each_kind(text: str, kinds: frozenset[str], data: st.DataObject) -> None:
    where = prose_ids._Kinds.find(text, kinds)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    assert where.within(start, end) == _holds_kind_as_it_was(text, kinds, start, end)
    assert (not where.starts) == (not _holds_kind_as_it_was(text, kinds, 0, len(text)))


def test_kinds_within_examples() -> None:
    where = prose_ids._Kinds.find("xAAAx ADR", frozenset({"AA", "ADR"}))
    assert where.starts == [1, 2, 6]  # "AA" twice, overlapping, then "ADR"
    assert where.within(2, 4) and not where.within(3, 8) and where.within(3, 9)
    assert not prose_ids._Kinds.find("adr", frozenset({"ADR"})).starts  # as written, case and all


@PROPERTY
@given(markdown, st.sampled_from(_KIND_SETS))
def test_regions_holding_a_kind_are_prose_regions_filtered(text: str, kinds: frozenset[str]) -> None:
    doc = parse("docs/adr/0001-x.md", text)
    assert list(prose_ids.prose_regions(doc)) == list(_regions_as_they_were(doc))
    holding = [
        r for r in _regions_as_they_were(doc) if _holds_kind_as_it_was(doc.text, kinds, r.span.start, r.span.end)
    ]
    assert list(prose_ids.prose_regions(doc, prose_ids._Kinds.find(doc.text, kinds).within)) == holding


@PROPERTY
@given(markdown)
def test_excluded_spans_are_as_they_were(text: str) -> None:
    doc = parse("docs/adr/0001-x.md", text)
    by_line = prose_ids._spans_by_line(doc)
    assert by_line == _spans_by_line_as_it_was(doc)
    for region in _regions_as_they_were(doc):
        assert prose_ids._excluded(doc, region.span, by_line) == _excluded_as_it_was(doc, region.span, by_line)


def test_excluded_spans_examples() -> None:
    text = "a <code>ADR 7</code> b[^1] `c` [l](x.md)\nplain ADR 7 line\n\n[^1]: n\n"
    doc = parse("docs/adr/0001-x.md", text)
    by_line = prose_ids._spans_by_line(doc)
    for region in _regions_as_they_were(doc):
        assert prose_ids._excluded(doc, region.span, by_line) == _excluded_as_it_was(doc, region.span, by_line)
    first = next(_regions_as_they_were(doc)).span
    excluded = [text[s.start : s.end] for s in prose_ids._excluded(doc, first, by_line)]
    assert excluded == ["<code>", "ADR 7", "</code>", "[^1]", "`c`", "[l](x.md)"]


@PROPERTY
@given(st.one_of(markdown, st.text(max_size=60)), st.sampled_from(_TABLES), st.data())
def test_mentions_are_as_they_were(text: str, ids: dict[IdKey, IdTarget], data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    pattern = prose_id_pattern(id_kinds(ids))
    assert list(mentions(text, start, end, ids, pattern)) == list(_mentions_as_they_were(text, start, end, ids))


def test_mentions_examples() -> None:
    text = "ADR 7, RFC 5 part 2, RFC 5 pt 9, RFC 1-v2 and RFC 2119"
    found = list(mentions(text, 0, len(text), IDS, prose_id_pattern(id_kinds(IDS))))
    assert found == list(_mentions_as_they_were(text, 0, len(text), IDS))
    assert [text[m.replace.start : m.replace.end] for m in found] == [
        "ADR 7", "RFC 5 part 2", "RFC 5", "RFC 1", "RFC 2119",
    ]
    assert found[-1].target is None


# --------------------------------------------------------------------------- destinations


_EXISTS: list[Callable[[str], bool]] = [
    lambda _path: True,
    lambda _path: False,
    lambda path: path.endswith("plugin-api.md"),
]
_PLACES = [(OLD, NEW), (OLD, OLD), (OLD, "elsewhere/deeper/x.md"), ("docs/adr/0001-x.md", "docs/rfc/a.md")]


def _moves(old: str, new: str, exists: Callable[[str], bool]) -> Moves:
    return Moves(old, new, {**MOVES, old: new}, FRAGMENTS, exists)


@PROPERTY
@given(documents, st.sampled_from(_PLACES), st.sampled_from(_EXISTS))
def test_planned_is_rewritten_raw_and_expected_target(
    text: str, place: tuple[str, str], exists: Callable[[str], bool]
) -> None:
    doc = parse(place[0], text)
    moves = _moves(*place, exists)
    for dest in relative_destinations(doc):
        want = (_rewritten_raw_as_it_was(dest, moves), _expected_target_as_it_was(dest, moves))
        assert planned(dest, moves) == want
        assert (rewritten_raw(dest, moves), expected_target(dest, moves)) == want


@PROPERTY
@given(documents, st.sampled_from(_PLACES), st.sampled_from(_EXISTS), st.lists(st.sampled_from(sorted(MOVES.values()))))
def test_expected_and_resolved_targets_are_as_they_were(
    text: str, place: tuple[str, str], exists: Callable[[str], bool], id_links: list[str]
) -> None:
    doc = parse(place[0], text)
    moves = _moves(*place, exists)
    targets = list(link_targets(doc))
    before = list(relative_destinations(doc, targets))
    try:
        _edits, expected = references._link_edits(doc, moves, before)
    except references.RewriteError:
        return  # the rewrite refuses before it counts (the old form refused there too)
    want = _expected_targets_as_they_were(targets, moves, id_links, before)
    assert references._expected_targets(targets, id_links, expected) == want
    located = references._located(doc, moves.new_path)
    assert references._resolved_targets(located) == _resolved_targets_as_they_were(located)


def test_planned_examples() -> None:
    text = "[p](001-plugin-api.md#motivation) [f](My%20File.md#Old) [s](#old) [o](../../x.md#a%20b)\n"
    for exists in _EXISTS:
        moves = _moves(OLD, NEW, exists)
        dests = list(relative_destinations(parse(OLD, text)))
        assert len(dests) == 4
        for dest in dests:
            assert planned(dest, moves) == (
                _rewritten_raw_as_it_was(dest, moves), _expected_target_as_it_was(dest, moves)
            )
    moves = _moves(OLD, NEW, _EXISTS[1])
    kept = planned(next(d for d in relative_destinations(parse(OLD, text)) if "File" in d.raw), moves)
    assert kept[0] is None  # broken before and not a plain path: left as written
    assert planned(relative_destinations(parse(OLD, text)).__next__(), moves) == (
        "../proposed/2026-01-01-plugin-api.md#why", ("docs/rfc/proposed/2026-01-01-plugin-api.md", "why"),
    )


@PROPERTY
@given(st.text(alphabet="%2a0GF zé", max_size=12))
def test_unquoted_is_unquote(text: str) -> None:
    assert unquoted(text) == unquote(text)


_SEGMENTS = st.sampled_from(["a", "b", "docs", "x.md", "..", ".", "My File.md", "é.md", "(p).md"])
_PATHS = st.lists(_SEGMENTS, min_size=1, max_size=4).map("/".join)


@PROPERTY
@given(_PATHS, _PATHS)
def test_relative_destination_kept_per_pair_is_computed_anew(from_path: str, to_path: str) -> None:
    first = record_links.relative_destination(from_path, to_path)
    record_links.relative_destination.cache_clear()
    destinations._relpath.cache_clear()
    destinations._folder.cache_clear()
    assert first == encode(relative(from_path, to_path, ""), angle=False, ascii_only=False)


# --------------------------------------------------------------------------- enum members as constants


@pytest.mark.parametrize("kind", list(LinkKind))
def test_link_kind_constants_answer_as_the_members(kind: LinkKind) -> None:
    assert (kind in destinations._BRACKETED) == (kind in (LinkKind.INLINE, LinkKind.IMAGE))
    assert (kind == destinations._IMAGE) == (kind == LinkKind.IMAGE)
    assert (kind in HTML_KINDS) == (kind in (LinkKind.HTML_HREF, LinkKind.HTML_SRC))
    assert (kind == link_urls._AUTOLINK) == (kind == LinkKind.AUTOLINK)
    assert (kind == links_check._REFERENCE) == (kind == LinkKind.REFERENCE)
    assert (kind == prose_ids._INLINE) == (kind == LinkKind.INLINE)
    assert (kind in prose_ids._TITLED) == (kind in (LinkKind.INLINE, LinkKind.REFERENCE))
    # A kind is a StrEnum: its value, as a plain string, is found the same way in either.
    assert (kind.value in HTML_KINDS) == (kind.value in (LinkKind.HTML_HREF, LinkKind.HTML_SRC))


@pytest.mark.parametrize("kind", list(BlockKind))
def test_block_kind_constant_answers_as_the_member(kind: BlockKind) -> None:
    assert (kind != prose_ids._TABLE) == (kind != BlockKind.TABLE)


def test_a_whole_rewrite_is_unchanged_by_the_lean_forms() -> None:
    """One document through the whole rewrite: what the forms above feed, end to end."""
    text = (
        "# ADR 7 and RFC 1\n\nSee ADR 7, RFC 5 pt 2 and [p](001-plugin-api.md#motivation).\n\n"
        "| a | RFC 1 |\n| - | - |\n| <code>ADR 7</code> | [me](#old) |\n"
    )
    out, stats = references.rewrite_document(
        parse(OLD, text), old_path=OLD, new_path=NEW, moves=MOVES, fragments=FRAGMENTS,
        ids=IDS, exists=_EXISTS[0],
    )
    # As main's rewrite wrote it, before the lean forms.
    assert out == (
        "# [ADR 7](2026-01-02-use-postgres.md) and [RFC 1](../proposed/2026-01-01-plugin-api.md)\n\n"
        "See [Use Postgres](2026-01-02-use-postgres.md), [Errors | taxonomy](2026-01-03-errors.md)"
        " and [p](../proposed/2026-01-01-plugin-api.md#why).\n\n"
        "| a | [Plugin `API` \\[v1\\]](../proposed/2026-01-01-plugin-api.md) |\n| - | - |\n"
        "| <code>ADR 7</code> | [me](#new) |\n"
    )
    assert stats == references.RewriteStats(links=2, refs=5, unresolved=())


def _escape_as_it_was(text: str, specials: str) -> str:
    return "".join(("&#124;" if c == "|" else f"\\{c}") if c in specials else c for c in text)


@PROPERTY
@given(st.text(alphabet="ab[]|`\\ é", max_size=16), st.sampled_from(["[]", "[]|"]))
def test_escape_is_as_it_was(text: str, specials: str) -> None:
    assert record_links._escape(text, specials) == _escape_as_it_was(text, specials)


_PARTS = st.lists(st.sampled_from(["a", "docs", "x.md", "", ".", "..", "...", ".a", "a."]), max_size=5)


@PROPERTY
@given(_PARTS.map("/".join))
def test_normal_is_normpath(path: str) -> None:
    assert destinations._normal(path) == posixpath.normpath(path)


def test_normal_examples() -> None:
    for path in ["", ".", "a//b", "/a", "a/", "a/./b", "a/../b", "../a", "docs/rfc/x.md", ".a/b.", "..."]:
        assert destinations._normal(path) == posixpath.normpath(path)
