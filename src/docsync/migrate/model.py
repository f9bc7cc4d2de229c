"""The types of a migration: the plan as a person edits it, and as docsync resolves it.

A :class:`PlanSpec` is what the TOML plan file holds: topics listing their
sources, with every derived value (title, slug, status, date, ids) optional,
so that a value present is an override. :func:`docsync.migrate.plan.resolve`
turns a spec into a :class:`Plan`, where every value is decided and every
problem is listed. No I/O happens here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from ..records.model import RecordId

PLAN_VERSION = 1
DROP = "drop"


# --------------------------------------------------------------------------- the editable spec


@dataclass(frozen=True, slots=True)
class TopicSpec:
    """One ``[[topic]]``: its sources (``path`` or ``path#heading-slug``) and overrides."""

    sources: tuple[str, ...]
    slug: str | None = None
    title: str | None = None
    status: str | None = None
    detail: str | None = None
    date: date | None = None
    ids: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class RetireSpec:
    """One ``[[retire]]``: a record whose ids point at topics, and where its text goes."""

    source: str
    ids: Mapping[str, str]
    dates_to: tuple[str, ...] = ()
    text: str = DROP


@dataclass(frozen=True, slots=True)
class PlanSpec:
    target: str
    topics: tuple[TopicSpec, ...]
    retires: tuple[RetireSpec, ...] = ()
    commit: str | None = None
    hashes: Mapping[str, str] = field(default_factory=dict)
    version: int = PLAN_VERSION
    # Records of one tree with equal titles, kept apart until the plan says (inferred plans only).
    same_titles: tuple[tuple[str, ...], ...] = ()
    # Kept pages (another tool's index) the plan removes: ``[pages] remove = [...]``.
    remove_pages: tuple[str, ...] = ()


# --------------------------------------------------------------------------- the resolved plan


@dataclass(frozen=True, slots=True)
class Part:
    """A piece of a topic's body: a whole source file, or one section of it."""

    path: str
    section: str | None = None

    def __str__(self) -> str:
        return self.path if self.section is None else f"{self.path}#{self.section}"


@dataclass(frozen=True, slots=True)
class Topic:
    """A record of the new tree, fully decided."""

    slug: str
    title: str
    state: str
    detail: str
    date: date | None
    parts: tuple[Part, ...]
    ids: tuple[RecordId, ...]
    path: str
    status_from: str
    date_from: str
    retired: tuple[str, ...] = ()

    @property
    def merged(self) -> bool:
        return len(self.parts) > 1

    @property
    def files(self) -> tuple[str, ...]:
        """The whole source files, oldest first (the first is moved, the others removed)."""
        return tuple(p.path for p in self.parts if p.section is None)


@dataclass(frozen=True, slots=True)
class Retirement:
    source: str
    ids: Mapping[RecordId, str]
    dates_to: tuple[str, ...]
    keep_in: str | None


@dataclass(frozen=True, slots=True)
class KeptPage:
    """Another tool's page in a legacy tree (log4brains' ``index.md``): kept unless the plan removes it."""

    path: str
    reason: str
    removed: bool = False


@dataclass(frozen=True, slots=True)
class Problem:
    """Something that stops the plan from being applied."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


@dataclass(frozen=True, slots=True)
class Suggestion:
    """Two records that look like one topic but were not merged."""

    first: str
    second: str
    reason: str


@dataclass(frozen=True, slots=True)
class Plan:
    target: str
    topics: tuple[Topic, ...]
    retirements: tuple[Retirement, ...]
    indexes: tuple[str, ...]
    commit: str | None
    hashes: Mapping[str, str]
    problems: tuple[Problem, ...] = ()
    suggestions: tuple[Suggestion, ...] = ()
    pages: tuple[KeptPage, ...] = ()

    @property
    def removed_pages(self) -> tuple[str, ...]:
        """The kept pages this plan removes (``[pages] remove``)."""
        return tuple(p.path for p in self.pages if p.removed)

    @property
    def complete(self) -> bool:
        return not self.problems

    @property
    def empty(self) -> bool:
        return not self.topics and not self.retirements and not self.indexes

    @property
    def exit_code(self) -> int:
        return 0 if self.complete else 1

    def topic(self, slug: str) -> Topic | None:
        return next((t for t in self.topics if t.slug == slug), None)
