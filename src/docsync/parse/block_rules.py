"""Block rules docsync puts into markdown-it's: lines a docs site reads as
structure, and the check on ``:::`` container names (what ``fix`` compares;
the model reads the same lines in :mod:`docsync.parse.site_lines`).

Written against markdown-it's rule interface (the block state it passes,
``State``), so only :mod:`docsync.parse.markdown` imports markdown-it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
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
