"""Build a topic's text from its sources, before any reference is rewritten.

A record's body is its text without its title heading, its status construct
and the sections other topics take; the topic's text is a uniform header
(``# <title>`` and ``Status: <state> (<detail>)``) and then each source's
body, oldest first, each marked ``<!-- docsync: from <old path> -->`` when
there is more than one. Front matter stays at the top; a later source's
front matter becomes a fenced YAML block, since mid-document it would render
as a rule and a heading.

Each piece is kept as a :class:`Chunk` tied to the file it came from, so the
rewriter can resolve its relative links from that file's folder; the old
heading slugs of each chunk map, in order, to the new document's headings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ...model import BlockKind, Document, Edit, Heading, Span, apply_edits
from ...parse.native import parse
from ...parse.slugs import unique_slugs
from ..model import Part, Topic
from ..read.discover import LegacyRecord

MARKER = "<!-- docsync: from {path} -->"


@dataclass(frozen=True, slots=True)
class Chunk:
    """A piece of a topic's text; its relative links are relative to ``old_path``.

    ``renames`` maps the old slugs of the source's headings that this chunk
    holds (or dropped: its title, its status section) to their new slugs.
    """

    old_path: str
    text: str
    section: str | None = None
    old_slugs: tuple[str, ...] = ()
    dropped_slugs: tuple[str, ...] = ()
    renames: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Assembled:
    """A topic's chunks (the first is the header) and its title's slug."""

    chunks: tuple[Chunk, ...]
    title_slug: str
    parsed: Document | None = None
    """:attr:`text` as parsed to find its headings (at a placeholder path)."""
    predicted: tuple[str, ...] | None = None
    """Instead of :attr:`parsed`: the slugs of :attr:`text`'s headings, predicted from
    its source's own headings (see :func:`assemble`); whoever parses the text checks them."""

    @property
    def text(self) -> str:
        return join_chunks(c.text for c in self.chunks)


class Mispredicted(Exception):
    """A topic's text parsed to other headings than :func:`assemble` predicted: its
    routes are wrong, so the change set is computed again from the parsed texts."""


def status_line(state: str, detail: str) -> str:
    return f"Status: {state} ({detail})" if detail else f"Status: {state}"


def header(topic: Topic) -> str:
    return f"# {topic.title}\n\n{status_line(topic.state, topic.detail)}\n"


def join_chunks(texts: Iterable[str]) -> str:
    """Chunks separated by one blank line, the whole ending in one newline."""
    pieces = [t.strip("\n") for t in texts]
    return "\n\n".join(p for p in pieces if p) + "\n"


def sole_source(topic: Topic, records: Mapping[str, LegacyRecord]) -> Document | None:
    """The parsed source of a topic that is one whole record (None for any other)."""
    if topic.merged or len(topic.parts) != 1 or topic.parts[0].section is not None:
        return None
    return records[topic.parts[0].path].doc


# --------------------------------------------------------------------------- spans


def section_span(doc: Document, slug: str) -> Span:
    """The heading with ``slug`` and everything under it, up to the next heading as high."""
    index = next(i for i, h in enumerate(doc.headings) if h.slug == slug)
    heading = doc.headings[index]
    end = next(
        (h.span.start for h in doc.headings[index + 1 :] if h.level <= heading.level), len(doc.text)
    )
    return Span(_line_start(doc, heading.span.start), end)


def _line_start(doc: Document, offset: int) -> int:
    return doc.line_starts[doc.position(offset)[0] - 1]


def _heading_lines(doc: Document, heading: Heading) -> Span:
    """The heading's lines with their newline, and one blank line after."""
    start = _line_start(doc, heading.span.start)
    end = heading.span.end
    for _ in range(2):
        if end < len(doc.text) and doc.text[end] == "\n":
            end += 1
    return Span(start, end)


def _front_matter(doc: Document) -> Span | None:
    block = next((b for b in doc.blocks if b.kind == BlockKind.FRONT_MATTER), None)
    if block is None:
        return None
    end = doc.line_starts[block.lines.last] if block.lines.last < doc.line_count else len(doc.text)
    return Span(0, end)


def _merge(spans: Iterable[Span]) -> list[Span]:
    merged: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        if merged and span.start <= merged[-1].end:
            merged[-1] = Span(merged[-1].start, max(merged[-1].end, span.end))
        else:
            merged.append(span)
    return merged


def _inside(offset: int, spans: Sequence[Span]) -> bool:
    return any(s.start <= offset < s.end for s in spans)


# --------------------------------------------------------------------------- bodies


@dataclass(frozen=True, slots=True)
class _Body:
    front_matter: str
    text: str
    kept: tuple[str, ...]
    dropped: tuple[str, ...]


def _cut(doc: Document, removals: Sequence[Span], status_edit: Edit | None) -> _Body:
    """``doc`` without ``removals`` (the status construct replaced by ``status_edit``)."""
    front = _front_matter(doc)
    cuts = _merge([*removals, *([front] if front else [])])
    edits = [Edit(s, "") for s in cuts]
    if status_edit is not None and not any(_inside(status_edit.span.start, [c]) for c in cuts):
        edits.append(status_edit)
    kept = tuple(h.slug for h in doc.headings if not _inside(h.span.start, cuts))
    dropped = tuple(h.slug for h in doc.headings if _inside(h.span.start, cuts))
    front_text = _front_text(doc, front, status_edit) if front else ""
    return _Body(front_text, apply_edits(doc.text, edits).strip("\n"), kept, dropped)


