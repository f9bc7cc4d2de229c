"""Bytes in, :class:`~docsync.model.Document` out.

This is the only module that imports markdown-it. The parser is CommonMark
plus the GitHub extensions that change block structure (tables,
strikethrough, footnotes) and front matter, so that what we check and what
we rewrite is read the way GitHub renders it.

Positions: markdown-it gives block tokens a line map but inline tokens none.
We wrap the inline rules that produce links, images, autolinks, raw HTML and
code spans so that each records where in the inline content it started and
ended, and map inline-content offsets back to the source through the
paragraph's lines (each content line is a suffix of its source line once the
container prefix is removed).
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import SimpleNamespace
from typing import Any

import markdown_it
import mdit_py_plugins
from markdown_it import MarkdownIt
from markdown_it.common.normalize_url import normalizeLink
from markdown_it.common.utils import normalizeReference, unescapeAll
from markdown_it.helpers import parseLinkDestination, parseLinkLabel, parseLinkTitle
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from ..model import (
    Anchor,
    Block,
    BlockKind,
    Definition,
    Document,
    Heading,
    LineSpan,
    Link,
    LinkKind,
    Paragraph,
    Span,
    line_starts_of,
    position_of,
)
from .slugs import Slugger

__all__ = [
    "ALERT_KINDS",
    "PARSER_VERSIONS",
    "SourceError",
    "decode",
    "footnote_ids",
    "math_signature",
    "normalized",
    "parse",
    "parse_bytes",
    "render_html",
    "render_signature",
    "site_heading_id",
]

PARSER_VERSIONS = f"markdown-it-py {markdown_it.__version__}, mdit-py-plugins {mdit_py_plugins.__version__}"
"""The libraries whose parsing decisions a document records (a cached one is
only as good as the versions that made it)."""


class SourceError(Exception):
    """A file that cannot be read as Markdown text (bad encoding, NUL byte)."""

    def __init__(self, rule: str, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.line = line
        self.column = column


# --------------------------------------------------------------------------- decoding

_BOM = "\ufeff"


def decode(data: bytes) -> tuple[str, str, bool]:
    """Decode UTF-8 bytes; return (text with ``\\n`` line ends, newline, had BOM)."""
    if b"\x00" in data:
        offset = data.index(b"\x00")
        line = data.count(b"\n", 0, offset) + 1
        raise SourceError("F002", "file contains a NUL byte; it is binary, not Markdown", line)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SourceError(
            "F001", f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x})", line, column
        ) from None
    bom = text.startswith(_BOM)
    if bom:
        text = text[1:]
    newline = "\r\n" if "\r\n" in text else "\n"
    return normalized(text), newline, bom


def normalized(text: str) -> str:
    """``text`` with every line ending (CRLF, a lone CR) as ``\\n``, as documents hold it."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


# --------------------------------------------------------------------------- the parser

_RECORDED = frozenset({"link_open", "image", "code_inline", "html_inline", "math_inline", "math_inline_double"})
InlineRule = Callable[[StateInline, bool], bool]
BlockRule = Callable[[StateBlock, int, int, bool], bool]


def _record_inline(
    fn: InlineRule, trigger: str | None, fast: Callable[[StateInline, bool], bool | None] | None = None
) -> InlineRule:
    """``fn`` recording where its token came from; ``trigger`` is the character
    ``fn`` starts with (it returns False anywhere else), checked here first
    because the rules run at every position the text rule stops at. ``fast``,
    when given, is tried first: it does ``fn``'s whole job, recording
    included, for the shapes it knows, and returns None for the rest."""

    def rule(state: StateInline, silent: bool) -> bool:
        if trigger is not None and state.src[state.pos] != trigger:
            return False
        if fast is not None:
            done = fast(state, silent)
            if done is not None:
                return done
        start = state.pos
        before = len(state.tokens)
        ok = fn(state, silent)
        if ok and not silent:
            token = next((t for t in state.tokens[before:] if t.type in _RECORDED), None)
            if token is None:
                return ok
            token.meta = {**(token.meta or {}), "src": (start, state.pos)}
            if token.type in ("link_open", "image") and token.markup != "autolink":
                token.meta.update(_link_parts(state, start, token.type == "image"))
        return ok

    return rule


def _link_parts(state: StateInline, start: int, image: bool) -> dict[str, Any]:
    """Where the text, destination and label of a link starting at ``start`` are."""
    src = state.src
    label_start = start + (2 if image else 1)
    old_pos = state.pos
    label_end = parseLinkLabel(state, label_start - 1, not image)
    state.pos = old_pos
    parts: dict[str, Any] = {"text": (label_start, max(label_start, label_end))}
    pos = label_end + 1
    if pos < len(src) and src[pos] == "(":
        pos += 1
        while pos < len(src) and src[pos] in " \t\n":
            pos += 1
        result = state.md.helpers.parseLinkDestination(src, pos, state.posMax)
        if result.ok and result.pos > pos:
            parts["dest"] = (pos, result.pos)
        return parts
    if pos < len(src) and src[pos] == "[":
        close = src.find("]", pos + 1)
        inner = src[pos + 1 : close] if close != -1 else ""
        parts["label"] = inner if inner else src[label_start:label_end]
    else:
        parts["label"] = src[label_start:label_end]
    return parts


