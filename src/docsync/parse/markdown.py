"""Bytes in, :class:`~docsync.model.Document` out.

This is the only module that imports markdown-it. The parser is CommonMark
plus the GitHub extensions that change block structure (tables,
strikethrough, footnotes) and front matter, so that what we check and what
we rewrite is read the way GitHub renders it.

Positions: markdown-it gives block tokens a line map but inline tokens none.
We wrap the inline rules that make links, images, autolinks, raw HTML and code
spans so each records where in the inline content it started and ended, and
map those offsets back to the source through the paragraph's lines (each
content line is a suffix of its source line once the container prefix goes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from types import SimpleNamespace
from typing import Any

import markdown_it
import mdit_py_plugins
from markdown_it import MarkdownIt
from markdown_it.common import utils as markdown_it_utils
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

from ..model import Document
from . import block_loop, block_state, core_rules, inline_rules
from .block_rules import (
    any_container,
    dispatch_block_rules,
    record_block,
    render_line,
    standalone_line,
)
from .build import document
from .inline_rules import PLAIN_LINK_RULES, no_digits_around, record_inline

__all__ = [
    "PARSER_VERSIONS", "SourceError", "block_tokens", "decode", "math_signature", "normalize_label", "normalized",
    "parse", "parse_bytes", "render_html", "render_signature", "tokenize",
]

PARSER_VERSIONS = f"markdown-it-py {markdown_it.__version__}, mdit-py-plugins {mdit_py_plugins.__version__}"
"""The libraries whose parsing decisions a document records (a cached one is
only as good as the versions that made it)."""


# --------------------------------------------------------------------------- decoding


class SourceError(Exception):
    """A file that cannot be read as Markdown text (bad encoding, NUL byte)."""

    def __init__(self, rule: str, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.line = line
        self.column = column


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
    return text_parts(text)


def text_parts(text: str) -> tuple[str, str, bool]:
    """A decoded text as a document holds it: (text with ``\\n`` line ends, newline, had BOM)."""
    bom = text.startswith(_BOM)
    if bom:
        text = text[1:]
    return normalized(text), newline_of(text), bom


def newline_of(text: str) -> str:
    """The line ending a new line break in ``text`` gets: ``\r\n`` where any line ends so,
    a lone ``\r`` where every line does (an old Mac file), else ``\n``."""
    if "\r\n" in text:
        return "\r\n"
    return "\r" if "\r" in text and "\n" not in text else "\n"


def normalized(text: str) -> str:
    """``text`` with every line ending (CRLF, a lone CR) as ``\\n``, as documents hold it."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


# --------------------------------------------------------------------------- the parser


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


_KEPT = r"[A-Za-z0-9;/?@&=+$,\-_.!~*'()#]*"
_NORMAL_URL = re.compile(rf"(?!//){_KEPT}(?:%[0-9A-Fa-f]{{2}}{_KEPT})*")


def _normalize_link(url: str) -> str:
    """markdown-it's normalizeLink, skipped where it would change nothing.

    A URL of :data:`_NORMAL_URL` has no colon or leading ``//`` (no scheme
    or host: mdurl's parse and format give it back as it is) and only what
    mdurl's encode keeps (``_KEPT``, and ``%`` starting a two-hex-digit
    escape). Any other URL is normalised, so every ``href`` and image ``src``
    is markdown-it's. Percent-encoding every relative link was a tenth of the parse.

    The others (mostly absolute URLs, which a documentation tree repeats
    from page to page) are normalised once per process each: normalizeLink
    is a function of the URL alone (mdurl's parse, the host's punycode,
    mdurl's format and encode), so a remembered result is the one it would
    give again. The memory is emptied when it holds :data:`_REMEMBERED` URLs.
    """
    if _NORMAL_URL.fullmatch(url):
        return url
    known = _normalized_links.get(url)
    if known is None:
        if len(_normalized_links) >= _REMEMBERED:
            _normalized_links.clear()
        known = _normalized_links[url] = normalizeLink(url)
    return known


