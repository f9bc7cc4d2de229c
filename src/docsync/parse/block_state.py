"""markdown-it's block state with its line tables made a whole text at a time.

markdown-it's block parser starts by walking the text line by line to make
five tables: where each line begins (``bMarks``) and ends (``eMarks``), how
many spaces and tabs open it (``tShift``), its indentation with tabs expanded
to the next multiple of four (``sCount``), and ``bsCount`` (zero to begin
with). Every table ends with one entry past the last line (the text's
length, then zeros), and a last line of only spaces and tabs that no line
break ends is not a line at all. :func:`line_tables` makes the same tables
from one split and one regular expression over the whole text, so per line
only C code runs; a line's indentation is measured by hand only where it
holds a tab.

Written against markdown-it's block state (``StateBlock``, passed in), so
only :mod:`docsync.parse.markdown` imports markdown-it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import accumulate
from operator import add, sub
from typing import Any

State = Any
"""markdown-it's ``StateBlock``."""
Parser = Any
"""markdown-it's ``MarkdownIt``."""

Tables = tuple[list[int], list[int], list[int], list[int], list[int]]
_FIRST = re.compile(r"[ \t]*")
_LEADING = re.compile(r"\n[ \t]*")  # a line break and the next line's leading whitespace


def line_tables(src: str) -> Tables:
    """``bMarks``, ``eMarks``, ``tShift``, ``sCount`` and ``bsCount`` of ``src``
    as markdown-it's block state makes them.

    The text's lines (its split at every ``\n``) and where each starts, which
    the model's builder reads too, are kept for :func:`take_lines`.
    """
    lines = src.split("\n")
    leading = [_FIRST.match(src).group(), *_LEADING.findall(src)]  # type: ignore[union-attr]
    shifts = list(map(sub, map(len, leading), [0] + [1] * (len(leading) - 1)))
    lengths = list(map(len, lines))
    popped = shifts[-1] == lengths[-1]
    if popped:
        # an empty last piece (the text ends with a line break, or is empty)
        # or a last line of only spaces and tabs: no line
        lengths.pop()
        leading.pop()
        shifts.pop()
    begins = list(accumulate(map(add, lengths, [1] * len(lengths)), initial=0))
    # every piece's start: all of begins when the last piece was no line, else
    # all but the one past the last line
    _last[:] = src, lines, tuple(begins) if popped else tuple(begins[:-1])
    ends = list(map(add, begins, lengths))
    counts = [_columns(w.lstrip("\n")) for w in leading] if "\t" in src else shifts[:]
    total = len(src)
    begins[-1] = total  # the entry past the last line
    ends.append(total)
    shifts.append(0)
    counts.append(0)
    return begins, ends, shifts, counts, [0] * len(begins)


_next = (1).__add__
_last: list[Any] = [None, [], ()]  # the text last tabled, its lines, their starts


def take_lines(src: str) -> tuple[list[str], tuple[int, ...]] | None:
    """``src.split("\n")`` and :func:`~docsync.model.line_starts_of` of ``src``,
    when ``src`` (the same object) is the text :func:`line_tables` last made
    tables of; else None. Either way nothing is kept after."""
    text, lines, starts = _last
    _last[:] = None, [], ()
    return (lines, starts) if text is src else None


def _columns(whitespace: str) -> int:
    """The width of leading spaces and tabs, a tab reaching the next multiple of four."""
    if "\t" not in whitespace:
        return len(whitespace)
    width = 0
    for char in whitespace:
        width += 4 - width % 4 if char == "\t" else 1
    return width


def new_state(cls: type, src: str, md: Parser, env: Any, tokens: list[Any]) -> State:
    """A ``cls`` (markdown-it's ``StateBlock``, or :func:`state_class`'s) for
    ``src``, as markdown-it's constructor makes it: that constructor run on an
    empty text (which sets every other field), then the tables and the line
    count of ``src``."""
    state = cls("", md, env, tokens)
    state.src = src
    state.bMarks, state.eMarks, state.tShift, state.sCount, state.bsCount = line_tables(src)
    state.lineMax = len(state.bMarks) - 1
    return state


_TABLES = ("bMarks", "eMarks", "tShift", "sCount", "bsCount")
_GIVEN = ("src", "md", "env", "tokens")
_CONSTANT = (str, int, bool, type(None))
Maker = Callable[[str, Parser, Any, list[Any]], State]


