"""The parser's speed shortcuts change nothing the model reads.

``docsync.parse.markdown`` builds its markdown-it parser with shortcuts (its own
link-destination scanner, no URL normalisation where it changes nothing, block
rules tried only where they can start, inline rules skipped at characters
they cannot start on). Each document must come out exactly as the parser
without them makes it: on every case file, and on generated Markdown that
mixes every block and inline construct the shortcuts touch.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from docsync import model as model_module
from docsync.model import Document
from docsync.parse import block_state, core_rules, inline_rules, markdown, positions

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
    monkeypatch.setattr(core_rules, "_DELIMITERS", _Counting(core_rules._DELIMITERS, taken))
    markdown._build_parser(shortcuts=True).parse("See [a](b.md) and `c` <b>d</b>.\n")  # < keeps it parsed
    assert taken == ["delimiters", "link"]


class _Counting:
    """A compiled pattern that notes each search (the tidying shortcut's test)."""

    def __init__(self, pattern: re.Pattern[str], taken: list[str]) -> None:
        self._pattern = pattern
        self._taken = taken

    def search(self, text: str) -> re.Match[str] | None:
        self._taken.append("delimiters")
        return self._pattern.search(text)


# Paragraphs on the boundary of the unparsed-content shortcut: a plain link
# beside each thing that can make it something else, or hide it.
BESIDE_A_LINK = [
    "x ^[a](b.md) y",
    "x ![a](b.md) y",
    "x \\[a](b.md) y",
    "x &#91;a](b.md) y",
    "x `[a](b.md)` y",
    "x $[a](b.md)$ y",
    "x <span>[a](b.md)</span> y",
    "x <[a](b.md)> y",
    "x [a](b.md) [c][d]\n\n[d]: e.md",
    "x [^1] [a](b.md)\n\n[^1]: n",
    'x [a](b.md "t") y',
    "x *[a](b.md)* _[c](d.md)_ ~~[e](f.md)~~",
    "x [a](javascript:x) y",
    "x [a](b[1].md) y",
    "x [a](b.md)(c) [d](e.md)] [",
    "x [a\nb](c.md) y",
    "x [a](b.md)  \ny [c](d.md)",
    "| [a](b.md) | c |\n|---|---|\n| d \\| e | [f](g.md) |",
    "- [a](b.md)\n- x\n  [c](d.md)",
    "> [a](b.md)\n> [c](d.md)",
    # code spans beside links: each backtick run as markdown-it reads it
    "x `a [b](c.md) y",
    "x `a [b](c` d.md) y",
    "x ``a ` [b](c.md)`` y",
    "x ```a`` [b](c.md) ``` z",
    "x `a`` [b](c.md) ` y",
    "x [a](b`c.md) `d` y",
    "x `` ` `` [a](b.md) `e\nf` g",
    "| `a|b` | [c](d.md) |\n|---|---|",
    # math and HTML characters inside what the scan jumps over, or escaped
    "x `$a` [b](c.md) `$d`",
    "x `<T>` [b](c.md)",
    "x [a]($b.md) $c",
    "x `a $b` c$ [d](e.md)",
    "x \\$a$ [b](c.md)",
    "x \\<b> [c](d.md)",
    "x \\![a](b.md) \\^[c](d.md)",
    "x ! ^ [a](b.md) !`c` ^`d`",
    "x [a](b.md)! [c](d.md)^",
    "x \\` [a](b.md) `c`",
    "x \\\\`a` [b](c.md)",
    "x a\\",
    # emphasis and entities in a link's text
    "x [a_b *c* ~~d~~ &amp;](e.md) y",
    "x [a &#93; b](c.md) [d&#91;](e.md)",
    "x [*a](b.md)* _[c_](d.md)",
    "x **[a](b.md) [c**](d.md) e",
    # reference links, defined and not
    'x [a][r] [b][] [r] [c][nope] [nope] y\n\n[r]: t.md "T"\n[b]: u.md',
    "x [a_b *c*][R] [R][] y\n\n[r]: t.md",
    "x [a][r](c) [d][nope][r] y\n\n[r]: t.md",
    "x [r](nope d) [r] y\n\n[r]: t.md",
    "x [r][ r ] [ r ][] y\n\n[r]: <t u.md>",
    "x [a][r\nb] [r]\nc y\n\n[r]: t.md",
    "x [a&amp;b][r&amp;] [r&]\n\n[r&amp;]: t.md\n[r&]: u.md",
    "x [^r] [r] y\n\n[r]: t.md\n[^r]: note",
    "x [](r) [][r] [] y\n\n[r]: t.md",
    "| [a][r] | [b] |\n|---|---|\n\n[r]: t.md\n[b]: u.md",
    "[r]\n\n[r]: t.md\n\n> [r] [s]\n>\n> [s]: u.md",
]


# Line endings and NULs markdown-it normalises, and footnotes defined,
# referenced, both or neither (the core passes skipped where they change nothing).
CORE_PASSES = [
    "a\r\nb\rc\r\n\r\nd",
    "a\0b\n\0",
    "x [^1]\n\n[^1]: n",
    "x\n\n[^1]: n",
    "x [^1] y",
    "x ^[inline] y",
    "[^1]: a\r\n\r\nx [^1] ^[b]",
]


@pytest.mark.parametrize("text", CORE_PASSES)
def test_the_spared_core_passes_change_nothing(text: str) -> None:
    _same_parse(text)


@pytest.mark.parametrize("text", BESIDE_A_LINK)
def test_content_beside_plain_links_parses_the_same(text: str) -> None:
    _same_parse(text + "\n")


# Destinations markdown-it percent-encodes or punycodes (normalizeLink): the
# shortcut parser's href and src must be those exactly, in every construct.
TO_NORMALISE = [
    "![l](<a b.md>)",
    "[l](<a b.md>)",
    "![i](ä.png)",
    "[l](ü.md#ö)",
    "[l](%41%zz.md)",
    "[l](a%2)",
    "![i](//host/p.png)",
    "[l](//bücher.de/x)",
    "[l](a&#32;b.md)",
    "[l](<a%20b c.md>)",
    "[l][r] ![i][r]\n\n[r]: <a b.md>",
    "[l][r]\n\n[r]: ä.md",
    "<https://bücher.de/ä>",
    "<a@bücher.de>",
    "| ![i](<a b.png>) | [l](ä.md) |\n|---|---|",
]


@pytest.mark.parametrize("text", TO_NORMALISE)
def test_destinations_are_normalised_the_same(text: str) -> None:
    _same_parse(text + "\n")


@given(st.text(alphabet="aZ09;/?:@&=+$,-_.!~*'()#% <>\\`{}|^[]äü\u00a0\ud800xXFf"))
def test_the_normalisation_shortcut_is_normalize_link(url: str) -> None:
    assert markdown._normalize_link(url) == markdown.normalizeLink(url)


def test_the_unparsed_content_shortcut_is_taken() -> None:
    text = "A [plain](a.md) link,\nand *emphasis*.\n\n# A [heading](b.md)\n\n| [c](c.md) | d |\n|---|---|\n"
    tokens = markdown._parser().parse(text, {})
    unread = [t.map for t in tokens if t.type == "inline" and t.meta.get(core_rules.UNREAD)]
    assert unread == [[0, 2], [5, 6], [5, 6]]  # the paragraph and both cells, not the heading


def test_prose_with_escapes_and_entities_is_left_unparsed() -> None:
    text = (
        "An \\*escape\\*, an &amp; entity,\n**bold** and a \\[bracket].\n\n"
        "See [a](b&amp;c.md) `$d <e>`, [f_g][r] and [h].\n\n[r]: r.md\n"
    )
    inline = [t for t in markdown._parser().parse(text, {}) if t.type == "inline"]
    assert [t.meta.get(core_rules.UNREAD) for t in inline] == [True, True]
    assert inline[0].children == []
    assert [(c.type, c.attrs) for c in inline[1].children or []] == [
        ("link_open", {"href": "b&c.md"}),
        ("code_inline", {}),
        ("link_open", {"href": "r.md"}),
    ]


def test_the_benchmark_corpus_parses_the_same(tmp_path: Path) -> None:
    """The synthetic corpus of scripts/bench.py (where the shortcuts are
    timed), a small one: every document the same both ways."""
    from tests.test_links_two_phase import _bench

    _bench().generate(tmp_path, files=40, links=20, seed=3)
    pages = sorted(tmp_path.rglob("*.md"))
    assert len(pages) >= 40
    for page in pages:
        text, _, _ = markdown.decode(page.read_bytes())
        _same_parse(text, page)


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_case_files_parse_the_same(case: Path) -> None:
    text, _, _ = markdown.decode(case.read_bytes())
    _same_parse(text)


# Paragraphs beside lines that could underline them (a setext heading):
# the heading rule is skipped only where no such line follows before a blank one.
SETEXT = [
    "a\n===",
    "a\n---",
    "a\nb\n  ==  ",
    "a\n\n---",
    "a\n \t\n===",
    "a\n   ---",
    "a\n    ---",
    "a\n\t---",
    "a\n---x",
    "a\n= =",
    "> a\n> ---",
    "> a\n>---",
    ">> a\n> > ===",
    "> a\n---",
    "> a\n>\n> ---",
    "- a\n  ---",
    "- a\n---",
    "1. a\n   ===",
    "- > a\n  > ---",
    "!!! note\n    a\n    ---",
    "::: tip\na\n---\n:::",
    "[^1]: a\n    ---",
    "| a |\n|---|\n| b |\n---",
    "---\nx: 1\n---\na\n---",
    "a\n<!-- -->\n---",
    "```\na\n```\n---",
    "a\n``` x\n---",
]


@pytest.mark.parametrize("text", SETEXT)
def test_setext_underlines_parse_the_same(text: str) -> None:
    _same_parse(text + "\n")


@pytest.mark.parametrize("text", SETEXT)
def test_the_setext_shortcut_leaves_the_state_as_lheading_does(text: str) -> None:
    """Rule by rule, line by line: the shortcut's answer and the block state
    it leaves (``lheading`` sets the parent type even when it fails)."""
    from markdown_it.rules_block import StateBlock, lheading

    fast = next(r.fn for r in markdown._parser().block.ruler.__rules__ if r.name == "lheading")
    assert fast is not lheading
    lines = text.count("\n") + 1
    for line in range(lines):
        states = [StateBlock(text + "\n", markdown._parser(), {}, []) for _ in range(2)]
        answers = [rule(state, line, lines, False) for rule, state in zip((fast, lheading), states, strict=True)]
        assert answers[0] == answers[1], line
        # the shortcut keeps its own note of the text's underlines: the state is
        # markdown-it's, field for field (an extra field, or a read of the
        # instance dict, would also cost every rule its specialised attribute reads)
        assert repr(vars(states[0])) == repr(vars(states[1])), line


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
    "![l](<a b.md>)",
    "<a b.md>",
    "ä%4.png",
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
    "`<b>`",
    "\\$",
    "\\<",
    # what could start a construct right before a plain link
    "^",
    "!",
    "\\",
    "&",
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
@example("![l](<a b.md>)")  # an image's src was left unnormalised
@example("- ^-->\n> ")  # front matter in a list item on line 0: the text starts with "-"
def test_generated_markdown_parses_the_same(text: str) -> None:
    _same_parse(text)


def _tokens(md: markdown.MarkdownIt, text: str) -> list[tuple[object, ...]]:
    """Every token, inline children included, as markdown-it made it (our
    recorded source positions aside): the shortcuts make the same tokens.

    Where the shortcut parser left inline content unparsed (marked
    ``core_rules.UNREAD``), both sides give what the model reads of it: the
    children of the types it reads, recorded positions included."""
    flat: list[tuple[object, ...]] = []

    def walk(tokens: list[markdown.Token]) -> None:
        for token in tokens:
            meta = {k: v for k, v in (token.meta or {}).items() if k not in _RECORDED}
            flat.append(
                (token.type, token.tag, token.nesting, token.level, token.content,
                 token.markup, token.info, token.map, token.block, token.hidden,
                 sorted(token.attrs.items()), sorted(meta.items()))
            )
            walk(token.children or [])

    walk(md.parse(text, {}))
    return flat


def _unread_content(md: markdown.MarkdownIt, text: str) -> list[list[tuple[object, ...]]]:
    """Per inline token, in order, what the model reads of it: its children
    of the types the model reads, with their recorded places."""
    return [
        [
            (child.type, child.markup, sorted(child.attrs.items()),
             sorted((child.meta or {}).items()))
            for child in token.children or []
            if child.type in _MODEL_READS
        ]
        for token in md.parse(text, {})
        if token.type == "inline"
    ]


_MODEL_READS = {"link_open", "image", "code_inline", "html_inline", "math_inline", "math_inline_double", "footnote_ref"}


def _same_parse(text: str, where: object = None) -> None:
    """The shortcut parser's document and tokens are the plain parser's (``where`` names the case)."""
    fast, plain = _both(text)
    assert fast == plain, where
    _same_tokens(text)


def _same_tokens(text: str) -> None:
    """The shortcut parser's tokens are the plain parser's; inline content it
    left unparsed gives the model what the plain parse of it gives."""
    inline = [t for t in markdown._parser().parse(text, {}) if t.type == "inline"]
    unread = {k for k, t in enumerate(inline) if t.meta.get(core_rules.UNREAD)}
    assert _without_unread(_tokens(markdown._parser(), text), unread) == _without_unread(_tokens(PLAIN, text), unread)
    envs: tuple[dict[str, object], dict[str, object]] = ({}, {})
    markdown._parser().parse(text, envs[0])
    PLAIN.parse(text, envs[1])
    # what the rules leave for later ones (definitions, footnotes); the
    # footnote rules make empty tables wherever they look, as unparsed
    # content does not
    assert _state_left(envs[0]) == _state_left(envs[1])
    both = zip(_unread_content(markdown._parser(), text), _unread_content(PLAIN, text), strict=True)
    for k, (reads, plain_reads) in enumerate(both):
        if k in unread:
            assert reads == plain_reads, (k, reads, plain_reads)


def _state_left(env: dict[str, object]) -> dict[str, object]:
    notes = env.get("footnotes")
    empty = isinstance(notes, dict) and not any(notes.values())
    return {key: value for key, value in env.items() if not (key == "footnotes" and empty)}


def _without_unread(flat: list[tuple[object, ...]], unread: set[int]) -> list[tuple[object, ...]]:
    """``flat`` with the children of the ``unread`` inline tokens (by their
    order) left out, and the shortcut's mark on them."""
    kept: list[tuple[object, ...]] = []
    skipping = False
    ordinal = -1
    for entry in flat:
        if entry[0] == "inline":  # children are never of type inline
            ordinal += 1
            skipping = ordinal in unread
            meta = [item for item in entry[11] if item[0] != core_rules.UNREAD]  # type: ignore[attr-defined]
            kept.append((*entry[:11], meta))
            continue
        skipping = skipping and entry[8] is False  # an inline child is not a block token
        if not skipping:
            kept.append(entry)
    return kept


_RECORDED = {"src", "text", "dest", "label"}


# Lines as the block state's tables see them: indentation of spaces and tabs
# in every mix, lines of only whitespace, empty lines, no final line break.
whitespace_texts = st.lists(
    st.tuples(st.text(alphabet=" \t", max_size=6), st.sampled_from(["", "a", "- b", "\t", "  ", "> c"])).map(
        "".join
    ),
    max_size=8,
).flatmap(lambda lines: st.sampled_from(["", "\n"]).map(lambda end: "\n".join(lines) + end))


@settings(max_examples=300, deadline=None)
@given(whitespace_texts)
@example(" \t a\n\t\tb\n  \n\n c \t")
@example("x\n \t")  # a last line of only whitespace is no line
def test_the_block_state_is_markdown_its(text: str) -> None:
    """The shortcut block state has markdown-it's fields (line tables
    included), pushes its tokens and cuts its lines."""
    from markdown_it.rules_block import StateBlock

    md = markdown._parser()
    fast_class = block_state.state_class(StateBlock, markdown.Token)
    fast, plain = block_state.new_state(fast_class, text, md, {}, []), StateBlock(text, md, {}, [])
    assert vars(fast) == vars(plain)
    assert repr(fast) == repr(plain)
    for begin in range(plain.lineMax + 1):
        for end in range(begin, plain.lineMax + 1):
            for indent in (0, 1, 2, 4):
                for keep in (False, True):
                    assert fast.getLines(begin, end, indent, keep) == plain.getLines(begin, end, indent, keep)
    for state in (fast, plain):
        for kind, nesting in (("x_open", 1), ("y", 0), ("x_close", -1), ("z_close", -1)):
            state.push(kind, "p", nesting)
    assert fast.tokens == plain.tokens
    assert fast.level == plain.level


def test_the_block_state_shortcut_is_on() -> None:
    from markdown_it.rules_block import StateBlock

    assert block_state.same_as(block_state.state_class(StateBlock, markdown.Token), StateBlock, markdown.Token, markdown._parser())
    assert markdown._parser().block.parse.__qualname__ == "install.<locals>.parse"
    assert PLAIN.block.parse.__qualname__ == "ParserBlock.parse"


@settings(max_examples=300, deadline=None)
@given(documents)
@example("a  \n b\t\n> c \n>  d")  # trailing whitespace, a prefix the content lacks
def test_paragraph_lines_are_offsets_and_spans(text: str) -> None:
    """The model's one-pass placing of a paragraph's lines gives what
    ``content_line_offsets`` and ``line_span`` give line by line."""
    from docsync.model import line_starts_of

    lines, starts = text.split("\n"), line_starts_of(text)
    tokens = markdown._parser().parse(text, {})
    for opener, token in itertools.pairwise(tokens):
        if opener.type != "paragraph_open" or token.map is None:
            continue
        first, content = token.map[0], token.content
        offsets = positions.content_line_offsets(text, lines, starts, first, content, False)
        spans = tuple(
            positions.line_span(text, offsets[k], piece) for k, piece in enumerate(content.split("\n"))
        )
        assert positions.paragraph_lines(text, lines, starts, first, content) == (offsets, spans)


def test_the_block_loop_and_paragraph_rule_are_on() -> None:
    md = markdown._parser()
    assert md.block.tokenize.__qualname__ == "block_loop.<locals>.tokenize"
    paragraph = next(r.fn for r in md.block.ruler.__rules__ if r.name == "paragraph")
    assert paragraph.__qualname__ == "paragraph_rule.<locals>.paragraph"
    assert "tokenize" not in vars(PLAIN.block)
    assert next(r.fn for r in PLAIN.block.ruler.__rules__ if r.name == "paragraph").__module__ == (
        "markdown_it.rules_block.paragraph"
    )


def test_the_block_loop_refuses_a_paragraph_trimmed_otherwise() -> None:
    """The self-check at parser build: markdown-it-py 3 trimmed a paragraph's
    content with ``str.strip``, which also takes ``\\x85`` and ``\\x1c``-``\\x1f``;
    given that trim, the probes differ and markdown-it's loop and rule stay."""
    from docsync.parse import block_loop, block_rules

    md = markdown._dialect()
    library = next(r.fn for r in md.block.ruler.__rules__ if r.name == "paragraph")
    assert not block_loop.install(md, str.strip, *block_rules.dispatch_block_rules(md))
    assert next(r.fn for r in md.block.ruler.__rules__ if r.name == "paragraph") is library
    assert "tokenize" not in vars(md.block)
    md = markdown._dialect()
    assert block_loop.install(md, markdown.markdown_it_utils.mdTrim, *block_rules.dispatch_block_rules(md))


# The first line of a text is offered only the rules that can start on its
# first character, but where the text starts with "-": front matter reads the
# text's first character, not its line's, and can start on line 0 of a list
# item's content ("- x--" is front matter markdown-it leaves unclosed).
FIRST_LINES = [*LINE_STARTS, "x--", "- x--", "- ---", "-- ---", "-\tx", "--- x", "- # h", "- > a", "- [r]: u"]


@pytest.mark.parametrize("first", FIRST_LINES)
@pytest.mark.parametrize("rest", ["", "\na\n---\n", "\n---\nb\n", "\n\n- c\n"])
def test_the_first_line_is_offered_the_rules_that_can_start_there(first: str, rest: str) -> None:
    _same_parse(first + "text" + rest)
    _same_parse(first + rest)


def test_only_the_first_line_of_a_text_starting_with_a_dash_gets_every_rule() -> None:
    from docsync.parse.block_rules import first_char

    assert [first_char("# a", 0, 0), first_char("- a", 2, 0), first_char("- a", 2, 1)] == ["#", "", "a"]


# Blocks inside blocks, and blank lines between them: where the block loop
# ends a nested parse, notes a loose list, and where a paragraph ends.
NESTED_LINES = ["", " ", "\t", "a", "  a", "    a", "- a", "  - b", "1. a", "> a", ">", "> - a", "```", "# h", "---", "***", "[r]: u", "::: tip", ":::", "!!! note", "    !!! x", "| a |", "|-|", "<div>", "\u3000a\x85", "> " * 21 + "deep"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(NESTED_LINES), min_size=1, max_size=12).map("\n".join))
@example("- a\n\n  b\n- c")  # a loose list: the blank line inside an item
@example("> " * 25 + "a")  # past markdown-it's nesting limit
def test_nested_blocks_and_blank_lines_parse_the_same(text: str) -> None:
    _same_parse(text)


