"""Find legacy record trees, and read the id, slug and title of each record.

A legacy tree is a folder whose direct children include numbered Markdown
files (``0001-x.md``, ``adr-012-x.md``). Without configuration, folders with
the usual names are searched under the repository root, ``doc/`` and
``docs/``. Only direct children count: the lifecycle folders of the new tree
(``docs/rfc/implemented/``) are not part of a legacy tree of the same name.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from ..config import Source
from ..model import Document, Heading
from ..records.gates import record_title
from ..records.model import RecordId
from .status import StatusReading, read_status

TREE_KINDS: dict[str, str] = {
    "adr": "ADR",
    "adrs": "ADR",
    "decisions": "ADR",
    "architecture/decisions": "ADR",
    "rfc": "RFC",
    "rfcs": "RFC",
}
TREE_BASES = ("", "doc/", "docs/")
INDEX_NAMES = frozenset({"readme.md", "index.md"})

_NUMBERED = re.compile(
    r"^(?:(?P<prefix>[A-Za-z]{2,10})[-_ ]?)?(?P<number>\d{1,5})"
    r"(?:[-_ .]+(?P<rest>.*?))?\.(?:md|markdown)$",
    re.IGNORECASE,
)
_DATED = re.compile(r"^\d{4}-\d{2}-\d{2}-")
_TITLE_PREFIX = (
    r"^\s*(?:(?:{kinds})[\s\-_]*#?\d+\b|(?:{kinds})\s*(?=:)|#?\d+(?=[\s:.)\-\u2013\u2014]))"
    r"[\s:.)\-\u2013\u2014]*"
)
_WORD = re.compile(r"[a-z0-9]+")
_PART_NUMBER = re.compile(r"\b(?:part|pt\.?)\s*(\d{1,3})\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Tree:
    """A legacy tree: its folder and the kind word of its ids."""

    path: str
    kind: str


@dataclass(frozen=True, slots=True)
class LegacyRecord:
    """One numbered record as found, parsed once."""

    path: str
    record_id: RecordId
    name_slug: str
    title: str
    title_heading: Heading | None
    status: StatusReading | None
    doc: Document


# --------------------------------------------------------------------------- names


def ascii_slug(text: str) -> str:
    """Lowercase ASCII words joined by ``-`` (accents folded, other characters dropped)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return "-".join(_WORD.findall(folded))


def numbered(name: str) -> tuple[int, str] | None:
    """(number, slug) of a numbered record file name, or None for any other name."""
    if _DATED.match(name):
        return None
    match = _NUMBERED.match(name)
    if match is None:
        return None
    return int(match.group("number")), ascii_slug(match.group("rest") or "")


@cache
def _title_prefix(kind: str) -> re.Pattern[str]:
    kinds = "|".join(re.escape(k) for k in dict.fromkeys(("ADR", "RFC", kind.upper())))
    return re.compile(_TITLE_PREFIX.replace("{kinds}", kinds), re.IGNORECASE)


def strip_title_prefix(title: str, kind: str = "ADR") -> str:
    """A title without its leading kind or number (``ADR 0004: Foo`` → ``Foo``)."""
    stripped = _title_prefix(kind).sub("", title, count=1).strip()
    return stripped or title.strip()


def normalized_title(title: str, kind: str = "ADR") -> str:
    """What two titles must share to be the same topic: case, punctuation and prefix ignored."""
    return " ".join(_WORD.findall(strip_title_prefix(title, kind).lower()))


def part_id(record_id: RecordId, heading: str) -> RecordId | None:
    """The qualified id a section stands for (``Part 3: …`` of RFC 006 → ``RFC 006 part 3``)."""
    found = _PART_NUMBER.search(heading)
    if found is None:
        return None
    return RecordId(record_id.kind, record_id.number, int(found.group(1)))


def kind_for(folder: str) -> str:
    """The default id kind of a tree folder (``docs/adr`` → ``ADR``)."""
    for name, kind in TREE_KINDS.items():
        if folder == name or folder.endswith("/" + name):
            return kind
    base = posixpath.basename(folder).upper()
    return base[:-1] if base.endswith("S") and len(base) > 3 else base


# --------------------------------------------------------------------------- trees


def _children(folder: str, paths: Iterable[str]) -> list[str]:
    prefix = f"{folder}/" if folder else ""
    return sorted(p for p in paths if p.startswith(prefix) and "/" not in p[len(prefix) :])


def _has_records(folder: str, paths: Iterable[str]) -> bool:
    return any(numbered(posixpath.basename(p)) for p in _children(folder, paths))


def find_trees(paths: Sequence[str], sources: Sequence[Source]) -> tuple[Tree, ...]:
    """The legacy trees: the configured ones, or those found by folder name."""
    if sources:
        return tuple(
            Tree(s.path.strip("/"), s.kind or kind_for(s.path.strip("/"))) for s in sources
        )
    folders = {posixpath.dirname(p) for p in paths}
    found = [
        Tree(base + name, kind)
        for base in TREE_BASES
        for name, kind in TREE_KINDS.items()
        if base + name in folders and _has_records(base + name, paths)
    ]
    return tuple(found)


def record_paths(tree: Tree, paths: Iterable[str]) -> list[tuple[str, RecordId, str]]:
    """(path, id, slug from the name) of every numbered Markdown file directly in ``tree``."""
    found: list[tuple[str, RecordId, str]] = []
    for path in _children(tree.path, paths):
        parsed = numbered(posixpath.basename(path))
        if parsed is not None:
            found.append((path, RecordId(tree.kind.upper(), parsed[0]), parsed[1]))
    return found


def index_paths(tree: Tree, paths: Iterable[str]) -> list[str]:
    """The tree's index files (``README.md``, ``index.md``)."""
    return [p for p in _children(tree.path, paths) if posixpath.basename(p).lower() in INDEX_NAMES]


# --------------------------------------------------------------------------- records


def title_heading(doc: Document) -> Heading | None:
    """The first level-1 heading, the record's title."""
    return next((h for h in doc.headings if h.level == 1), None)


def read_record(doc: Document, record_id: RecordId, name_slug: str) -> LegacyRecord:
    heading = title_heading(doc)
    raw = record_title(doc) or name_slug.replace("-", " ").capitalize()
    title = strip_title_prefix(" ".join(raw.split()), record_id.kind)
    return LegacyRecord(
        path=doc.path,
        record_id=record_id,
        name_slug=name_slug or ascii_slug(title),
        title=title,
        title_heading=heading,
        status=read_status(doc),
        doc=doc,
    )