def state_maker(cls: type) -> Maker:
    """:func:`new_state` for ``cls``, the constructor's run on an empty text
    done once per parser instead of once per parse.

    Every field that run sets but the four given ones and the tables is a
    constant of the parser (its block rules: whether ``code`` is enabled),
    so a state is the given fields, the tables and those constants, set in
    the constructor's order (every state then has its instance dict's keys
    in one order, which CPython's attribute reads are specialised for).
    They are read again whenever the parser's block rules are recompiled.
    The constructor's run was a fortieth of the parse.
    """
    known: list[Any] = [None, None, None]  # the parser, its compiled block chain, the maker for both

    def make(src: str, md: Parser, env: Any, tokens: list[Any]) -> State:
        rules = md.block.ruler.getRules("")
        if known[0] is not md or known[1] is not rules:
            known[:] = md, rules, _field_setter(cls, vars(cls("", md, {}, [])))
        made: State = known[2](src, md, env, tokens)
        return made

    return make


def _field_setter(cls: type, fields: dict[str, Any]) -> Maker:
    """A function setting ``fields`` (a state's, in its constructor's order)
    on a new ``cls``, the given ones and the tables from its arguments and
    :func:`line_tables`, every other the value in ``fields``; :func:`new_state`
    where one of those is not an immutable constant."""
    if any(type(value) not in _CONSTANT for name, value in fields.items() if name not in (*_GIVEN, *_TABLES)):
        return lambda src, md, env, tokens: new_state(cls, src, md, env, tokens)
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_tables": line_tables}
    lines = ["    state = _new(_cls)", "    tables = _tables(src)"]
    for name, value in fields.items():
        if name in _GIVEN:
            lines.append(f"    state.{name} = {name}")
        elif name in _TABLES:
            lines.append(f"    state.{name} = tables[{_TABLES.index(name)}]")
        elif name == "lineMax":
            lines.append("    state.lineMax = len(tables[0]) - 1")
        else:
            namespace[f"_{name}"] = value
            lines.append(f"    state.{name} = _{name}")
    exec("def make(src, md, env, tokens):\n" + "\n".join(lines) + "\n    return state\n", namespace)
    setter: Maker = namespace["make"]
    return setter


TOKEN_FIELDS = (
    "type", "tag", "nesting", "attrs", "map", "level", "children", "content", "markup", "info",
    "meta", "block", "hidden",
)
"""The fields of markdown-it's ``Token`` :func:`state_class`'s ``push`` sets."""


def state_class(cls: Any, token: Any) -> type:
    """``cls`` (markdown-it's ``StateBlock``) with two of its methods made
    cheaper, each giving what the original gives.

    ``push`` makes its ``token`` (markdown-it's ``Token``, a dataclass of
    :data:`TOKEN_FIELDS`) by setting each field to what the dataclass's
    constructor and ``push`` set it to, without the constructor's keyword
    handling and post-init call: half the cost of each of the block parse's
    tokens. ``getLines`` with no indentation to remove cuts each line from
    ``bMarks`` to ``eMarks`` (plus its line break but on the last line, unless
    asked) as the original's loop does when it has no indentation to count,
    in one slice where each line starts right after the one before's break;
    other calls go to the original.
    """
    new = token.__new__
    lines = cls.getLines

    def push(self: State, kind: str, tag: str, nesting: int) -> Any:
        made = new(token)
        made.type, made.tag, made.nesting, made.attrs, made.map = kind, tag, nesting, {}, None
        made.children, made.content, made.markup, made.info, made.meta = None, "", "", "", {}
        made.block, made.hidden = True, False
        if nesting < 0:
            self.level -= 1
        made.level = self.level
        if nesting > 0:
            self.level += 1
        self.tokens.append(made)
        return made

    def get_lines(self: State, begin: int, end: int, indent: int, keep_last_lf: bool) -> str:
        if indent > 0 or begin >= end:
            cut: str = lines(self, begin, end, indent, keep_last_lf)
            return cut
        src, starts, ends = self.src, self.bMarks, self.eMarks
        last = end - 1
        tail: str = src[starts[last] : ends[last] + 1 if keep_last_lf else ends[last]]
        if begin == last:
            return tail
        if starts[begin + 1 : end] == list(map(_next, ends[begin:last])):
            # each line starts right after the last one's line break (no container
            # prefix cut off): the lines and their breaks are one slice
            whole: str = src[starts[begin] : ends[last] + 1 if keep_last_lf else ends[last]]
            return whole
        return "".join([*(src[starts[k] : ends[k] + 1] for k in range(begin, last)), tail])

    return type(cls.__name__, (cls,), {"push": push, "getLines": get_lines, "__slots__": ()})


