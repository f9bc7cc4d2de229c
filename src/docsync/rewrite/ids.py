"""Bare ids in text (``ADR 0007``, ``RFC-041/057``) and the records they name; in
non-Markdown files, the ids in comments rewritten into repository paths."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from ..model import Edit, Span, apply_edits
from ..parse.lexing import comment_spans
from ..records.model import IdTarget

IdKey = tuple[str, int, int | None]
"""(kind in upper case, number, part or None): what two mentions share to name one record."""


@cache
def id_pattern(kinds: frozenset[str]) -> re.Pattern[str]:
    """A regex for bare ids of the given kinds (``ADR 0007``, ``RFC-12``, ``RFC 005 pt 2``).

    The kind must be written as in the key (upper case): ``adr1`` in code is
    an identifier, not an id. A mention glued to a path, a word or a file
    name (``docs/ADR-7``, ``ADR-0007-x.md``, ``!ADR 7``) is not a bare id.
    """
    return _id_regex(kinds, r"(?![\w/]|[.\-]\w)")


@cache
def prose_id_pattern(kinds: frozenset[str]) -> re.Pattern[str]:
    """:func:`id_pattern`, also before ``/<number>`` (``RFC-041/057`` in prose is two ids)."""
    return _id_regex(kinds, r"(?!\w|/(?!\d)|[.\-]\w)")


_KINDS_OF: dict[re.Pattern[str], frozenset[str]] = {}
"""The kinds each id pattern was built from: a match of it starts with one, as written."""


def _id_regex(kinds: frozenset[str], tail: str) -> re.Pattern[str]:
    # A one-letter kind (gRPC's ``A1``, ``L12``) names a record only in a link: in prose,
    # ``L7`` is a network layer and ``P1`` a priority as often as a record.
    kinds = frozenset(k for k in kinds if len(k) > 1)
    if not kinds:
        return re.compile(r"(?!)")  # no kinds, no ids
    alternatives = "|".join(sorted((re.escape(k) for k in kinds), key=len, reverse=True))
    pattern = re.compile(
        rf"(?<![\w/.\-#@!])(?P<kind>{alternatives})(?:[ \-]|(?=\d))(?P<number>\d{{1,5}})"
        rf"(?:[ \t]+(?:part|pt\.?)[ \t]*(?P<part>\d{{1,3}}))?(?P<version>-v\d{{1,3}})?{tail}"
    )
    if all(kinds):
        _KINDS_OF[pattern] = kinds
    return pattern


def id_matches(pattern: re.Pattern[str], text: str, start: int, end: int) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text, start, end)``, tried only where one of its kinds begins.

    The pattern opens with a look-behind, so the regex engine has no literal to
    skip ahead to and tries every position. A match of an id pattern starts where
    its kind (non-empty, as written) does, and a look-behind sees the text before
    ``start`` whatever ``start`` is: matching at each such position in turn, and
    going on from the end of each match, finds what the search finds.
    """
    kinds = _KINDS_OF.get(pattern)
    if kinds is None:
        yield from pattern.finditer(text, start, end)
        return
    cursor = start
    while True:
        found = [at for kind in kinds if (at := text.find(kind, cursor, end)) >= 0]
        if not found:
            return
        at = min(found)
        match = pattern.match(text, at, end)
        if match is None:
            cursor = at + 1
        else:
            yield match
            cursor = match.end()


# The further numbers of a compound id: "RFC-041/057", "ADR 12 and 13", "ADR 3, 4 & 5".
_MORE_NUMBER = re.compile(
    r"(?:/|,[ \t]*|[ \t]+(?:and|&)[ \t]+)(?P<number>\d{1,5})(?:-v\d{1,3})?(?!\w|/(?!\d)|[.\-]\w)"
)


def compound(
    text: str, first: Mention, end: int, ids: Mapping[IdKey, IdTarget], pattern: re.Pattern[str]
) -> Iterator[Mention]:
    """The numbers after a resolved id that name records of its kind, one mention each.

    A number that names no record ends the compound and is left as text
    (``ADR 12 and 2019`` is one id and a year).
    """
    head = pattern.match(text, first.span.start)
    if head is None or first.target is None or head.group("part") or head.group("version"):
        return
    kind, cursor = head.group("kind").upper(), first.span.end
    while (more := _MORE_NUMBER.match(text, cursor, end)) is not None:
        target = ids.get((kind, int(more.group("number")), None))
        if target is None:
            return
        span = Span(more.start("number"), more.end("number"))
        # Named in findings as the id it stands for ("RFC 057"), not as a lone number.
        yield Mention(span, span, f"{head.group('kind')} {more.group('number')}", target)
        cursor = more.end()


@dataclass(frozen=True, slots=True)
class BareId:
    """A bare id in text, and the record it names (None: no record)."""

    span: Span
    written: str
    target: IdTarget | None


