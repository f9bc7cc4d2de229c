"""A record's text under its new header is parsed from its source's parse, and that is the parse.

:func:`docsync.parse.reheaded.reheaded` makes the document of ``head +
text[start:]`` from the parse of ``text``: the head parsed alone, the
tail's model moved. Wherever it returns a document, it is
:func:`docsync.parse.markdown.parse`'s of the new text: on every case file at
every line a part may start on, under heads with front matter, links and
brackets; on generated records (front matter, titles, every status form,
bodies of every line start and inline construct: links, ids, reference
definitions, footnotes, headings, HTML); and on the records of the migration
tests, as :func:`docsync.migrate.rewrite.assemble.assemble` joins them. It returns
None (and the caller parses) where the text before ``start`` or the head can
reach past a blank line, or names what the tail defines.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from docsync.migrate.rewrite.assemble import assemble, parse_joined, sole_source
from docsync.migrate.rewrite.changes import _taken
from docsync.parse import chunks, markdown
from docsync.parse.reheaded import reheaded
from tests import migrate_repos, test_migrate_plan
from tests.migrate_memory import inputs, plan_of
from tests.test_fast_paths import CASES, INLINE, LINE_STARTS
from tests.test_migrate_properties import FORMS, STATUSES

HEADS = [
    "# Title\n\nStatus: accepted\n\n",
    "---\nstatus: accepted\ntags: [a, b]\n---\n# Title\n\nStatus: accepted\n\n",
    "# Title\n\nStatus: superseded (by [ADR 2](0002-b.md))\n\n",
    "# Title\n\nStatus: see [ref] and [x][ref]\n\n",
    "# Title\n\nStatus: a note[^1]\n\n",
    "# Title\n\nStatus: ok\n",  # no blank line at its end
    "# Title\nStatus: ok\n===\n\n",
]


def _same_or_none(text: str, start: int, head: str) -> bool:
    """Whether :func:`reheaded` made a document; when it did, it is the parse."""
    found = reheaded(markdown.parse("a/doc.md", text), start, head, "a/doc.md")
    if found is not None:
        assert found == markdown.parse("a/doc.md", head + text[start:]), (text, start, head)
    return found is not None


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_case_files_under_new_heads(case: Path) -> None:
    text, _, _ = markdown.decode(case.read_bytes())
    for start in chunks.possible_starts(text):
        for head in HEADS:
            _same_or_none(text, start, head)


def test_most_case_files_take_a_new_head_somewhere() -> None:
    """The case-file proof is not vacuous."""
    taken = [
        case for case in CASES
        for text in [markdown.decode(case.read_bytes())[0]]
        if any(_same_or_none(text, start, HEADS[0]) for start in chunks.possible_starts(text))
    ]
    assert len(taken) >= 60, len(taken)


# What stands before the body in a source, and whether the body's model may be moved.
BEFORE = {
    "# Title\n\nStatus: accepted\n\n": True,
    "---\nstatus: accepted\n---\n# Title\n\n": True,
    "# Title\n\n## Status\n\nAccepted\n\n": True,
    "# Title\n\n| Status | x |\n| --- | --- |\n\n": True,
    "# Title\n\n[ref]: elsewhere.md\n\n": False,  # a definition: state the body reads
    "# Title\n\nA note[^1].\n\n": False,  # a footnote reference: its id is the page's
    "# Title\n\n```\nunclosed\n\n": False,
    "# Title\n\n- item\n\n": False,  # a list takes the blank line
    "# Title\n\n<!-- open\n\n": False,
    "# Title\n\n::: tip\n\n": False,
}
BODY = "Body [a](a.md), [r][ref] and ADR 0002.\n\n## Decision\n\nText[^1].\n\n[ref]: b.md\n[^1]: Note.\n"


@pytest.mark.parametrize("before", sorted(BEFORE))
def test_what_stands_before_the_body(before: str) -> None:
    for head in HEADS:
        taken = _same_or_none(before + BODY, len(before), head)
        expected = BEFORE[before] and head.endswith("\n\n") and "[^" not in head and "[" not in head
        assert taken is expected, (before, head)


def test_a_body_after_a_blank_line_that_starts_a_list_or_code_is_parsed() -> None:
    for body in ["- item\n", "    code\n", "1. one\n", "\n\ntext\n"]:
        assert not _same_or_none("# T\n\n" + body, 6, HEADS[0]), body


# --------------------------------------------------------------------------- generated records

WORDS = st.sampled_from(["alpha", "beta", "ADR 0002", "RFC 7", "ADR-0003", "gamma delta"])
INLINES = st.sampled_from([*INLINE, "[x][ref]", "[ref][]", "[^1]", "^[inline]", "<a id=\"x\">a</a>"])
LINES = st.tuples(st.sampled_from(LINE_STARTS), st.lists(st.one_of(WORDS, INLINES), max_size=4)).map(
    lambda line: line[0] + " ".join(line[1])
)
BLOCKS = st.one_of(
    st.lists(LINES, min_size=1, max_size=3).map("\n".join),
    st.sampled_from([
        "## Context", "## Decision", "### Status", "Setext\n---", "[ref]: b.md", "[ref]: <c d.md> \"t\"",
        "[^1]: A note.", "```\ncode [a](a.md)\n```", "<div>\n\n[a](a.md)\n</div>", "| a | [b](b.md) |\n|---|---|",
        "> quote [a](a.md)", "- item [a](a.md)\n- more", "$$\nx\n$$", "::: tip\n[a](a.md)\n:::",
    ]),
)
FRONT = st.sampled_from(["", "---\nstatus: accepted\n---\n", "---\ntitle: x\nsee: 0002-b.md\n---\n"])


@st.composite
def records(draw: st.DrawFn) -> str:
    status = draw(st.sampled_from(FORMS)).format(draw(st.sampled_from(STATUSES)))
    title = draw(st.sampled_from(["Use Postgres", "Plugin API (v2)", "Caching: why", "A [linked] title"]))
    blocks = draw(st.lists(st.tuples(BLOCKS, st.sampled_from(["\n\n", "\n", "\n\n\n"])), max_size=8))
    body = "".join(b + gap for b, gap in blocks)
    if draw(st.booleans()):
        body = body.rstrip("\n") + "\n"  # as most files end: what a moved tail needs
    return f"{draw(FRONT)}# ADR 0001: {title}\n\n{status}\n" + body


def _joined_the_same(files: Mapping[str, str]) -> int:
    """Each topic's joined text, parsed as :func:`assemble` parses it, is the parse;
    how many were made from their source's parse."""
    given = inputs(files)
    plan = plan_of(files)
    taken, moved = _taken(plan), 0
    for topic in plan.topics:
        assembled = assemble(topic, given.records, taken)
        source = sole_source(topic, given.records)
        assert assembled.parsed == markdown.parse("topic.md", assembled.text), topic.slug
        tail = assembled.chunks[-1].text
        if source is not None and tail.strip("\n") and source.text.endswith(tail):
            head = assembled.text[: len(assembled.text) - len(tail)]
            moved += reheaded(source, len(source.text) - len(tail), head, "topic.md") is not None
        for path in ("topic.md", topic.parts[0].path if topic.parts else "x.md"):
            assert parse_joined(path, assembled.text, source, tail) == markdown.parse(path, assembled.text)
    return moved