def token_maker(token: Any) -> Any:
    """``token`` (markdown-it's ``Token``) made from the fields the inline
    shortcuts give it, as its constructor makes it, without the constructor's
    keyword handling and post-init call (see :func:`state_class`'s ``push``)."""
    new = token.__new__

    def make(
        kind: str, tag: str, nesting: int, attrs: Any = None, content: str = "", markup: str = "", meta: Any = None
    ) -> Any:
        made = new(token)
        made.type, made.tag, made.nesting, made.map, made.level = kind, tag, nesting, None, 0
        made.attrs = {} if attrs is None else attrs
        made.children, made.content, made.markup, made.info = None, content, markup, ""
        made.meta = {} if meta is None else meta
        made.block, made.hidden = False, False
        return made

    return make


_MADE = (
    (("text", "", 0), {"content": "a"}),
    (("code_inline", "code", 0), {"markup": "`", "meta": {"src": (0, 3)}}),
    (("link_open", "a", 1), {"attrs": {"href": "b"}, "meta": {"src": (0, 5), "text": (1, 2)}}),
)


def made_as(make: Any, token: Any) -> bool:
    """Whether ``make`` (:func:`token_maker`'s) makes what ``token``'s constructor
    makes, field for field, from the fields the shortcuts give."""
    return all(
        make(*args, **fields) == token(*args, **fields) and repr(make(*args, **fields)) == repr(token(*args, **fields))
        for args, fields in _MADE
    )


# Texts on every edge of the tables: tabs at every offset, lines of only
# whitespace inside and at the end, empty lines, no final line break.
PROBES = ("", "\n", " ", "a", "a\n", " \t a\n\t\tb\n  \n\n c \t", "x\n \t", "\t", " \n \t\n")


def same_as(fast: type, cls: type, token: type, md: Parser) -> bool:
    """Whether states of ``fast`` (made by :func:`state_maker`) are those of
    ``cls`` on :data:`PROBES`: the same fields in the same order, the same
    pushed tokens, the same lines cut."""
    import dataclasses

    if tuple(f.name for f in dataclasses.fields(token)) != TOKEN_FIELDS:
        return False
    make = state_maker(fast)
    for probe in PROBES:
        ours, theirs = make(probe, md, {}, []), cls(probe, md, {}, [])
        if vars(ours) != vars(theirs) or list(vars(ours)) != list(vars(theirs)):
            return False
        for state in (ours, theirs):
            for kind, nesting in (("a", 1), ("b", 0), ("a", -1)):
                state.push(kind, "p", nesting)
        if ours.tokens != theirs.tokens or ours.level != theirs.level:
            return False
        ends = range(min(4, ours.lineMax + 1))
        cuts = [(b, e, i, k) for b in range(3) for e in ends for i in (0, 1) for k in (False, True)]
        if any(ours.getLines(*cut) != theirs.getLines(*cut) for cut in cuts):
            return False
    return True


def install(md: Parser, cls: type, token: type) -> bool:
    """Make ``md``'s block parser start from a :func:`state_maker` state of
    :func:`state_class`, where that makes what ``cls`` makes (see
    :func:`same_as`; if not, nothing changes). The parse is markdown-it's
    ``ParserBlock.parse`` otherwise."""
    fast = state_class(cls, token)
    if not same_as(fast, cls, token, md):
        return False
    block = md.block
    make = state_maker(fast)

    def parse(src: str, md: Parser, env: Any, out: list[Any]) -> list[Any] | None:
        if not src:
            return None
        state = make(src, md, env, out)
        block.tokenize(state, state.line, state.lineMax)
        tokens: list[Any] = state.tokens
        return tokens

    block.parse = parse
    return True
