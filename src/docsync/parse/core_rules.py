"""Shortcuts in markdown-it's core chain: inline content parsed no further
than its characters make necessary, the tidying passes run only where they
can have work, and the footnote pass skipped where there are no footnotes.

Written against markdown-it's core rule interface (the core state it passes,
``State``; its inline state and token classes are passed in), so only
:mod:`docsync.parse.markdown` imports markdown-it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from .inline_rules import links_only

State = Any
"""markdown-it's ``StateCore``."""
Parser = Any
"""markdown-it's ``MarkdownIt``."""


# What markdown-it's tidying passes act on. The post-processing rules
# (ruler2) pair and join emphasis and strikethrough delimiters, which only
# ``*``, ``_`` and ``~`` make; the core text_join rule also turns escapes and
# entities (``\\``, ``&``) into text and joins adjacent text tokens, which
# nothing else makes. For content without these characters both passes
# leave every token as it is.
_DELIMITERS = re.compile(r"[*_~]")
_JOINABLE = re.compile(r"[*_~\\&]")
_TIDYING = frozenset({"balance_pairs", "strikethrough", "emphasis", "fragments_join"})
# The blocks whose inline content the model reads only for its links, code,
# HTML and math (a heading's text makes its slug: headings are always parsed).
_UNREAD_PARENTS = frozenset({"paragraph_open", "th_open", "td_open"})
UNREAD = "docsync_unread"
"""The ``meta`` key on an inline token left unparsed (see :func:`inline_shortcuts`)."""


def inline_shortcuts(md: Parser, unread: bool, state_inline: type, make_token: Callable[..., Any]) -> None:
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
    goes the long way. ``make_token`` makes a token as markdown-it's
    ``Token`` does (it may be ``Token``).

    With ``unread`` (the parser has exactly the inline rules the shortcuts
    know), the content of a paragraph or table cell that holds only text and
    plain links is not parsed: its children are the ``link_open`` tokens
    alone (:func:`~docsync.parse.inline_rules.links_only`), and it is marked
    :data:`UNREAD`. ``text_join`` passes such content by: it joins text
    tokens and turns escapes into text, and these children hold neither.
    """
    terminators = getattr(md.inline, "terminator_re", None)
    plain_text = isinstance(terminators, re.Pattern)
    post_rules = frozenset(rule.name for rule in md.inline.ruler2.__rules__ if rule.enabled)
    tidy = post_rules == _TIDYING
    if not plain_text and not tidy and not unread:
        return
    parse_inline = md.inline.parse
    tokenize = md.inline.tokenize

    def inline(state: State) -> None:
        parent = ""
        for token in state.tokens:
            if token.type != "inline":
                parent = token.type
                continue
            if token.children is None:
                token.children = []
            content = token.content
            reads = unread and parent in _UNREAD_PARENTS
            links = links_only(content, state.md, state.env, make_token) if reads else None
            if links is not None:
                token.children, token.meta[UNREAD] = links, True
            elif plain_text and state.md.inline.terminator_re.search(content) is None:
                if content:
                    token.children.append(make_token("text", "", 0, content=content))
            elif tidy and _DELIMITERS.search(content) is None:
                tokenize(state_inline(content, state.md, state.env, token.children))
            else:
                parse_inline(content, state.md, state.env, token.children)

    md.core.ruler.at("inline", inline)
    text_join = next((r.fn for r in md.core.ruler.__rules__ if r.name == "text_join"), None)
    if tidy and text_join is not None:

        def join(state: State) -> None:
            joinable = [
                t
                for t in state.tokens
                if t.type == "inline" and UNREAD not in t.meta and _JOINABLE.search(t.content)
            ]
            if joinable:
                text_join(SimpleNamespace(tokens=joinable))

        md.core.ruler.at("text_join", join)


def spare_core_passes(md: Parser) -> None:
    """Two passes of markdown-it's core chain skipped where they would change nothing.

    ``normalize`` rewrites every line ending to ``\\n`` and every NUL to
    U+FFFD with two substitutions over the whole text, the first of which
    matches at every ``\\n``; without a ``\\r`` or a NUL in the text they
    give it back as it was (documents arrive normalised, see
    :func:`docsync.parse.markdown.decode`). The footnote plugin's
    ``footnote_tail`` rebuilds the token list, without the tokens between
    each ``footnote_reference_open`` and its close, then appends the notes
    that were referenced. Those opening tokens are made only by the
    footnote-definition rule, right after it records the label in the
    ``refs`` table, and notes are listed in the ``list`` table; with both
    empty the pass keeps every token and appends none, and all it leaves
    is both tables present in ``env``, which is done here too.
    """
    normalize = _core_rule(md, "normalize")
    tail = _core_rule(md, "footnote_tail")
    if normalize is not None:

        def normalized(state: State) -> None:
            if "\r" in state.src or "\0" in state.src:
                normalize(state)

        md.core.ruler.at("normalize", normalized)
    if tail is not None:

        def footnotes(state: State) -> None:
            notes = state.env.get("footnotes")
            if notes is not None and not notes.get("refs") and not notes.get("list"):
                notes.setdefault("refs", {})
                notes.setdefault("list", {})
                return
            tail(state)

        md.core.ruler.at("footnote_tail", footnotes)


def _core_rule(md: Parser, name: str) -> Any:
    return next((rule.fn for rule in md.core.ruler.__rules__ if rule.name == name and rule.enabled), None)
