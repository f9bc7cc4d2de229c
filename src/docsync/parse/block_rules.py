"""Block rules docsync puts into markdown-it's: lines a docs site reads as
structure, the check on ``:::`` container names, the dispatcher that tries
each line's possible rules only, and the wrapper that records the lines the
reference rule took.

Written against markdown-it's rule interface (the block state it passes,
``State``), so only :mod:`docsync.parse.markdown` imports markdown-it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from typing import Any

State = Any
"""markdown-it's ``State``."""
Parser = Any
"""markdown-it's ``MarkdownIt``."""
Token = Any
"""markdown-it's ``Token``."""

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


def standalone_line(state: State, start: int, end: int, silent: bool) -> bool:
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


def _shortcode_end(state: State, start: int, end: int, line: str) -> int | None:
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


def any_container(params: str, markup: str) -> bool:
    """A ``:::`` container of any name (VitePress, Docusaurus): ``::: tip Title``, ``:::note[Title]``."""
    return bool(params.strip())


def render_line(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return f"<p>{html.escape(tokens[idx].content)}</p>\n"


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


def dispatch_block_rules(md: Parser) -> None:
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

    def dispatch(state: State, start: int, end: int, silent: bool) -> bool:
        char = state.src[state.bMarks[start] + state.tShift[start]]
        return any(rule(state, start, end, silent) for rule in by_char.get(char, anywhere))

    md.block.ruler.before(rules[0][0], "docsync_dispatch", dispatch)


BlockRule = Callable[[State, int, int, bool], bool]


def record_block(fn: BlockRule, key: str) -> BlockRule:
    def rule(state: State, start: int, end: int, silent: bool) -> bool:
        ok = fn(state, start, end, silent)
        if ok and not silent:
            state.env.setdefault(key, []).append((start, state.line))
        return ok

    return rule
