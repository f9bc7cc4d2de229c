"""The types of a migration: the plan as a person edits it, as docsync resolves it, and
what it changes. Every room (read, plan, rewrite, apply) may import this module; it imports none.

A :class:`PlanSpec` is what the TOML plan file holds: topics listing their
sources, with every derived value (title, slug, status, date, ids) optional,
so that a value present is an override. :func:`docsync.migrate.plan.resolve`
turns a spec into a :class:`Plan`, where every value is decided and every
problem is listed. A :class:`ChangeSet` is every move, removal and write a plan makes
(computed by :mod:`.rewrite.changes`), and an :class:`Outcome` is both. No I/O happens here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from ..records.model import RecordId

if TYPE_CHECKING:
    from ..model import Document
    from ..write.writer import FileWrite

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
    symlinks: tuple[str, ...] = ()
    """Symlinks where a record would be: neither read nor moved (the dry run names each)."""

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


# --------------------------------------------------------------------------- what the plan changes


@dataclass(frozen=True, slots=True)
class Stats:
    links: int = 0
    refs: int = 0
    code_refs: int = 0
    code_paths: int = 0
    unresolved: tuple[tuple[str, str], ...] = ()
    dangling: tuple[tuple[str, str], ...] = ()
    """Links the migration breaks: their target existed before and does not after."""
    outside: tuple[str, ...] = ()
    already_broken: int = 0
    """Links that were broken before the migration, each the same break as one the record had
    (``docsync check`` reports them)."""
    tool_pointers: tuple[str, ...] = ()
    """Another tool's config that points at a legacy tree: where, and the line to change."""
    relation_notes: tuple[tuple[str, str], ...] = ()
    """Relation prose left as written (its target is no record, or it is no relation)."""
    code_kept: tuple[tuple[str, str], ...] = ()
    """Ids of records in program strings and code, left as written: ``path:line:column`` and the id."""
    code_lines: tuple[tuple[str, str, str], ...] = ()
    """Each line of a file that is not Markdown the rewrite changes: ``path:line``, before, after."""


@dataclass(frozen=True, slots=True)
class Relink:
    """A tracked symlink pointed at what moved: its path once the moves are done, its
    target as it was, and the new one (relative; see :mod:`.rewrite.relinks`)."""

    path: str
    old: str
    new: str


@dataclass(frozen=True)
class ChangeSet:
    moves: tuple[tuple[str, str], ...] = ()
    removals: tuple[str, ...] = ()
    writes: tuple[FileWrite, ...] = ()
    stats: Stats = field(default_factory=Stats)
    problems: tuple[Problem, ...] = ()
    untracked: frozenset[str] = frozenset()
    adoption_record: str | None = None
    conventions: str | None = None
    read: Mapping[str, str | None] = field(default_factory=dict)
    """What the plan read of the paths it touches (None: absent), for the apply to refuse a
    path saved since (see :meth:`docsync.write.transaction.Transaction.begin`)."""
    parsed: Mapping[str, Document] = field(default_factory=dict)
    """Writes whose new text was parsed on the way (to verify its rewrite), by path;
    the closing check reads them from the parse cache instead of parsing them again."""
    relinks: tuple[Relink, ...] = ()
    symlinks_kept: tuple[tuple[str, str], ...] = ()
    """Symlinks out of the repository or into ``.git``: left alone, and why."""

    @property
    def empty(self) -> bool:
        return not (self.moves or self.removals or self.writes or self.relinks)

    @property
    def to_stage(self) -> list[str]:
        """Written files git should track: everything but untracked files whose links changed."""
        return [w.path for w in self.writes if w.path not in self.untracked] + [r.path for r in self.relinks]

    @property
    def touched(self) -> tuple[str, ...]:
        """Every path the change set creates, changes or removes."""
        paths = [p for move in self.moves for p in move] + list(self.removals)
        paths += [w.path for w in self.writes] + [r.path for r in self.relinks]
        return tuple(dict.fromkeys(paths))


@dataclass(frozen=True)
class Outcome:
    """A plan, the changes it makes, and every problem found on the way."""

    plan: Plan
    changes: ChangeSet
    in_tree: int = 0  # records the target tree already holds
    warnings: tuple[str, ...] = ()  # for people; they do not stop the plan

    @property
    def problems(self) -> tuple[Problem, ...]:
        return self.plan.problems + self.changes.problems

    @property
    def complete(self) -> bool:
        return not self.problems

    @property
    def exit_code(self) -> int:
        return 0 if self.complete else 1
