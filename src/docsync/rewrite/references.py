"""Rewrite references when files move: link destinations, fragments and bare ids.

Pure functions: a parsed document (or plain text) and a description of the
moves come in, new text comes out. Nothing here reads the disk or git, so the
migrate planner can compute every rewrite before anything is written, and
``docsync fix`` can reuse the same code for the refs gate.

Every rewrite is a list of :class:`~docsync.model.Edit` spans spliced into
the original text, so every byte that is not part of an intended change is
kept. The result is re-parsed and compared with the input before it is
returned: the block structure must be the same, the number of links must
have grown by exactly the number of ids turned into links, and every link
must resolve to where the corresponding old link pointed (after the moves),
and the page GitHub renders (cmark-gfm, see :mod:`docsync.parse.render`) must keep
every element and attribute but the links' targets and text.
A mismatch raises :class:`RewriteError` instead of returning text that would
silently point somewhere else.

Bare ids are linked only in prose: paragraph lines (in lists, quotes and
footnotes too) and table rows. Headings are left alone although GitHub
renders links in them, because changing a heading's text changes its slug
and would break every ``#fragment`` pointing at it. Code spans, code blocks,
HTML (blocks, tags, and the content of ``<a>``/``<code>``-like elements),
front matter, autolinks, images, reference definitions and the text of links
that say more than the id are never touched either, nor are formulas (``$…$``).
"""

from __future__ import annotations

import bisect
import html
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from urllib.parse import quote, unquote

from ..errors import DocsyncError
from ..gates.links.check import is_external, link_targets, markdown_url, resolve_url
from ..model import BlockKind, Definition, Document, Edit, Link, LinkKind, Span, apply_edits
from ..parse.lexing import comment_spans
from ..parse.markdown import parse
from ..parse.render import github_structure
from ..records.model import IdTarget

__all__ = [
    "BareId",
    "IdKey",
    "RewriteError",
    "RewriteStats",
    "bare_code_ids",
    "bare_ids",
    "id_pattern",
    "link_text",
    "program_text_ids",
    "relative_destination",
    "rewrite_code_text",
    "rewrite_document",
]

IdKey = tuple[str, int, int | None]
"""(kind in upper case, number, part or None): what two mentions share to name one record."""