@pytest.mark.parametrize("cls", [c for c in vars(model_module).values() if dataclasses.is_dataclass(c)])
def test_model_constructors_make_what_the_classes_make(cls: type) -> None:
    """The builder's constructors (``model.constructor``): each model class's
    instance from the same values, and the class's own defaults."""
    fields = dataclasses.fields(cls)
    required = [f for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    values = [object() for _ in required]
    made = model_module.constructor(cls)
    if made is cls:  # a class with a __post_init__ keeps its own constructor
        assert hasattr(cls, "__post_init__")
        return
    assert type(made(*values)) is cls
    assert made(*values) == cls(*values)
    assert repr(made(*values)) == repr(cls(*values))
    everything = [object() for _ in fields]
    assert made(*everything) == cls(*everything)


def test_every_parser_module_is_in_the_parse_cache_key() -> None:
    """A document cached under one parser is not read under another: every
    module that decides what a parsed document holds is in the cache's key."""
    from docsync.workspace import cache

    parse = Path(markdown.__file__).parent
    deciding = {f"parse/{p.name}" for p in parse.glob("*.py")} - {
        "parse/__init__.py", "parse/render.py", "parse/lexing.py",  # rendering and highlighting, not the model
        "parse/lexer_plugins.py",  # which highlighters are installed, not the model
    }
    assert deciding <= set(cache._PARSER_SOURCES)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([("text", "", 0), ("code_inline", "code", 0), ("link_open", "a", 1)]),
    st.fixed_dictionaries(
        {},
        optional={
            "content": st.text(max_size=3),
            "markup": st.sampled_from(["", "`", "``"]),
            "attrs": st.dictionaries(st.sampled_from(["href", "title"]), st.text(max_size=3)),
            "meta": st.dictionaries(st.sampled_from(["src", "text", "dest"]), st.tuples(st.integers(), st.integers())),
        },
    ),
)
def test_the_token_maker_makes_markdown_its_tokens(args: tuple[str, str, int], fields: dict[str, object]) -> None:
    make = block_state.token_maker(markdown.Token)
    assert block_state.made_as(make, markdown.Token)
    made, theirs = make(*args, **fields), markdown.Token(*args, **fields)  # type: ignore[arg-type]
    assert made == theirs
    assert repr(made) == repr(theirs)
    assert not block_state.made_as(lambda *a, **k: dataclasses.replace(markdown.Token(*a, **k), block=True), markdown.Token)


