"""Relations between records (supersedes, amends, …): how they are written and read.

A relation is written on both records, each in its own words: the newer
record says ``Supersedes: [Old title](old.md)`` in a line of its own under its
status, and the older one says ``superseded by [New title](new.md)`` in its
``Status:`` line (where ``docsync move --by`` puts it) or in a line of its own,
``Superseded by: [New title](new.md)`` (where ``docsync fix`` puts a missing
reverse). The config's ``relations`` table names the pairs, forward phrase →
reverse phrase; ``supersedes`` is the one relation that also decides a state.

Reading is plain: a prose paragraph (block quotes are examples) whose line
starts with a phrase and a colon makes every link on it a relation, and so
does a phrase right before a link in the ``Status:`` line. A relation is an
:class:`Edge` whichever record it is read from, so the two sides can be
compared. See docs/rfc/implemented/2026-12-01-record-relations.md.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..config import Config
from ..errors import DocsyncError
from ..gates.links.check import link_url, resolve_url
from ..model import Document, Edit, Link, LinkKind, Paragraph, Span, apply_edits
from ..rewrite.record_links import link_text, relative_destination

SUPERSEDES = "supersedes"
_STATUS = re.compile(r"Status:[ \t]*")
_FIELD = re.compile(r"[A-Z][A-Za-z -]{0,30}:(?:\s|$)")
_RELATION_LINKS = (LinkKind.INLINE, LinkKind.REFERENCE)


@dataclass(frozen=True, slots=True, order=True)
class Edge:
    """``newer`` ``kind`` ``older``: the relation itself, whichever side wrote it."""

    newer: str
    kind: str
    older: str


@dataclass(frozen=True, slots=True)
class Mention:
    """A relation as one record writes it: its phrase, where, and the record it links to."""

    source: str
    kind: str
    forward: bool
    target: str
    line: int
    column: int

    @property
    def edge(self) -> Edge:
        if self.forward:
            return Edge(self.source, self.kind, self.target)
        return Edge(self.target, self.kind, self.source)



@dataclass(frozen=True, slots=True)
class Phrases:
    """The configured relation pairs, looked up both ways."""

    pairs: Mapping[str, str]


    def lookup(self, phrase: str) -> tuple[str, bool] | None:
        """``phrase`` → (relation kind, forward?) or None."""
        words = " ".join(phrase.lower().split())
        if words in self.pairs:
            return words, True
        for kind, reverse in self.pairs.items():
            if reverse == words:
                return kind, False
        return None

    def phrase(self, kind: str, forward: bool) -> str:
        return kind if forward else self.pairs[kind]

    @property
    def label_line(self) -> re.Pattern[str]:
        """A line that starts with a phrase and a colon, or a phrase and then a link
        (``Amends [5. Help comments](0005-help-comments.md)``, as adr-tools writes it)."""
        return re.compile(rf"(?i)(?P<phrase>{self.pattern})[ \t]*(?::|(?=\[))")

    @property
    def pattern(self) -> str:
        every = sorted([*self.pairs, *self.pairs.values()], key=len, reverse=True)
        return "|".join(r"\s+".join(map(re.escape, p.split())) for p in every)


def kind_of(config: Config, given: str) -> str:
    """A relation named on the command line → its configured kind (either phrase works)."""
    found = Phrases(config.relations).lookup(given)
    if found is None:
        raise DocsyncError(
            f"unknown relation {given!r}: configured relations are "
            f"{', '.join(config.relations)} (add pairs under 'relations' in {config.origin})"
        )
    return found[0]


def superseded_state(config: Config) -> str:
    """The state a superseded record takes: the one the status word ``superseded`` maps to."""
    state = config.statuses.get("superseded")
    if state is None or state not in config.states:
        raise DocsyncError(
            f"no state for superseded records: map the status word 'superseded' to one "
            f"under [statuses] in {config.origin}"
        )
    return state


def label(phrase: str) -> str:
    """A relation line's label: ``superseded by`` → ``Superseded by:``."""
    return phrase[:1].upper() + phrase[1:] + ":"


# --------------------------------------------------------------------------- reading


def _target(doc: Document, link: Link) -> str | None:
    resolved = resolve_url(doc.path, link_url(link))
    return None if resolved is None else resolved[0]


def _line_modes(
    doc: Document, paragraph: Paragraph, phrases: Phrases
) -> Iterator[tuple[int, int, tuple[str, bool] | int | None]]:
    """Each line of ``paragraph`` with what its links mean: a relation (label line),
    the offset where a status value starts (status line), or nothing.

    A line that starts no field continues the one before it (a wrapped line).
    """
    label_line = phrases.label_line
    mode: tuple[str, bool] | int | None = None
    for span in paragraph.line_spans:
        status = _STATUS.match(doc.text, span.start, span.end)
        labelled = label_line.match(doc.text, span.start, span.end)
        if status is not None:
            mode = status.end()
        elif labelled is not None:
            mode = phrases.lookup(labelled.group("phrase"))
        elif _FIELD.match(doc.text, span.start, span.end):
            mode = None
        yield span.start, span.end, mode