# An inline link whose text holds no character any inline rule (enabled in
# the model's parser) starts on, and whose destination is plain and closed
# at once: ``[text](dest)``. The first ``]`` ends such a text.
_PLAIN_LINK = re.compile(r"\[([^\n\\`~*_\[\]!<&^$]*)\]\(([^\x00-\x20\x7f()\\<][^\x00-\x20\x7f()\\]*)\)")
# The inline rules whose start characters _PLAIN_LINK's text excludes; with
# any other rule enabled, the shortcut is not taken.
_PLAIN_LINK_RULES = frozenset(
    {
        "text", "newline", "escape", "backticks", "strikethrough", "emphasis", "link",
        "image", "footnote_inline", "footnote_ref", "autolink", "html_inline", "entity",
        "math_inline",
    }
)


def _plain_link(state: StateInline, silent: bool) -> bool | None:
    """markdown-it's link rule for ``[text](dest)`` at its commonest, or None.

    The rule would find the label's end token by token, parse the
    destination, then tokenize the text again; for a plain text (one text
    token) and a plain destination followed by ``)`` the outcome is known
    from one regex: link_open, the text, link_close. Anything else (or a
    destination ``validateLink`` refuses) goes the long way.
    """
    match = _PLAIN_LINK.match(state.src, state.pos, state.posMax)
    if match is None:
        return None
    dest = match.group(2)
    href = state.md.normalizeLink(unescapeAll(dest) if "&" in dest else dest)
    if not state.md.validateLink(href):
        return None
    if not silent:
        opener = state.push("link_open", "a", 1)
        opener.attrs = {"href": href}
        opener.meta = {
            **(opener.meta or {}),
            "src": (state.pos, match.end()),
            "text": match.span(1),
            "dest": match.span(2),
        }
        if match.group(1):
            state.pending = match.group(1)
            state.pushPending()
        state.push("link_close", "a", -1)
    state.pos = match.end()
    return True


# What parseLinkDestination steps over in one go for a plain destination.
_PLAIN_DESTINATION = re.compile(r"[^\x00-\x20\x7f()\\]*")


class _Destination:
    """The shape of markdown-it's parseLinkDestination result (``lines``, the
    line breaks it crossed, is read by markdown-it-py 3; a plain destination
    crosses none)."""

    __slots__ = ("lines", "ok", "pos", "str")

    def __init__(self, ok: bool, pos: int, text: str) -> None:
        self.ok = ok
        self.pos = pos
        self.str = text
        self.lines = 0


def _parse_link_destination(src: str, pos: int, maximum: int) -> Any:
    """markdown-it's ``parseLinkDestination``, the common case in one regex.

    A destination without ``<``, parentheses or backslashes ends at the first
    space, control character or ``)``, which is where markdown-it's
    character loop stops too; anything else goes to that loop, so the result
    is always exactly markdown-it's. Character by character, this was a tenth
    of the parse of a link-heavy file.
    """
    if pos < maximum and src[pos] != "<":
        end = _PLAIN_DESTINATION.match(src, pos, maximum).end()  # type: ignore[union-attr]
        if end == maximum or src[end] not in "(\\":
            if end == pos:
                return _Destination(False, 0, "")
            return _Destination(True, end, unescapeAll(src[pos:end]))
    return parseLinkDestination(src, pos, maximum)


def _normalize_link(url: str) -> str:
    """markdown-it's normalizeLink, skipped where it cannot change the outcome.

    The model never reads a token's ``href``; markdown-it only passes the
    normalised URL to ``validateLink``, whose verdict depends on a ``scheme:``
    prefix, which a URL without a colon cannot have before or after
    normalisation. Percent-encoding every relative link was a tenth of the parse.
    """
    return url if ":" not in url else normalizeLink(url)


def _record_block(fn: BlockRule, key: str) -> BlockRule:
    def rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        ok = fn(state, start, end, silent)
        if ok and not silent:
            state.env.setdefault(key, []).append((start, state.line))
        return ok

    return rule


@cache
def _parser() -> MarkdownIt:
    return _build_parser(shortcuts=True)


# A line that stands alone wherever it is written: docs-site and wiki syntax
# that GitHub renders as text but a docs site reads as structure (Hugo
# shortcodes, Liquid tags, table-of-contents markers, a container fence no
# container rule took). Joined to a neighbour, the site loses it.
_STANDALONE = re.compile(
    r"""(?: \{\{<.*>\}\}              # Hugo shortcode {{< … >}}
          | \{\{%.*%\}\}              # Hugo shortcode {{% … %}}
          | \{%.*%\}                  # Liquid tag {% … %}
          | \[\[_TOC_\]\] | \[TOC\]     # GitLab / Azure DevOps, Python-Markdown
          | :{3,}                     # a ::: fence line
        )[ \t]*""",
    re.VERBOSE,
)
# A GitHub alert's marker: the first line of a block quote, alone on its line.
_ALERT = re.compile(r"\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*", re.IGNORECASE)
ALERT_KINDS = ("note", "tip", "important", "warning", "caution")


