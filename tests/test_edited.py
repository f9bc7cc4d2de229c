"""The parse of an edited text, known from the old parse (``parse.edited``), is the parse.

A rewrite of links verifies its result by parsing it; for the edits the
module proves local, the old parse with its offsets moved stands in for
that parse. Each case below says whether the shortcut is taken, and every
result it gives is compared with a real parse of the new text, here and,
through ``conftest``, in every test that rewrites a document.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from docsync.model import Edit, Span, apply_edits
from docsync.parse.edited import edited
from docsync.parse.markdown import parse


def _words(text: str, words: str, link: str) -> Edit:
    start = text.index(words)
    return Edit(Span(start, start + len(words)), link)


def _destination(text: str, old: str, new: str) -> Edit:
    start = text.index(f"({old}") + 1
    return Edit(Span(start, start + len(old)), new)


TABLE = "# ADR 0001\n\n| a | b |\n|---|---|\n| x | y |\n\nText ADR 0001 end.\n"
NESTED = "# T\n\n- item ADR 0001 here\n  more\n\n> quoted ADR 0002.\n"
PARA = "Intro text, see ADR 0001 and [the other](docs/b.md) for more.\n"
# (source, edits, whether the old parse stands in for the new one)
CASES: dict[str, tuple[str, list[Edit], bool]] = {
    "a destination": (PARA, [_destination(PARA, "docs/b.md", "../rfc/b.md#decision")], True),
    "an id linked": (PARA, [_words(PARA, "ADR 0001", "[Use Postgres](rfc/a.md)")], True),
    "both, on one line": (
        PARA,
        [_words(PARA, "ADR 0001", "[Use Postgres](rfc/a.md)"), _destination(PARA, "docs/b.md", "b.md")],
        True,
    ),
    "in a list and a quote": (NESTED, [_words(NESTED, "ADR 0001", "[A](a.md)"), _words(NESTED, "ADR 0002", "[B](b.md)")], True),
    "at a line's start": ("ADR 0001 is first.\nADR 0002\n", [Edit(Span(0, 8), "[A](a.md)")], True),
    "an image's destination": ("See ![shot](img/a.png) here.\n", [_destination("See ![shot](img/a.png) here.\n", "img/a.png", "../img/a.png")], True),
    "after a heading and a table": (TABLE, [Edit(Span(TABLE.rindex("ADR"), TABLE.rindex("ADR") + 8), "[A](a.md)")], True),
    "in a heading": ("# See ADR 0001\n", [Edit(Span(6, 14), "[A](a.md)")], False),
    "in a table cell": ("| ADR 0001 | b |\n|---|---|\n", [Edit(Span(2, 10), "[A](a.md)")], False),
    "in emphasis": ("Text *ADR 0001* end.\n", [Edit(Span(6, 14), "[A](a.md)")], False),
    "after a word": ("TextADR 0001 end.\n", [Edit(Span(4, 12), "[A](a.md)")], False),
    "after a bang": ("Text !ADR 0001 end.\n", [Edit(Span(6, 14), "[A](a.md)")], False),
    "in code": ("Text `ADR 0001` end.\n", [Edit(Span(6, 14), "[A](a.md)")], False),
    "in a link's text": ("Text [ADR 0001](x.md) end.\n", [Edit(Span(6, 14), "[A](a.md)")], False),
    "a title with code": ("Text ADR 0001 end.\n", [Edit(Span(5, 13), "[Use `x`](a.md)")], False),
    "a destination with a space": (PARA, [_destination(PARA, "docs/b.md", "<docs/a b.md>")], False),
    "an angle-bracketed destination": ("See [b](<docs/b.md>).\n", [Edit(Span(9, 18), "b.md")], False),
    "a definition's destination": ("See [b].\n\n[b]: docs/b.md\n", [Edit(Span(15, 24), "b.md")], False),
    "overlapping edits": (PARA, [Edit(Span(16, 24), "[A](a.md)"), Edit(Span(20, 28), "[B](b.md)")], False),
}


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_old_parse_stands_in_only_where_the_edit_is_local(name: str, newline: str) -> None:
    source, edits, local = CASES[name]
    doc = parse("docs/a.md", source, newline)
    text = apply_edits(source, edits) if name != "overlapping edits" else source
    got = edited(doc, "docs/rfc/a.md", text, edits)
    assert (got is not None) == local
    if got is not None:
        assert got == parse("docs/rfc/a.md", text, newline)


_LINES = [
    "plain words ADR 0001 and more",
    "see [x](a.md) and ![i](p.png) here",
    "`code ADR 0002` and *ADR 0003* and **b**",
    "ADR 0004",
    "  indented ADR 0005.",
    "- item ADR 0006",
    "> quote [y](b.md#f) ADR 0007",
    "# Heading ADR 0008",
    "| ADR 0009 | [z](c.md) |",
    "|---|---|",
    "[r]: d.md",
    "text [r] and [s][r] and <b>ADR 0010</b>",
    "$x$ ADR 0011 $y$",
    "ends with two spaces ADR 0012  ",
    "",
    "::: tip",
    ":::",
    "!!! note",
    "    ADR 0013 inside",
    "```",
    "~~ADR 0014~~ (ADR 0015) 'ADR 0016'",
    "\\[ADR 0017]",
]
# Plain ones first and most often: the shortcut is for them, the others must make it step aside.
_TITLES = ["Use Postgres", "A, b.", "Why? 50%", "Use Postgres", "A, b.", "Use `x`", "a_b", "x*y", ""]
_DESTINATIONS = ["rfc/a.md", "../a.md#h", "rfc/a.md", "../a.md#h", "a b.md", "<a.md>", "a(1).md", "", "é.md"]
_WORDS = re.compile(r"ADR \d{4}|plain words|more")


@st.composite
def _edited_documents(draw: st.DrawFn) -> tuple[str, list[Edit]]:
    source = "\n".join(draw(st.lists(st.sampled_from(_LINES), min_size=1, max_size=8))) + "\n"
    doc = parse("docs/a.md", source)
    candidates = [
        Edit(link.dest_span, draw(st.sampled_from(_DESTINATIONS)))
        for link in doc.links
        if link.dest_span is not None
    ]
    candidates += [
        Edit(Span(m.start(), m.end()), f"[{draw(st.sampled_from(_TITLES))}]({draw(st.sampled_from(_DESTINATIONS))})")
        for m in _WORDS.finditer(source)
    ]
    chosen = draw(st.lists(st.sampled_from(candidates), min_size=1, unique=True)) if candidates else []
    kept: list[Edit] = []
    for edit in sorted(chosen, key=lambda e: e.span.start):
        if not kept or kept[-1].span.end <= edit.span.start:
            kept.append(edit)
    return source, kept


@settings(max_examples=400, deadline=None)
@given(_edited_documents())
@example(("plain words ADR 0001 and more\n", [Edit(Span(12, 20), "[Use Postgres](rfc/a.md)")]))
def test_the_old_parse_moved_is_the_new_parse(case: tuple[str, list[Edit]]) -> None:
    source, edits = case
    text = apply_edits(source, edits)
    got = edited(parse("docs/a.md", source), "docs/b.md", text, edits)
    if got is not None:
        assert got == parse("docs/b.md", text)
