"""The relations legacy records write, read during a migration and written both ways.

Legacy records name their relations in a few shapes: a line that starts with
the phrase (``Superseded by [3. Foo](0003-foo.md)``, as adr-tools writes it,
``**Amends:** RFC 3``), the status detail (``Status: superseded by ADR-0005``,
which the status reader keeps and the id rewriter links), and front matter
keys (``superseded_by: ADR-0005``). By the time this module runs, every id
that names a record has become a link to it, so a relation is a phrase and a
link; what is left is to make it the form the ``layout`` gate reads (see
:mod:`docsync.records.relations`) and to write the reverse on the other record.

Nothing is guessed: a relation whose target is not a record of the tree (an
id no record holds, an outside link), a partial one (``partly superseded``)
and relation words inside a sentence (``these ranges have been superseded by
[ADR 33](…)``) are reported, and the text is left as written.
See docs/rfc/implemented/2026-12-01-record-relations.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from ...gates.links.check import link_url, resolve_url
from ...model import BlockKind, Document, Edit, Link, LinkKind, Span, apply_edits
from ...parse.native import parse
from ...records.model import ID_PATTERN, IdTarget, parse_id
from ...records.relations import (
    Edge,
    Mention,
    Phrases,
    label,
    read_mentions,
    reverses,
    with_relation_lines,
)
from ...rewrite.ids import IdKey
from ...rewrite.record_links import link_text, relative_destination
from ...write.writer import FileWrite

_EMPHASIS = r"(?:\*\*|__|\*|_)?"
_PARTIAL = re.compile(r"(?i)\b(?:partly|partially|in\s+part|part)\s+$")
_KEY = re.compile(r"(?im)^(?P<key>[a-z][a-z _-]*?)[ \t]*:[ \t]*(?P<value>.+?)[ \t]*$")


@dataclass(frozen=True)
class Related:
    """The records' texts with their relations in the gate's form, and what was read."""

    writes: tuple[FileWrite, ...]
    edges: tuple[Edge, ...]
    notes: tuple[tuple[str, str], ...]
    """(record path, relation text left as written and why)."""
    documents: Mapping[str, Document] = field(default_factory=dict)
    """Each of ``writes`` parsed."""


@dataclass(frozen=True, slots=True)
class _Reading:
    """One record's relations: prefixes to normalise, lines to add, notes."""

    edits: tuple[Edit, ...]
    lines: tuple[str, ...]
    notes: tuple[str, ...]


def _link_at(doc: Document, offset: int) -> Link | None:
    return next(
        (k for k in doc.links if k.span.start == offset and k.kind in (LinkKind.INLINE, LinkKind.REFERENCE)),
        None,
    )


def _links_in(doc: Document, span: Span) -> list[Link]:
    return [
        k
        for k in doc.links
        if span.start <= k.span.start < span.end and k.kind in (LinkKind.INLINE, LinkKind.REFERENCE)
    ]


def _target(doc: Document, link: Link) -> str | None:
    resolved = resolve_url(doc.path, link_url(link))
    return None if resolved is None else resolved[0]


def _in_code(doc: Document, offset: int) -> bool:
    return any(s.start <= offset < s.end for s in doc.code_spans)


