"""Shared types of the record tree, used by migrate, the rewriter and the tree gates."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

# "ADR 0007", "ADR-0007", "ADR7", "RFC 12", "RFC-012", "RFC 005 part 1", "RFC 005 pt 2"; a
# category letter glued to its number (gRPC's "A1", "L12"), never "A 1".
ID_PATTERN = re.compile(
    r"\b(?P<kind>[A-Z][A-Za-z]{1,9}|[A-Z](?=\d))[ \-]?(?P<number>\d{1,5})"
    r"(?:\s+(?:part|pt\.?)\s*(?P<part>\d{1,3}))?\b"
)


@dataclass(frozen=True, slots=True, order=True)
class RecordId:
    """A record's former id: its tree's kind word, its number, and an optional part."""

    kind: str
    number: int
    part: int | None = None

    def __str__(self) -> str:
        if len(self.kind) == 1:  # a category letter: "A1", as the series writes it
            base = f"{self.kind}{self.number}"
            return base if self.part is None else f"{base} part {self.part}"
        base = f"{self.kind} {self.number:0{self.width}d}" if self.width else f"{self.kind} {self.number}"
        return base if self.part is None else f"{base} part {self.part}"

    @property
    def width(self) -> int:
        # ADRs are conventionally 4 digits, RFCs 3; the canonical text is only for display.
        return 4 if self.kind.upper() == "ADR" else 3

    def key(self) -> tuple[str, int, int | None]:
        """What two mentions must share to name the same record (case and padding ignored)."""
        return (self.kind.upper(), self.number, self.part)

    def whole(self) -> RecordId:
        return RecordId(self.kind, self.number)


def parse_id(text: str) -> RecordId | None:
    match = ID_PATTERN.fullmatch(text.strip())
    if match is None:
        return None
    part = match.group("part")
    return RecordId(match.group("kind").upper(), int(match.group("number")), int(part) if part else None)


@dataclass(frozen=True, slots=True)
class IdTarget:
    """Where a former id now lives: the record's repository path and title."""

    path: str
    title: str


@dataclass(frozen=True, slots=True)
class Relocation:
    """One file's move: its old path, its new path, and heading slugs that changed."""

    old_path: str
    new_path: str
    fragments: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Record:
    """A record in the lifecycle tree."""

    path: str
    title: str
    state: str
    first_proposed: date
    slug: str
    former_ids: tuple[str, ...] = ()
    status_detail: str = ""


def tree_exists(target: str, states: Mapping[str, str], present: Iterable[str]) -> bool:
    """Whether some file of ``present`` sits in a lifecycle folder under ``target``
    (``states``: state → folder): until one does, the repository has no record tree."""
    folders = tuple(f"{target.strip('/')}/{folder}/" for folder in states.values())
    return any(path.startswith(folders) for path in present)
