"""The native parse against GitHub's rendering, and the differences adjudicated.

``docsync.parse.native`` builds the model from pulldown-cmark's events (through
pyromark); GitHub renders with cmark-gfm. Every link the model reads must be a
link on GitHub's page, with the same destination, and every link on the page
must be one the model reads: checked here on every case file of the repository
and on a table of the shapes where the native parse and the old markdown-it
model disagreed, each adjudicated by what cmark-gfm renders (the hrefs and ids
in its HTML are the truth). Where the two parsers themselves disagree,
``parse.native`` writes the text the way both read alike (a closing fence
followed by a tab) and the table holds the case.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import quote, unquote

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options

from docsync.model import HTML_KINDS, BlockKind, Document, LinkKind
from docsync.parse.native import parse

HERE = Path(__file__).resolve().parent
CASE_FILES = sorted(
    [
        *HERE.glob("cases/links/*.md"),
        *HERE.glob("cases/wrap/*.md"),
        *HERE.glob("golden/wrap/cases/*.md"),
    ]
)

_HREF = re.compile(r"<a href=\"([^\"]*)\"|<img src=\"([^\"]*)\"")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
# what cmark's href escaping leaves as it is
_SAFE = "-_.+!*'(),%#@?=;:/&$~"


def github_hrefs(text: str, formulas: tuple[str, ...] = ()) -> list[str]:
    """The destination of every link and image on GitHub's page of ``text``.

    Left out: footnote references; bare URLs, which GitHub's autolink extension
    links and the model does not read (they are external, which the links gate
    never checks), so that extension is off here; and what GitHub renders as TeX
    after cmark-gfm: a destination written inside one of ``formulas``."""
    extensions = ["table", "strikethrough", "tagfilter", "tasklist"]
    page = cmarkgfm.markdown_to_html_with_extensions(
        text, options=Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES, extensions=extensions
    )
    page = re.sub(r"<a href=\"#fn[^\"]*\"[^>]*>", "", page)
    found = [html.unescape(a or b) for a, b in _HREF.findall(page)]
    return sorted(href for href in found if not any(href and unquote(href) in formula for formula in formulas))


def _as_href(destination: str) -> str:
    """A Markdown destination as cmark writes it into the page."""
    return quote(html.unescape(_ESCAPED.sub(r"\1", destination)), safe=_SAFE)


def model_hrefs(doc: Document) -> list[str]:
    """The destination of every Markdown link and image the model reads."""
    defined: dict[str, str] = {}
    for definition in doc.definitions:
        defined.setdefault(definition.normalized_label, definition.destination)
    found: list[str] = []
    for link in doc.links:
        if link.kind in HTML_KINDS:
            continue
        if link.kind == LinkKind.AUTOLINK:
            scheme = re.match(r"[A-Za-z][A-Za-z0-9+.-]{1,31}:", link.destination)
            found.append(_as_href(link.destination if scheme else "mailto:" + link.destination))
        elif link.label is not None:
            found.append(_as_href(defined.get(link.label, "")))
        else:
            found.append(_as_href(link.destination))
    return sorted(found)


def _without_raw_html(text: str) -> bool:
    """Whether ``text`` has no raw ``<a href>`` or ``<img src>`` (whose attributes
    cmark-gfm passes through as written, so that they read as links here)."""
    return re.search(r"<(a|img)\s", text, re.IGNORECASE) is None


# Raw HTML's links are read from its attributes (cmark-gfm passes them through as
# written), so the case files that hold one are compared without it: not here.
MARKDOWN_LINK_CASES = [case for case in CASE_FILES if _without_raw_html(case.read_text(encoding="utf-8"))]


def test_most_case_files_are_compared() -> None:
    assert len(MARKDOWN_LINK_CASES) >= 100 and len(MARKDOWN_LINK_CASES) >= len(CASE_FILES) - 10


@pytest.mark.parametrize("case", MARKDOWN_LINK_CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_link_of_a_case_file_is_githubs(case: Path) -> None:
    text = case.read_text(encoding="utf-8")
    doc = parse(case.name, text)
    formulas = tuple(text[span.start : span.end] for span in doc.math_spans) + tuple(
        "\n".join(doc.line_text(n) for n in range(b.lines.first, b.lines.last + 1))
        for b in doc.blocks
        if b.kind == BlockKind.MATH
    )
    assert model_hrefs(doc) == github_hrefs(text, formulas)


# (name, Markdown, the links GitHub renders, and what the model must hold besides)
ADJUDICATED: list[tuple[str, str, list[str]]] = [
    # issue #36 item 7: no inline link (its destination has spaces); the shortcut reference is one
    ("invalid inline, then a definition", "[y](not the initial PR)\n\n[y]: https://example.com\n",
     ["https://example.com"]),
    # issue #36 item 8: an unused definition renders no link
    ("unused definition", "Text.\n\n[u]: missing.md\n", []),
    # issue #36 item 9: a definition inside a list item defines the label for the page
    ("definition in a list item", "* [x]: target.md\n\nAsk [x].\n", ["target.md"]),
    # pulldown-cmark 0.13 reads a closing fence followed by a tab as code; cmark-gfm closes it
    ("fence closed with a tab", "```\ncode\n```\t\n\nSee [gone](nope.md).\n", ["nope.md"]),
    # markdown-it's front matter plugin took any dash line; GitHub: a rule and a setext heading
    ("dashes are no front matter", "----------\nname: x\n----------\n\n[self](#name-x)\n", ["#name-x"]),
    # an admonition body after a blank line is an indented code block on GitHub
    ("admonition body is code", "!!! note\n\n    See [gone](nope.md).\n", []),
    # markdown-it dropped an empty destination; cmark-gfm renders href=""
    ("empty destination", "[empty]()\n", [""]),
    # a tight list item's text: a paragraph to the model though no event says so
    ("tight list", "- [a](a.md)\n- b [c](c.md)\n  more\n", ["a.md", "c.md"]),
    # pulldown-cmark's range of a collapsed reference stops before its "[]"
    ("collapsed reference", "[lbl][]\n\n[lbl]: x.md\n", ["x.md"]),
    # a link inside an image's alt text is no link
    ("link in image alt", "![a [b](c.md)](d.png)\n", ["d.png"]),
    # byte ranges of text that is not ASCII
    ("non-ASCII offsets", "Héllo wörld [é](é.md) and [b](b.md)\n", ["%C3%A9.md", "b.md"]),
    # a link across lines in a list item: its text is the source's
    ("multi-line link text", "- [a\n  b](x.md)\n", ["x.md"]),
    ("definition in a block quote", "> [q]: q.md\n\nSee [q].\n", ["q.md"]),
    ("reference image", "![alt][i]\n\n[i]: i.png\n", ["i.png"]),
]


@pytest.mark.parametrize(("name", "text", "links"), ADJUDICATED, ids=[row[0] for row in ADJUDICATED])
def test_an_adjudicated_difference(name: str, text: str, links: list[str]) -> None:
    assert github_hrefs(text) == sorted(links), "the table must say what GitHub renders"
    assert model_hrefs(parse("doc.md", text)) == sorted(links)


def test_a_collapsed_reference_spans_its_brackets() -> None:
    doc = parse("doc.md", "[lbl][]\n\n[lbl]: x.md\n")
    assert [(link.span.start, link.span.end, link.text) for link in doc.links] == [(0, 7, "lbl")]


def test_a_multi_line_link_text_is_the_source() -> None:
    text = "- [a\n  b](x.md)\n"
    (link,) = parse("doc.md", text).links
    assert link.text_span is not None and text[link.text_span.start : link.text_span.end] == link.text == "a\n  b"
    assert link.dest_span is not None and text[link.dest_span.start : link.dest_span.end] == "x.md"


def test_non_ascii_positions_are_characters() -> None:
    text = "# Ünïcödé\n\nHéllo [é](é.md)\n"
    doc = parse("doc.md", text)
    (link,) = doc.links
    assert link.dest_span is not None and text[link.dest_span.start : link.dest_span.end] == "é.md"
    assert (link.line, link.column) == (3, 7)
    assert doc.headings[0].slug == "ünïcödé"


def test_dashes_make_a_heading_and_a_paragraph_not_front_matter() -> None:
    doc = parse("doc.md", "----------\nname: x\n----------\n\ntext\n")
    assert [h.slug for h in doc.headings] == ["name-x"]
    assert BlockKind.FRONT_MATTER not in {b.kind for b in doc.blocks}
    real = parse("doc.md", "---\nname: x\n---\n\ntext\n")
    assert [b.kind for b in real.blocks] == [BlockKind.FRONT_MATTER] and not real.headings


@pytest.mark.parametrize(
    ("text", "standalone"),
    [
        ("::: tip\nBody.\n:::\n", [(1, 1), (3, 3)]),
        ("!!! note \"Title\"\n    Body.\n", [(1, 1)]),
        ("Before.\n{{< figure src=\"x\" >}}\nAfter.\n", [(2, 2)]),
        ("{{< cover\ntitle=\"x\"\n>}}\n\nText.\n", [(1, 3)]),
        ("> [!NOTE]\n> Body.\n", [(1, 1)]),
        ("Text\n[[_TOC_]]\nmore.\n", [(2, 2)]),
        ("???: not an admonition\n", []),
    ],
)
def test_docs_site_lines_stand_alone(text: str, standalone: list[tuple[int, int]]) -> None:
    doc = parse("doc.md", text)
    lines = [(b.lines.first, b.lines.last) for b in doc.blocks if b.kind == BlockKind.STANDALONE]
    assert lines == standalone
    kept = {line for first, last in standalone for line in range(first, last + 1)}
    assert not any(p.lines.first <= line <= p.lines.last for p in doc.paragraphs for line in kept)


def test_display_math_is_a_block_and_inline_math_is_protected() -> None:
    doc = parse("doc.md", "$$\nx^2\n$$\n\nThe $a_b$ here.\n")
    assert [b.kind for b in doc.blocks] == [BlockKind.MATH]
    (paragraph,) = doc.paragraphs
    assert paragraph.protected == doc.math_spans and len(doc.math_spans) == 1
