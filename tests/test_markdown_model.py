"""The document model: decoding, positions, slugs, and what counts as a link."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.model import BlockKind, LinkKind
from docsync.parse import slugs
from docsync.parse.native import parse, parse_bytes
from docsync.parse.slugs import slugify, unique_slugs
from docsync.parse.source import SourceError, decode


@pytest.mark.parametrize(
    ("data", "text", "newline", "bom"),
    [
        (b"a\nb\n", "a\nb\n", "\n", False),
        (b"a\r\nb\r\n", "a\nb\n", "\r\n", False),
        (b"\xef\xbb\xbf# T\n", "# T\n", "\n", True),
    ],
)
def test_decode(data: bytes, text: str, newline: str, bom: bool) -> None:
    assert decode(data) == (text, newline, bom)


@pytest.mark.parametrize(
    ("data", "rule", "line", "column"),
    [(b"ok\ncaf\xe9\n", "F001", 2, 4), (b"a\nb\x00", "F002", 2, 1)],
)
def test_decode_errors(data: bytes, rule: str, line: int, column: int) -> None:
    with pytest.raises(SourceError) as caught:
        decode(data)
    assert (caught.value.rule, caught.value.line, caught.value.column) == (rule, line, column)


@pytest.mark.parametrize(
    ("heading", "slug"),
    [
        ("a - b", "a---b"),
        ("🚀 Quick start", "-quick-start"),
        ("Installation 📦", "installation-"),
        ("🛠️ Development", "\ufe0f-development"),
        ("Café Menu", "café-menu"),
        ("x²", "x"),
        ("a\tb", "ab"),
        ("a\u00a0b", "ab"),
        ("Über_alles", "über_alles"),
        ("C++ & Rust!", "c--rust"),
    ],
)
def test_slugify(heading: str, slug: str) -> None:
    assert slugify(heading) == slug


def test_unique_slugs_skip_taken() -> None:
    assert unique_slugs(["echo", "echo", "echo 1", "echo-1"]) == ["echo", "echo-1", "echo-1-1", "echo-1-2"]


@pytest.mark.parametrize(
    ("source", "slug"),
    [
        ("## The `--force` flag", "the---force-flag"),
        ("## __init__ method", "init-method"),
        ("## See [the docs](x.md)", "see-the-docs"),
        ("## ![logo](x.png) Project", "-project"),
        ("## Press <kbd>Ctrl</kbd>+C", "press-ctrlc"),
        ("## Caf&eacute;", "café"),
        ("## Hi :smile:", "hi-smile"),
        ("## Title {#custom}", "title-custom"),
        ("Foo\nbar\n===", "foobar"),
        ("## Closing ##", "closing"),
        ("## a \\* b", "a--b"),
    ],
)
def test_heading_slugs_from_rendered_text(source: str, slug: str) -> None:
    (heading,) = parse("x.md", source + "\n").headings
    assert heading.slug == slug


def test_headings_in_code_and_html_do_not_count() -> None:
    doc = parse("x.md", "```\n# no\n```\n\n<div>\n# no\n</div>\n\n    # no\n")
    assert doc.headings == ()


def test_positions_on_continuation_lines_and_containers() -> None:
    text = "> quote line\n> with [a](one.md) and\n\n- item\n  more [b](<two words.md>)\n\n| x | [c](three.md) |\n|---|---|\n"
    doc = parse("x.md", text)
    got = [(link.destination, link.line, link.column) for link in doc.links]
    assert got == [("one.md", 2, 8), ("two words.md", 5, 8), ("three.md", 7, 7)]
    for link in doc.links:
        assert link.dest_span is not None
        assert text[link.dest_span.start : link.dest_span.end] == link.destination


def test_kinds_of_links() -> None:
    text = (
        "[i](a.md) ![m](b.png) [r][ref] <https://x.invalid> "
        '<a href="c.md">h</a> <img src="d.png">\n\n[ref]: e.md\n'
    )
    doc = parse("x.md", text)
    assert [(link.kind, link.destination) for link in doc.links] == [
        (LinkKind.INLINE, "a.md"),
        (LinkKind.IMAGE, "b.png"),
        (LinkKind.REFERENCE, ""),
        (LinkKind.AUTOLINK, "https://x.invalid"),
        (LinkKind.HTML_HREF, "c.md"),
        (LinkKind.HTML_SRC, "d.png"),
    ]
    (definition,) = doc.definitions
    assert (definition.destination, definition.line, definition.column) == ("e.md", 3, 1)
    assert doc.used_labels == {"REF"}


def test_nothing_in_code_is_a_link() -> None:
    doc = parse("x.md", "`[a](b.md)`\n\n```\n[c](d.md)\n```\n\n    [e](f.md)\n\n<!-- [g](h.md) -->\n")
    assert doc.links == ()
    assert len(doc.code_spans) == 1


def test_blocks_and_paragraphs() -> None:
    text = "---\ntitle: x\n---\n\n# H\n\npara one\nline two\n\n```\ncode\n```\n\n| a |\n|---|\n| b |\n\n<div>\nx\n</div>\n"
    doc = parse("x.md", text)
    kinds = [(b.kind, b.lines.first, b.lines.last) for b in doc.blocks]
    assert kinds == [
        (BlockKind.FRONT_MATTER, 1, 3),
        (BlockKind.HEADING, 5, 5),
        (BlockKind.FENCE, 10, 12),
        (BlockKind.TABLE, 14, 16),
        (BlockKind.HTML, 18, 20),
    ]
    (paragraph,) = doc.paragraphs
    assert (paragraph.lines.first, paragraph.lines.last) == (7, 8)
    assert [text[s.start : s.end] for s in paragraph.line_spans] == ["para one", "line two"]


def test_explicit_anchors_only_a_name_and_id() -> None:
    doc = parse("x.md", '<a name="one"></a> <a id="two">x</a> <span id="three"></span>\n\n<div id="four"></div>\n')
    assert [a.name for a in doc.anchors] == ["one", "two"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab# \n[]()<>`*_-!:|\\&;.\u00e9\U0001f680\r\t")), max_size=200))
def test_parse_never_raises_and_spans_are_in_bounds(text: str) -> None:
    doc = parse_bytes("x.md", text.encode("utf-8"))
    for link in doc.links:
        assert 0 <= link.span.start <= link.span.end <= len(doc.text)
        assert 1 <= link.line <= doc.line_count
        if link.dest_span is not None:
            assert 0 <= link.dest_span.start <= link.dest_span.end <= len(doc.text)


def test_ascii_slugs_keep_what_the_unicode_categories_keep() -> None:
    every = "".join(chr(i) for i in range(128))
    by_category = "".join(c for c in every.lower() if slugs._kept(c)).replace(" ", "-")
    assert slugs.slugify(every) == by_category
    assert slugs.slugify("Hello, World_2 -- x") == "hello-world_2----x"


def test_positions_in_table_cells_with_escaped_pipes() -> None:
    # GFM reads `\|` in a cell as `|`; positions must still point into the source.
    text = "| a \\| [x](y.md) | [z](w.md) |\n|---|---|\n| `a\\|b` [q](r.md) | [x](y.md) |\n"
    doc = parse("x.md", text)
    assert [(link.destination, link.line, link.column) for link in doc.links] == [
        ("y.md", 1, 8),
        ("w.md", 1, 20),
        ("r.md", 3, 10),
        ("y.md", 3, 22),
    ]
    for link in doc.links:
        assert text[link.span.start] == "["
        assert link.dest_span is not None
        assert text[link.dest_span.start : link.dest_span.end] == link.destination
    assert [text[s.start : s.end] for s in doc.code_spans] == ["`a\\|b`"]
