"""Paths in YAML front matter: where a value names a file, it follows the file's move.

GitHub shows front matter as a table of plain text, so nothing in it is a
link there, and the links gate does not read it. But a person reading the
source, a docs site that renders a field as Markdown (Jekyll's
``markdownify``), and link checkers such as lychee take
``withdrawal-reason: prefer [EIP-2200](./eip-2200.md)`` for a reference to
that file, and after a migration it must still name it. Two forms are read:

* an inline Markdown link ``[text](dest)`` anywhere on a front matter line;
* a whole value that is an explicitly relative path, ``./x.md`` or
  ``../x.md`` (a fragment allowed), plain or quoted, alone or as a list item.

Each destination is rewritten by the same rule as a link in the body
(:func:`~docsync.rewrite.destinations.rewritten_raw`). Only the destination's
characters change: every other byte of the front matter, its quoting
included, stays. A destination is read only when its YAML scalar holds it as
written: no backslash, quote or ``&`` in it, no ``<…>`` form; and a new
destination holds nothing YAML would read otherwise (it is percent-encoded,
so it has no space, quote or backslash).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..model import BlockKind, Document, LinkKind, Span
from ..parse.native import parse
from .destinations import Destination, Moves, locate, rewritten_raw

# Put before a line so that it parses as a paragraph whatever it starts with ("- ", "#").
_PROSE = "x "
# "key: ./x.md", "- '../x.md#part'", "  key: \"./x.md\"  # comment"
_BARE = re.compile(
    r"""^[ \t]*(?:-[ \t]+)?(?:[^\s#"'\-:][^#"':]*:[ \t]+)?"""
    r"""(?:(?P<quote>["'])|(?!["']))(?P<path>\.{1,2}/[^\s"'\\&]*)(?(quote)(?P=quote))"""
    r"""[ \t]*(?:[ \t]\#.*)?$"""
)
_UNSAFE = re.compile(r"""[\s"'\\&<>]""")


def _lines(doc: Document) -> Iterator[tuple[int, str]]:
    """Each line between the front matter's fences: its offset and its text."""
    front = BlockKind.FRONT_MATTER  # read once: a member read off its enum class is slow
    block = next((b for b in doc.blocks if b.kind == front), None)
    if block is None:
        return
    for number in range(block.lines.first + 1, block.lines.last):
        yield doc.line_starts[number - 1], doc.line_text(number)


def _destination(doc: Document, span: Span) -> Destination | None:
    raw = doc.text[span.start : span.end]
    if not raw or not holds_as_written(raw):
        return None
    found = locate(doc.path, raw)
    if found is None:
        return None
    return Destination(span, raw, False, False, found[0], found[1])


def _link_destinations(doc: Document, start: int, line: str) -> Iterator[Destination]:
    indent = len(line) - len(line.lstrip())
    probe = parse("front-matter.md", _PROSE + line[indent:])
    shift = start + indent - len(_PROSE)
    for link in probe.links:
        span = link.dest_span
        if link.kind != LinkKind.INLINE or span is None:
            continue
        if probe.text[span.start : span.end] != link.destination or not link.destination:
            continue  # angle brackets, or a position the parser does not know exactly
        if probe.text[span.start - 1 : span.start] == "<":
            continue
        dest = _destination(doc, Span(span.start + shift, span.end + shift))
        if dest is not None:
            yield dest


def front_matter_destinations(doc: Document) -> Iterator[tuple[Destination, bool]]:
    """The relative destinations in ``doc``'s front matter, resolved against its path, each
    with whether it is a whole value (a bare path) rather than a Markdown link's."""
    for start, line in _lines(doc):
        bare = _BARE.match(line)
        if bare is not None:
            dest = _destination(doc, Span(start + bare.start("path"), start + bare.end("path")))
            if dest is not None:
                yield dest, True
        elif "](" in line:
            yield from ((dest, False) for dest in _link_destinations(doc, start, line))


def front_matter_raw(dest: Destination, bare: bool, moves: Moves) -> str | None:
    """The rewritten destination (:func:`rewritten_raw`), a bare path kept explicitly
    relative so that it is read as one next time; None when it stays as written."""
    new_raw = rewritten_raw(dest, moves)
    if new_raw is None or new_raw == dest.raw:
        return None
    if bare and not new_raw.startswith(("./", "../", "/")):
        new_raw = "./" + new_raw
    return new_raw


def holds_as_written(raw: str) -> bool:
    """Whether a YAML scalar (plain or quoted) holds ``raw`` as its characters, unescaped."""
    return _UNSAFE.search(raw) is None
