"""Which legacy records another record supersedes, read before the plan decides states.

The plan puts a record another one supersedes in the superseded state (the state
the status word ``superseded`` maps to), whatever its own status line says: a record
left ``Accepted`` after a later one wrote ``Supersedes [3. Foo](0003-foo.md)`` would
sit in ``implemented/`` and the layout gate would report it (Y013) right after the
apply. Read here, with one pattern per text (no parse of the relations): relation lines
whose link names another legacy record (either side may write it: ``Supersedes …`` on
the newer, ``Superseded by …`` on the older), and
relation lines in the shapes the migration normalises (``**Superseded by:** [3. Foo](…)``,
``Supersedes: ADR-0003``), and front-matter keys (``superseded_by: ADR-0005``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache

from ...gates.links.check import resolve_url
from ...records.model import ID_PATTERN, parse_id
from ...records.relations import SUPERSEDES, Phrases
from .discover import LegacyRecord
from .status_keys import front_matter


@cache
def _relation_line(pattern: str) -> re.Pattern[str]:
    """A line that starts with a relation phrase (emphasis and a colon allowed), then a bare
    id or an inline link."""
    return re.compile(
        rf"(?im)^[ \t]*(?:[*+-][ \t]+)?[*_]*(?P<phrase>{pattern})[*_]*[ \t]*:?[*_ \t]*"
        rf"(?:(?P<id>{ID_PATTERN.pattern})|\[[^\]\n]*\]\((?P<url>[^)\s]+))"
    )


def _named(match: re.Match[str], path: str, by_id: Mapping[tuple[str, int, int | None], str]) -> str | None:
    """The legacy record a relation line names, by its id or by a link's path."""
    if match.group("url") is not None:
        resolved = resolve_url(path, match.group("url"))
        return resolved[0] if resolved is not None else None
    written = parse_id(match.group("id"))
    return by_id.get(written.key()) if written is not None else None


def _front_matter(
    record: LegacyRecord, phrases: Phrases, by_id: Mapping[tuple[str, int, int | None], str]
) -> Iterator[tuple[bool, str]]:
    """(forward?, record) of each ``superseded_by: ADR-0005`` / ``supersedes: [ADR-3]`` key."""
    for key, value in front_matter(record.doc).items():
        relation = phrases.lookup(key.replace("_", " ").replace("-", " "))
        if relation is None or relation[0] != SUPERSEDES:
            continue
        for written in re.split(r"[,\[\]\"']+", value):
            parsed = parse_id(written) if written.strip() else None
            other = by_id.get(parsed.key()) if parsed is not None else None
            if other is not None:
                yield relation[1], other


def superseded(records: Mapping[str, LegacyRecord], relations: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """Each legacy record another supersedes → the records that supersede it."""
    if SUPERSEDES not in relations:
        return {}
    by_id = {r.record_id.key(): path for path, r in records.items() if r.record_id is not None}
    phrases = Phrases(relations)
    line = _relation_line(phrases.pattern)
    found: dict[str, dict[str, None]] = {}
    words = tuple({w.split()[0] for w in (SUPERSEDES, relations[SUPERSEDES])})
    for path, record in records.items():
        lowered = record.doc.text.lower()
        if not any(w in lowered for w in words):
            continue  # nearly every record: no relation word, nothing to read
        for match in line.finditer(record.doc.text):
            relation = phrases.lookup(match.group("phrase"))
            other = _named(match, path, by_id)
            if relation is None or relation[0] != SUPERSEDES or other not in records or other == path:
                continue
            newer, older = (path, str(other)) if relation[1] else (str(other), path)
            found.setdefault(older, {})[newer] = None
        for forward, other in _front_matter(record, phrases, by_id):
            newer, older = (path, other) if forward else (other, path)
            if other != path:
                found.setdefault(older, {})[newer] = None
    return {older: tuple(newer) for older, newer in sorted(found.items())}
