"""Property tests of the wrap fixer on generated Markdown.

For every mode: fixing never raises, renders exactly as before, is
idempotent, and leaves the gate reporting nothing outside the paragraphs it
reported as skipped.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.config import Config
from docsync.gates.wrap import check as wrap
from docsync.gates.wrap.fix import fix_document
from docsync.gates.wrap.reading import analyse
from docsync.gates.wrap.violations import may_violate, violations
from docsync.model import Document, Paragraph
from docsync.parse.markdown import render_signature
from docsync.parse.native import parse
from docsync.parse.render import github_rendering

WORDS = st.sampled_from(
    [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "The",
        "It",
        "end.",
        "Done!",
        "why?",
        "e.g.",
        "i.e.",
        "Mr.",
        "3.14",
        "etc.",
        "U.S.",
        "(aside.)",
        '"quoted."',
        "x",
        "a-b",
        "supercalifragilisticexpialidocious",
        "中文",
        "日本語。",
        "한국어",
        "a\u00a0b",
        "\uff21\uff22",
        "e\u0301",
        "&amp;",
        "foo\\",
        "\\",
        "\\\\",
        "*em*",
        "**strong**",
        "~~gone~~",
        "[^1]",
    ]
)
STARTERS = st.sampled_from(
    [
        "#",
        "###",
        "######",
        ">",
        ">=",
        "-",
        "+",
        "*",
        "1.",
        "7.",
        "12)",
        "```",
        "~~~",
        "<div>",
        "</div>",
        "<details>",
        "<!--",
        "-->",
        "<?",
        "<script>",
        "[^1]:",
        "|---|",
        ":--",
        "|",
        "=",
        "==",
        "***",
        "___",
        "---",
        "- - -",
        ":::",
        "::::",
        "!!!",
        "???",
        "???+",
        "$$",
        "{{<",
        "{{%",
        "{%",
        "[[_TOC_]]",
        "[TOC]",
        "[!NOTE]",
        "{{< x >}}",
        "{% endraw %}",
    ]
)
INLINE_CODE = st.sampled_from(["`code`", "`a b`", "`a\nb`", "``x ` y``", "`  `", "`\\`"])
LINKS = st.sampled_from(
    [
        "[link text](https://example.com)",
        '[two words](u "a title")',
        "[across\nlines](https://example.com/x)",
        "[ref link][r]",
        "[r]",
        "![alt text](i.png)",
        "![alt\ntext](i.png)",
        "<https://example.com/a/very/long/path/that/goes/on/and/on>",
        '<span class="x">',
        '<span title="a\nb">',
        "</span>",
        "<!-- note -->",
        "$x$",
        "$a + b$",
        "$$y^2$$",
        "$5",
        "{{< ref x >}}",
    ]
)
TOKENS = st.one_of(WORDS, WORDS, WORDS, STARTERS, INLINE_CODE, LINKS)
SEPARATORS = st.sampled_from([" ", " ", " ", " ", "  ", "\t", "\n", "\n", "  \n", " \n"])


@st.composite
def paragraph_lines(draw: st.DrawFn) -> list[str]:
    tokens: list[str] = draw(st.lists(TOKENS, min_size=1, max_size=14))
    text = tokens[0]
    for token in tokens[1:]:
        text += draw(SEPARATORS) + token
    return text.split("\n")


def _prefixed(lines: list[str], first: str, rest: str) -> str:
    return "\n".join([first + lines[0], *(rest + line for line in lines[1:])])


FIXED_BLOCKS = st.sampled_from(
    [
        "# A heading that is long enough to pass any width we test with, yes",
        "| a | b |\n|---|---|\n| a long cell that passes the width we test with | b |",
        "```\ncode that is long enough to pass any width we test with, yes indeed\n```",
        "    indented code that is long enough to pass any width we test with, yes",
        "<div>\nraw HTML that is long enough to pass any width we test with, yes\n</div>",
        "[long]: https://example.com/a/very/long/path/that/goes/on/and/on/forever",
        "Setext heading that is long enough to pass any width we test with\n===",
    ]
)


@st.composite
def blocks(draw: st.DrawFn) -> str:
    kind = draw(
        st.sampled_from(
            ["plain", "plain", "bullet", "ordered", "quote", "quote-list", "nested", "footnote",
             "alert", "container", "admonition", "shortcode"]
        )
    )
    if draw(st.integers(0, 6)) == 0:
        return draw(FIXED_BLOCKS)
    lines = draw(paragraph_lines())
    if kind == "bullet":
        return _prefixed(lines, "- ", draw(st.sampled_from(["  ", "", "    ", " \t"])))
    if kind == "ordered":
        return _prefixed(lines, "1. ", "   ")
    if kind == "quote":
        return _prefixed(lines, "> ", draw(st.sampled_from(["> ", ">", "", ">\t"])))
    if kind == "quote-list":
        return _prefixed(lines, "> * ", ">   ")
    if kind == "nested":
        return "- item\n\n" + _prefixed(lines, "  1. ", "     ")
    if kind == "alert":
        return _prefixed(lines, "> [!NOTE]\n> ", "> ")
    if kind == "container":
        return "::: tip A title\n" + "\n".join(lines) + "\n:::"
    if kind == "admonition":
        return '!!! note "A title"\n' + _prefixed(lines, "    ", "    ")
    if kind == "shortcode":
        return "{{< notice >}}\n" + "\n".join(lines) + "\n{{< /notice >}}"
    if kind == "footnote":
        return _prefixed(lines, "[^n]: ", "    ") + "\n\nSee the note[^n]."
    return "\n".join(lines)


DOCUMENTS = st.lists(blocks(), min_size=1, max_size=4).map(
    lambda parts: (
        "---\ntitle: x\n---\n\n"
        + "\n\n".join(parts)
        + "\n\n[r]: https://example.com\n\n[^1]: A note.\n"
    )
)


def _paragraph_text(doc: Document, para: Paragraph) -> str:
    return doc.text[para.line_spans[0].start : para.line_spans[-1].end]


def _assert_fix_properties(text: str, mode: str | int) -> None:
    config = Config(wrap=mode)
    doc = parse("gen.md", text)
    fixed = fix_document(doc, config)
    assert render_signature(fixed.text) == render_signature(text)
    assert github_rendering(fixed.text) == github_rendering(text)
    fixed_doc = parse("gen.md", fixed.text)
    assert fix_document(fixed_doc, config).text == fixed.text
    skipped_lines = {f.line for f in fixed.skipped}
    skipped_texts = {
        _paragraph_text(doc, p) for p in doc.paragraphs if p.lines.first in skipped_lines
    }
    for finding in wrap.check(fixed_doc, config):
        owner = next(
            p for p in fixed_doc.paragraphs if p.lines.first <= finding.line <= p.lines.last
        )
        assert _paragraph_text(fixed_doc, owner) in skipped_texts, finding


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(DOCUMENTS)
def test_fix_none(text: str) -> None:
    _assert_fix_properties(text, "none")


@SETTINGS
@given(DOCUMENTS)
def test_fix_sentence(text: str) -> None:
    _assert_fix_properties(text, "sentence")


@SETTINGS
@given(DOCUMENTS, st.sampled_from([80, 30, 12]))
def test_fix_width(text: str, width: int) -> None:
    # 80 is the common setting; narrow widths force a break at nearly every gap
    _assert_fix_properties(text, width)


@SETTINGS
@given(DOCUMENTS, st.sampled_from(["none", "sentence", 80, 30, 12]))
def test_prefilter_never_hides_a_violation(text: str, mode: str | int) -> None:
    # may_violate lets the gate skip most paragraphs unread; it must only skip
    # paragraphs the full analysis finds nothing wrong with.
    config = Config(wrap=mode)
    doc = parse("prop.md", text)
    for para in doc.paragraphs:
        prose = analyse(doc, para)
        if prose is not None and not may_violate(doc, para, config):
            assert violations(doc, prose, config) == []
