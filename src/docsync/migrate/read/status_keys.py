"""Which front-matter key a tree keeps its records' status under, when it is not ``status``.

Some communities write ``stage: accepted`` (and ``exploring``, ``released`` …) in
every record's front matter. ``docsync init`` looks for such a key when most of a
tree's records have no status it can read: a key most of those records hold,
whose values are short words with no digits, and of which at least one is a known
status word. The key with the most known words wins; its unknown words become
``[statuses]`` questions like any other.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from ...model import BlockKind, Document

_KEY_LINE = re.compile(r"^(?P<key>[A-Za-z][A-Za-z0-9_-]*)[ \t]*:[ \t]*(?P<value>.*?)[ \t]*$")
_WORDS = re.compile(r"[A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*)?")
# Keys that never hold a status, whatever their values look like.
_NOT_STATUS = frozenset({"status", "title", "author", "authors", "owner", "owners", "date", "tags", "kind", "type"})


def front_matter(doc: Document) -> dict[str, str]:
    """The top-level ``key: value`` lines of ``doc``'s front matter, keys in lower case."""
    block = next((b for b in doc.blocks if b.kind == BlockKind.FRONT_MATTER), None)
    if block is None:
        return {}
    found: dict[str, str] = {}
    for number in range(block.lines.first + 1, block.lines.last):
        match = _KEY_LINE.match(doc.line_text(number))
        if match is not None:
            found.setdefault(match.group("key").lower(), match.group("value").strip("\"' "))
    return found


def status_key(documents: Sequence[Document], statuses: Mapping[str, str]) -> str:
    """The front-matter key of ``documents`` (records with no status read) that holds their
    status, or "" when none does (see the module)."""
    values: dict[str, list[str]] = {}
    for doc in documents:
        for key, value in front_matter(doc).items():
            if key not in _NOT_STATUS:
                values.setdefault(key, []).append(value.lower())
    known: Counter[str] = Counter()
    for key, seen in values.items():
        if len(seen) * 2 <= len(documents) or not all(_WORDS.fullmatch(v) for v in seen):
            continue
        known[key] = sum(1 for v in seen if v in statuses or v.split()[0] in statuses)
    best = [(count, key) for key, count in known.items() if count]
    return max(best)[1] if best else ""
