"""Look-alike records the plan does not merge: shared slug words, citations."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from ...records.model import ID_PATTERN, RecordId
from ..model import Suggestion, Topic
from ..read.discover import LegacyRecord
from ..read.inputs import Inputs

_STOP_WORDS = frozenset(
    {"a", "an", "and", "the", "of", "for", "to", "in", "on", "with", "use", "using"}
)


@dataclass(frozen=True)
class _Profile:
    """What suggesting reads of one record: its topic, slug words and the ids it cites."""

    topic: str
    record: LegacyRecord
    words: frozenset[str]

    @classmethod
    def of(cls, topic: str, record: LegacyRecord) -> _Profile:
        words = frozenset(w for w in record.name_slug.split("-") if w and not w.isdigit())
        return cls(topic, record, words - _STOP_WORDS)

    @cached_property
    def cited(self) -> frozenset[tuple[str, int, int | None]]:
        """Read when the record is in a pair compared (most are in none), once."""
        return cited_ids(self.record.doc.text)


def cited_ids(text: str) -> frozenset[tuple[str, int, int | None]]:
    """The keys of the whole records ``text`` cites: ``parse_id(m.group(0)).whole().key()``
    of each :data:`ID_PATTERN` match, read off the match's own groups (a match parses
    to itself, so its groups are what parsing it again would find)."""
    return frozenset(RecordId(kind, int(number)).key() for kind, number, _ in set(ID_PATTERN.findall(text)))


def suggest(topics: Sequence[Topic], inputs: Inputs) -> Iterator[Suggestion]:
    """Pairs of records in different topics that share slug words (and maybe cite each other).

    Only pairs sharing a word are compared, and a word that most records
    share (``decision`` in ``0001-decision-x``) is no evidence at all.
    """
    profiles = [_Profile.of(t.slug, inputs.records[p]) for t in topics for p in t.files]
    for i, j in _candidate_pairs(profiles):
        a, b = profiles[i], profiles[j]
        reason = _similarity(a, b) if a.topic != b.topic else ""
        if reason:
            yield Suggestion(a.record.path, b.record.path, reason)


def _candidate_pairs(profiles: Sequence[_Profile]) -> list[tuple[int, int]]:
    by_word: dict[str, list[int]] = {}
    for index, profile in enumerate(profiles):
        for word in profile.words:
            by_word.setdefault(word, []).append(index)
    limit = max(3, len(profiles) // 20)
    pairs = {
        (a, b)
        for members in by_word.values()
        if len(members) <= limit
        for n, a in enumerate(members)
        for b in members[n + 1 :]
    }
    return sorted(pairs)


def _similarity(a: _Profile, b: _Profile) -> str:
    shared = sorted(a.words & b.words)
    share = len(shared) / max(1, min(len(a.words), len(b.words)))
    cites = _cites(a, b) or _cites(b, a)
    if share < 0.5 and not cites:
        return ""
    reason = f"share slug words: {', '.join(shared)}"
    return f"{reason}; {cites}" if cites else reason


def _cites(a: _Profile, b: _Profile) -> str:
    if b.record.record_id is not None and b.record.record_id.key() in a.cited:
        return f"{a.record.path} cites {b.record.record_id}"
    if posixpath.basename(b.record.path) in a.record.doc.text:
        return f"{a.record.path} links to {b.record.path}"
    return ""
