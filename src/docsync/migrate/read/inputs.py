"""What planning reads, gathered once by :mod:`docsync.migrate.run`, and where a topic goes."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from .discover import LegacyRecord

if TYPE_CHECKING:
    from ..model import Topic


@dataclass(frozen=True, slots=True)
class Dated:
    """The day a file was first proposed, and the commit that says so."""

    date: date
    commit: str


@dataclass(frozen=True)
class Inputs:
    """Everything planning reads, gathered once by :mod:`docsync.migrate.run`."""

    target: str
    states: Mapping[str, str]
    statuses: Mapping[str, str]
    records: Mapping[str, LegacyRecord]
    indexes: tuple[str, ...]
    origins: Mapping[str, Dated]
    commit: str | None
    hashes: Mapping[str, str]
    tracked: frozenset[str] = frozenset()
    tree_slugs: Mapping[str, str] | None = None
    former: Mapping[str, str] | None = None
    kept: Mapping[str, str] | None = None  # another tool's pages in a legacy tree → why kept
    symlinks: tuple[str, ...] = ()  # symlinks where a record would be: neither read nor moved
    superseded: Mapping[str, tuple[str, ...]] | None = None
    """Each legacy record another supersedes → those records (:mod:`.supersession`)."""


def topic_path(topic: Topic, inputs: Inputs) -> str:
    """``<target>/<state folder>/<yyyy-mm-dd>-<slug>.md``, or "" until state and date are known."""
    return path_for(topic.slug, topic.state, topic.date, inputs)


def path_for(slug: str, state: str, day: date | None, inputs: Inputs) -> str:
    """:func:`topic_path` of a topic with this slug, state and date, before it is made."""
    folder = inputs.states.get(state)
    if folder is None or day is None:
        return ""
    return posixpath.join(inputs.target, folder, f"{day.isoformat()}-{slug}.md")