@dataclass(frozen=True, slots=True)
class Mention:
    """A bare id found in text: its span, the part of it to replace, and what it names."""

    span: Span
    replace: Span
    written: str
    target: IdTarget | None


def lookup(
    ids: Mapping[IdKey, IdTarget], kind: str, number: int, part: int | None
) -> tuple[IdTarget | None, bool]:
    """The target of an id, and whether only the whole id (not its part) matched."""
    found = ids.get((kind.upper(), number, part))
    if found is not None or part is None:
        return found, False
    whole = ids.get((kind.upper(), number, None))
    return whole, whole is not None


_LAST_KINDS: list[tuple[Mapping[IdKey, IdTarget], int, frozenset[str]]] = []


def id_kinds(ids: Mapping[IdKey, IdTarget]) -> frozenset[str]:
    """The kinds ``ids`` holds. One rewrite asks for every document and link with one
    table (thousands of calls on a large migration), so the last table's answer is kept."""
    if _LAST_KINDS and _LAST_KINDS[0][0] is ids and _LAST_KINDS[0][1] == len(ids):
        return _LAST_KINDS[0][2]
    kinds = frozenset(key[0] for key in ids)
    _LAST_KINDS[:] = [(ids, len(ids), kinds)]
    return kinds


def pattern_for(ids: Mapping[IdKey, IdTarget]) -> re.Pattern[str]:
    return id_pattern(id_kinds(ids))


def mentions(
    text: str, start: int, end: int, ids: Mapping[IdKey, IdTarget], pattern: re.Pattern[str]
) -> Iterator[Mention]:
    for match in id_matches(pattern, text, start, end):
        kind, number, part, version = match.group("kind", "number", "part", "version")
        target, whole_only = lookup(ids, kind, int(number), int(part) if part else None)
        span = Span(match.start(), match.end())
        # "RFC 005 part 3" with only "RFC 005" known: link the id, keep " part 3" as text;
        # "RFC-057-v2" (a version of RFC 057): link the id, keep "-v2".
        whole_only = whole_only or version is not None
        replace = Span(span.start, match.end("number")) if whole_only else span
        yield Mention(span, replace, match.group(0), target)


def bare_code_ids(
    text: str, ids: Mapping[IdKey, IdTarget], *, path: str = "", everywhere: bool = True
) -> list[BareId]:
    """Ids in non-Markdown text that name a record (what :func:`rewrite_code_text` rewrites).

    With ``everywhere`` false, only ids inside the comments Pygments' lexer
    for ``path`` finds (every id when no lexer knows the file name).
    """
    texts = markdown_link_texts(text) if "](" in text else ()
    found = [
        BareId(m.replace, m.written, m.target)
        for m in mentions(text, 0, len(text), ids, pattern_for(ids))
        if m.target is not None and not _inside(m.span, texts)
    ]
    if everywhere or not found:
        return found
    comments = comment_spans(path, text)
    if comments is None:
        return found
    return [b for b in found if _inside(b.span, comments)]


# A Markdown link written in program text (a doc comment's ``[ADR-111](../docs/adr-111.md)``).
MARKDOWN_LINK = re.compile(r"\[(?P<text>[^\[\]\n]*)\]\((?P<destination>[^()\s]*)\)")


def markdown_link_texts(text: str) -> tuple[Span, ...]:
    """The texts of the Markdown links in program text: an id there is the link's text, not
    a bare id (the link and its destination are rewritten together, or left as written)."""
    return tuple(Span(m.start("text"), m.end("text")) for m in MARKDOWN_LINK.finditer(text))


def program_text_ids(text: str, ids: Mapping[IdKey, IdTarget], *, path: str) -> list[BareId]:
    """Ids of records in a program's strings and code (outside comments): reported, kept as written."""
    if not ids:
        return []
    every = bare_code_ids(text, ids, path=path)
    commented = set(bare_code_ids(text, ids, path=path, everywhere=False))
    return [b for b in every if b not in commented]


def _inside(span: Span, regions: tuple[Span, ...]) -> bool:
    index = bisect.bisect_right([r.start for r in regions], span.start) - 1
    return index >= 0 and regions[index].start <= span.start and span.end <= regions[index].end


def rewrite_code_text(
    text: str, *, ids: Mapping[IdKey, IdTarget], path: str = "", everywhere: bool = True
) -> tuple[str, int]:
    """Bare ids in non-Markdown text (comments, YAML) become the record's repository path.

    Returns the new text and the number of ids rewritten. Ids that name no
    record are left alone; with ``everywhere`` false, so are ids outside the
    file's comments (see :func:`bare_code_ids`).
    """
    found = bare_code_ids(text, ids, path=path, everywhere=everywhere)
    edits = [Edit(b.span, b.target.path) for b in found if b.target]
    return apply_edits(text, edits), len(edits)
