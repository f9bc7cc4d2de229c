"""Inline rules docsync puts into markdown-it's, and the wrapper that makes
its own rules record where their tokens came from.

Written against markdown-it's rule interface: each takes the inline state
markdown-it passes (``State``) and reaches markdown-it's helpers through it
(``state.md.helpers``, ``state.md.utils``), so only
:mod:`docsync.parse.markdown` imports markdown-it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

State = Any
"""markdown-it's ``State``."""

RECORDED = frozenset({"link_open", "image", "code_inline", "html_inline", "math_inline", "math_inline_double"})


InlineRule = Callable[[State, bool], bool]


def record_inline(
    fn: InlineRule, trigger: str | None, fast: Callable[[State, bool], bool | None] | None = None
) -> InlineRule:
    """``fn`` recording where its token came from; ``trigger`` is the character
    ``fn`` starts with (it returns False anywhere else), checked here first
    because the rules run at every position the text rule stops at. ``fast``,
    when given, is tried first: it does ``fn``'s whole job, recording
    included, for the shapes it knows, and returns None for the rest."""

    def rule(state: State, silent: bool) -> bool:
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
            token = next((t for t in state.tokens[before:] if t.type in RECORDED), None)
            if token is None:
                return ok
            token.meta = {**(token.meta or {}), "src": (start, state.pos)}
            if token.type in ("link_open", "image") and token.markup != "autolink":
                token.meta.update(_link_parts(state, start, token.type == "image"))
        return ok

    return rule


def _link_parts(state: State, start: int, image: bool) -> dict[str, Any]:
    """Where the text, destination and label of a link starting at ``start`` are."""
    src = state.src
    label_start = start + (2 if image else 1)
    old_pos = state.pos
    label_end = state.md.helpers.parseLinkLabel(state, label_start - 1, not image)
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
PLAIN_LINK_RULES = frozenset(
    {
        "text", "newline", "escape", "backticks", "strikethrough", "emphasis", "link",
        "image", "footnote_inline", "footnote_ref", "autolink", "html_inline", "entity",
        "math_inline",
    }
)


def plain_link(state: State, silent: bool) -> bool | None:
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
    href = state.md.normalizeLink(state.md.utils.unescapeAll(dest) if "&" in dest else dest)
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


def no_digits_around(rule: InlineRule) -> InlineRule:
    """The inline math rule, refusing a ``$`` right after a digit or a closing
    ``$`` right before one (so "5$ and $10" is money, not math).

    The plugin's own check reads the character before position 0 as the
    content's last one (a negative index), so "$x$ is 7" was not math.
    """

    def math(state: State, silent: bool) -> bool:
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


# What can start an inline construct the model reads, other than a plain
# link: footnote references and images (``[^``, ``![``), inline footnotes
# (``^[``), autolinks and raw HTML (``<``), code spans, math, and escapes
# and entities (which can hide or make a ``[``).
_OTHER_READ = re.compile(r"[<`$\\&^]|!\[")


def links_only(content: str, md: Any, token: Callable[..., Any]) -> list[Any] | None:
    """The only tokens the model reads in inline ``content``, without parsing
    it, when that content holds nothing but text and plain links; else None.

    For content with none of the characters of :data:`_OTHER_READ`, where
    every ``[`` starts what :func:`plain_link` takes, markdown-it's parse
    reaches each ``[`` (only text, line breaks and emphasis delimiters lie
    between them, and none of those consume a ``[``) and makes each link
    exactly as :func:`plain_link` does. So the ``link_open`` tokens, made
    here the same way, are everything the model would read; the text,
    break and emphasis tokens around them it never reads. ``token``
    makes a token (markdown-it's ``Token``).
    """
    if _OTHER_READ.search(content) is not None:
        return None
    found: list[Any] = []
    at = content.find("[")
    while at != -1:
        match = _PLAIN_LINK.match(content, at)
        if match is None:
            return None
        dest = match.group(2)
        href = md.normalizeLink(dest)
        if not md.validateLink(href):
            return None
        meta = {"src": (at, match.end()), "text": match.span(1), "dest": match.span(2)}
        found.append(token("link_open", "a", 1, attrs={"href": href}, meta=meta))
        at = content.find("[", match.end())
    return found