class RewriteError(DocsyncError):
    """A rewrite failed its own verification; the text was not returned.

    Either a docsync bug or text whose rewrite GitHub would render otherwise
    than intended; ``fix`` reports the file (L900), ``migrate`` lists it as a
    plan problem, and ``move`` refuses with the reason (exit 2), writing nothing.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: refusing to rewrite: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True, slots=True)
class RewriteStats:
    """What one rewrite changed.

    ``unresolved`` lists bare ids of a known kind that name no record (``RFC
    2119``), as written, once each. ``dangling`` lists relative link
    destinations (as written in the result) whose target ``exists`` denies,
    so the planner can report links that will not resolve after migration.
    """

    links: int
    refs: int
    unresolved: tuple[str, ...]
    dangling: tuple[str, ...] = ()


# --------------------------------------------------------------------------- ids in text


@cache
def id_pattern(kinds: frozenset[str]) -> re.Pattern[str]:
    """A regex for bare ids of the given kinds (``ADR 0007``, ``RFC-12``, ``RFC 005 pt 2``).

    The kind must be written as in the key (upper case): ``adr1`` in code is
    an identifier, not an id. A mention glued to a path, a word or a file
    name (``docs/ADR-7``, ``ADR-0007-x.md``, ``!ADR 7``) is not a bare id.
    """
    return _id_regex(kinds, r"(?![\w/]|[.\-]\w)")


@cache
def _prose_id_pattern(kinds: frozenset[str]) -> re.Pattern[str]:
    """:func:`id_pattern`, also before ``/<number>`` (``RFC-041/057`` in prose is two ids)."""
    return _id_regex(kinds, r"(?!\w|/(?!\d)|[.\-]\w)")


def _id_regex(kinds: frozenset[str], tail: str) -> re.Pattern[str]:
    if not kinds:
        return re.compile(r"(?!)")  # no kinds, no ids
    alternatives = "|".join(sorted((re.escape(k) for k in kinds), key=len, reverse=True))
    return re.compile(
        rf"(?<![\w/.\-#@!])(?P<kind>{alternatives})(?:[ \-]|(?=\d))(?P<number>\d{{1,5}})"
        rf"(?:[ \t]+(?:part|pt\.?)[ \t]*(?P<part>\d{{1,3}}))?{tail}"
    )


# The further numbers of a compound id: "RFC-041/057", "ADR 12 and 13", "ADR 3, 4 & 5".
_MORE_NUMBER = re.compile(r"(?:/|,[ \t]*|[ \t]+(?:and|&)[ \t]+)(?P<number>\d{1,5})(?!\w|/(?!\d)|[.\-]\w)")


def _compound(
    text: str, first: _Mention, end: int, ids: Mapping[IdKey, IdTarget], pattern: re.Pattern[str]
) -> Iterator[_Mention]:
    """The numbers after a resolved id that name records of its kind, one mention each.

    A number that names no record ends the compound and is left as text
    (``ADR 12 and 2019`` is one id and a year).
    """
    head = pattern.match(text, first.span.start)
    if head is None or first.target is None or head.group("part"):
        return
    kind, cursor = head.group("kind").upper(), first.span.end
    while (more := _MORE_NUMBER.match(text, cursor, end)) is not None:
        target = ids.get((kind, int(more.group("number")), None))
        if target is None:
            return
        span = Span(more.start("number"), more.end("number"))
        # Named in findings as the id it stands for ("RFC 057"), not as a lone number.
        yield _Mention(span, span, f"{head.group('kind')} {more.group('number')}", target)
        cursor = more.end()


@dataclass(frozen=True, slots=True)
class BareId:
    """A bare id in text, and the record it names (None: no record)."""

    span: Span
    written: str
    target: IdTarget | None


@dataclass(frozen=True, slots=True)
class _Mention:
    """A bare id found in text: its span, the part of it to replace, and what it names."""

    span: Span
    replace: Span
    written: str
    target: IdTarget | None


def _lookup(
    ids: Mapping[IdKey, IdTarget], kind: str, number: int, part: int | None
) -> tuple[IdTarget | None, bool]:
    """The target of an id, and whether only the whole id (not its part) matched."""
    found = ids.get((kind.upper(), number, part))
    if found is not None or part is None:
        return found, False
    whole = ids.get((kind.upper(), number, None))
    return whole, whole is not None


_LAST_KINDS: list[tuple[Mapping[IdKey, IdTarget], int, frozenset[str]]] = []


def _kinds(ids: Mapping[IdKey, IdTarget]) -> frozenset[str]:
    """The kinds ``ids`` holds. One rewrite asks for every document and link with one
    table (thousands of calls on a large migration), so the last table's answer is kept."""
    if _LAST_KINDS and _LAST_KINDS[0][0] is ids and _LAST_KINDS[0][1] == len(ids):
        return _LAST_KINDS[0][2]
    kinds = frozenset(key[0] for key in ids)
    _LAST_KINDS[:] = [(ids, len(ids), kinds)]
    return kinds


def _pattern_for(ids: Mapping[IdKey, IdTarget]) -> re.Pattern[str]:
    return id_pattern(_kinds(ids))


def _mentions(
    text: str, start: int, end: int, ids: Mapping[IdKey, IdTarget], pattern: re.Pattern[str]
) -> Iterator[_Mention]:
    for match in pattern.finditer(text, start, end):
        part = match.group("part")
        target, whole_only = _lookup(
            ids, match.group("kind"), int(match.group("number")), int(part) if part else None
        )
        span = Span(match.start(), match.end())
        # "RFC 005 part 3" with only "RFC 005" known: link the id, keep " part 3" as text.
        replace = Span(match.start(), match.end("number")) if whole_only else span
        yield _Mention(span, replace, match.group(0), target)


def bare_code_ids(
    text: str, ids: Mapping[IdKey, IdTarget], *, path: str = "", everywhere: bool = True
) -> list[BareId]:
    """Ids in non-Markdown text that name a record (what :func:`rewrite_code_text` rewrites).

    With ``everywhere`` false, only ids inside the comments Pygments' lexer
    for ``path`` finds (every id when no lexer knows the file name).
    """
    found = [
        BareId(m.replace, m.written, m.target)
        for m in _mentions(text, 0, len(text), ids, _pattern_for(ids))
        if m.target is not None
    ]
    if everywhere or not found:
        return found
    comments = comment_spans(path, text)
    if comments is None:
        return found
    return [b for b in found if _inside(b.span, comments)]


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


