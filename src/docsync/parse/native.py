"""Text in, :class:`~docsync.model.Document` out, from a parser in a compiled language.

This is the only module that imports pyromark (pulldown-cmark, compiled from
Rust). pulldown-cmark reads CommonMark with GitHub's extensions (tables,
strikethrough, footnotes, math, alerts) and gives every event its byte range,
so every position is the parser's own: no line map to walk back from. The
walk over the events (:mod:`docsync.parse.walk`) and the model it collects
(:mod:`docsync.parse.collected`) import no parser.

What pulldown-cmark has no extension for is read by a small pass of ours over
its paragraphs (:mod:`docsync.parse.site_lines`): the lines a docs site reads
as structure (``:::`` fences, ``!!!`` admonitions, shortcodes, table-of-contents
markers) and a GitHub alert's marker line become blocks of their own, as the
wrap gate must keep them. Reference definitions leave no event behind: they are
read from the source the parser's blocks leave uncovered, and kept only where
the parser knows the label.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pyromark

from ..model import Document
from .collected import Collected, char_offsets, definitions_in_gaps, normalize_label
from .pieces import PIECE, piece_bounds
from .source import decode
from .walk import walk

__all__ = ["PARSER_VERSIONS", "events", "normalize_label", "parse", "parse_bytes", "prepare"]

PARSER_VERSIONS = f"pyromark {pyromark.__version__}"
"""The library whose parsing decisions a document records (a cached document
is only as good as the version that made it)."""

_O = pyromark.Options
_OPTIONS = (
    _O.ENABLE_TABLES
    | _O.ENABLE_FOOTNOTES
    | _O.ENABLE_STRIKETHROUGH
    | _O.ENABLE_MATH
    | _O.ENABLE_YAML_STYLE_METADATA_BLOCKS
    | _O.ENABLE_GFM
)

def parse(path: str, text: str, newline: str = "\n", bom: bool = False, piece: int = PIECE) -> Document:
    """Parse normalised text (``\\n`` line ends) into a document: a large one in
    pieces of about ``piece`` characters (:mod:`docsync.parse.pieces`), so that the
    parser's tree stays the size of one piece."""
    bounds = piece_bounds(text, piece) if len(text) > 2 * piece else [0, len(text)]
    collected = Collected(path, text)
    known = _in_pieces(collected, text, bounds) if len(bounds) > 2 else None
    if known is None:  # one piece, or a piece's block ran on past its end
        collected = Collected(path, text)
        offsets = char_offsets(text)
        try:  # the events as they come: a list of them costs 500 bytes each (a `[` is one)
            walk(collected, _first_reading(text), offsets)
        except _MetadataLater:
            collected = Collected(path, text)
            walk(collected, _second_reading(text), offsets)
        known = _known_labels(text)
    found = definitions_in_gaps(text, collected.line_starts, collected.covered, known)
    return collected.document(newline, bom, found)


def _in_pieces(collected: Collected, text: str, bounds: list[int]) -> Callable[[], set[str]] | None:
    """Walk each piece's events into ``collected``; the labels the whole text defines,
    or None when a piece's last block ran on to its end (the split was not safe).

    A reference may use a label, or a footnote, that another piece defines. Every
    piece's definitions are read first; the parser asks for a label it does not
    know, and a footnote defined elsewhere is defined again after the piece's end,
    where no event is read."""
    pairs = list(itertools.pairwise(bounds))
    labels: set[str] = set()
    if "]:" in text:
        for start, end in pairs:
            labels.update(
                map(normalize_label, pyromark.reference_definitions(_for_parser(text[start:end]), options=_OPTIONS))
            )
    notes = [_footnotes(text[start:end]) for start, end in pairs] if "[^" in text else []
    everywhere = set().union(*notes)

    def defined(link: Any) -> tuple[str, str] | None:
        return ("", "") if normalize_label(link["reference"]) in labels else None

    for index, (start, end) in enumerate(pairs):
        piece = text[start:end]
        covered = len(collected.covered)
        convert = char_offsets(piece)
        extra = _notes_from_elsewhere(piece, everywhere - notes[index]) if notes else ""
        read = list(pyromark.events_with_range(_for_parser(piece + extra), options=_OPTIONS, broken_link_callback=defined))
        if any(_is_metadata(e) and (start or w["start"]) for e, w in read):
            return None  # front matter only at the text's start: read whole (see _events)
        parsed: Iterable[tuple[Any, Any]] = read
        if extra:
            parsed = _before(parsed, len(piece) if convert is None else len(piece.encode()))
        walk(collected, parsed, _shifted(convert, start))
        # a block that runs on past the piece: the cut was not safe (or, in the last
        # piece, it took in the footnotes defined after it)
        if (end < len(text) or extra) and any(stop >= end for _, stop in collected.covered[covered:]):
            return None
    return lambda: labels


