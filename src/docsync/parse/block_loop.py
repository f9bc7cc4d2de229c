"""markdown-it's block loop, paragraph rule and heading rule, each with its per-line method calls written out.

The block parse of a documentation tree is mostly two loops: the block
parser's own (``ParserBlock.tokenize``: skip blank lines, offer the line
to the rules, note blank lines for tight lists) and the paragraph rule's
(take lines until a blank one or one a terminator rule starts on). Both
are markdown-it's, step for step, with the state's line tables read as
lists instead of through ``isEmpty`` and ``skipEmptyLines``, no debug-log
call per block, and, in the block loop, the line offered directly to the
rules that can start on its first character (the dispatcher's tables, see
:func:`docsync.parse.block_rules.dispatch_block_rules`) instead of through
the dispatcher rule.

Each is installed only where it makes what markdown-it's makes on
:data:`PROBES` (:func:`install`): the same tokens, the same ``env``, and,
for the paragraph rule, the same state after every line of every probe.
A markdown-it-py release that changes either loop or the trimming of a
paragraph's content finds a difference there and keeps its own.

Written against markdown-it's block state and rule interface, so only
:mod:`docsync.parse.markdown` imports markdown-it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

State = Any
"""markdown-it's ``StateBlock``."""
Parser = Any
"""markdown-it's ``MarkdownIt``."""
BlockRule = Callable[[State, int, int, bool], bool]


def paragraph_rule(trim: Callable[[str], str]) -> BlockRule:
    """markdown-it's ``paragraph`` rule; ``trim`` is how it trims the content."""

    def paragraph(state: State, start: int, end: int, silent: bool) -> bool:
        after = start + 1
        terminators = state.md.block.ruler.getRules("paragraph")
        end = state.lineMax
        outer = state.parentType
        state.parentType = "paragraph"
        begins, ends, shifts, counts = state.bMarks, state.eMarks, state.tShift, state.sCount
        while after < end:
            if begins[after] + shifts[after] >= ends[after]:
                break  # a blank line
            indent = counts[after]
            # an indented line (lazy continuation) or a block quote's quirk: taken
            if indent - state.blkIndent > 3 or indent < 0:
                after += 1
                continue
            for rule in terminators:
                if rule(state, after, end, True):
                    break
            else:
                after += 1
                continue
            break
        content = trim(state.getLines(start, after, state.blkIndent, False))
        state.line = after
        token = state.push("paragraph_open", "p", 1)
        token.map = [start, after]
        token = state.push("inline", "", 0)
        token.content = content
        token.map = [start, after]
        token.children = []
        state.push("paragraph_close", "p", -1)
        state.parentType = outer
        return True

    return paragraph


# An ATX heading's opening run of ``#`` and the space or tab after it.
_ATX_OPENING = re.compile(r"#{1,6}[ \t]")
_MARKUPS = tuple("#" * level for level in range(7))
_TAGS = tuple(f"h{level}" for level in range(7))


def heading_rule(library: BlockRule, trim: Callable[[str], str]) -> BlockRule:
    """markdown-it's ``heading`` rule (``library``) for the commonest ATX
    heading, ``trim`` as it trims the content: one to six ``#``, a space or
    tab, and a last character that is no ``#``, space or tab (so no closing
    sequence or trailing whitespace to cut), not indented as code, not asked
    silently. Its three tokens are then known from where the ``#`` run ends;
    every other line goes to ``library``.
    """

    def heading(state: State, start: int, end: int, silent: bool) -> bool:
        src, at, last = state.src, state.bMarks[start] + state.tShift[start], state.eMarks[start]
        opening = _ATX_OPENING.match(src, at, last)
        if silent or opening is None or src[last - 1] in "# \t" or state.sCount[start] - state.blkIndent >= 4:
            return bool(library(state, start, end, silent))
        level = opening.end() - 1 - at
        state.line = start + 1
        token = state.push("heading_open", _TAGS[level], 1)
        token.markup = _MARKUPS[level]
        token.map = [start, start + 1]
        token = state.push("inline", "", 0)
        token.content = trim(src[at + level : last])
        token.map = [start, start + 1]
        token.children = []
        token = state.push("heading_close", _TAGS[level], -1)
        token.markup = _MARKUPS[level]
        return True

    return heading


def block_loop(
    block: Any,
    dispatch: BlockRule,
    by_char: Mapping[str, Sequence[BlockRule]],
    anywhere: Sequence[BlockRule],
) -> Callable[[State, int, int], None]:
    """``block``'s (markdown-it's ``ParserBlock``) ``tokenize``, offering each
    line to the rules ``by_char`` names for its first character (``anywhere``
    for any other; the first line of a text starting with ``-`` to those it
    names for ``""``, see :func:`~docsync.parse.block_rules.first_char`),
    as the dispatcher rule ``dispatch`` does. When the
    parser's chain does not start with ``dispatch`` (rules changed since),
    markdown-it's own runs instead."""
    library = type(block).tokenize

    def tokenize(state: State, start: int, end: int) -> None:
        if block.ruler.getRules("")[0] is not dispatch:
            library(block, state, start, end)
            return
        line = start
        deepest = state.md.options.maxNesting
        had_blank = False
        last = state.lineMax
        while line < end:
            begins, ends, shifts = state.bMarks, state.eMarks, state.tShift
            while line < last and begins[line] + shifts[line] >= ends[line]:
                line += 1
            state.line = line
            if line >= end or state.sCount[line] < state.blkIndent:
                break  # the end, or a line of the parent block (lists, quotes)
            if state.level >= deepest:
                state.line = end
                break
            src = state.src  # the rules' key is first_char's, written out (once a block)
            for rule in by_char.get(src[begins[line] + shifts[line]] if line or src[0] != "-" else "", anywhere):
                if rule(state, line, end, False):
                    if state.line <= line:
                        raise RuntimeError("block rule didn't increment state.line")
                    break
            else:
                raise RuntimeError("none of the block rules matched")
            state.tight = not had_blank
            line = state.line
            begins, ends, shifts = state.bMarks, state.eMarks, state.tShift
            if line - 1 < end and begins[line - 1] + shifts[line - 1] >= ends[line - 1]:
                had_blank = True  # a paragraph in a list can take the blank line after it
            if line < end and begins[line] + shifts[line] >= ends[line]:
                had_blank = True
                line += 1
                state.line = line

    return tokenize