@settings(max_examples=200, deadline=None)
@given(records())
@example("# ADR 0001: X\n\nStatus: accepted\n[x]: https://example.com\n\n## [Foo][x]\n\nText.\n")
@example("---\nstatus: accepted\n---\n# ADR 0001: X\n\n[^1]\n\n[^1]: note\n")
def test_generated_records_join_to_their_parse(text: str) -> None:
    _joined_the_same({"docs/adr/0001-x.md": text})


def test_the_migration_tests_records_join_to_their_parse() -> None:
    tables = [migrate_repos.FILES_A, migrate_repos.FILES_B, test_migrate_plan.PAIR, test_migrate_plan.UMBRELLA]
    moved = sum(_joined_the_same(files) for files in tables)
    assert moved >= 5, moved  # not vacuous: most of those records are one whole source


PLAIN = st.text(alphabet="abcXYZ019 ,.;'?()/+=%-", min_size=1, max_size=30)


@settings(max_examples=300, deadline=None)
@given(PLAIN, PLAIN)
@example("Plugin API (v2)", "superseded (by ADR 0002)")
@example("a", "b  c")
@example("x-", "y ")
def test_a_plain_header_is_built_as_the_parse_makes_it(title: str, status: str) -> None:
    """The header built without a parse, where it may be, is the parse's; others are parsed."""
    body = "## Context\n\nText [a](a.md), [r][ref].\n\n[ref]: b.md\n"
    source = f"# {title}\n\nStatus: {status}\n\n{body}"
    start = len(source) - len(body)
    for head in (f"# {title}\n\nStatus: {status}\n\n", f"# {status}\n\nStatus: {title}\n\n"):
        found = reheaded(markdown.parse("a/doc.md", source), start, head, "a/doc.md")
        if found is not None:
            assert found == markdown.parse("a/doc.md", head + body)


def test_the_usual_record_is_made_without_a_parse_and_is_the_parse() -> None:
    source = "# ADR 0001: Use Postgres\n\nStatus: Accepted\n\n## Context\n\nSee [b](0002-b.md) and ADR 0002.\n"
    head = "# Use Postgres\n\nStatus: accepted (by ADR 0002)\n\n"
    start = source.index("## Context")
    found = reheaded(markdown.parse("docs/adr/0001-a.md", source), start, head, "docs/adr/0001-a.md")
    assert found == markdown.parse("docs/adr/0001-a.md", head + source[start:])