def _standalone_line(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A ``docsync_line`` token for a line that must stay alone (see ``_STANDALONE``)."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False  # indented code
    line = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
    kind = "line"
    last_line: int | None = start
    if _STANDALONE.fullmatch(line) is None:
        first_in_quote = state.parentType == "blockquote" and state.tokens[-1:] and (
            state.tokens[-1].type == "blockquote_open"
        )
        last_line = _shortcode_end(state, start, end, line)
        if first_in_quote and _ALERT.fullmatch(line) is not None:
            kind, last_line = "alert", start
        elif last_line is None:
            return False
        else:
            kind = "shortcode"
    last = last_line if last_line is not None else start
    if silent:
        return True
    token = state.push("docsync_line", "", 0)
    token.block = True
    token.content = line
    token.info = kind
    token.map = [start, last + 1]
    state.line = last + 1
    return True


_SHORTCODE_OPEN = re.compile(r"\{\{([<%])(?!.*[>%]\}\})")
_MAX_SHORTCODE_LINES = 40


def _shortcode_end(state: StateBlock, start: int, end: int, line: str) -> int | None:
    """The last line of a Hugo shortcode that opens on ``line`` and closes on a
    later one (its parameters one a line), or None. Blank lines end the search."""
    opened = _SHORTCODE_OPEN.match(line)
    if opened is None:
        return None
    closer = ">}}" if opened.group(1) == "<" else "%}}"
    for index in range(start + 1, min(end, start + _MAX_SHORTCODE_LINES)):
        text = state.src[state.bMarks[index] + state.tShift[index] : state.eMarks[index]]
        if not text.strip():
            return None
        if text.rstrip().endswith(closer):
            return index
    return None


def _any_container(params: str, markup: str) -> bool:
    """A ``:::`` container of any name (VitePress, Docusaurus): ``::: tip Title``, ``:::note[Title]``."""
    return bool(params.strip())


def _no_digits_around(rule: InlineRule) -> InlineRule:
    """The inline math rule, refusing a ``$`` right after a digit or a closing
    ``$`` right before one (so "5$ and $10" is money, not math).

    The plugin's own check reads the character before position 0 as the
    content's last one (a negative index), so "$x$ is 7" was not math.
    """

    def math(state: StateInline, silent: bool) -> bool:
        start = state.pos
        if state.src[start] != "$" or (start > 0 and state.src[start - 1].isdigit()):
            return False
        if not rule(state, True):
            return False
        end, state.pos = state.pos, start
        if end < state.posMax and state.src[end].isdigit():
            return False
        return rule(state, silent)

    return math


def _dialect() -> MarkdownIt:
    """GitHub's Markdown (CommonMark, tables, strikethrough, footnotes, math,
    alerts) plus the docs-site syntax that carries structure: front matter,
    ``:::`` containers, ``!!!``/``???`` admonitions, standalone lines."""
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    md.use(front_matter_plugin).use(footnote_plugin)
    md.use(container_plugin, name="docs", validate=_any_container)
    md.use(admon_plugin)
    # GitHub's math: no space inside the dollars, no digit outside them
    # (so "$5 and $10" stays text), $$ on its own lines or inline.
    md.use(
        dollarmath_plugin,
        allow_labels=False,
        allow_space=False,
        allow_digits=True,  # checked by _no_digits_around: the plugin's check misreads position 0
        allow_blank_lines=False,
        double_inline=True,
    )
    math = next(r.fn for r in md.inline.ruler.__rules__ if r.name == "math_inline")
    md.inline.ruler.at("math_inline", _no_digits_around(math))
    md.block.ruler.before(
        "reference",
        "docsync_line",
        _standalone_line,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.add_render_rule("docsync_line", _render_line)
    return md


def _render_line(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return f"<p>{html.escape(tokens[idx].content)}</p>\n"


def _build_parser(shortcuts: bool) -> MarkdownIt:
    """The model's parser. ``shortcuts`` are for speed only and change no token
    the model reads (tests/test_fast_paths.py compares both ways)."""
    md = _dialect()
    if shortcuts:
        md.normalizeLink = _normalize_link  # type: ignore[method-assign]
        # This instance's own helpers (markdown-it's rules call them through
        # ``md.helpers``); the module and every other parser are left alone.
        md.helpers = SimpleNamespace(  # type: ignore[assignment]
            parseLinkLabel=parseLinkLabel,
            parseLinkDestination=_parse_link_destination,
            parseLinkTitle=parseLinkTitle,
        )
    triggers = {
        "link": "[", "image": "!", "autolink": "<", "html_inline": "<", "backticks": "`",
        "math_inline": "$",
    }
    enabled = {rule.name for rule in md.inline.ruler.__rules__ if rule.enabled}
    plain_links = shortcuts and enabled <= _PLAIN_LINK_RULES
    for name, trigger in triggers.items():
        original = next(r.fn for r in md.inline.ruler.__rules__ if r.name == name)
        fast = _plain_link if plain_links and name == "link" else None
        md.inline.ruler.at(name, _record_inline(original, trigger if shortcuts else None, fast))
    reference = next(r.fn for r in md.block.ruler.__rules__ if r.name == "reference")
    md.block.ruler.at("reference", _record_block(reference, "docsync_definitions"))
    if shortcuts:
        _dispatch_block_rules(md)
        _inline_shortcuts(md)
    return md


# What markdown-it's tidying passes act on. The post-processing rules
# (ruler2) pair and join emphasis and strikethrough delimiters, which only
# ``*``, ``_`` and ``~`` make; the core text_join rule also turns escapes and
# entities (``\\``, ``&``) into text and joins adjacent text tokens, which
# nothing else makes. For content without these characters both passes
# leave every token as it is.
_DELIMITERS = re.compile(r"[*_~]")
_JOINABLE = re.compile(r"[*_~\\&]")
_TIDYING = frozenset({"balance_pairs", "strikethrough", "emphasis", "fragments_join"})


def _inline_shortcuts(md: MarkdownIt) -> None:
    """Parse inline content no further than its characters make necessary.

    Content with no character any inline rule stops at gets its one text
    token directly: markdown-it's inline parser would set up its state, run
    the text rule once (it takes everything up to the first terminator
    character, here the whole content), run four post-processing passes and
    end with exactly that token. Headings and list items are mostly such
    plain text. Other content is tokenized as usual, and the tidying passes
    (see ``_JOINABLE``) run only where there can be something to tidy. The
    first needs markdown-it's terminator set (markdown-it-py 4), the second
    the tidying passes it was written against; without either, that part
    goes the long way.
    """
    terminators = getattr(md.inline, "terminator_re", None)
    plain_text = isinstance(terminators, re.Pattern)
    post_rules = frozenset(rule.name for rule in md.inline.ruler2.__rules__ if rule.enabled)
    tidy = post_rules == _TIDYING
    if not plain_text and not tidy:
        return
    parse_inline = md.inline.parse
    tokenize = md.inline.tokenize

    def inline(state: StateCore) -> None:
        for token in state.tokens:
            if token.type != "inline":
                continue
            if token.children is None:
                token.children = []
            content = token.content
            if plain_text and state.md.inline.terminator_re.search(content) is None:
                if content:
                    token.children.append(Token("text", "", 0, content=content))
            elif tidy and _DELIMITERS.search(content) is None:
                tokenize(StateInline(content, state.md, state.env, token.children))
            else:
                parse_inline(content, state.md, state.env, token.children)

    md.core.ruler.at("inline", inline)
    text_join = next((r.fn for r in md.core.ruler.__rules__ if r.name == "text_join"), None)
    if tidy and text_join is not None:

        def join(state: StateCore) -> None:
            joinable = [t for t in state.tokens if t.type == "inline" and _JOINABLE.search(t.content)]
            text_join(SimpleNamespace(tokens=joinable))  # type: ignore[arg-type]

        md.core.ruler.at("text_join", join)


# The characters (the first after a line's indentation) a block rule can
# start on; a rule not named here may start on any.
_BLOCK_TRIGGERS = {
    "front_matter": "-",
    "fence": "`~",
    "blockquote": ">",
    "hr": "*-_",
    "list": "*-+0123456789",
    "footnote_def": "[",
    "reference": "[",
    "html_block": "<",
    "heading": "#",
    "math_block": "$",
    "container_docs": ":",
    "admonition": "!?",
    "docsync_line": "{[:",
}


def _dispatch_block_rules(md: MarkdownIt) -> None:
    """Try on each line only the block rules that can start on its first character.

    markdown-it tries every block rule in order on every line until one
    matches; a rule that cannot start there returns False having changed
    nothing, so skipping it yields the same tokens. On prose that is eight
    calls saved per line. The dispatcher goes first in the main chain only;
    the chains rules use to ask "does this line end my block?" are untouched.
    """
    rules = [(rule.name, rule.fn) for rule in md.block.ruler.__rules__ if rule.enabled]
    anywhere = tuple(fn for name, fn in rules if name not in _BLOCK_TRIGGERS)
    by_char = {
        char: tuple(fn for name, fn in rules if char in _BLOCK_TRIGGERS.get(name, char))
        for char in set("".join(_BLOCK_TRIGGERS.values()))
    }

    def dispatch(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        char = state.src[state.bMarks[start] + state.tShift[start]]
        return any(rule(state, start, end, silent) for rule in by_char.get(char, anywhere))

    md.block.ruler.before(rules[0][0], "docsync_dispatch", dispatch)


@cache
def _plain_parser() -> MarkdownIt:
    return _dialect()


def render_html(text: str) -> str:
    """HTML as GitHub's dialect renders ``text`` (used to prove a rewrite safe)."""
    rendered: str = _plain_parser().render(text)
    return rendered


_WS = re.compile(r"\s+")


def render_signature(text: str) -> tuple[tuple[str, ...], ...]:
    """A structural fingerprint of what ``text`` renders to.

    Block tokens compare by type, tag, nesting, info, attributes and content;
    inline text compares with whitespace runs collapsed and soft breaks read
    as spaces (as HTML rendering collapses them); code spans and raw HTML
    compare exactly.
    """
    signature: list[tuple[str, ...]] = []
    for token in _plain_parser().parse(text):
        if token.type == "inline":
            signature.append(("inline", *_inline_signature(token.children or [])))
            continue
        attrs = tuple(f"{k}={v}" for k, v in sorted(token.attrs.items()))
        content = token.content if token.type != "front_matter" else token.content.strip()
        signature.append(
            (token.type, token.tag, str(token.nesting), token.info, content, *attrs)
        )
    return tuple(signature)


def _inline_signature(children: Sequence[Token]) -> list[str]:
    parts: list[str] = []
    text: list[str] = []

    def flush() -> None:
        if text:
            joined = _WS.sub(" ", "".join(text))
            parts.append("t:" + joined)
            text.clear()

    for child in children:
        if child.type == "text":
            text.append(child.content)
        elif child.type == "softbreak":
            text.append(" ")
        else:
            flush()
            attrs = ",".join(f"{k}={v}" for k, v in sorted(child.attrs.items()))
            inner = _inline_signature(child.children or []) if child.children else []
            parts.append(f"{child.type}:{child.content}:{attrs}:{'|'.join(inner)}")
    flush()
    if parts and parts[0].startswith("t:"):
        parts[0] = "t:" + parts[0][2:].lstrip(" ")
    if parts and parts[-1].startswith("t:"):
        parts[-1] = parts[-1].rstrip(" ")
    return parts


# --------------------------------------------------------------------------- building the model

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)
_TAG = re.compile(
    r"<([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s\"'>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*/?>"
)
_ATTR = re.compile(r"([^\s\"'>/=]+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
_CONTAINERS = {
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "blockquote",
    "footnote_open": "footnote",
    "container_docs_open": "container",
    "admonition_open": "admonition",
}
_CONTAINER_CLOSERS = frozenset(kind.replace("_open", "_close") for kind in _CONTAINERS)
_BLOCKS = {
    "fence": BlockKind.FENCE,
    "code_block": BlockKind.CODE,
    "html_block": BlockKind.HTML,
    "front_matter": BlockKind.FRONT_MATTER,
    "table_open": BlockKind.TABLE,
    "heading_open": BlockKind.HEADING,
    "math_block": BlockKind.MATH,
    "docsync_line": BlockKind.STANDALONE,
}
# Containers whose opening line (and closing fence) is a line of its own.
_FENCED = frozenset({"container_docs_open", "admonition_open"})


@dataclass
class _Builder:
    path: str
    text: str
    line_starts: tuple[int, ...]
    lines: list[str]
    slugger: Slugger = field(default_factory=Slugger)
    headings: list[Heading] = field(default_factory=list)
    anchors: list[Anchor] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    code_spans: list[Span] = field(default_factory=list)
    math_spans: list[Span] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    paragraphs: list[Paragraph] = field(default_factory=list)
    used_labels: set[str] = field(default_factory=set)
    footnote_refs: list[str] = field(default_factory=list)  # labels, one per reference
    admonitions: list[int] = field(default_factory=list)  # opening lines of the open ones
    cell_cursor: dict[int, int] = field(default_factory=dict)  # table line → where the next cell is

    # -- positions

    def offset(self, line: int, column: int = 0) -> int:
        """Offset of a 0-based line and 0-based column."""
        return self.line_starts[line] + column

    def content_line_offsets(self, first_line: int, content: str, atx: bool) -> list[int]:
        """Source offset where each line of an inline token's content starts.

        markdown-it turns a tab that container indentation takes only part of
        into spaces, so such a line's content is not a slice of its source
        line. Its offset is then where the content would start if it were:
        every character after the leading whitespace (where every inline
        construct is) maps to its own source position.
        """
        offsets: list[int] = []
        for k, piece in enumerate(content.split("\n")):
            index = first_line + k
            if index >= len(self.lines):
                offsets.append(len(self.text))
                continue
            source = self.lines[index]
            if atx:
                hashes = len(source) - len(source.lstrip(" >\t"))
                column = source.find(piece, hashes)
            else:
                column = source.rstrip().rfind(piece) if piece else len(source.rstrip())
            if column < 0:
                core = piece.lstrip(" \t")
                found = source.rstrip().rfind(core) if core else -1
                if found >= 0:
                    column = found - (len(piece) - len(core))
                else:
                    column = max(0, len(source) - len(piece))
            offsets.append(self.line_starts[index] + column)
        return offsets

    def line_span(self, offset: int, piece: str) -> Span:
        """The source span of a content line starting at ``offset`` (see
        :meth:`content_line_offsets`): without the leading whitespace when
        that is not in the source as the content has it."""
        end = offset + len(piece)
        if self.text.startswith(piece, offset):
            return Span(offset, end)
        return Span(end - len(piece.lstrip(" \t")), end)

    # -- visiting

    def build(self, tokens: Sequence[Token], env: dict[str, Any]) -> None:
        containers: list[str] = []
        opener: Token | None = None  # the token before the current one
        for token in tokens:
            kind = token.type
            if kind == "inline":
                if token.map:
                    parent = opener.type if opener is not None else ""
                    self.visit_inline(token, parent, tuple(containers), opener)
            elif kind in _CONTAINERS:
                containers.append(_CONTAINERS[kind])
                if kind in _FENCED and token.map:
                    self.add_fence_lines(token)
                if kind == "admonition_open":
                    self.admonitions.append(token.map[0] if token.map else -2)
            elif kind in _CONTAINER_CLOSERS:
                if containers:  # a nested footnote's close can come without its open
                    containers.pop()
                if kind == "admonition_close" and self.admonitions:
                    self.admonitions.pop()
            elif kind in _BLOCKS and token.map:
                self.blocks.append(Block(_BLOCKS[kind], LineSpan(token.map[0] + 1, token.map[1])))
                if kind == "html_block":
                    start = self.offset(token.map[0])
                    self.scan_html(self.text[start : start + len(token.content)], start)
            opener = token
        for start, end in env.get("docsync_definitions", []):
            self.add_definitions(start, end)

    def code_on_github(self, first_line: int) -> bool:
        """Whether GitHub renders a paragraph of an admonition's body as code.

        MkDocs reads an admonition's indented body as Markdown; GitHub, which
        knows no admonitions, reads it as the continuation of the ``!!!``
        line's paragraph where it follows that line directly, and as an
        indented code block everywhere else (after a blank line, in a
        nested admonition). Such a paragraph is prose to one reader and code
        to the other, so no rewriter may touch it.
        """
        if not self.admonitions:
            return False
        return len(self.admonitions) > 1 or first_line != self.admonitions[0] + 1

    def add_fence_lines(self, token: Token) -> None:
        """A container's opening line, and its closing ``:::`` line when it has one."""
        assert token.map is not None
        first, end = token.map
        self.blocks.append(Block(BlockKind.STANDALONE, LineSpan(first + 1, first + 1)))
        closing = self.lines[end] if token.type == "container_docs_open" and end < len(self.lines) else ""
        if closing.strip(" \t>").startswith(":::"):
            self.blocks.append(Block(BlockKind.STANDALONE, LineSpan(end + 1, end + 1)))

    def visit_inline(
        self, token: Token, parent: str, containers: tuple[str, ...], opener: Token | None
    ) -> None:
        assert token.map is not None
        atx = parent == "heading_open" and opener is not None and opener.markup.startswith("#")
        content = token.content
        offsets: list[int] = []
        if parent in ("th_open", "td_open"):
            to_source = self.cell_to_source(token)
        else:
            offsets = self.content_line_offsets(token.map[0], content, atx)
            to_source = _line_mapper(content, offsets)
        protected = self.visit_children(token.children or [], to_source)
        if parent == "heading_open" and opener is not None:
            self.add_heading(opener, token)
        elif parent == "paragraph_open" and self.code_on_github(token.map[0]):
            self.blocks.append(Block(BlockKind.CODE, LineSpan(token.map[0] + 1, token.map[1])))
        elif parent == "paragraph_open":
            spans = tuple(
                self.line_span(offsets[k], piece) for k, piece in enumerate(content.split("\n"))
            )
            self.paragraphs.append(
                Paragraph(
                    LineSpan(token.map[0] + 1, token.map[1]),
                    spans,
                    content,
                    containers,
                    tuple(protected),
                )
            )

    def cell_to_source(self, token: Token) -> Callable[[int], int]:
        """Map a table cell's content offsets to the source.

        A cell's content reads each escaped pipe ``\\|`` as ``|`` (GFM drops the
        backslash before the inline parse), so every pipe before an offset
        shifts it one character further in the source.
        """
        assert token.map is not None
        line = token.map[0]
        source = self.lines[line]
        cursor = self.cell_cursor.get(line, 0)
        written = token.content.replace("|", "\\|")
        column = source.find(written, cursor) if written else cursor
        if column < 0:
            column = cursor
        self.cell_cursor[line] = column + len(written)
        base = self.line_starts[line] + column
        pipes = [i for i, char in enumerate(token.content) if char == "|"]
        if not pipes:
            return lambda pos: base + pos
        # a pipe itself maps to its "|", one past its backslash
        return lambda pos: base + pos + bisect.bisect_right(pipes, pos)

    def visit_children(self, children: Sequence[Token], to_source: Callable[[int], int]) -> list[Span]:
        protected: list[Span] = []
        for child in children:
            if child.type == "footnote_ref":
                self.footnote_refs.append(str((child.meta or {}).get("label", "")))
            if child.type not in _RECORDED:
                continue
            where = (child.meta or {}).get("src")
            if where is None:
                continue
            span = Span(to_source(where[0]), to_source(where[1] - 1) + 1 if where[1] > where[0] else to_source(where[0]))
            if child.type == "code_inline":
                self.code_spans.append(span)
                protected.append(span)
            elif child.type == "html_inline":
                self.scan_html(self.text[span.start : span.end], span.start)
                protected.append(span)
            elif child.type.startswith("math_inline"):
                self.math_spans.append(span)  # TeX, not Markdown: no links, kept as written
                protected.append(span)
            elif child.type in ("link_open", "image"):
                self.add_link(child, span, to_source)
                if child.type == "image" or child.markup == "autolink":
                    protected.append(span)
        return protected

    def add_link(self, token: Token, span: Span, to_source: Callable[[int], int]) -> None:
        meta = token.meta
        line, column = position_of(self.line_starts, span.start)
        text_span = None
        if "text" in meta:
            text_span = Span(to_source(meta["text"][0]), to_source(meta["text"][0]) + (meta["text"][1] - meta["text"][0]))
        text = self.text[text_span.start : text_span.end] if text_span else ""
        if token.markup == "autolink":
            destination = self.text[span.start + 1 : span.end - 1]
            self.links.append(
                Link(LinkKind.AUTOLINK, destination, line, column, span, Span(span.start + 1, span.end - 1))
            )
            return
        if "dest" in meta:
            start, end = to_source(meta["dest"][0]), to_source(meta["dest"][1] - 1) + 1
            raw = self.text[start:end]
            if raw.startswith("<") and raw.endswith(">"):
                start, end, raw = start + 1, end - 1, raw[1:-1]
            kind = LinkKind.IMAGE if token.type == "image" else LinkKind.INLINE
            self.links.append(
                Link(kind, raw, line, column, span, Span(start, end), None, text, text_span)
            )
            return
        label = meta.get("label")
        if label is None:
            return
        normalized = normalizeReference(label)
        self.used_labels.add(normalized)
        kind = LinkKind.IMAGE if token.type == "image" else LinkKind.REFERENCE
        self.links.append(Link(kind, "", line, column, span, None, normalized, text, text_span))

    def add_heading(self, opener: Token, inline: Token) -> None:
        assert opener.map is not None
        text = "".join(_heading_text(inline.children or []))
        slug = self.slugger.slug(text)
        start = self.offset(opener.map[0])
        end = self.offset(opener.map[1] - 1) + len(self.lines[opener.map[1] - 1])
        self.headings.append(
            Heading(int(opener.tag[1]), text, slug, opener.map[0] + 1, Span(start, end))
        )

    def scan_html(self, source: str, base: int) -> None:
        comments = [m.span() for m in _HTML_COMMENT.finditer(source)]
        for tag in _TAG.finditer(source):
            if any(a <= tag.start() < b for a, b in comments):
                continue
            name = tag.group(1).lower()
            attrs_start = tag.start(2)
            for attr in _ATTR.finditer(tag.group(2)):
                key = attr.group(1).lower()
                raw = attr.group(2)
                if raw is None:
                    continue
                value_start = base + attrs_start + attr.start(2)
                quoted = raw[:1] in "\"'"
                value = raw[1:-1] if quoted else raw
                if quoted:
                    value_start += 1
                line, column = position_of(self.line_starts, value_start)
                if name == "a" and key in ("name", "id"):
                    self.anchors.append(Anchor(html.unescape(value), line))
                elif key in ("href", "src"):
                    kind = LinkKind.HTML_HREF if key == "href" else LinkKind.HTML_SRC
                    dest_span = Span(value_start, value_start + len(value))
                    self.links.append(
                        Link(
                            kind,
                            html.unescape(value),
                            line,
                            column,
                            Span(base + tag.start(), base + tag.end()),
                            dest_span,
                            None,
                            name,
                        )
                    )

    def add_definitions(self, start_line: int, end_line: int) -> None:
        start = self.offset(start_line)
        end = self.offset(end_line) if end_line < len(self.line_starts) else len(self.text)
        chunk = self.text[start:end]
        # strip container prefixes line by line, remembering where each line starts
        for match in _DEFINITION.finditer(_blank_prefixes(chunk)):
            label = match.group("label")
            dest = match.group("angle") if match.group("angle") is not None else match.group("bare")
            dest_start = start + (match.start("angle") if match.group("angle") is not None else match.start("bare"))
            def_start = start + match.start("open")
            line, column = position_of(self.line_starts, def_start)
            self.definitions.append(
                Definition(
                    label,
                    normalizeReference(label),
                    dest,
                    line,
                    column,
                    Span(def_start, start + match.end("bare" if match.group("bare") is not None else "angle") + (1 if match.group("angle") is not None else 0)),
                    Span(dest_start, dest_start + len(dest)),
                )
            )


# A heading's explicit id on a docs site: ``## Title {#id}`` (MkDocs
# attr_list, Docusaurus, Hugo, Pandoc), other attributes allowed beside it.
# GitHub shows the braces as text and slugs them; the site uses the id.
_HEADING_ID = re.compile(r"\{[ \t]*(?:[^{}#\s][^{}\s]*[ \t]+)*#([^\s{}#\"']+)[^{}]*\}[ \t]*$")


def site_heading_id(text: str) -> str | None:
    """The id a docs site gives a heading whose text ends with ``{#id}``, else None.

    Not an anchor on GitHub (which slugs the braces as text), so a link to
    it is a finding; but ``fix`` must not "repair" such a link into GitHub's
    slug, which would break it on the site the docs are built into.
    """
    found = _HEADING_ID.search(text)
    return found.group(1) if found else None

_DEFINITION = re.compile(
    r"(?m)^[ \t]*(?P<open>\[)(?P<label>(?:[^\[\]\\]|\\.){0,999}?)\]:[ \t]*\n?[ \t]*"
    r"(?:<(?P<angle>[^<>\n]*)>|(?P<bare>[^\s<][^\s]*))"
)
_PREFIX = re.compile(r"(?m)^(?:[ \t]*>)+")


def _blank_prefixes(chunk: str) -> str:
    """Replace block-quote markers by spaces so offsets stay put."""
    return _PREFIX.sub(lambda m: " " * len(m.group(0)), chunk)


def _heading_text(children: Sequence[Token]) -> Iterator[str]:
    for child in children:
        if child.type in ("text", "code_inline", "math_inline", "math_inline_double"):
            yield child.content
        elif child.type in ("softbreak", "hardbreak"):
            yield "\n"


def _line_mapper(content: str, offsets: list[int]) -> Callable[[int], int]:
    """Map offsets in (possibly multi-line) inline content to the source, line by line."""
    line_breaks = _newlines(content)
    if not line_breaks:
        base = offsets[0]
        return lambda pos: base + pos

    def to_source(pos: int) -> int:
        k = bisect.bisect_left(line_breaks, pos)
        line_start = line_breaks[k - 1] + 1 if k else 0
        return offsets[min(k, len(offsets) - 1)] + (pos - line_start)

    return to_source


def _newlines(text: str) -> list[int]:
    """Offsets of every ``\\n`` in ``text``."""
    found: list[int] = []
    at = text.find("\n")
    while at != -1:
        found.append(at)
        at = text.find("\n", at + 1)
    return found


def parse(path: str, text: str, newline: str = "\n", bom: bool = False) -> Document:
    """Parse normalised text (``\\n`` line ends) into a document."""
    env: dict[str, Any] = {}
    tokens = _parser().parse(text, env)
    line_starts = line_starts_of(text)
    builder = _Builder(path, text, line_starts, text.split("\n"))
    builder.build(tokens, env)
    return Document(
        path=path,
        text=text,
        newline=newline,
        bom=bom,
        line_starts=line_starts,
        headings=tuple(builder.headings),
        anchors=tuple(builder.anchors),
        links=tuple(sorted(builder.links, key=lambda link: link.span.start)),
        definitions=tuple(sorted(builder.definitions, key=lambda d: d.span.start)),
        code_spans=tuple(builder.code_spans),
        blocks=tuple(builder.blocks),
        paragraphs=tuple(builder.paragraphs),
        used_labels=frozenset(builder.used_labels),
        footnote_ids=footnote_ids(builder.footnote_refs),
        math_spans=tuple(builder.math_spans),
    )


def footnote_ids(labels: Sequence[str]) -> tuple[str, ...]:
    """The element ids cmark-gfm gives footnotes referenced with ``labels``
    (in order): ``fn-x`` for each note, ``fnref-x``, ``fnref-x-2``… for its
    references. GitHub prefixes every id with ``user-content-``."""
    ids: list[str] = []
    seen: dict[str, int] = {}
    for label in labels:
        count = seen[label] = seen.get(label, 0) + 1
        if count == 1:
            ids += [f"fn-{label}", f"fnref-{label}"]
        else:
            ids.append(f"fnref-{label}-{count}")
    return tuple(ids)


def parse_bytes(path: str, data: bytes) -> Document:
    text, newline, bom = decode(data)
    return parse(path, text, newline, bom)


def math_signature(text: str) -> tuple[tuple[str, str], ...]:
    """Every math expression in ``text`` as GitHub's math rules read it: the
    kind (``math_block`` on its own lines, ``math_inline`` for ``$…$``,
    ``math_inline_double`` for ``$$…$$`` inside a paragraph) and the TeX,
    whitespace runs read as one space (TeX does)."""
    if "$" not in text:
        return ()  # no dollar, no formula: spare the parse (most documents)
    found: list[tuple[str, str]] = []
    for token in _plain_parser().parse(text):
        candidates = token.children if token.type == "inline" and token.children else [token]
        for child in candidates:
            if child.type.startswith("math_"):
                found.append((child.type, _WS.sub(" ", child.content).strip()))
    return tuple(found)