@cache
def _phrase_patterns(phrases: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A line that starts with one of the ``phrases`` (an alternation), and a phrase anywhere;
    built once per configuration, not once per record."""
    line_start = re.compile(
        rf"(?i)[ \t]*(?P<prefix>{_EMPHASIS}(?P<phrase>{phrases}){_EMPHASIS}"
        rf"[ \t]*:?[ \t]*{_EMPHASIS}[ \t]*)(?=\S)"
    )
    return line_start, re.compile(rf"(?i)\b(?P<phrase>{phrases})\b[:*_ \t]*")


def _first_words(phrases: Phrases) -> tuple[str, ...] | None:
    """Each phrase's first word in lower case; None when a phrase has no word or is not
    ASCII (then no line is passed over)."""
    every = [*phrases.pairs, *phrases.pairs.values()]
    if any(not p.split() or not p.isascii() for p in every):
        return None
    return tuple(sorted({p.split()[0].lower() for p in every}))


class _Reader:
    """Reads one record's relation lines, status detail and front matter."""

    def __init__(
        self,
        doc: Document,
        phrases: Phrases,
        records: Mapping[str, str],
        ids: Mapping[IdKey, IdTarget],
    ) -> None:
        self.doc = doc
        self.phrases = phrases
        self.records = records
        self.ids = ids
        self.edits: list[Edit] = []
        self.lines: list[str] = []
        self.notes: list[str] = []
        self.line_start, self.anywhere = _phrase_patterns(phrases.pattern)
        self.first_words = _first_words(phrases)

    def reading(self) -> _Reading:
        for paragraph in self.doc.paragraphs:
            if "blockquote" not in paragraph.containers and self._may_hold_a_phrase(paragraph.line_spans):
                for span in paragraph.line_spans:
                    self._line(span)
        self._front_matter()
        return _Reading(tuple(self.edits), tuple(self.lines), tuple(self.notes))

    def _may_hold_a_phrase(self, spans: tuple[Span, ...]) -> bool:
        """False only when no line of ``spans`` can hold a phrase: every reading of a line
        starts from a phrase matched in it (case aside), so from its first word. Decided for
        ASCII text only, where ``lower`` is exactly what the patterns' case rule compares."""
        if not spans or self.first_words is None:
            return True
        chunk = self.doc.text[min(s.start for s in spans) : max(s.end for s in spans)]
        if not chunk.isascii():
            return True
        lowered = chunk.lower()
        return any(word in lowered for word in self.first_words)

    def _quote(self, start: int, end: int) -> str:
        return " ".join(self.doc.text[start:end].split())

    def _line(self, span: Span) -> None:
        text = self.doc.text
        if text.startswith("Status:", span.start):
            self._in_sentence(span, status=True)
            return
        match = self.line_start.match(text, span.start, span.end)
        found = self.phrases.lookup(match.group("phrase")) if match else None
        if match is None or found is None or _PARTIAL.search(text[span.start : match.start("phrase")]):
            self._in_sentence(span)
            return
        links = _links_in(self.doc, Span(match.end(), span.end))
        if not links:
            self._bare(match.end(), span.end, found[0] if found else "")
            return
        targets = [_target(self.doc, k) for k in links]
        for link, target in zip(links, targets, strict=True):
            if target not in self.records:
                self.notes.append(
                    f"'{self._quote(span.start, link.span.end)}' links to {target or link.destination}, "
                    "which is not a record; left as written"
                )
        prefix = label(self.phrases.phrase(*found)) + " "
        if any(t in self.records for t in targets) and text[match.start("prefix") : match.end()] != prefix:
            self.edits.append(Edit(Span(match.start("prefix"), match.end()), prefix))

    def _bare(self, start: int, end: int, kind: str) -> None:
        """A relation line whose target is a bare id: the rewriter found no record for it."""
        written = ID_PATTERN.match(self.doc.text, start, end)
        if written is not None and kind:
            self.notes.append(
                f"'{self._quote(start, written.end())}' names no record; relation left as written"
            )

    def _in_sentence(self, span: Span, status: bool = False) -> None:
        """Relation words inside a sentence (or the status detail) before a link or an id."""
        text = self.doc.text
        for match in self.anywhere.finditer(text, span.start, span.end):
            if _in_code(self.doc, match.start()):
                continue
            link = _link_at(self.doc, match.end())
            where = self._quote(match.start(), (link.span.end if link else match.end() + 12))
            if link is not None:
                if status and _target(self.doc, link) in self.records and not _PARTIAL.search(
                    text[span.start : match.start()]
                ):
                    continue  # the gate reads it
                self.notes.append(
                    f"'{where}' is relation prose, not read as a relation; if it is one, write "
                    f"'{label(match.group('phrase').lower())} [Title](path)' under the status"
                )
            elif ID_PATTERN.match(text, match.end(), span.end) and status:
                self.notes.append(f"'{where}' names no record; relation left as written")

    def _front_matter(self) -> None:
        block = next((b for b in self.doc.blocks if b.kind is BlockKind.FRONT_MATTER), None)
        if block is None:
            return
        start = self.doc.line_starts[block.lines.first - 1]
        end = self.doc.line_starts[block.lines.last] if block.lines.last < len(self.doc.line_starts) else len(self.doc.text)
        for match in _KEY.finditer(self.doc.text, start, end):
            found = self.phrases.lookup(match.group("key").replace("_", " ").replace("-", " "))
            if found is not None:
                self._front_matter_value(match.group("value"), found)

    def _front_matter_value(self, value: str, found: tuple[str, bool]) -> None:
        for written in re.split(r"[,\[\]\"']+", value):
            if not written.strip():
                continue
            parsed = parse_id(written)
            target = self.ids.get(parsed.key()) if parsed else None
            if target is None or target.path not in self.records:
                self.notes.append(f"front matter '{written.strip()}' names no record; left as written")
                continue
            link = f"[{link_text(target.title)}]({relative_destination(self.doc.path, target.path)})"
            self.lines.append(f"{label(self.phrases.phrase(*found))} {link}")


def _read(
    doc: Document, phrases: Phrases, records: Mapping[str, str], ids: Mapping[IdKey, IdTarget]
) -> _Reading:
    return _Reader(doc, phrases, records, ids).reading()


def _normalised(
    doc: Document, reading: _Reading, relations: Mapping[str, str]
) -> tuple[Document, list[Mention]]:
    """The text with ``reading``'s edits and lines, parsed, and the relations it writes."""
    text = apply_edits(doc.text, list(reading.edits))
    after = parse(doc.path, text, doc.newline, doc.bom) if text != doc.text else doc
    mentions = read_mentions(after, relations)
    present = {(m.edge, m.forward) for m in mentions}
    lines = [line for line in dict.fromkeys(reading.lines) if not _already(after, line, present, relations)]
    if not lines:
        return after, mentions  # the text read already: its relations are known
    after = parse(doc.path, with_relation_lines(after, relations, lines), doc.newline, doc.bom)
    return after, read_mentions(after, relations)


def _already(doc: Document, line: str, present: set[tuple[Edge, bool]], relations: Mapping[str, str]) -> bool:
    probe = parse(doc.path, line + "\n")
    return all((m.edge, m.forward) in present for m in read_mentions(probe, relations))


def _documents(writes: Sequence[FileWrite], parsed: Mapping[str, Document]) -> dict[str, Document]:
    """Each write parsed; one whose text was parsed already (to verify its rewrite) is not again."""
    return {
        w.path: known
        if (known := parsed.get(w.path)) is not None and known.text == w.text
        else parse(w.path, w.text, w.newline, w.bom)
        for w in writes
    }


def _edges(mentions: Mapping[str, Sequence[Mention]], records: Mapping[str, str]) -> tuple[Edge, ...]:
    edges = {m.edge for found in mentions.values() for m in found if m.source in records and m.target in records}
    return tuple(sorted(edges))


def _notes(path: str, reading: _Reading) -> Iterator[tuple[str, str]]:
    for note in dict.fromkeys(reading.notes):
        yield path, note


@dataclass(frozen=True)
class Normalised:
    """One record's text with its relations in the gate's form, before the reverses are added:
    what reading it needs no other record for (so it can be made in a worker)."""

    write: FileWrite
    notes: tuple[tuple[str, str], ...]
    mentions: tuple[Mention, ...]
    """The relations the new text writes (:func:`read_mentions` of it)."""


def normalise(
    write: FileWrite,
    parsed: Document | None,
    titles: Mapping[str, str],
    relations: Mapping[str, str],
    ids: Mapping[IdKey, IdTarget],
) -> tuple[Normalised, Document]:
    """``write`` (a record's migrated text; ``parsed``, that text parsed, if it was) with its
    relations in the gate's form, and the new text parsed."""
    doc = _documents([write], {write.path: parsed} if parsed is not None else {})[write.path]
    reading = _read(doc, Phrases(relations), titles, ids)
    after, mentions = _normalised(doc, reading, relations)
    normalised = Normalised(
        FileWrite(write.path, after.text, write.newline, write.bom),
        tuple(_notes(write.path, reading)),
        tuple(mentions),
    )
    return normalised, after


def finish(
    records: Sequence[Normalised],
    titles: Mapping[str, str],
    relations: Mapping[str, str],
    others: Mapping[str, Document] | None = None,
    parsed: Mapping[str, Document] | None = None,
) -> Related:
    """``records`` (normalised) with the reverse of every relation written on the other record.

    ``parsed`` holds records' new texts parsed, where they were kept; any other
    that gains a reverse line is parsed here. The result's documents are
    those of ``parsed`` whose text is still the text written, and the ones parsed here.
    """
    known = dict(parsed or {})
    mentions: dict[str, list[Mention]] = {
        p: read_mentions(d, relations) for p, d in (others or {}).items()
    }
    mentions.update((r.write.path, list(r.mentions)) for r in records)
    writes = {r.write.path: r.write for r in records}
    docs = {p: d for p, d in known.items() if p in writes and d.text == writes[p].text}
    for path, lines in reverses(mentions, titles, relations, titles).items():
        write = writes.get(path)
        if write is None:
            continue
        doc = docs.get(path) or parse(path, write.text, write.newline, write.bom)
        docs[path] = parse(path, with_relation_lines(doc, relations, lines), doc.newline, doc.bom)
        writes[path] = FileWrite(path, docs[path].text, write.newline, write.bom)
        mentions[path] = read_mentions(docs[path], relations)
    notes = tuple(note for r in records for note in r.notes)
    return Related(tuple(writes.values()), _edges(mentions, titles), notes, docs)