@settings(max_examples=300, deadline=None)
@given(documents)
def test_text_join_has_nothing_to_do_in_unparsed_content(text: str) -> None:
    """The shortcut's ``text_join`` passes by content left unparsed: markdown-it's
    pass, run on it, changes none of its children."""
    import copy
    from types import SimpleNamespace

    from markdown_it.rules_core import text_join

    unread = [t for t in markdown._parser().parse(text, {}) if t.type == "inline" and t.meta.get(core_rules.UNREAD)]
    before = copy.deepcopy([t.children for t in unread])
    text_join(SimpleNamespace(tokens=unread))  # type: ignore[arg-type]
    assert [t.children for t in unread] == before


@settings(max_examples=300, deadline=None)
@given(documents)
@example("")
@example("a\n \t")  # a last line of only whitespace: no line for markdown-it, a line for the model
@example("a\n\n")
def test_the_block_parse_hands_the_builder_the_lines(text: str) -> None:
    """The lines the block parse split the text into, and where each starts,
    are what the builder would make of the text itself; kept for that text
    only, and taken once."""
    from docsync.model import line_starts_of

    markdown.tokenize(text)
    made = (text.split("\n"), line_starts_of(text))
    # an empty text makes no tables: what is kept is another parse's (of an equal text, if it is that very object)
    assert block_state.take_lines(text) in ((made,) if text else (made, None))
    assert block_state.take_lines(text) is None
    markdown.tokenize(text)
    assert block_state.take_lines(text + "x") is None


