"""The one-pass reading of ``wrap = "none"`` answers what the reader answers.

:func:`~docsync.gates.wrap.joined.first_join` decides where a paragraph may
first be joined without building the paragraph's reader; the reference is
:func:`~docsync.gates.wrap.scan.joined_finding`, which does build it (and
which the one-pass reading hands every unusual paragraph to). Both are asked
of every paragraph of every case file of the suite, of this repository's
docs and README, and of generated documents made of what the decision turns
on: line ends inside links, images, code spans and raw HTML, trailing spaces
and backslashes, CJK beside a line end, header fields, container prefixes
with tabs, lazy continuation lines. And the gate's rows under ``"none"`` are
required to be the rows of the path it took before (``document_violations``),
in every scope.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.config import Config
from docsync.gates.wrap.check import rows
from docsync.gates.wrap.joined import first_join
from docsync.gates.wrap.prose import DocumentIndex
from docsync.gates.wrap.scan import joined_finding
from docsync.gates.wrap.violations import document_violations
from docsync.model import Document
from docsync.parse.native import parse
from tests.case_readings import CASE_FILES, ROOT
from tests.test_wrap_properties import DOCUMENTS, TOKENS
from tests.test_wrap_rooms import WIDE_PARAGRAPH_DOCUMENTS, WIDE_WORDS
from tests.test_wrapcount import SCOPES, WIDE_DOCUMENTS


@functools.cache
def _case_documents() -> tuple[Document, ...]:
    return tuple(
        parse(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")) for path in CASE_FILES
    )


def _differences(doc: Document) -> list[str]:
    index = DocumentIndex.of(doc)
    return [
        f"{doc.path}:{para.lines.first}"
        for para in doc.paragraphs
        if para.lines.last > para.lines.first
        and first_join(doc, para, index) != joined_finding(doc, para, index)
    ]


def _reference_rows(doc: Document, config: Config) -> list[tuple[str, int, int, int]]:
    """The rows as :func:`rows` made them before, from ``document_violations``."""
    found = [(v.rule, *doc.position(v.offset), v.measured) for v in document_violations(doc, config)]
    return sorted(found, key=lambda row: (row[1], row[2], row[0]))


def test_case_files_join_where_the_reader_joins() -> None:
    docs = _case_documents()
    assert sum(p.lines.last > p.lines.first for d in docs for p in d.paragraphs) > 150
    assert [where for doc in docs for where in _differences(doc)] == []


@pytest.mark.parametrize("scope", SCOPES, ids=["default", "no-lists", "no-quotes"])
def test_case_files_rows_are_the_former_rows(scope: Config) -> None:
    config = replace(scope, wrap="none")
    assert [d.path for d in _case_documents() if rows(d, config) != _reference_rows(d, config)] == []


JOIN_WORDS = st.one_of(
    WIDE_WORDS,
    TOKENS,
    st.sampled_from(
        [
            "<b\ntitle='a'>", "<!--\nnote -->", "[a](<u\nv>)", "[a](u\n'title\nhere')",
            "``\ncode``", "`a\n\nb`", "word\u3000", "。", "\u3000", "*emph\nasis*",
            "<https://e.com/a\nb>", "[x]\n[y]", "\\", "\\\\\n", "Status:\n", "Note: x\n",
        ]
    ),
)
JOIN_SEPARATORS = st.sampled_from(
    [" ", " ", "\n", "\n", "  \n", "\\\n", " \n", "\t\n", "\n ", "\n\t", "\n   ", "\n> ", "\n- "]
)
PREFIXES = st.sampled_from(
    [
        ("", ""), ("- ", "  "), ("- ", ""), ("> ", "> "), ("> ", ""), ("1. ", "   "),
        ("- > ", "  > "), ("> - ", ">   "), ("-\t", "\t"), ("  - ", "\t"), ("[^1]: ", "    "),
    ]
)


@st.composite
def joined_paragraphs(draw: st.DrawFn) -> str:
    """A paragraph of several lines, made of what the first join turns on."""
    words = draw(st.lists(JOIN_WORDS, min_size=2, max_size=14))
    text = words[0]
    for word in words[1:]:
        text += draw(JOIN_SEPARATORS) + word
    if draw(st.booleans()):
        text = draw(st.sampled_from(["Status: accepted\n", "Date: 2020\nOwner: me\n"])) + text
    prefix, indent = draw(PREFIXES)
    return prefix + text.replace("\n", "\n" + indent)


JOINED_DOCUMENTS = st.lists(joined_paragraphs(), min_size=1, max_size=4).map(
    lambda parts: "\n\n".join(parts) + "\n\n[r]: https://example.com\n\n[^1]: A note.\n"
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(JOINED_DOCUMENTS, WIDE_PARAGRAPH_DOCUMENTS, DOCUMENTS, WIDE_DOCUMENTS))
def test_generated_paragraphs_join_where_the_reader_joins(text: str) -> None:
    assert _differences(parse("generated.md", text)) == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(JOINED_DOCUMENTS, DOCUMENTS), scope=st.sampled_from(SCOPES))
def test_generated_rows_are_the_former_rows(text: str, scope: Config) -> None:
    doc = parse("generated.md", text)
    config = replace(scope, wrap="none")
    assert rows(doc, config) == _reference_rows(doc, config)


def test_the_one_pass_reading_reaches_every_answer() -> None:
    """A join at a line end, at trailing spaces, inside a code span; no join (HTML
    across the line end); doubt (a hard break, a header field); and the reader's
    refusal: else the comparisons above could pass on one kind of answer alone."""
    cases = {
        "one\ntwo\n": [3],
        "one  x \ntwo\n": [6],
        "a `code\nspan` b\n": [7],
        "a <b\ntitle='x'> c\n": [],
        "one  \ntwo\n": None,
        "one\\\ntwo\n": None,
        "中文\n字\n": None,
        "Status: accepted\nDate: 2020\n": None,
    }
    for text, expected in cases.items():
        doc = parse("c.md", text)
        (para,) = doc.paragraphs
        index = DocumentIndex.of(doc)
        assert first_join(doc, para, index) == expected == joined_finding(doc, para, index), text