_FOOTNOTE_USE = re.compile(r"\[\^([^\]\n]+)\]")


def _footnotes(piece: str) -> set[str]:
    """The footnote labels ``piece`` defines (normalised), as the parser reads them."""
    if "[^" not in piece:
        return set()
    found: set[str] = set()
    for event in pyromark.events(_for_parser(piece), options=_OPTIONS):
        tag = event.get("Start") if type(event) is dict else None
        if type(tag) is dict and "FootnoteDefinition" in tag:
            found.add(normalize_label(tag["FootnoteDefinition"]))
    return found


def _notes_from_elsewhere(piece: str, elsewhere: set[str]) -> str:
    """Definitions, to follow ``piece``, of the footnotes it uses that only other pieces define."""
    used = {m.group(1) for m in _FOOTNOTE_USE.finditer(piece) if normalize_label(m.group(1)) in elsewhere}
    return "\n\n" + "".join(f"[^{label}]: .\n" for label in sorted(used)) if used else ""


def _before(events: Iterable[tuple[Any, Any]], end: int) -> Iterator[tuple[Any, Any]]:
    """The events that start before byte ``end``."""
    for event in events:
        if event[1]["start"] >= end:
            return
        yield event


# A closing code fence followed by a tab: pulldown-cmark 0.13 does not close the
# fence there (cmark-gfm does, as CommonMark says). A space in the tab's place
# reads the same to both and moves no offset.
_FENCE_THEN_TAB = re.compile(r"(?m)^([ \t>]*(?:`{3,}|~{3,}))([ \t]*\t[ \t]*)$")


DEEPEST = 256
r"""Characters of a line's container prefix (indentation, ``>``, list markers) the parser
is given, at most. pulldown-cmark walks every open container for each line that goes on
in them, a paragraph's lazy continuation lines too: one line of 40,000 ``- `` (or
``> ``) followed by 40,000 lines of ``b`` took 3.8 s to parse and twice that took 22 s,
where cmark-gfm takes 0.03 s. A container is opened, or gone on in, only by a marker or
indentation on the line itself (laziness goes on in a paragraph, never opens one), so no
line sits deeper than the longest prefix given. A line whose prefix runs past this many
characters and opens anything is given with its last such character a ``\`` (one byte for
one, so every offset stays), which ends the prefix there. No document GitHub shows nests
that deep; one that does reads from there on as text."""

_DEEP_SOMEWHERE = re.compile(rf"\n[ \t>*+\-.)0-9]{{{DEEPEST}}}")
"""A line that may start with a prefix that long: a search for a line end (1 ns a character)."""
_DEEP = re.compile(rf"(?m)^(?:[ \t>]|[*+-](?=[ \t])|\d{{1,9}}[.)](?=[ \t])){{{DEEPEST}}}")


def _for_parser(text: str) -> str:
    """``text`` as pulldown-cmark is given it: what it misreads written as it reads it right,
    and no line's container prefix past :data:`DEEPEST` characters."""
    if _DEEP_SOMEWHERE.search(text) or _DEEP.match(text):
        text = _DEEP.sub(lambda m: m.group()[:-1] + "\\" if m.group().strip(" \t") else m.group(), text)
    if "\t" not in text:
        return text
    return _FENCE_THEN_TAB.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)


def events(text: str) -> list[tuple[Any, Any]]:
    """The parser's events of ``text`` with their byte ranges, as :func:`parse` reads them
    (``scripts/bench_floor.py`` times this alone)."""
    try:
        return list(_first_reading(text))
    except _MetadataLater:
        return list(_second_reading(text))