# --------------------------------------------------------------------------- destinations

_ALWAYS_ENCODED = frozenset("%#?<>\\|&\"'`()[] \t\n")
_ANGLE_SAFE = frozenset(" ()[]'`")
_NON_ASCII_ESCAPE = re.compile(r"%[89A-Fa-f][0-9A-Fa-f]")


def _encode(path: str, *, angle: bool, ascii_only: bool) -> str:
    """Percent-encode what a Markdown or HTML destination cannot hold as written.

    Inside ``<…>`` spaces and brackets may stay (that is why authors use the
    brackets); non-ASCII stays readable unless the original link escaped it.
    """
    out: list[str] = []
    for char in path:
        code = ord(char)
        needs = (
            (char in _ALWAYS_ENCODED and not (angle and char in _ANGLE_SAFE))
            or code < 0x20
            or code == 0x7F
            or (ascii_only and code > 0x7F)
        )
        out.append(quote(char, safe="") if needs else char)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _RawParts:
    """A destination as written, split into path, ``?query`` and ``#fragment`` (with markers)."""

    path: str
    query: str
    fragment: str

    @classmethod
    def split(cls, raw: str) -> _RawParts:
        before, hash_sign, fragment = raw.partition("#")
        path, question, query = before.partition("?")
        return cls(path, question + query, hash_sign + fragment)


@dataclass(frozen=True, slots=True)
class _Moves:
    """Everything a destination rewrite needs to know about the moves."""

    old_path: str
    new_path: str
    moves: Mapping[str, str]
    fragments: Mapping[str, Mapping[str, str]]

    def target(self, path: str) -> str:
        """Where a repository path lives after the moves (this document: its new path)."""
        return self.new_path if path == self.old_path else self.moves.get(path, path)

    def fragment(self, path: str, fragment: str) -> str | None:
        """The renamed slug of ``fragment`` in ``path``, or None when it keeps its name."""
        renames = self.fragments.get(path)
        if not renames or not fragment:
            return None
        decoded = unquote(fragment)
        new = renames.get(fragment, renames.get(decoded, renames.get(decoded.lower())))
        return new if new is not None and new != decoded else None


def _relative(new_path: str, target: str, written: str) -> str:
    """The path from ``new_path``'s folder to ``target``, in the style ``written`` used."""
    if written.startswith("/"):
        rel = "/" + target
    else:
        rel = posixpath.relpath(target or ".", posixpath.dirname(new_path) or ".")
        if written.startswith("./") and rel != ".." and not rel.startswith("../"):
            rel = "./" if rel == "." else "./" + rel
    if written.endswith("/") and not rel.endswith("/"):
        rel += "/"
    return rel


_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


def _locate(source: str, url: str) -> tuple[str, str] | None:
    """(path, fragment) a URL in ``source`` names; None if external or malformed.

    Unlike :func:`resolve_url`, a path that climbs out of the repository is
    kept (as ``../x.md``) rather than dropped: moving its document deeper
    must keep it pointing at the same outside path, never let it land on a
    file inside the repository.
    """
    url = url.strip()
    found = resolve_url(source, url)
    if found is not None or not url or is_external(url):
        return found
    path_part, _, fragment = url.partition("#")
    path_part = path_part.partition("?")[0]
    if _BAD_ESCAPE.search(path_part):
        return None
    try:
        decoded = unquote(path_part, errors="strict")
    except UnicodeDecodeError:
        return None
    base = "" if decoded.startswith("/") else posixpath.dirname(source)
    return posixpath.normpath(posixpath.join(base, decoded.lstrip("/"))), fragment


@dataclass(frozen=True, slots=True)
class _Destination:
    """One destination to consider: where it is, how it is written, what it points at."""

    span: Span
    raw: str
    html: bool
    angle: bool
    path: str
    fragment: str

    def url(self, raw: str) -> str:
        return html.unescape(raw) if self.html else markdown_url(raw)


def _reliable(doc: Document, item: Link | Definition) -> bool:
    """Whether the parser's spans for ``item`` can be trusted enough to splice."""
    span = item.dest_span
    if span is None or not (0 <= span.start <= span.end <= len(doc.text)):
        return False
    if isinstance(item, Definition):
        return item.span.start <= span.start and span.end <= item.span.end
    if not (item.span.start <= span.start and span.end <= item.span.end):
        return False
    if item.kind in (LinkKind.INLINE, LinkKind.IMAGE):
        opener = "![" if item.kind == LinkKind.IMAGE else "["
        return doc.text.startswith(opener, item.span.start)
    return item.kind in (LinkKind.HTML_HREF, LinkKind.HTML_SRC)


