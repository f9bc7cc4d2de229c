"""markdown-it-py where it serves best: what ``fix`` compares before it writes.

This is the only module that imports markdown-it. The model every gate reads
is pyromark's (:mod:`docsync.parse.native`); here GitHub's dialect plus the
docs-site syntax that carries structure (front matter, ``:::`` containers,
``!!!`` admonitions, standalone lines, math) renders a text to tokens, so that
a rewrite is proven to change nothing a reader sees before it is written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

import markdown_it
import mdit_py_plugins
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from .block_rules import any_container, render_line, standalone_line
from .inline_rules import no_digits_around

__all__ = ["RENDERER_VERSIONS", "math_signature", "render_html", "render_signature", "tokens"]

RENDERER_VERSIONS = f"markdown-it-py {markdown_it.__version__}, mdit-py-plugins {mdit_py_plugins.__version__}"
"""The libraries whose rendering ``fix`` compares."""


# --------------------------------------------------------------------------- the parser


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


@cache
def _plain_parser() -> MarkdownIt:
    return _dialect()


def tokens(text: str) -> list[Token]:
    """markdown-it-py's whole parse of ``text`` in the dialect (``scripts/bench_floor.py --library``)."""
    parsed: list[Token] = _plain_parser().parse(text)
    return parsed


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
