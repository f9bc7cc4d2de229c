"""What GitHub renders a Markdown file to, for proving a rewrite safe.

GitHub renders Markdown with cmark-gfm (through the ``cmarkgfm`` package
here, the binding PyPI renders READMEs with), GFM extensions on, and then
applies rules of its own that the library does not have:

- **alerts**: a block quote whose first line is ``[!NOTE]`` (``TIP``,
  ``IMPORTANT``, ``WARNING``, ``CAUTION``, any case) alone becomes an alert;
  with anything else on that line it stays a plain quote;
- **math**: ``$…$`` and ``$$…$$`` are formulas (read through the document
  model's math rules, :func:`docsync.parse.markdown.math_signature`);
- **footnote ids** and every other ``id``/``name`` get the ``user-content-``
  prefix.

:func:`github_rendering` is the page as a reader sees it, whitespace runs
outside ``<pre>`` read as one space (a browser does); a re-wrap must leave
it exactly as it was. :func:`github_structure` is the same page without the
link targets and text, for rewrites whose whole point is to change a link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

import cmarkgfm
from cmarkgfm import _cmark as _native
from cmarkgfm.cmark import Options

from .markdown import math_signature

__all__ = ["GithubRendering", "github_html", "github_rendering", "github_structure"]

_OPTIONS = Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES
# What cmarkgfm.github_flavored_markdown_to_html adds to the options and attaches.
_GFM_OPTIONS = _OPTIONS | Options.CMARK_OPT_GITHUB_PRE_LANG
_GFM_EXTENSIONS = ("table", "autolink", "tagfilter", "strikethrough", "tasklist")


def _library_cmark(text: str) -> str:
    """The page as the binding's own wrapper renders it (what :func:`_cmark` must equal)."""
    html: str = cmarkgfm.github_flavored_markdown_to_html(text, options=_OPTIONS)
    return html


@cache
def _extensions() -> tuple[Any, ...]:
    """The GFM extensions, looked up once: the wrapper registers and finds all five by
    name on every call, which costs as much as rendering a short page."""
    _native.lib.cmark_gfm_core_extensions_ensure_registered()
    found = tuple(_native.lib.cmark_find_syntax_extension(n.encode()) for n in _GFM_EXTENSIONS)
    if any(e == _native.ffi.NULL for e in found):
        raise ValueError("cmark-gfm lacks a GFM extension")
    return found


def _cmark(text: str) -> str:
    """cmark-gfm's HTML for ``text``: :func:`_library_cmark`'s calls, the extensions found once."""
    lib = _native.lib
    encoded = text.encode("utf-8")
    parser = lib.cmark_parser_new(_GFM_OPTIONS)
    try:
        for extension in _extensions():
            lib.cmark_parser_attach_syntax_extension(parser, extension)
        lib.cmark_parser_feed(parser, encoded, len(encoded))
        root = lib.cmark_parser_finish(parser)
        if lib.cmark_node_get_type(root) == lib.CMARK_NODE_NONE:
            raise ValueError("Error parsing markdown!")
        raw = lib.cmark_render_html(root, _GFM_OPTIONS, lib.cmark_parser_get_syntax_extensions(parser))
    finally:
        lib.cmark_parser_free(parser)
    html: str = _native.ffi.string(raw).decode("utf-8")
    return html


_ALERT = re.compile(
    r"<blockquote>\n<p>\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(?:\n|</p>\n)", re.IGNORECASE
)
_IDS = re.compile(r'\b(id|name)="(?!user-content-)')
_FOOTNOTE_HREF = re.compile(r'href="#(fn(?:ref)?-)')


def github_html(text: str) -> str:
    """cmark-gfm's HTML for ``text`` with GitHub's alert and id rules applied."""
    html = _cmark(text)
    # Each rule only where the text it needs occurs: a search that finds nothing costs as
    # much as the render (the id rule tries every word boundary of the page).
    if "[!" in html:
        html = _ALERT.sub(lambda m: f'<blockquote class="markdown-alert-{m.group(1).lower()}">\n<p>', html)
    if 'id="' in html or 'name="' in html:
        html = _IDS.sub(r'\1="user-content-', html)
    if 'href="#fn' in html:
        html = _FOOTNOTE_HREF.sub(r'href="#user-content-\1', html)
    return html


@dataclass(frozen=True, slots=True)
class GithubRendering:
    """What a reader sees on GitHub: the page's HTML and its formulas."""

    html: str
    math: tuple[tuple[str, str], ...]


_PRE = re.compile(r"(<pre\b.*?</pre>)", re.DOTALL)
_SPACE = re.compile(r"\s+")


def _collapsed(html: str) -> str:
    """Whitespace runs outside ``<pre>`` as one space, as a browser shows them."""
    parts = _PRE.split(html)
    return "".join(part if k % 2 else _SPACE.sub(" ", part) for k, part in enumerate(parts))


def github_rendering(text: str) -> GithubRendering:
    return GithubRendering(_collapsed(github_html(text)).strip(), math_signature(text))


_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)([^>]*)>")
# A link attribute as HTML allows it: double-quoted, single-quoted or unquoted
# (``<img src=design/overview.png>``), any letter case.
_LINK_ATTRS = re.compile(r"""\s(?:href|src|srcset)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+)""", re.IGNORECASE)


def github_structure(text: str) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The page's elements in order with their attributes, links and link
    targets left out, and its formulas: what a link rewrite must not change."""
    tags: list[str] = []
    depth = 0  # inside how many links: their text is the rewrite's to change
    for closing, name, attrs in _TAG.findall(github_html(text)):
        if name in ("a", "A"):  # the name is ASCII: the only two whose lower case is "a"
            depth = max(0, depth - 1) if closing else depth + 1
        elif not depth:
            # Both substitutions leave an empty string empty (most tags have no attributes).
            tags.append(f"<{closing}{name}{_SPACE.sub(' ', _LINK_ATTRS.sub('', attrs)) if attrs else ''}>")
    return tuple(tags), math_signature(text)