def _destinations(doc: Document) -> Iterator[_Destination]:
    """Every relative destination of ``doc`` that parses, resolved against its own path."""
    for item, url in link_targets(doc):
        if not _reliable(doc, item):
            continue
        resolved = _locate(doc.path, url)
        if resolved is None:
            continue
        assert item.dest_span is not None
        span = item.dest_span
        is_html = isinstance(item, Link) and item.kind in (LinkKind.HTML_HREF, LinkKind.HTML_SRC)
        angle = (
            not is_html
            and doc.text[span.start - 1 : span.start] == "<"
            and doc.text[span.end : span.end + 1] == ">"
        )
        raw = doc.text[span.start : span.end]
        yield _Destination(span, raw, is_html, angle, resolved[0], resolved[1])


def _new_raw(dest: _Destination, moves: _Moves) -> str | None:
    """The rewritten destination, or None when the one written still points right."""
    target = moves.target(dest.path)
    renamed = moves.fragment(dest.path, dest.fragment)
    parts = _RawParts.split(dest.raw)
    written = dest.url(parts.path).strip()
    still = _locate(moves.new_path, written) if written else (moves.new_path, "")
    path_ok = still is not None and still[0] == target
    if path_ok and renamed is None:
        return None
    ascii_only = bool(_NON_ASCII_ESCAPE.search(dest.raw))
    path = (
        parts.path
        if path_ok
        else _encode(
            _relative(moves.new_path, target, written),
            angle=dest.angle,
            ascii_only=ascii_only,
        )
    )
    fragment, query = parts.fragment, parts.query
    if not dest.angle and not path_ok:
        # The new path's parentheses are encoded, so a kept ")" would now close nothing.
        fragment, query = _escape_parens(fragment), _escape_parens(query)
    if renamed is not None:
        fragment = "#" + _encode(renamed, angle=dest.angle, ascii_only=ascii_only)
    return path + query + fragment


def _escape_parens(text: str) -> str:
    return text.replace("(", "%28").replace(")", "%29")


def _expected(dest: _Destination, moves: _Moves) -> tuple[str, str]:
    """Where a destination must resolve after the rewrite: (path, decoded fragment)."""
    renamed = moves.fragment(dest.path, dest.fragment)
    return moves.target(dest.path), renamed if renamed is not None else unquote(dest.fragment)


def _link_edits(doc: Document, moves: _Moves) -> list[Edit]:
    edits: list[Edit] = []
    for dest in _destinations(doc):
        new_raw = _new_raw(dest, moves)
        if new_raw is None or new_raw == dest.raw:
            continue
        resolved = _locate(moves.new_path, dest.url(new_raw))
        got = None if resolved is None else (resolved[0], unquote(resolved[1]))
        if got != _expected(dest, moves):
            raise RewriteError(
                doc.path, f"'{dest.raw}' rewritten to '{new_raw}' would resolve to {got}"
            )
        edits.append(Edit(dest.span, new_raw))
    return edits


# --------------------------------------------------------------------------- ids in prose

_FOOTNOTE_REF = re.compile(r"\[\^[^\]\s]*\]")
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)\b[^>]*>|<!--.*?-->", re.S)
# Inline HTML whose content must not become a link: a link inside <a> nests
# anchors, and code-like elements show their text literally.
_OPAQUE_ELEMENTS = frozenset({"a", "code", "kbd", "samp", "pre", "tt", "var"})


def _opaque_html(text: str, start: int, end: int) -> list[Span]:
    """Spans of inline HTML tags in ``text[start:end]``, and of what opaque elements enclose."""
    spans: list[Span] = []
    open_at: dict[str, int] = {}
    for tag in _TAG.finditer(text, start, end):
        spans.append(Span(tag.start(), tag.end()))
        name = (tag.group(2) or "").lower()
        if name not in _OPAQUE_ELEMENTS:
            continue
        if not tag.group(1):
            open_at.setdefault(name, tag.end())
        elif name in open_at:
            spans.append(Span(open_at.pop(name), tag.start()))
    return spans


@dataclass(frozen=True, slots=True)
class _Region:
    """A stretch of Markdown prose, and whether it is a table row (where ``|`` splits cells)."""

    span: Span
    table: bool


