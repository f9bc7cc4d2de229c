"""One very large document parsed in parts, in parallel, into exactly the document one parse makes.

A part is a run of whole lines. It starts at a line that follows a blank
line and starts, in column 0, with a character no construct that survives
a blank line continues on (:func:`split_lines` picks such lines near equal
shares of the text). It is parsed alone: markdown-it's tokens of the part,
their line maps moved by the part's first line, go to the document builder
over the whole text, so every position is the document's.

That is markdown-it's parse of the whole text exactly when each part but
the last ends *clean* (:func:`parse_part` says): every block it opened at
the top level ended before its last line, which is blank, and its rules left
nothing in the parse's ``env`` (reference definitions, footnotes: the only
state markdown-it carries from one block to another; the last part need
only leave ``env`` empty). Then no block crosses
into the next part, no rule before the boundary read past it, and the rules
after it start, at the top level with nothing open, on the same lines as in
one parse (front matter, the only rule that cares where the text starts,
cannot start on the characters a part may start on). Front matter is also
the one block that needs its closing line to be one at all: a first part of
a text that starts with ``-`` is clean only when it holds the front matter.
When a part is not clean, the caller parses the whole text as usual.

:func:`merge` joins the parts' documents. Each part's lists are in document
order and the parts are disjoint and in order, so the joined lists are the
one parse's; the heading slugs, which GitHub makes unique across the whole
document, are made again in order. ``tests/test_chunks.py`` proves it on
every case file, on generated documents and on a hypothesis strategy:
identical tokens, and identical documents.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..model import Document
from .slugs import Slugger

SPLIT_FROM = 256 * 1024
"""A document of fewer characters is parsed in one piece."""
MIN_PART = 64 * 1024
"""No part holds fewer characters (the split itself costs a little per part)."""

# What a part may start with: not a list marker or digit (a list goes on
# after a blank line with a new item), not "-" (front matter at line 0),
# not space or tab (an indented line continues a list item or code block).
_UNSAFE_START = frozenset("-+*0123456789 \t\n")


@dataclass(frozen=True, slots=True)
class Part:
    """Lines ``first`` up to ``end`` (None: to the end) of a text, which are its
    characters ``start`` up to ``stop``."""

    first: int
    end: int | None
    start: int
    stop: int


def possible_starts(text: str, offset: int = 0) -> Iterator[int]:
    """The offsets, from ``offset`` on, of the lines a part may start on: each
    follows an empty line and starts with a safe character."""
    while True:
        at = text.find("\n\n", offset)
        if at == -1:
            return
        if at + 2 < len(text) and text[at + 2] not in _UNSAFE_START:
            yield at + 2
        offset = at + 1


def split(text: str, count: int) -> list[Part]:
    """At most ``count`` parts, each starting at the first possible start after an
    equal share of the text; none when the text is too short or has no such line."""
    if count < 2 or len(text) < SPLIT_FROM:
        return []
    share = max(len(text) // count, MIN_PART)
    offsets: list[int] = []
    while len(offsets) < count - 1:
        after = max(offsets[-1] + 1 if offsets else 0, (len(offsets) + 1) * share)
        at = next(possible_starts(text, after), None)
        if at is None or len(text) - at < MIN_PART:
            break
        offsets.append(at)
    return parts_at(text, offsets)


def parts_at(text: str, offsets: Sequence[int]) -> list[Part]:
    """The parts that start at ``offsets`` (possible starts, rising) and at 0."""
    if not offsets:
        return []
    lines = [0]
    for before, at in zip([0, *offsets], offsets, strict=False):
        lines.append(lines[-1] + text.count("\n", before, at))
    starts = [0, *offsets]
    return [
        Part(lines[i], lines[i + 1] if i + 1 < len(lines) else None, starts[i],
             starts[i + 1] if i + 1 < len(starts) else len(text))
        for i in range(len(starts))
    ]


def tokens_of_part(text: str, part: Part) -> tuple[list[Any], bool]:
    """markdown-it's tokens of the part, line maps moved to the document's lines,
    and whether the part ended clean (see the module's docstring; the last part
    need only leave ``env`` empty)."""
    from . import markdown  # here: merge, which a run reading parts needs, imports no parser

    tokens, env = markdown.tokenize(text[part.start : part.stop])
    lines = (part.end or 0) - part.first
    clean = _stateless(env) and (
        part.end is None
        or all(token.level > 0 or token.map is None or token.map[1] < lines for token in tokens)
    )
    if part.first == 0 and text.startswith("-") and not (tokens and tokens[0].type == "front_matter"):
        # Front matter is the one block that is nothing at all without its
        # closing line: cut off before it, the part reads a rule or a heading
        # (the one parse may find the closer after the boundary).
        clean = clean and part.end is None
    for token in tokens:
        _shift(token, part.first)
    return tokens, clean


def _stateless(env: dict[str, Any]) -> bool:
    """Whether the parse left no state a later block or inline rule reads: no
    reference definition, no footnote (the footnote rules make their empty
    tables on any ``[^`` they look at; empty, they change nothing)."""
    footnotes = env.get("footnotes", {})
    return set(env) <= {"footnotes"} and not any(footnotes.values())


def _shift(token: Any, lines: int) -> None:
    if token.map is not None:
        token.map = [token.map[0] + lines, token.map[1] + lines]
    for child in token.children or ():
        _shift(child, lines)


def parse_part(path: str, text: str, newline: str, bom: bool, part: Part) -> tuple[Document, bool]:
    """The document of one part (its positions the whole text's), and whether the part ended clean."""
    from . import markdown
    from .build import document

    tokens, clean = tokens_of_part(text, part)
    return document(path, text, newline, bom, tokens, {}, markdown.normalize_label), clean


def merge(parts: Sequence[Document]) -> Document:
    """The document the parts of one text, each clean, make together. The text
    and line starts are the first part's (the others' may be left empty)."""
    slugger = Slugger()
    headings = tuple(
        dataclasses.replace(heading, slug=slugger.slug(heading.text))
        for part in parts
        for heading in part.headings
    )
    return dataclasses.replace(
        parts[0],
        headings=headings,
        anchors=_joined(parts, "anchors"),
        links=_joined(parts, "links"),
        definitions=_joined(parts, "definitions"),
        code_spans=_joined(parts, "code_spans"),
        blocks=_joined(parts, "blocks"),
        paragraphs=_joined(parts, "paragraphs"),
        used_labels=frozenset().union(*(part.used_labels for part in parts)),
        footnote_ids=_joined(parts, "footnote_ids"),
        math_spans=_joined(parts, "math_spans"),
    )


def _joined(parts: Sequence[Document], field: str) -> tuple[Any, ...]:
    return tuple(item for part in parts for item in getattr(part, field))