_normalized_links: dict[str, str] = {}
_REMEMBERED = 50_000


@cache
def _parser() -> MarkdownIt:
    return _build_parser(shortcuts=True)


def prepare() -> None:
    """Build the parser now, once per process: a process about to fork workers
    that parse builds it once for them all (they inherit it)."""
    _parser()


def _dialect() -> MarkdownIt:
    """GitHub's Markdown (CommonMark, tables, strikethrough, footnotes, math,
    alerts) plus the docs-site syntax that carries structure: front matter,
    ``:::`` containers, ``!!!``/``???`` admonitions, standalone lines."""
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    md.use(front_matter_plugin).use(footnote_plugin)
    md.use(container_plugin, name="docs", validate=any_container)
    md.use(admon_plugin)
    # GitHub's math: no space inside the dollars, no digit outside them
    # (so "$5 and $10" stays text), $$ on its own lines or inline.
    md.use(
        dollarmath_plugin,
        allow_labels=False,
        allow_space=False,
        allow_digits=True,  # checked by no_digits_around: the plugin's check misreads position 0
        allow_blank_lines=False,
        double_inline=True,
    )
    math = next(r.fn for r in md.inline.ruler.__rules__ if r.name == "math_inline")
    md.inline.ruler.at("math_inline", no_digits_around(math))
    md.block.ruler.before(
        "reference",
        "docsync_line",
        standalone_line,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.add_render_rule("docsync_line", render_line)
    return md


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
    plain_links = shortcuts and enabled <= PLAIN_LINK_RULES
    for name, trigger in triggers.items():
        original = next(r.fn for r in md.inline.ruler.__rules__ if r.name == name)
        fast = inline_rules.plain_link if plain_links and name == "link" else None
        md.inline.ruler.at(name, record_inline(original, trigger if shortcuts else None, fast))
    reference = next(r.fn for r in md.block.ruler.__rules__ if r.name == "reference")
    md.block.ruler.at("reference", record_block(reference, "docsync_definitions"))
    if shortcuts:
        block_state.install(md, StateBlock, Token)
        # markdown-it-py 4's trim of a paragraph's content (3's used str.strip)
        block_loop.install(md, getattr(markdown_it_utils, "mdTrim", None), *dispatch_block_rules(md))
        made = block_state.token_maker(Token)
        make_token = made if block_state.made_as(made, Token) else Token
        core_rules.inline_shortcuts(md, plain_links, StateInline, make_token)
        core_rules.spare_core_passes(md)
    return md


@cache
def _plain_parser() -> MarkdownIt:
    return _dialect()


@cache
def _block_parser(library: bool) -> MarkdownIt:
    md = _dialect() if library else _build_parser(shortcuts=True)
    md.core.ruler.disable("inline")
    return md


def block_tokens(text: str, library: bool = False) -> list[Token]:
    """The tokens of ``text``'s block-level parse alone: the model parser's
    (its shortcuts on; with ``library``, the dialect's with markdown-it's
    rules as shipped), the core ``inline`` rule off. The floor under every
    parse (``scripts/bench_floor.py``); the model never reads it."""
    tokens: list[Token] = _block_parser(library).parse(text, {})
    return tokens


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


def parse(path: str, text: str, newline: str = "\n", bom: bool = False) -> Document:
    """Parse normalised text (``\\n`` line ends) into a document."""
    tokens, env = tokenize(text)
    return document(path, text, newline, bom, tokens, env, normalize_label, block_state.take_lines(text))


normalize_label = normalizeReference  # markdown-it's label normalisation, for document()


def tokenize(text: str) -> tuple[list[Token], dict[str, Any]]:
    """The model parser's tokens of ``text`` and the ``env`` its rules left.

    What ``MarkdownIt.parse`` does, without its checks that the text is a
    string and the ``env`` a mapping (an abstract class's instance check,
    once per parse): both are ours."""
    env: dict[str, Any] = {}
    md = _parser()
    state = StateCore(text, md, env)
    md.core.process(state)
    return state.tokens, env


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
