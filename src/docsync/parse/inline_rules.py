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
from functools import cache
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


# Where the scan of :func:`links_only` stops: a link or a code span; an
# escape (it makes the character after it text, so that it starts nothing);
# and what could start anything else the model reads: an image or an inline
# footnote (``![``, ``^[``), an autolink or raw HTML (``<``), math (``$``).
# Footnote references (``[^``) start with a ``[`` that no plain link starts with.
_STOP_CHARS = "[`\\<$!^"
_STOPS = re.compile(f"[{re.escape(_STOP_CHARS)}]")
_BACKTICKS = re.compile(r"`+")


def links_only(content: str, md: Any, env: Any, token: Callable[..., Any]) -> list[Any] | None:
    """The only tokens the model reads in inline ``content``, without parsing
    it, when that content holds nothing but text, plain links and code
    spans; else None.

    The scan goes from stop to stop (:data:`_STOPS`): only text, entities,
    line breaks and emphasis delimiters lie between them, and markdown-it's
    rules for those consume none of the stop characters, so its parse
    reaches each stop the scan reaches, in turn. There the scan does what
    markdown-it does: at a ``[`` it makes the link markdown-it makes of an
    inline link with a plain text and destination, or of a reference link
    with a plain text and label (reading ``env``'s references as the link rule
    does), or else it gives up; it reads a backslash and the
    character after it as one escape; a run of backticks as the backticks
    rule does (a code span up to the next run of the same length, else
    literal text); ``!`` and ``^`` not before a ``[`` as text. It gives up
    at ``<`` and ``$`` and before ``![`` and ``^[``. What it jumps over in one
    go (a code span, a link) markdown-it's rules consume whole as well, so a
    ``$`` or ``<`` inside one starts nothing there either. So the
    ``link_open`` and ``code_inline`` tokens, made here the same way, are
    everything the model would read; the text, escape, entity, break and
    emphasis tokens around them it never reads. Content with no ``[`` or
    backtick at all gives no token. ``token`` makes a token (markdown-it's
    ``Token``).
    """
    found: list[Any] = []
    only = _only_stop(content)
    if only == "":
        return found
    at = next_stop(content, 0, only)
    while at >= 0:
        char = content[at]
        if char in "<$":
            return None
        if char in "!^":
            if content.startswith("[", at + 1):
                return None
            end = at + 1
        elif char == "\\":
            end = min(at + 2, len(content))  # markdown-it escapes any character after it
        elif char == "`":
            run = _BACKTICKS.match(content, at)
            assert run is not None
            closed = _code_span_end(content, at)
            end = run.end() if closed is None else closed
            if closed is not None:
                found.append(token("code_inline", "code", 0, markup=run.group(0), meta={"src": (at, end)}))
        else:
            link = _plain_link_token(content, at, md, token) or _reference_link_token(content, at, md, env, token)
            if link is None:
                return None
            made, end = link
            if made is not None:
                found.append(made)
        at = next_stop(content, end, only)
    return found


def _only_stop(content: str) -> str | None:
    """The one stop character (:data:`_STOPS`) ``content`` holds, ``""`` if it
    holds none, None if it holds more than one kind."""
    held = [char for char in _STOP_CHARS if char in content]
    return held[0] if len(held) == 1 else None if held else ""


def next_stop(content: str, pos: int, only: str | None) -> int:
    """Where the first stop character (:data:`_STOPS`) at or after ``pos`` is
    in ``content``, or -1; ``only`` is :func:`_only_stop`'s answer for it.

    Content with one kind of stop (most often ``[``, its links) is searched
    for that character alone: ``str.find`` steps over the text many times
    faster than the regular expression's character class, which was a
    twentieth of the parse of a prose tree.
    """
    if only:
        return content.find(only, pos)
    stop = _STOPS.search(content, pos)
    return -1 if stop is None else stop.start()


# A plain link as :func:`links_only` reads it: :data:`_PLAIN_LINK`, but its
# text may hold emphasis delimiters and entities. markdown-it finds the end
# of a link's text by skipping over what its rules take there, and these
# take no ``]``; the text and emphasis tokens they make the model never reads.
_UNREAD_LINK = re.compile(r"\[([^\n\\`\[\]!<^$]*)\]\(([^\x00-\x20\x7f()\\<][^\x00-\x20\x7f()\\]*)\)")


def _plain_link_token(content: str, at: int, md: Any, token: Callable[..., Any]) -> tuple[Any, int] | None:
    """The ``link_open`` token markdown-it makes for the inline link at ``at``
    (of :data:`_UNREAD_LINK`'s shape) and where the link ends, or None."""
    match = _UNREAD_LINK.match(content, at)
    if match is None:
        return None
    dest = match.group(2)
    href = md.normalizeLink(md.utils.unescapeAll(dest) if "&" in dest else dest)
    if not md.validateLink(href):
        return None
    meta = {"src": (at, match.end()), "text": match.span(1), "dest": match.span(2)}
    return token("link_open", "a", 1, attrs={"href": href}, meta=meta), match.end()


def _code_span_end(content: str, at: int) -> int | None:
    """Where the code span opened by the backtick run at ``at`` ends (past its
    closing run, the next run of the same length), or None if none closes it."""
    opener = _BACKTICKS.match(content, at)
    assert opener is not None
    closing = _closing_run(opener.end() - at).search(content, opener.end())
    return closing.end() if closing is not None else None


@cache
def _closing_run(size: int) -> re.Pattern[str]:
    """A run of exactly ``size`` backticks: the first after an opening run
    (which ends before a character that is no backtick) is the first run of
    :data:`_BACKTICKS` after it that is ``size`` long."""
    return re.compile(f"(?<!`)`{{{size}}}(?!`)")


_REFERENCE_LINK = re.compile(r"\[([^\n\\`\[\]!<^$]*)\](?:\[([^\n\\`\[\]!<^$]*)\])?")


def _reference_link_token(
    content: str, at: int, md: Any, env: Any, token: Callable[..., Any]
) -> tuple[Any, int] | None:
    """The ``link_open`` token markdown-it makes for a reference link at
    ``at`` (``[text][label]``, ``[text][]`` or ``[text]``, with a plain text
    and label), and where the link ends; no token, and the end of the ``[``
    alone, where the label names no definition (markdown-it then reads the
    ``[`` as text); None for any other shape.

    The link rule finds the text's end, and the label's, at the first ``]``
    (the shape has no bracket, escape, code span or other construct inside
    them), looks the label up, normalised, in the definitions the block
    parse collected, and makes the link with the definition's destination
    and title (these were validated when it was defined).
    """
    match = _REFERENCE_LINK.match(content, at)
    if match is None:
        return None
    after = match.end(1) + 1
    if content.startswith("(", after) or (match.group(2) is None and content.startswith("[", after)):
        return None  # an inline link markdown-it may fall back from, or a label we do not read
    label = match.group(2) or match.group(1)
    definition = (env.get("references") or {}).get(md.utils.normalizeReference(label))
    if not definition:
        return None, at + 1
    attrs = {"href": definition["href"]}
    if definition["title"]:
        attrs["title"] = definition["title"]
    meta = {"src": (at, match.end()), "text": match.span(1), "label": label}
    return token("link_open", "a", 1, attrs=attrs, meta=meta), match.end()
