"""The parser's speed shortcuts change nothing the model reads.

``docsync.parse.markdown`` builds its markdown-it parser with shortcuts (its own
link-destination scanner, no URL normalisation where it cannot matter, block
rules tried only where they can start, inline rules skipped at characters
they cannot start on). Each document must come out exactly as the parser
without them makes it: on every case file, and on generated Markdown that
mixes every block and inline construct the shortcuts touch.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.model import Document
from docsync.parse import inline_rules, markdown

HERE = Path(__file__).resolve().parent
CASES = sorted(
    {
        *HERE.glob("cases/**/*.md"),
        *HERE.glob("golden/**/*.md"),
    }
)
PLAIN = markdown._build_parser(shortcuts=False)


def _both(text: str) -> tuple[Document, Document]:
    fast = markdown.parse("doc.md", text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown, "_parser", lambda: PLAIN)
        plain = markdown.parse("doc.md", text)
    return fast, plain


def test_the_shortcuts_are_on(monkeypatch: pytest.MonkeyPatch) -> None:
    names = [rule.name for rule in markdown._parser().block.ruler.__rules__]
    assert names[0] == "docsync_dispatch"
    assert "docsync_dispatch" not in [r.name for r in PLAIN.block.ruler.__rules__]
    # the link and tidying shortcuts switch themselves off for rules they do not
    # know: with the parser as configured, they must be on
    taken: list[str] = []
    real = inline_rules.plain_link
    monkeypatch.setattr(
        inline_rules, "plain_link", lambda state, silent: taken.append("link") or real(state, silent)
    )
    monkeypatch.setattr(markdown, "_DELIMITERS", _Counting(markdown._DELIMITERS, taken))
    markdown._build_parser(shortcuts=True).parse("See [a](b.md) and `c`.\n")
    assert taken == ["delimiters", "link"]


class _Counting:
    """A compiled pattern that notes each search (the tidying shortcut's test)."""

    def __init__(self, pattern: re.Pattern[str], taken: list[str]) -> None:
        self._pattern = pattern
        self._taken = taken

    def search(self, text: str) -> re.Match[str] | None:
        self._taken.append("delimiters")
        return self._pattern.search(text)


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_case_files_parse_the_same(case: Path) -> None:
    text, _, _ = markdown.decode(case.read_bytes())
    fast, plain = _both(text)
    assert fast == plain
    assert _tokens(markdown._parser(), text) == _tokens(PLAIN, text)


LINE_STARTS = [
    "",
    " ",
    "   ",
    "    ",
    "\t",
    "> ",
    "- ",
    "* ",
    "+ ",
    "1. ",
    "2) ",
    "# ",
    "### ",
    "####### ",
    "```",
    "~~~",
    "***",
    "---",
    "___",
    "<div>",
    "</div>",
    "<!-- ",
    "<a name='x'>",
    "[^1]: ",
    "[ref]: ",
    "| ",
    "|---|",
    "===",
    "[",
    "<",
    "-",
    "1.",
    "\\",
    "+++",
    # docs-site syntax the model's plugins and standalone-line rule read
    ":::",
    "::: tip ",
    "::::",
    "!!! note ",
    "??? ",
    "???+ x",
    "$$",
    "{{< x >}}",
    "{{< x",
    "{{% y",
    'a="b" >}}',
    "%}}",
    "{% raw %}",
    "[[_TOC_]]",
    "[TOC]",
    "> [!NOTE]",
    "[!TIP]",
]
INLINE = [
    "text",
    " ",
    "[link](a.md)",
    "[l](<a b.md>)",
    "[l](a(b).md)",
    "[l](a\\)b.md)",
    '[l](a.md "t")',
    "[l]( a.md )",
    "[l](\n a.md)",
    "![i](p.png)",
    "[ref]",
    "[x][ref]",
    "[x][]",
    "<https://h/p>",
    '<a href="q.md">',
    "`code [l](c.md)`",
    "**b**",
    "_e_",
    "~~s~~",
    "&amp;",
    "^[note]",
    "[^1]",
    "[l](javascript:x)",
    "[l](%zz)",
    "[l](#frag)",
    "\\[x]",
    "[l](a.md#x)y](z)",
    "]",
    "|",
    "-->",
    "[a b-c: d.e](x.md#f)",
    "[](x.md)",
    "[l](x&amp;y.md)",
    "[l](&#x;)",
    "[*e*](a.md)",
    "[l](a.md)(b)",
    "[[x]](a.md)",
    "[a](a.md\n)",
    "[l](a:b)",
    "[l](vbscript:x)",
    "[l](data:image/png)",
    "[`c`](a.md)",
    "[a\\]b](c.md)",
    "![x [l](a.md)](p.png)",
    "[x [l](a.md)](b.md)",
    "[l](a.md",
    "[ü](ä.md)",
    "[l](<a>)",
    "a\\*b",
    "&#x41;",
    "![a&amp;b](p.png)",
    "![*a*](p.png)",
    "x*",
    "~x",
    "__",
    "\\\n",
    "  \n",
    "$x$",
    "$[l](a.md)$",
    "$$y$$",
    "$5",
    "$ ",
    "[a$b](c.md)",
    "`$`",
]
documents = st.lists(
    st.tuples(st.sampled_from(LINE_STARTS), st.lists(st.sampled_from(INLINE), max_size=5)).map(
        lambda line: line[0] + "".join(line[1])
    ),
    min_size=1,
    max_size=14,
).map("\n".join)


@settings(max_examples=400, deadline=None)
@given(documents)
def test_generated_markdown_parses_the_same(text: str) -> None:
    fast, plain = _both(text)
    assert fast == plain
    assert _tokens(markdown._parser(), text) == _tokens(PLAIN, text)


def _tokens(md: markdown.MarkdownIt, text: str) -> list[tuple[object, ...]]:
    """Every token, inline children included, as markdown-it made it (our
    recorded source positions aside): the shortcuts make the same tokens."""
    flat: list[tuple[object, ...]] = []

    def walk(tokens: list[markdown.Token]) -> None:
        for token in tokens:
            meta = {k: v for k, v in (token.meta or {}).items() if k not in _RECORDED}
            flat.append(
                (token.type, token.tag, token.nesting, token.level, token.content,
                 token.markup, token.info, token.map, token.block, token.hidden,
                 sorted(_normalized(token.attrs).items()), sorted(meta.items()))
            )
            walk(token.children or [])

    walk(md.parse(text, {}))
    return flat


_RECORDED = {"src", "text", "dest", "label"}


def _normalized(attrs: dict[str, object]) -> dict[str, object]:
    """An ``href`` as markdown-it normalises it: the shortcuts skip normalising
    where the model cannot tell (a URL without a scheme), and only there."""
    href = attrs.get("href")
    if not isinstance(href, str):
        return attrs
    return {**attrs, "href": markdown.normalizeLink(href)}