def test_remembered_links_are_normalised_as_markdown_it_does(monkeypatch: pytest.MonkeyPatch) -> None:
    from markdown_it.common.normalize_url import normalizeLink

    monkeypatch.setattr(markdown, "_normalized_links", {})
    monkeypatch.setattr(markdown, "_REMEMBERED", 3)
    urls = ["https://example.com/a b", "HTTP://Ünïcode.example/ä", "mailto:a@b", "//host/x", "a:b%zz", "rel.md"] * 3
    assert [markdown._normalize_link(url) for url in urls] == [normalizeLink(url) for url in urls]
    assert len(markdown._normalized_links) <= 3


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="`a ", max_size=30))
def test_a_code_span_ends_at_the_next_run_of_its_length(content: str) -> None:
    for run in re.finditer("`+", content):
        size, expected = run.end() - run.start(), None
        for later in re.finditer("`+", content[run.end() :]):
            if later.end() - later.start() == size:
                expected = run.end() + later.end()
                break
        assert inline_rules._code_span_end(content, run.start()) == expected


@given(st.text(alphabet="a [`\\<$!^]\n", max_size=30), st.integers(min_value=0, max_value=32))
@example("a [b] `c`", 0)
@example("", 0)
def test_the_next_stop_is_the_stop_patterns_next_match(content: str, pos: int) -> None:
    """``links_only`` finds its stops with ``str.find`` where the content holds
    one kind of stop character: where the stop pattern finds them."""
    match = inline_rules._STOPS.search(content, pos)
    only = inline_rules._only_stop(content)
    assert inline_rules.next_stop(content, pos, only) == (match.start() if match else -1)
    assert (only == "") == (inline_rules._STOPS.search(content) is None)


