"""GitHub heading anchors, as github-slugger computes them.

github-slugger lowercases the text, removes every character of the symbol,
control, format, private-use, unassigned and separator categories and of
the punctuation ones but connector punctuation (``-`` and the space stay),
then adds back every character with the Unicode Alphabetic property: what
survives is letters, marks, decimal and letter numbers, connector
punctuation, ``-``, space, and the Alphabetic symbols (circled and squared
Latin letters, ``Ⓐ`` ``🄺``). Spaces become ``-``.

The category test follows Python's :mod:`unicodedata`, which is Unicode
14.0.0 on Python 3.11 and 15.0.0 on 3.12 (``unicodedata.unidata_version``).
github-slugger ships a Unicode 13 table; the versions differ only for
characters assigned after Unicode 13, which no heading in practice uses.
See docs/rfc/implemented/2026-11-29-github-link-semantics.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_KEPT_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "Pc"})

UNICODE_VERSION = unicodedata.unidata_version


# What _kept keeps of lowercase ASCII, as one pattern: letters (Ll), digits
# (Nd), the connector "_" (Pc), "-" and " ". Most headings are ASCII.
_ASCII_DROPPED = re.compile(r"[^a-z0-9_\- ]+")


# The Alphabetic characters of a removed category (Other_Alphabetic in
# PropList.txt, category So; the same ranges in Unicode 13, 14 and 15):
# circled, squared, negative circled and negative squared Latin letters.
# Every other Alphabetic character is a letter, a letter number or a mark.
ALPHABETIC_SYMBOLS = ((0x24B6, 0x24E9), (0x1F130, 0x1F149), (0x1F150, 0x1F169), (0x1F170, 0x1F189))


def _kept(char: str) -> bool:
    if char in "- " or unicodedata.category(char) in _KEPT_CATEGORIES:
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in ALPHABETIC_SYMBOLS)


def slugify(text: str) -> str:
    """The base slug of a heading's rendered text (no uniqueness counter)."""
    lowered = text.lower()
    if lowered.isascii():
        return _ASCII_DROPPED.sub("", lowered).replace(" ", "-")
    return "".join(c for c in lowered if _kept(c)).replace(" ", "-")


class Slugger:
    """Makes slugs unique in document order, as github-slugger does.

    The counter belongs to the base slug and skips slugs already taken:
    ``echo, echo, echo 1, echo-1`` → ``echo, echo-1, echo-1-1, echo-1-2``.
    """

    def __init__(self) -> None:
        self._occurrences: dict[str, int] = {}

    def slug(self, text: str) -> str:
        original = slugify(text)
        result = original
        while result in self._occurrences:
            self._occurrences[original] += 1
            result = f"{original}-{self._occurrences[original]}"
        self._occurrences[result] = 0
        return result


def unique_slugs(texts: Iterable[str]) -> list[str]:
    slugger = Slugger()
    return [slugger.slug(text) for text in texts]


# A heading's explicit id on a docs site: ``## Title {#id}`` (MkDocs
# attr_list, Docusaurus, Hugo, Pandoc), other attributes allowed beside it.
# GitHub shows the braces as text and slugs them; the site uses the id.
_HEADING_ID = re.compile(r"\{[ \t]*(?:[^{}#\s][^{}\s]*[ \t]+)*#([^\s{}#\"']+)[^{}]*\}[ \t]*$")


def site_heading_id(text: str) -> str | None:
    """The id a docs site gives a heading whose text ends with ``{#id}``, else None.

    Not an anchor on GitHub (which slugs the braces as text), so a link to
    it is a finding; but ``fix`` must not "repair" such a link into GitHub's
    slug, which would break it on the site the docs are built into.
    """
    found = _HEADING_ID.search(text)
    return found.group(1) if found else None
