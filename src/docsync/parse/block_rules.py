"""Block rules docsync puts into markdown-it's: lines a docs site reads as
structure, the check on ``:::`` container names, the dispatcher that tries
each line's possible rules only, and the wrapper that records the lines the
reference rule took.

Written against markdown-it's rule interface (the block state it passes,
``State``), so only :mod:`docsync.parse.markdown` imports markdown-it.
"""

from __future__ import annotations

import bisect
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


BlockRule = Callable[[State, int, int, bool], bool]


Dispatch = tuple[BlockRule, dict[str, tuple[BlockRule, ...]], tuple[BlockRule, ...]]
"""The dispatcher rule, the rules it tries per first character, and those it tries on any other."""


def dispatch_block_rules(md: Parser) -> Dispatch:
    """Try on each line only the block rules that can start on it.

    markdown-it tries every block rule in order on every line until one
    matches; a rule that cannot start there returns False having changed
    nothing, so skipping it yields the same tokens. A rule is left out on a
    line whose first character (after its indentation) it cannot start on
    (``_BLOCK_TRIGGERS``; the first line of the text is offered to every
    rule), and the rules that can start on any character
    are first asked the question they themselves ask first (``_guarded``).
    On prose that is eight calls saved per line. The dispatcher goes first
    in the main chain only; the chains rules use to ask "does this line end
    my block?" get the same treatment (:func:`_dispatch_terminators`).
    """
    _skip_setext_search(md)
    rules = [(rule.name, _guarded(rule.name, rule.fn)) for rule in md.block.ruler.__rules__ if rule.enabled]
    anywhere = tuple(fn for name, fn in rules if name not in _BLOCK_TRIGGERS)
    by_char = {
        char: tuple(fn for name, fn in rules if char in _BLOCK_TRIGGERS.get(name, char))
        for char in set("".join(_BLOCK_TRIGGERS.values()))
    }

    # The first line of a text that starts with "-" gets every rule: front
    # matter starts there whatever the line's first character is (in "- x"
    # the list item's content, "x", is on line 0 too, and markdown-it takes
    # it). Front matter is the one rule that reads the text's first character
    # rather than its line's, and on any other text it starts nowhere.
    by_char[""] = tuple(fn for _, fn in rules)

    def dispatch(state: State, start: int, end: int, silent: bool) -> bool:
        char = first_char(state.src, state.bMarks[start] + state.tShift[start], start)
        for rule in by_char.get(char, anywhere):  # noqa: SIM110 (a loop costs less than any())
            if rule(state, start, end, silent):
                return True
        return False

    md.block.ruler.before(rules[0][0], "docsync_dispatch", dispatch)
    _dispatch_terminators(md.block.ruler)
    return dispatch, by_char, anywhere


def first_char(src: str, at: int, line: int) -> str:
    """The key of the rules a line is offered to: its first character (after
    its indentation, at ``at``), or ``""`` for the first line of a text that
    starts with ``-`` (see :func:`dispatch_block_rules`)."""
    return src[at] if line or src[0] != "-" else ""


def _guarded(name: str, fn: BlockRule) -> BlockRule:
    """``fn``, the rule ``name``, asked only where its own first test passes.

    The two core rules that can start on any character refuse most lines
    at once: ``code`` every line indented less than four columns past the
    block's indentation, ``table`` every line whose next line (the
    delimiter row) has no ``|``, ``-`` or ``:`` as its first character after
    the indentation, or that has no next line inside the block. Both then
    return False having changed nothing, which the guard does without the call.
    """
    if name == "code":

        def code(state: State, start: int, end: int, silent: bool) -> bool:
            return state.sCount[start] - state.blkIndent >= 4 and bool(fn(state, start, end, silent))

        return code
    if name == "table":

        def table(state: State, start: int, end: int, silent: bool) -> bool:
            if start + 2 > end:
                return False
            at = state.bMarks[start + 1] + state.tShift[start + 1]
            if at >= state.eMarks[start + 1] or state.src[at] not in "|-:":
                return False
            return bool(fn(state, start, end, silent))

        return table
    return fn