def _front_text(doc: Document, front: Span, status_edit: Edit | None) -> str:
    """The front matter, without the status when that is where the status was."""
    if status_edit is None or status_edit.span.start >= front.end:
        return doc.text[front.start : front.end]
    span = status_edit.span
    rest = doc.text[span.end : front.end] if span.end < front.end else ""
    return doc.text[front.start : span.start] + status_edit.replacement + rest


def record_body(record: LegacyRecord, taken: Iterable[str], *, keep_title: bool = False) -> _Body:
    """The record without its title, status construct and the sections in ``taken``."""
    doc = record.doc
    removals = [section_span(doc, slug) for slug in taken]
    if record.title_heading is not None and not keep_title:
        removals.append(_heading_lines(doc, record.title_heading))
    status = record.status
    edit = Edit(status.remove, status.replace) if status is not None else None
    return _cut(doc, removals, edit)


def section_body(record: LegacyRecord, slug: str, *, keep_heading: bool) -> _Body:
    """One section of a record; its heading dropped when it becomes the topic's title."""
    doc = record.doc
    span = section_span(doc, slug)
    heading = next(h for h in doc.headings if h.slug == slug)
    removals = [Span(0, span.start), Span(span.end, len(doc.text))]
    if not keep_heading:
        removals.append(_heading_lines(doc, heading))
    body = _cut(doc, removals, None)
    return replace(body, front_matter="", dropped=() if keep_heading else (slug,))


# --------------------------------------------------------------------------- topics


def assemble(
    topic: Topic,
    records: Mapping[str, LegacyRecord],
    taken: Mapping[str, Sequence[str]],
    *,
    predict: bool = False,
) -> Assembled:
    """The topic's chunks, and the renamed heading slugs of every source.

    The new slugs are the joined text's, parsed; with ``predict``, a topic of
    one whole source with a plain title is not parsed here: its headings are
    the title's and the kept ones of its source, whose texts the source's
    parse has, so their slugs are predicted (:attr:`Assembled.predicted`) and
    the rewrite, which parses the text anyway, checks them.
    """
    bodies = [_part_body(i, part, records, taken) for i, part in enumerate(topic.parts)]
    front = bodies[0].front_matter if bodies else ""
    chunks = [Chunk(_detail_source(topic, records), front + header(topic))]
    for index, (part, body) in enumerate(zip(topic.parts, bodies, strict=True)):
        chunks.append(_chunk(part, body, marked=topic.merged, first=index == 0))
    source = sole_source(topic, records)
    return _with_slugs(tuple(chunks), _predicted(topic, records, bodies) if predict else None, source)


# A title whose heading text is the title itself: no inline syntax, entity or escape.
_PLAIN_TITLE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9 ,.;'?()/+=%-]*[A-Za-z0-9.?)])?")


def _predicted(
    topic: Topic, records: Mapping[str, LegacyRecord], bodies: Sequence[_Body]
) -> list[str] | None:
    """The joined text's heading slugs, for a topic of one whole source with a plain title."""
    if len(topic.parts) != 1 or topic.parts[0].section is not None or topic.merged:
        return None
    if not _PLAIN_TITLE.fullmatch(topic.title) or "  " in topic.title:
        return None
    texts = {h.slug: h.text for h in records[topic.parts[0].path].doc.headings}
    return unique_slugs([topic.title, *(texts[slug] for slug in bodies[0].kept)])


def _part_body(
    index: int, part: Part, records: Mapping[str, LegacyRecord], taken: Mapping[str, Sequence[str]]
) -> _Body:
    record = records[part.path]
    if part.section is not None:
        return section_body(record, part.section, keep_heading=index > 0)
    return record_body(record, taken.get(part.path, ()))


def _detail_source(topic: Topic, records: Mapping[str, LegacyRecord]) -> str:
    """The file whose status detail the header quotes (its links are relative to it)."""
    for part in topic.parts:
        status = records[part.path].status
        if (
            part.section is None
            and status is not None
            and topic.detail
            and topic.detail in status.value
        ):
            return part.path
    return topic.parts[0].path if topic.parts else ""


def _chunk(part: Part, body: _Body, *, marked: bool, first: bool) -> Chunk:
    pieces: list[str] = []
    if marked:
        pieces.append(MARKER.format(path=part))
    if body.front_matter and not first:
        pieces.append("```yaml\n" + body.front_matter.strip("\n").strip("-\n") + "\n```")
    pieces.append(body.text)
    return Chunk(part.path, join_chunks(pieces), part.section, body.kept, body.dropped)


def _with_slugs(
    chunks: tuple[Chunk, ...], predicted: list[str] | None = None, source: Document | None = None
) -> Assembled:
    """Map each chunk's old slugs to the joined text's heading slugs (or the ``predicted``
    ones), in order."""
    parsed = None
    if predicted is None:
        text = join_chunks(c.text for c in chunks)
        parsed = parse("topic.md", text)
    new = predicted if predicted is not None else [h.slug for h in parsed.headings] if parsed else []
    title = new[0] if new else ""
    cursor = 1
    done: list[Chunk] = [chunks[0]]
    for chunk in chunks[1:]:
        renames = dict.fromkeys(chunk.dropped_slugs, title)
        for slug in chunk.old_slugs:
            if cursor < len(new):
                renames[slug] = new[cursor]
            cursor += 1
        done.append(replace(chunk, renames=renames))
    return Assembled(tuple(done), title, parsed, None if predicted is None else tuple(predicted))