def test_the_stop_characters_are_the_stop_patterns() -> None:
    matched = {chr(code) for code in range(0x3000) if inline_rules._STOPS.fullmatch(chr(code))}
    assert matched == set(inline_rules._STOP_CHARS)


heading_lines = st.tuples(
    st.sampled_from(["", " ", "   ", "    ", "\t", "> ", "- ", "1. ", ">\t"]),
    st.text(alphabet="#", min_size=0, max_size=8),
    st.text(alphabet=" \t\u00a0\u2003#xé*", max_size=8),
    st.text(alphabet="#x \t\u00a0", max_size=4),
).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(heading_lines, min_size=1, max_size=6).map("\n".join), st.sampled_from(["", "\n", "\ntext\n", "\n---\n"]))
@example("# a", "")
@example("## b ##", "\n")
@example("###### c\t", "")
@example("    # code", "")
@example("a\n# b", "")  # a heading ends a paragraph: asked silently first
def test_atx_headings_parse_the_same(lines: str, after: str) -> None:
    """The heading rule's shortcut (``block_loop.heading_rule``) makes what
    markdown-it's makes, on every shape of ATX heading line and beside it."""
    _same_parse(lines + after)


@settings(max_examples=100, deadline=None)
@given(documents)
def test_tokenize_is_markdown_its_parse(text: str) -> None:
    """``markdown.tokenize`` runs the core chain as ``MarkdownIt.parse`` does."""
    env: dict[str, object] = {}
    tokens, tokenized_env = markdown.tokenize(text)
    assert tokens == markdown._parser().parse(text, env)
    assert tokenized_env == env


def test_the_heading_rule_shortcut_is_on() -> None:
    rule = next(r.fn for r in markdown._parser().block.ruler.__rules__ if r.name == "heading")
    assert rule.__qualname__.startswith("heading_rule.")


def test_the_block_state_is_made_as_its_constructor_makes_it() -> None:
    """``block_state.state_maker``: every field the constructor sets, in its
    order, remade when the parser's block rules change (``code`` disabled)."""
    from markdown_it import MarkdownIt
    from markdown_it.rules_block import StateBlock

    md = MarkdownIt("commonmark")
    make = block_state.state_maker(StateBlock)
    for disabled in (False, True):
        if disabled:
            md.block.ruler.disable("code")
        for text in block_state.PROBES:
            made, constructed = make(text, md, {}, []), StateBlock(text, md, {}, [])
            assert list(vars(made).items()) == list(vars(constructed).items())
        assert made._code_enabled is not disabled