def install(
    md: Parser,
    trim: Callable[[str], str] | None,
    dispatch: BlockRule,
    by_char: Mapping[str, Sequence[BlockRule]],
    anywhere: Sequence[BlockRule],
) -> bool:
    """Make ``md``'s block loop :func:`block_loop`'s and, given markdown-it's
    ``trim`` of a paragraph's and a heading's content, its paragraph rule
    :func:`paragraph_rule`'s and its heading rule :func:`heading_rule`'s,
    where ``md`` then parses every probe as with markdown-it's own
    (:func:`same_parse`); else leave all three markdown-it's.

    The rules must be put in before the dispatcher's tables are made (they
    hold the rules themselves): ``by_char`` and ``anywhere`` are made again
    here with them in markdown-it's place.
    """
    block, ruler = md.block, md.block.ruler
    # each rule's function and alternative chains as markdown-it has them
    # (``ruler.at`` puts a new function into the same rule object)
    library = {
        name: (rule.fn, list(rule.alt)) for name in ("paragraph", "heading") for rule in [ruler.__rules__[ruler.__find__(name)]]
    }
    ours = dict.fromkeys(library, None) if trim is None else {
        "paragraph": paragraph_rule(trim), "heading": heading_rule(library["heading"][0], trim),
    }
    for name, rule in ours.items():
        if rule is not None:
            by_char, anywhere = _swapped(by_char, library[name][0], rule), _swapped(anywhere, library[name][0], rule)
    loop = block_loop(block, dispatch, by_char, anywhere)

    def swap(fast: bool) -> None:
        for name, (fn, alt) in library.items():
            ruler.at(name, ours[name] or fn if fast else fn, {"alt": alt})
        if fast:
            block.tokenize = loop
        else:
            vars(block).pop("tokenize", None)

    if same_parse(md, swap):
        return True
    swap(False)
    return False


def _swapped(rules: Any, old: BlockRule, new: BlockRule) -> Any:
    """``rules`` (a tuple of rules, or a mapping to such tuples) with ``new`` in place of ``old``."""
    if isinstance(rules, Mapping):
        return {key: _swapped(value, old, new) for key, value in rules.items()}
    return tuple(new if rule is old else rule for rule in rules)


# Texts on the edges of both loops: blank lines of spaces and tabs, tight and
# loose lists, nesting past markdown-it's limit, lazy and indented
# continuation lines, block quotes, every terminator of a paragraph, content
# with whitespace markdown-it trims and whitespace it keeps.
PROBES = (
    "a",
    "a\nb\n\nc\n",
    " \t\n\na \u2003\u00a0\n \tb\u2028 \n\n\x85c\x1f\n",  # what markdown-it-py 4 trims, what it keeps
    "- a\n- b\n\n- c\n  d\n\n  e\n",
    "1. a\n\n   b\n2. c\n   - d\n\n     e\n",
    "> a\nb\n> > c\n>\n> d\n    e\n",
    "a\n    b\n  c\n# d\ne\n```\nf\n```\ng\n---\nh\n***\n<div>\ni\n</div>\n- j\n> k\n",
    "a\n1. b\n2) c\n\n1. d\n",
    "> " * 25 + "a\n" + "- " * 25 + "b\n",
    "[a]: b\n[c]\n\n[^d]: e\n  f\n\ng [^d] [c]\n",
    "!!! note\n    a\n    b\n\n    c\n\n::: tip\nd\n:::\n",
    "| a |\n| - |\n| b |\nc\n\n$$\nd\n$$\n",
    "---\na: b\n---\n\nc\n===\nd\n---\n",
    "\ta\n\n  \t b\n\t\n- \ta\n\n\t\tb\n",
    "{{< a >}}\nb\n{% c %}\n> [!NOTE]\n> d\n",
    "# a\n## b #\n###\tc\n####### d\n#e\n    # f\n- # g\n> ###### h  \n#\n# \u2003i\u00a0\na\n# j\n",
)


def same_parse(md: Parser, swap: Callable[[bool], None]) -> bool:
    """Whether ``md``'s block parser makes the same tokens and ``env`` of every
    probe with the fast loop and paragraph rule and with markdown-it's
    (``swap(True)`` puts the fast ones in, ``swap(False)`` the library's). The
    inline parse is left out: it reads only what the block parse made."""
    for probe in PROBES:
        made = []
        for fast in (True, False):
            swap(fast)
            env: dict[str, Any] = {}
            made.append((md.block.parse(probe, md, env, []), env))
        swap(True)
        if made[0] != made[1]:
            return False
    return True