def _prose_regions(doc: Document) -> Iterator[_Region]:
    """Paragraph lines (lists and quotes included) and table rows; never headings or code."""
    for paragraph in doc.paragraphs:
        for span in paragraph.line_spans:
            yield _Region(span, False)
    for block in doc.blocks:
        if block.kind != BlockKind.TABLE:
            continue
        for line in range(block.lines.first, block.lines.last + 1):
            start = doc.line_starts[line - 1]
            yield _Region(Span(start, start + len(doc.line_text(line))), True)


def _spans_by_line(doc: Document) -> dict[int, list[Span]]:
    """Code spans, formulas and links, filed under every line they touch (regions are single lines)."""
    by_line: dict[int, list[Span]] = {}
    for span in (*doc.code_spans, *doc.math_spans, *(link.span for link in doc.links)):
        first = doc.position(span.start)[0]
        last = doc.position(max(span.start, span.end - 1))[0]
        for line in range(first, last + 1):
            by_line.setdefault(line, []).append(span)
    return by_line


def _excluded(doc: Document, region: Span, by_line: Mapping[int, list[Span]]) -> list[Span]:
    """Spans inside ``region`` that are not prose: code, links, HTML, footnote markers."""
    line = doc.position(region.start)[0]
    inside = [s for s in by_line.get(line, ()) if s.start < region.end and s.end > region.start]
    inside.extend(_opaque_html(doc.text, region.start, region.end))
    inside.extend(
        Span(m.start(), m.end()) for m in _FOOTNOTE_REF.finditer(doc.text, region.start, region.end)
    )
    return sorted(inside, key=lambda s: s.start)


def _free(region: Span, excluded: list[Span]) -> Iterator[Span]:
    cursor = region.start
    for span in excluded:
        if span.start > cursor:
            yield Span(cursor, min(span.start, region.end))
        cursor = max(cursor, span.end)
    if cursor < region.end:
        yield Span(cursor, region.end)


_CODE_RUN = re.compile(r"(`+).+?\1")


def link_text(title: str, *, table: bool = False) -> str:
    """A record title as Markdown link text: brackets escaped outside code spans.

    The title is Markdown source (it may hold `code`); an unescaped ``]``
    would end the link early and a ``|`` would split a table cell.
    """
    specials = "[]|" if table else "[]"
    out: list[str] = []
    cursor = 0
    for code in _CODE_RUN.finditer(title):
        out.append(_escape(title[cursor : code.start()], specials))
        # GitHub splits table cells before it reads code spans; only "\\|" survives there.
        out.append(code.group(0).replace("|", "\\|") if table else code.group(0))
        cursor = code.end()
    out.append(_escape(title[cursor:], specials))
    return "".join(out)


def _escape(text: str, specials: str) -> str:
    # A pipe is written as an entity, not as "\\|": both keep the cell whole on
    # GitHub, but the entity keeps the cell's source equal to its content.
    return "".join(("&#124;" if c == "|" else f"\\{c}") if c in specials else c for c in text)


def _prose_mentions(
    doc: Document, ids: Mapping[IdKey, IdTarget]
) -> Iterator[tuple[_Region, _Mention]]:
    if not ids:
        return
    by_line = _spans_by_line(doc)
    pattern = _prose_id_pattern(_kinds(ids))
    for region in _prose_regions(doc):
        for free in _free(region.span, _excluded(doc, region.span, by_line)):
            for mention in _mentions(doc.text, free.start, free.end, ids, pattern):
                yield region, mention
                for more in _compound(doc.text, mention, free.end, ids, pattern):
                    yield region, more


def bare_ids(doc: Document, ids: Mapping[IdKey, IdTarget]) -> list[BareId]:
    """The bare ids :func:`rewrite_document` would consider in ``doc`` (for gates)."""
    return [BareId(m.span, m.written, m.target) for _, m in _prose_mentions(doc, ids)]


def relative_destination(from_path: str, to_path: str) -> str:
    """A Markdown link destination, percent-encoded, from the file ``from_path`` to ``to_path``."""
    return _encode(_relative(from_path, to_path, ""), angle=False, ascii_only=False)


def _record_link(target: IdTarget, new_path: str, written: str, table: bool) -> str:
    destination = relative_destination(new_path, target.path)
    return f"[{link_text(target.title or written, table=table)}]({destination})"