def _dispatch_terminators(ruler: Any) -> None:
    """The chains rules ask "does this line end my block?" (``paragraph``,
    ``list``, ``blockquote``, ``reference``), each made one rule that tries
    only the chain's rules that can start on the line's first character.

    A paragraph asks on every line it continues over, so on prose this is
    most of the block parse's rule calls. Each rule in a chain is asked in
    silent mode and the chain stops at the first yes; a rule left out here
    cannot start on that character, so it would have said no and changed
    nothing. The chains are rebuilt whenever markdown-it recompiles its own
    (a rule enabled or disabled later).
    """
    compiled = ruler.getRules
    made: dict[str, tuple[list[BlockRule], list[BlockRule]]] = {}

    def chain(name: str = "") -> list[BlockRule]:
        rules: list[BlockRule] = compiled(name)
        if not name:
            return rules
        known = made.get(name)
        if known is None or known[0] is not rules:
            names = {rule.fn: rule.name for rule in ruler.__rules__}
            known = made[name] = (rules, [_terminator(rules, names)])
        return known[1]

    ruler.getRules = chain


def _terminator(rules: Sequence[BlockRule], names: dict[BlockRule, str]) -> BlockRule:
    guarded = [_guarded(names.get(fn, ""), fn) for fn in rules]
    kinds = [names.get(fn, "") for fn in rules]
    anywhere = tuple(fn for fn, name in zip(guarded, kinds, strict=True) if name not in _BLOCK_TRIGGERS)
    by_char = {
        char: tuple(
            fn for fn, name in zip(guarded, kinds, strict=True) if char in _BLOCK_TRIGGERS.get(name, char)
        )
        for char in set("".join(_BLOCK_TRIGGERS.values()))
    }

    def terminates(state: State, start: int, end: int, silent: bool) -> bool:
        at = state.bMarks[start] + state.tShift[start]
        char = state.src[at] if at < len(state.src) else ""
        for rule in by_char.get(char, anywhere):  # noqa: SIM110 (a loop costs less than any())
            if rule(state, start, end, silent):
                return True
        return False

    return terminates


def record_block(fn: BlockRule, key: str) -> BlockRule:
    def rule(state: State, start: int, end: int, silent: bool) -> bool:
        ok = fn(state, start, end, silent)
        if ok and not silent:
            state.env.setdefault(key, []).append((start, state.line))
        return ok

    return rule


# A line that could underline a setext heading, as it is written in the
# source: whatever container prefix (indentation, ``>``) comes before the
# run of ``-`` or ``=``. Never the first line, which no paragraph is above.
_UNDERLINE = re.compile(r"\n[ \t>]*(?:-+|=+)[ \t]*$", re.MULTILINE)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _skip_setext_search(md: Parser) -> None:
    """markdown-it's ``lheading`` rule, not run where it cannot succeed.

    It runs before ``paragraph`` on every paragraph's first line and walks
    the paragraph line by line, asking the terminator chain of each, only
    to find in most documents that no line underlines it; then ``paragraph``
    walks the same lines again. An underline is a line whose content, after
    its container prefix, is a run of ``-`` or ``=``; as written in the source it
    is such a run after spaces, tabs and ``>`` (the prefixes of list items,
    block quotes and indented containers), and the walk ends at the first
    blank line at the latest. So where no such line comes after the first one
    before a blank source line, the rule would return False, having changed
    only the parent type (``lheading`` sets it and does not restore it on
    failure: that is done here too).

    The underlines of the text being parsed are kept here, beside the rule
    (the text compared by identity), never on the block state: reading the
    state's instance dict, or giving it a field of its own, left the state
    in two layouts within one parse (before and after the first paragraph),
    and CPython specialises each attribute read for one layout. Every rule's
    reads of the state went the generic way: a fifth of the block parse.
    """
    original = md.block.ruler.__rules__[md.block.ruler.__find__("lheading")].fn

    last: list[Any] = [None, []]  # the text last looked at, its underlines

    def lheading(state: State, start: int, end: int, silent: bool) -> bool:
        src = state.src
        if last[0] is not src:
            last[:] = src, [m.start() + 1 for m in _UNDERLINE.finditer(src)]
        underlines = last[1]
        after = state.eMarks[start]
        at = bisect.bisect_right(underlines, after)
        if at < len(underlines) and _BLANK_LINE.search(state.src, after, underlines[at]) is None:
            return bool(original(state, start, end, silent))
        if not state.is_code_block(start):
            state.parentType = "paragraph"
        return False

    md.block.ruler.at("lheading", lheading)
