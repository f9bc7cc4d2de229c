"""Header-field lines (``Status: Accepted``, ``Supersedes: [ADR 2](0002-b.md)``): kept as written.

A record's header is commonly a paragraph of ``Key: value`` lines, one field
a line. GitHub renders such a paragraph as one line whether its line ends
stay or not, but docsync's own readers (``records/status_lines.py``,
``records/relations.py``, ``lifecycle/``) and the author read a field as a
line that *starts* with its key. So the ``wrap`` gate never asks for a field
line to move, and the fixer never moves one:

* the line end before a field line is kept (never joined, never reported);
* a field line's own text is never broken, split at a sentence end or
  reported as too wide.

A header starts its paragraph, and is either two field lines or more, or a
field docsync knows (:data:`KNOWN_KEYS`: ``Status``, ``Date``, the relation
phrases, the common template fields): ``Example answer: …`` alone on its
line is a sentence, and so is ``Note: …`` after a sentence (see
:func:`header_lines`). A list item's paragraph holds no field line (the item already starts its own
line). A line that starts no field continues the field before it, as docsync's
readers read it, and is prose: checked and fixed as any other line (MADR's
``Chosen option: "X", because`` followed by the reason is a sentence).

A field line starts, after its container prefix, with a key and a colon
followed by a space, a tab or the end of the line (a backslash hard break may
end it). A key is one to four words of letters, digits, ``-``, ``_`` and
``'``, the first starting with an upper-case letter, 40 characters at most
(``Status``, ``Date``, ``Supersedes``, ``Superseded by``, ``Decision-makers``,
``Technical Story``), bare or in bold (``**Status:**``, ``**Status**:``,
``__Date__:``). See
docs/rfc/implemented/2026-12-01-header-fields-keep-their-lines.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...config import DEFAULT_RELATIONS

_WORD = r"[^\W_][\w'\u2019-]*"
FIELD_LINE = re.compile(
    rf"""(?:\*\*|__)?                         # a bold key opens
         (?P<key>{_WORD}(?:[ ]{_WORD}){{0,3}})
         (?: :(?:\*\*|__)? | (?:\*\*|__): )     # its colon, inside or after the bold
         (?=[ \t]|\\?$)                       # then a space, or the line ends (a hard break may)""",
    re.VERBOSE,
)
_MAX_KEY = 40
_COLON_BY = 2 + _MAX_KEY + 2 + 1  # bold, the longest key, bold, then its colon


def field_key(text: str, start: int, end: int) -> tuple[str, int] | None:
    """The key of the field line ``text[start:end]`` and where its colon (and
    bold) ends, or None when that line starts no field."""
    if text.find(":", start, min(end, start + _COLON_BY)) < 0:
        return None  # the colon of a key short enough comes within the line's first characters
    match = FIELD_LINE.match(text, start, end)
    if match is None:
        return None
    key = match.group("key")
    if len(key) > _MAX_KEY or not key[0].isupper():
        return None
    return key, match.end()


def is_field_line(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (one line's paragraph text) starts with a header field."""
    return field_key(text, start, end) is not None


# The fields docsync reads and writes, and the common header fields of record
# templates (Nygard, MADR, log4brains, Rust RFCs): one of these alone on a line
# is a header even with no other field beside it.
KNOWN_KEYS = frozenset(
    {
        "status", "date", "supersedes", "superseded by", "superseded", "amends", "amended by",
        *DEFAULT_RELATIONS, *DEFAULT_RELATIONS.values(),
        "replaces", "replaced by", "deprecated by", "obsoletes", "obsoleted by", "updates",
        "updated by", "extends", "extended by", "related", "relates to", "see also",
        "deciders", "decision-makers", "decision makers", "consulted", "informed",
        "technical story", "tags", "author", "authors", "owner", "owners", "reviewers",
        "approvers", "created", "updated", "last updated", "last modified", "start date",
        "feature name", "rfc pr", "tracking issue", "issue", "discussion", "category",
    }
)


def is_known(key: str) -> bool:
    """Whether ``key`` names a field of :data:`KNOWN_KEYS` (in any letter case)."""
    return " ".join(key.lower().split()) in KNOWN_KEYS


def header_lines(keys: Sequence[str | None]) -> tuple[int, ...]:
    """Given each line's field key (None: the line starts no field), the lines of the
    paragraph that are header fields: every field line when the first line is one
    and either another line is one too or the first key is a known field; none
    otherwise (``Example answer: …`` alone on its line, or followed by prose, is a
    sentence, and a field line after a sentence is prose)."""
    if not keys or keys[0] is None:
        return ()
    fields = tuple(k for k, key in enumerate(keys) if key is not None)
    if len(fields) >= 2 or is_known(keys[0]):
        return fields
    return ()