_ID_SEPARATOR = re.compile(r"[ \t]*[:\u2013\u2014-]?[ \t]+")


@dataclass
class _IdRewrite:
    """Accumulates the edits and findings of one document's id pass."""

    doc: Document
    new_path: str
    ids: Mapping[IdKey, IdTarget]
    edits: list[Edit]
    unresolved: list[str]
    targets: list[str]

    def bare(self) -> None:
        for region, mention in _prose_mentions(self.doc, self.ids):
            if mention.target is None:
                self.unresolved.append(mention.written)
                continue
            written = self.doc.text[mention.replace.start : mention.replace.end]
            link = _record_link(mention.target, self.new_path, written, region.table)
            self.edits.append(Edit(mention.replace, link))
            self.targets.append(mention.target.path)

    def link_texts(self, tables: list[Span]) -> None:
        """Links whose whole text is one id get the record's title as text; a text that is an
        id plus words (``[ADR 0007 quality gates](…)``) keeps the words and drops the id."""
        headings = [h.span for h in self.doc.headings]
        for link in self.doc.links:
            if any(h.start <= link.span.start < h.end for h in headings):
                continue  # a heading's text is its anchor: fragment links would break
            target = self._sole_id(link)
            if target is None and link.text_span is not None:
                self._leading_id(link, link.text_span)
            if target is None or link.text_span is None:
                continue
            table = any(t.start <= link.span.start < t.end for t in tables)
            title = link_text(target.title, table=table)
            edit = self._text_edit(link, link.text_span, title)
            if edit is not None:
                self.edits.append(edit)

    def _leading_id(self, link: Link, text_span: Span) -> None:
        if link.kind != LinkKind.INLINE or not self.ids:
            return
        text = self.doc.text[text_span.start : text_span.end]
        match = _pattern_for(self.ids).match(text)
        if match is None or match.start() != 0:
            return
        rest = _ID_SEPARATOR.match(text, match.end())
        if rest is None or rest.end() == len(text) or not text[rest.end()].isalnum():
            return
        part = match.group("part")
        found, whole_only = _lookup(
            self.ids, match.group("kind"), int(match.group("number")), int(part) if part else None
        )
        if found is not None and not whole_only:
            self.edits.append(Edit(Span(text_span.start, text_span.start + rest.end()), ""))

    def _sole_id(self, link: Link) -> IdTarget | None:
        if link.kind not in (LinkKind.INLINE, LinkKind.REFERENCE) or not self.ids:
            return None
        match = _pattern_for(self.ids).fullmatch(link.text.strip())
        if match is None:
            return None
        part = match.group("part")
        found, whole_only = _lookup(
            self.ids, match.group("kind"), int(match.group("number")), int(part) if part else None
        )
        return None if whole_only or found is None or not found.title else found

    def _text_edit(self, link: Link, text_span: Span, title: str) -> Edit | None:
        if title == self.doc.text[text_span.start : text_span.end]:
            return None
        if link.kind == LinkKind.INLINE:
            return Edit(text_span, title)
        after = self.doc.text[text_span.end : link.span.end]
        if after not in ("]", "][]"):
            return Edit(text_span, title)  # full reference: the label is separate
        # Shortcut or collapsed reference: the text is the label, so keep it as one.
        label = self.doc.text[text_span.start : text_span.end]
        return Edit(link.span, f"[{title}][{label}]")


def _id_edits(
    doc: Document, new_path: str, ids: Mapping[IdKey, IdTarget]
) -> tuple[list[Edit], list[str], list[str]]:
    """Edits for bare ids and id-only link texts, the unresolved ids, and the new link targets."""
    job = _IdRewrite(doc, new_path, ids, [], [], [])
    job.bare()
    tables = [region.span for region in _prose_regions(doc) if region.table]
    job.link_texts(tables)
    return job.edits, list(dict.fromkeys(job.unresolved)), job.targets


# --------------------------------------------------------------------------- verification


def _resolved_targets(doc: Document, source: str) -> Counter[tuple[str, str]]:
    """Every destination of ``doc`` as (repository path, decoded fragment), or ("url", raw)."""
    found: Counter[tuple[str, str]] = Counter()
    for item, url in link_targets(doc):
        resolved = _locate(source, url) if _reliable(doc, item) else None
        found[("url", url) if resolved is None else (resolved[0], unquote(resolved[1]))] += 1
    return found


