"""What a legacy record's file name says: its number or date, and its slug.

A name that starts with a date (yyyy-mm-dd, yyyymmdd, yyyy-mm, yy-mm-dd) is
date-named, whatever follows: its leading number is never an id. A date and nothing else
(``2020-07-01.md``, a meeting's notes) is no record's name. A template's
name is no record's (see :mod:`docsync.records.templates`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from ...records.templates import is_template_name

# A kind prefix (``adr-``, ``eip-``), or one capital letter glued to the number: the
# category of a letter-id series (gRPC's ``A1-``, ``G1-``, ``L12-``, ``P1-``).
_NUMBERED = re.compile(
    r"^(?:(?P<prefix>[A-Za-z]{2,10})[-_ ]?|(?P<letter>(?-i:[A-Z])))?(?P<number>\d{1,5})"
    r"(?:[-_ .]+(?P<rest>.*?))?\.(?:md|markdown)$",
    re.IGNORECASE,
)
_MONTH = r"(?:0[1-9]|1[0-2])"
_DAY = r"(?:0[1-9]|[12]\d|3[01])"
# A name that starts with a date is date-named, whatever follows: yyyy-mm-dd, yyyymmdd,
# yyyy-mm and yy-mm-dd (``-`` or ``_`` between the parts). Its leading number is never an id.
_DATED = re.compile(
    rf"^(?P<date>(?:19|20)\d\d(?P<sep>[-_]){_MONTH}(?:(?P=sep){_DAY})?"
    rf"|(?:19|20)\d\d{_MONTH}{_DAY}|\d\d(?P<sep2>[-_]){_MONTH}(?P=sep2){_DAY})"
    r"(?:[-_ .]+(?P<rest>.+?))?\.(?:md|markdown)$",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True, slots=True)
class RecordName:
    """What a record's file name says: its number (None when date-named) and its slug."""

    number: int | None
    slug: str
    prefix: str = ""

    @property
    def letter(self) -> bool:
        """Whether the prefix is a category letter (``A1-``): the letter is part of the id."""
        return len(self.prefix) == 1


def ascii_slug(text: str) -> str:
    """Lowercase ASCII words joined by ``-`` (accents folded, other characters dropped)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return "-".join(_WORD.findall(folded))


def is_template(name: str) -> bool:
    """``template.md``, ``adr-template.md``, ``0000-template.md``, ``RFC_TEMPLATE.md``; not
    ``0002-add-template-lint.md``, numbered like a record (see :mod:`docsync.records.templates`)."""
    return is_template_name(name)


def numbered(name: str) -> tuple[int, str] | None:
    """(number, slug) of a numbered record file name, or None for any other name."""
    if _DATED.match(name) or is_template(name):
        return None
    match = _NUMBERED.match(name)
    if match is None:
        return None
    return int(match.group("number")), ascii_slug(match.group("rest") or "")


@cache
def record_name(name: str) -> RecordName | None:
    """What a legacy record's file name says, or None when it is not a record name.

    Remembered: finding the trees asks it of every name, then again of each
    tree's names (their kind, whether unmistakable) and of each record's."""
    if is_template(name):
        return None
    dated = _DATED.match(name)
    if dated is not None:
        slug = ascii_slug(dated.group("rest") or "")
        # A date and nothing else (``2020-07-01.md``) names a day's notes (a meeting, a log),
        # not a record: a record's name carries its title's words or its number.
        return RecordName(None, slug) if slug else None
    match = _NUMBERED.match(name)
    if match is None:
        return None
    rest = ascii_slug(match.group("rest") or "")
    prefix = match.group("prefix") or match.group("letter") or ""
    return RecordName(int(match.group("number")), rest, prefix.upper())