class _MetadataLater(Exception):
    """The first reading met a metadata block after the text's start: read it again."""


def _first_reading(text: str) -> Iterator[tuple[Any, Any]]:
    """The events of ``text``, one at a time, until a metadata block after its start.

    pulldown-cmark also takes a ``---`` line after a blank line, up to the next ``---``,
    for a metadata block anywhere in a document (cometbft's ADRs put ``## Status`` between
    two rules): GitHub renders a rule, a heading and a paragraph there, and sees front
    matter only at the start. Such a document raises :class:`_MetadataLater`, and is read
    again by :func:`_second_reading`. The events are never all kept: a list of them is
    about 500 bytes per event, and 2 MB of ``[`` are two million events (1.1 GB).

    Only a place that could open a metadata block can start one (:func:`_last_opening`), and
    the events come in the order of their starts (an element's end event repeats its
    start, which is no later than what comes after it): from the first event that starts
    after the last such line, the rest are passed on unchecked.
    """
    given = _for_parser(text)
    read = iter(pyromark.events_with_range(given, options=_OPTIONS))  # one pass, read on by the chain
    last = _last_opening(given)
    return read if last <= 0 else itertools.chain(_checked_up_to(read, last), read)


def _checked_up_to(read: Iterator[tuple[Any, Any]], last: int) -> Iterator[tuple[Any, Any]]:
    """The events of ``read`` up to the first that starts after byte ``last``, where no
    metadata block after the text's start can be (see :func:`_first_reading`)."""
    for event, where in read:
        start = where["start"]
        if start > 0 and _is_metadata(event):
            raise _MetadataLater
        yield event, where
        if start > last:
            return


def _second_reading(text: str) -> Iterator[tuple[Any, Any]]:
    """The events of ``text`` without metadata blocks, its leading front matter (blanked,
    so that no byte moves) kept from the first reading."""
    head: list[tuple[Any, Any]] = []
    for event, where in pyromark.events_with_range(_for_parser(text), options=_OPTIONS):
        if not head and not _is_metadata(event):
            break
        head.append((event, where))
        if "End" in event:
            break
    data = text.encode()
    end = head[-1][1]["end"] if head else 0
    blanked = bytes(b if b == 10 else 32 for b in data[:end]) + data[end:]
    yield from head
    yield from pyromark.events_with_range(
        _for_parser(blanked.decode()), options=_OPTIONS & ~_O.ENABLE_YAML_STYLE_METADATA_BLOCKS
    )


_SPACES_TO_LINE_END = re.compile(r"[ \t\f\r]*(?:\n|\Z)")


def _last_opening(text: str) -> int:
    """The byte offset of the last place in ``text`` where a metadata block could open,
    as pulldown-cmark scans for one; -1 if none. A block opens at ``---`` (three dashes,
    no more) followed by nothing but spaces to the line's end, after the line's
    indentation and container markers: whatever comes before it, the place is one of these."""
    at = len(text)
    while (at := text.rfind("---", 0, at)) >= 0:
        if (at == 0 or text[at - 1] != "-") and _SPACES_TO_LINE_END.match(text, at + 3):
            break
        at += 2  # the next place to the left may overlap this one
    return at if at <= 0 or text.isascii() else len(text[:at].encode())


def _is_metadata(event: Any) -> bool:
    return isinstance(event, dict) and isinstance(event.get("Start"), dict) and "MetadataBlock" in event["Start"]


def parse_bytes(path: str, data: bytes) -> Document:
    text, newline, bom = decode(data)
    return parse(path, text, newline, bom)


def prepare() -> None:
    """Nothing to build before workers fork: the parser is ready once imported."""


def _shifted(convert: Callable[[int], int] | None, start: int) -> Callable[[int], int]:
    """A piece's byte offset to the whole text's character offset (the piece starts at ``start``)."""
    if convert is None:
        return lambda at: at + start
    return lambda at: convert(at) + start


def _known_labels(text: str) -> Callable[[], set[str]]:
    return lambda: {normalize_label(label) for label in pyromark.reference_definitions(_for_parser(text))}
