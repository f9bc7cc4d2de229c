"""The per-file rewrite's fast forms give exactly what the forms they replace give.

- ``render._cmark`` calls cmark-gfm with the five GFM extensions found once,
  not by name on every page as the binding's wrapper does;
- ``render.github_structure`` reads the tags with ``findall`` and skips the
  attribute substitutions for a tag without attributes;
- ``prose_ids._prose_mentions`` reads only the prose regions that hold one of
  the id table's kinds as written;
- ``ids.id_matches`` tries the id pattern only where one of its kinds begins,
  not at every position as the search does;
- ``migrate.relations._Reader`` reads only the paragraphs whose text holds the
  first word of a relation phrase (ASCII text and phrases; any other is read).

Each is held here to the plain form, written out again as it was.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.config import DEFAULT_RELATIONS
from docsync.migrate.read import relations as relations_module
from docsync.model import Document
from docsync.parse import render
from docsync.parse.markdown import math_signature
from docsync.parse.native import parse
from docsync.records.model import IdTarget
from docsync.records.relations import Phrases
from docsync.rewrite import prose_ids
from docsync.rewrite.ids import (
    IdKey,
    compound,
    id_kinds,
    id_matches,
    id_pattern,
    mentions,
    prose_id_pattern,
)
from tests.test_rewrite_properties import IDS, documents
from tests.test_rewrite_shortcuts import texts

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_MARKDOWN = [
    "[a](x.md)", "[b](<y z.md> \"t\")", "<a href=\"x.md\">x</a>", "<A HREF='q'>Q</A>",
    "<a name=\"n\">", "</a>", "<img src=\"i.png\" alt=\"i\">", "<abbr title=\"t\">T</abbr>",
    "<div  id=\"d\"\n  class=\"c\">", "</div>", "<span data-x=\"1\" href=\"h\">s</span>",
    "![im](p.png)", "[r]: r.md", "[r]", "<https://x.org>", "www.example.com", "| a | b |",
    "| --- | --- |", "> [!NOTE]", "> q", "- [ ] t", "1. n", "# H", "`c`", "```\n<a>\n```",
    "$x$", "$$\ny\n$$", "~~s~~", "text[^1]", "[^1]: f", "*e*", "<!-- c -->", "<a><a>x</a>",
    "<br/>", "\n", "\n\n", " ", "word", "é",
]
markdown_texts = st.lists(st.sampled_from(_MARKDOWN), max_size=14).map(" ".join)


@PROPERTY
@given(st.one_of(markdown_texts, st.text(max_size=60)))
def test_cmark_with_extensions_found_once_is_the_bindings_wrapper(text: str) -> None:
    assert render._cmark(text) == render._library_cmark(text)


_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)([^>]*)>")
_LINK_ATTRS = re.compile(r'\s(?:href|src)="[^"]*"')
_SPACE = re.compile(r"\s+")


def _structure_as_it_was(text: str) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    tags: list[str] = []
    depth = 0
    for match in _TAG.finditer(render.github_html(text)):
        closing, name, attrs = match.groups()
        if name.lower() == "a":
            depth = max(0, depth - 1) if closing else depth + 1
        elif not depth:
            tags.append(f"<{closing}{name}{_SPACE.sub(' ', _LINK_ATTRS.sub('', attrs))}>")
    return tuple(tags), math_signature(text)


@PROPERTY
@given(st.one_of(markdown_texts, st.text(max_size=60)))
def test_github_structure_is_the_tag_loop_it_replaces(text: str) -> None:
    assert render.github_structure(text) == _structure_as_it_was(text)


def test_github_structure_examples() -> None:
    text = '<A HREF="x">in <b>link</b></A> <abbr title="t">T</abbr> <div  id="d"\n  class="c" src="s">\n'
    assert render.github_structure(text) == _structure_as_it_was(text)
    tags = render.github_structure(text)[0]
    assert "<b>" not in tags  # inside a link, even an upper-case one
    assert '<abbr title="t">' in tags
    assert any(t.startswith('<div id="user-content-d" class="c"') for t in tags)


def _mentions_as_they_were(
    doc: Document, ids: Mapping[IdKey, IdTarget], own: str
) -> Iterator[tuple[object, object]]:
    if not ids:
        return
    by_line = prose_ids._spans_by_line(doc)
    pattern = prose_id_pattern(id_kinds(ids))
    for region in prose_ids.prose_regions(doc):
        excluded = prose_ids._excluded(doc, region.span, by_line)
        for free in prose_ids._free(region.span, excluded):
            for mention in mentions(doc.text, free.start, free.end, ids, pattern):
                for each in [mention, *compound(doc.text, mention, free.end, ids, pattern)]:
                    if not region.heading or each.target is None or each.target.path != own:
                        yield region, each


_OWN = [IDS[("ADR", 7, None)].path, "docs/rfc/a.md"]
# Kinds that overlap and one the texts never hold, beside the table the texts are written for.
_TABLES: list[dict[IdKey, IdTarget]] = [
    IDS,
    {},
    {**IDS, ("AD", 7, None): IdTarget("docs/x.md", "X"), ("DR", 1, None): IdTarget("docs/y.md", "Y")},
    {("PEP", 8, None): IdTarget("docs/p.md", "P")},
]


@PROPERTY
@given(st.one_of(texts, documents), st.sampled_from(_OWN), st.sampled_from(_TABLES))
def test_prose_mentions_read_only_where_a_kind_is_as_every_region_read(
    text: str, own: str, ids: dict[IdKey, IdTarget]
) -> None:
    doc = parse("docs/adr/0001-x.md", text)
    assert list(prose_ids._prose_mentions(doc, ids, own)) == list(_mentions_as_they_were(doc, ids, own))


def test_prose_mentions_examples() -> None:
    text = "# ADR 7\n\nplain line\nsee ADR 7 and 5\n\n| a | RFC 5 pt 2 |\n| - | - |\n| RFC 1 | x |\n"
    doc = parse("docs/adr/0001-x.md", text)
    for own in _OWN:
        fast = list(prose_ids._prose_mentions(doc, IDS, own))
        assert fast == list(_mentions_as_they_were(doc, IDS, own))
    # Paragraph lines, then headings (the record's own id left there), then table rows.
    written = [m.written for _, m in prose_ids._prose_mentions(doc, IDS, "docs/rfc/a.md")]
    assert written == ["ADR 7", "ADR 7", "RFC 5 pt 2", "RFC 1"]
    own = [m.written for _, m in prose_ids._prose_mentions(doc, IDS, IDS[("ADR", 7, None)].path)]
    assert own == ["ADR 7", "RFC 5 pt 2", "RFC 1"]


@PROPERTY
@given(st.one_of(texts, documents))
def test_table_rows_are_the_regions_marked_table(text: str) -> None:
    doc = parse("docs/adr/0001-x.md", text)
    assert list(prose_ids._table_rows(doc)) == [r for r in prose_ids.prose_regions(doc) if r.table]


# --------------------------------------------------------------------------- relations

_RECORDS = {"docs/adr/0003-c.md": "C", "docs/adr/0005-e.md": "E"}
_RELATION_IDS: dict[IdKey, IdTarget] = {
    ("ADR", 3, None): IdTarget("docs/adr/0003-c.md", "C"),
    ("ADR", 5, None): IdTarget("docs/adr/0005-e.md", "E"),
}
_RELATION_PIECES = [
    "Superseded by", "superseded  BY", "SUPERSEDES", "**Amends:**", "_amended by_", "Status:",
    "[ADR 3](0003-c.md)", "[E](0005-e.md)", "ADR 3", "ADR 99", "in part", "partly", "x_Amends",
    "\u017fupersedes", "\u212amends", "Ämends", "`amends`", "words", "> ", "- ", "\n", "\n\n", " ",
]
relation_texts = st.lists(st.sampled_from(_RELATION_PIECES), min_size=1, max_size=14).map(" ".join)
_CONFIGURED = [
    dict(DEFAULT_RELATIONS),
    {**DEFAULT_RELATIONS, "extends": "extended by", "überholt": "überholt von"},
]


def _both_ways(text: str, pairs: Mapping[str, str]) -> tuple[object, object]:
    doc = parse("docs/adr/0001-a.md", text)
    fast = relations_module._Reader(doc, Phrases(pairs), _RECORDS, _RELATION_IDS)
    every_line = relations_module._Reader(doc, Phrases(pairs), _RECORDS, _RELATION_IDS)
    every_line.first_words = None  # the reader's plain form: every paragraph line read
    return fast.reading(), every_line.reading()


@PROPERTY
@given(relation_texts, st.sampled_from(_CONFIGURED))
def test_relation_reading_skips_only_paragraphs_without_a_phrase(text: str, pairs: dict[str, str]) -> None:
    fast, every_line = _both_ways(text, pairs)
    assert fast == every_line


def test_relation_reading_examples() -> None:
    pairs = dict(DEFAULT_RELATIONS)
    for text in [
        "# 1. A\n\nStatus: superseded by [C](0003-c.md)\n\nSupersedes: ADR 99\n",
        "# 1. A\n\nThese were SUPERSEDED BY [E](0005-e.md) in a sentence.\n\nplain\n",
        "# 1. A\n\n\u017fupersedes [C](0003-c.md)\n",  # a long s matches "s" case-blind: not ASCII
    ]:
        fast, every_line = _both_ways(text, pairs)
        assert fast == every_line
    fast, _ = _both_ways("# 1. A\n\n\u017fupersedes [C](0003-c.md)\n", pairs)
    assert fast.notes and "is relation prose" in fast.notes[0]  # read, though not ASCII
    fast, _ = _both_ways("# 1. A\n\nSuperseded by: ADR 99\n\nAmends [C](0003-c.md)\n", pairs)
    assert fast.notes  # a phrase in any case still reads
    assert relations_module._first_words(Phrases({"amends": "amended by"})) == ("amended", "amends")
    assert relations_module._first_words(Phrases({"überholt": "überholt von"})) is None


# --------------------------------------------------------------------------- id matches

_ID_PIECES = [
    "ADR", "ADR 7", "ADR-0007", "ADR7", "AD", "DR 1", "RFC 5 pt 2", "RFC-041/057", "RFC 5-v2",
    "x", "/", ".", "-", "#", " ", "\n", "7", "12", "and", "part", "docs/ADR-7.md", "é", "_",
]
_KIND_SETS = [
    frozenset({"ADR", "RFC"}), frozenset({"AD", "ADR", "DR"}), frozenset({"RFC"}), frozenset(),
]


@PROPERTY
@given(
    st.lists(st.sampled_from(_ID_PIECES), max_size=16).map("".join),
    st.sampled_from(_KIND_SETS),
    st.booleans(),
    st.data(),
)
def test_id_matches_are_the_searchs(text: str, kinds: frozenset[str], prose: bool, data: st.DataObject) -> None:
    pattern = (prose_id_pattern if prose else id_pattern)(kinds)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))

    def found(matches: Iterator[re.Match[str]]) -> list[tuple[tuple[int, int], dict[str, str | None]]]:
        return [(m.span(), m.groupdict()) for m in matches]

    assert found(id_matches(pattern, text, start, end)) == found(pattern.finditer(text, start, end))


def test_id_matches_examples() -> None:
    pattern = prose_id_pattern(frozenset({"AD", "ADR", "DR"}))
    text = "xADR 7, ADR 7 and DR 1; AD 3; ADR-12/ADR 5 docs/ADR-7.md"
    assert [m.group(0) for m in id_matches(pattern, text, 0, len(text))] == ["ADR 7", "DR 1", "AD 3"]
    assert [m.group(0) for m in pattern.finditer(text)] == ["ADR 7", "DR 1", "AD 3"]
    assert [m.span() for m in id_matches(pattern, text, 1, len(text))] == [
        m.span() for m in pattern.finditer(text, 1, len(text))
    ]
    # The look-behind sees the text before the start: "ADR 7" glued to "x" is no id from 1 either.
    assert next(id_matches(pattern, text, 1, 6), None) is None