def _expected_targets(
    doc: Document, moves: _Moves, id_targets: list[str]
) -> Counter[tuple[str, str]]:
    expected: Counter[tuple[str, str]] = Counter()
    destinations = {d.span: d for d in _destinations(doc)}
    for item, url in link_targets(doc):
        dest = destinations.get(item.dest_span) if item.dest_span is not None else None
        expected[("url", url) if dest is None else _expected(dest, moves)] += 1
    expected.update((path, "") for path in id_targets)
    return expected


def _block_shape(doc: Document) -> tuple[object, ...]:
    """Blocks and paragraphs by kind and lines: edits never add or remove a line break."""
    return (doc.blocks, tuple((p.lines, p.containers) for p in doc.paragraphs))


def _verify(before: Document, after: Document, moves: _Moves, id_links: list[str]) -> None:
    path = before.path
    if len(after.links) != len(before.links) + len(id_links):
        raise RewriteError(
            path, f"expected {len(before.links) + len(id_links)} links, got {len(after.links)}"
        )
    if len(after.definitions) != len(before.definitions):
        raise RewriteError(path, "the number of reference definitions changed")
    got = _resolved_targets(after, moves.new_path)
    want = _expected_targets(before, moves, id_links)
    if got != want:
        wrong = sorted((got - want).elements())[:3]
        raise RewriteError(path, f"links would resolve to unintended targets: {wrong}")
    if _block_shape(before) != _block_shape(after):
        raise RewriteError(path, "the block structure of the document would change")
    if github_structure(before.text) != github_structure(after.text):
        raise RewriteError(path, "GitHub would render the document differently (cmark-gfm)")


# --------------------------------------------------------------------------- entry point


def rewrite_document(
    doc: Document,
    *,
    old_path: str,
    new_path: str,
    moves: Mapping[str, str],
    fragments: Mapping[str, Mapping[str, str]],
    ids: Mapping[IdKey, IdTarget],
    exists: Callable[[str], bool],
) -> tuple[str, RewriteStats]:
    """The text ``doc`` (parsed at ``old_path``) must have to live at ``new_path``.

    ``moves`` maps old repository paths to new ones (files or folders);
    ``fragments`` maps a file's old path to its renamed heading slugs (old →
    new); ``ids`` maps id keys to the records they now name; ``exists`` says
    whether a repository path exists after the moves (used only to report
    ``dangling`` links). Raises :class:`RewriteError` when the result fails
    verification.
    """
    after, stats = rewrite_parsed(
        doc, old_path=old_path, new_path=new_path, moves=moves, fragments=fragments, ids=ids,
        exists=exists,
    )
    return after.text, stats


def rewrite_parsed(
    doc: Document,
    *,
    old_path: str,
    new_path: str,
    moves: Mapping[str, str],
    fragments: Mapping[str, Mapping[str, str]],
    ids: Mapping[IdKey, IdTarget],
    exists: Callable[[str], bool],
) -> tuple[Document, RewriteStats]:
    """:func:`rewrite_document`'s result as the document it parsed to verify it, at ``new_path``."""
    if doc.path != old_path:
        raise ValueError(f"document was parsed at {doc.path!r}, not at old_path {old_path!r}")
    context = _Moves(old_path, new_path, moves, fragments)
    link_edits = _link_edits(doc, context)
    id_edits, unresolved, id_links = _id_edits(doc, new_path, ids)
    edits = link_edits + id_edits
    # Unchanged text parses the same; only where it lives differs (the parser never reads it).
    if edits:
        after = parse(new_path, apply_edits(doc.text, edits), doc.newline, doc.bom)
    else:
        after = replace(doc, path=new_path) if old_path != new_path else doc
    if edits or old_path != new_path:
        _verify(doc, after, context, id_links)
    stats = RewriteStats(
        links=len(link_edits),
        refs=len(id_edits),
        unresolved=tuple(unresolved),
        dangling=tuple(_dangling(after, new_path, exists)),
    )
    return after, stats


def _dangling(doc: Document, source: str, exists: Callable[[str], bool]) -> Iterator[str]:
    for item, url in link_targets(doc):
        resolved = _locate(source, url) if _reliable(doc, item) else None
        if resolved is not None and resolved[0] and not exists(resolved[0]):
            yield doc.text[item.dest_span.start : item.dest_span.end] if item.dest_span else url