def status_value_end(doc: Document, relations: Mapping[str, str], offset: int) -> int:
    """Where the ``Status:`` value whose first line holds ``offset`` ends.

    That is the end of its line, or of the last line after it in its paragraph
    that starts no field, phrase or ``Status:``: a value wrapped over lines (as
    ``keep_wrapped`` writes a long one) is one value, exactly as
    :func:`read_mentions` reads the relations in it. A hard break ends it.
    """
    phrases = Phrases(relations)
    for paragraph in doc.paragraphs:
        if not paragraph.line_spans[0].start <= offset <= paragraph.line_spans[-1].end:
            continue
        end, own = -1, None
        for start, stop, mode in _line_modes(doc, paragraph, phrases):
            if end < 0:
                if start <= offset <= stop:
                    end, own = stop, mode
            elif mode != own or _hard_break(doc.text[:end]):
                break
            else:
                end = stop
        if end >= 0:
            return end
    newline = doc.text.find("\n", offset)
    return len(doc.text) if newline < 0 else newline  # in no paragraph: to its line's end


def _hard_break(before: str) -> bool:
    return before.endswith(("\\", "  "))


def _status_relation(
    doc: Document, value_start: int, link: Link, phrases: Phrases
) -> tuple[str, bool] | None:
    before = re.search(rf"(?i)(?P<phrase>{phrases.pattern})\s+$", doc.text[value_start : link.span.start])
    return phrases.lookup(before.group("phrase")) if before else None


def _mentions_none(text: str, phrases: Phrases) -> bool:
    """Whether ``text`` holds no phrase's first word at all (plain substring tests, fast)."""
    lowered = text.lower()
    words = {p.split()[0] for pair in phrases.pairs.items() for p in pair}
    return not any(word in lowered for word in words)


def read_mentions(doc: Document, relations: Mapping[str, str]) -> list[Mention]:
    """Every relation ``doc`` writes, in source order (``relations``: the config's pairs)."""
    phrases = Phrases(relations)
    if _mentions_none(doc.text, phrases):
        return []  # nearly every document: one scan, no per-line work
    links = sorted((k for k in doc.links if k.kind in _RELATION_LINKS), key=lambda k: k.span.start)
    starts = [k.span.start for k in links]
    found: list[Mention] = []
    for paragraph in doc.paragraphs:
        if "blockquote" in paragraph.containers:
            continue
        for start, end, mode in _line_modes(doc, paragraph, phrases):
            for link in links[bisect.bisect_left(starts, start) : bisect.bisect_left(starts, end)]:
                relation = (
                    _status_relation(doc, mode, link, phrases) if isinstance(mode, int) else mode
                )
                target = _target(doc, link)
                if relation is not None and target is not None:
                    kind, forward = relation
                    found.append(Mention(doc.path, kind, forward, target, link.line, link.column))
    return found


# --------------------------------------------------------------------------- writing


def _after_header(doc: Document, phrases: Phrases) -> int | None:
    """Where a relation line goes: after the status paragraph and the relation lines
    right after it; None when the record has no ``Status:`` line."""
    label_line = phrases.label_line
    end: int | None = None
    for paragraph in doc.paragraphs:
        if "blockquote" in paragraph.containers:
            continue
        first = paragraph.line_spans[0]
        if end is None:
            if any(_STATUS.match(doc.text, s.start, s.end) for s in paragraph.line_spans):
                end = paragraph.line_spans[-1].end
        elif label_line.match(doc.text, first.start, first.end):
            end = paragraph.line_spans[-1].end
        else:
            break
    return end


def with_relation_lines(doc: Document, relations: Mapping[str, str], lines: Sequence[str]) -> str:
    """``doc``'s text with ``lines`` (``Supersedes: [T](p)``) added as paragraphs under its status.

    Without a ``Status:`` line they go under the first heading, or at the top.
    """
    if not lines:
        return doc.text
    block = "\n\n".join(lines)
    at = _after_header(doc, Phrases(relations))
    if at is None:
        title = next((h for h in doc.headings if h.level == 1), None)
        if title is None:
            return f"{block}\n\n{doc.text}"
        at = title.span.end
    rest = doc.text[at:]
    tail = "" if rest.startswith("\n\n") or not rest.strip() else "\n"
    return apply_edits(doc.text, [Edit(Span(at, at), f"\n\n{block}{tail}")])


# --------------------------------------------------------------------------- both sides


def one_sided(
    mentions: Mapping[str, Sequence[Mention]], records: Collection[str]
) -> Iterator[Mention]:
    """Relations between two of ``records`` that only one of the two writes."""
    sides = {(m.edge, m.forward) for found in mentions.values() for m in found}
    for found in mentions.values():
        for mention in found:
            if mention.source == mention.target or mention.target not in records:
                continue  # a loop of one (Y015), or no record (Y014)
            if (mention.edge, not mention.forward) not in sides:
                yield mention


def reverse_line(mention: Mention, relations: Mapping[str, str], title: str) -> str:
    """The line the other record needs: ``Superseded by: [<title>](<path back>)``."""
    phrase = mention.kind if not mention.forward else relations[mention.kind]
    link = f"[{link_text(title)}]({relative_destination(mention.target, mention.source)})"
    return f"{label(phrase)} {link}"


def reverses(
    mentions: Mapping[str, Sequence[Mention]],
    records: Collection[str],
    relations: Mapping[str, str],
    titles: Mapping[str, str],
) -> dict[str, list[str]]:
    """Record path → the reverse lines it lacks, each once, in the order found."""
    wanted: dict[str, list[str]] = {}
    for mention in one_sided(mentions, records):
        title = titles.get(mention.source) or posixpath.basename(mention.source)
        line = reverse_line(mention, relations, title)
        lines = wanted.setdefault(mention.target, [])
        if line not in lines:
            lines.append(line)
    return wanted
