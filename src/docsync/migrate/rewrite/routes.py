"""Where every old path, heading and id leads once a plan is applied.

A whole source moves to its topic's path; a link into a section that became
a record of its own (a split, or a part of a retired umbrella) is redirected
to that record; a dropped umbrella's links go to its whole id's topic; a
legacy tree folder the migration empties leads to the new tree.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from ...parse.slugs import slugify
from ...records.index import INDEX_NAMES, default_title
from ...records.model import IdTarget, RecordId, parse_id
from ...rewrite.ids import IdKey
from ..model import Plan, Retirement, Topic
from ..read.discover import LegacyRecord, part_id
from ..read.folders import record_folder
from ..read.repo_view import RepoView
from .assemble import Assembled


@dataclass(frozen=True)
class Routes:
    """Where every old path, heading and id leads after the migration."""

    moves: Mapping[str, str]
    fragments: Mapping[str, Mapping[str, str]]
    redirects: Mapping[tuple[str, str], tuple[str, str]]
    ids: Mapping[IdKey, IdTarget]
    after: frozenset[str]
    before: frozenset[str] = frozenset()

    def exists(self, path: str) -> bool:
        return path in self.after


def index_path(plan: Plan) -> str:
    return posixpath.join(plan.target, INDEX_NAMES[0])


@dataclass
class _RouteBuilder:
    """Collects where old files, headings and sections lead, topic by topic."""

    plan: Plan
    assembled: Mapping[str, Assembled]
    moves: dict[str, str] = field(default_factory=dict)
    fragments: dict[str, dict[str, str]] = field(default_factory=dict)
    redirects: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)

    def topic(self, topic: Topic) -> None:
        """A whole source moves to the topic; a section's links are pointed at it."""
        for chunk in self.assembled[topic.slug].chunks[1:]:
            if chunk.section is None:
                self.moves[chunk.old_path] = topic.path
                self.fragments[chunk.old_path] = dict(chunk.renames)
            else:
                for old, new in chunk.renames.items():
                    self.redirects[(chunk.old_path, old)] = (topic.path, new)

    def dropped(self, retirement: Retirement, record: LegacyRecord) -> None:
        """Links into a dropped umbrella go to its whole id's topic; its parts to theirs."""
        rid = record.record_id
        whole = self.plan.topic(retirement.ids.get(rid, "") if rid is not None else "")
        if whole is None:
            return
        self.moves[record.path] = whole.path
        title = self.assembled[whole.slug].title_slug
        self.fragments[record.path] = {h.slug: title for h in record.doc.headings}
        for heading, record_id in _part_headings(record):
            topic = self.plan.topic(retirement.ids.get(record_id, ""))
            if topic is not None:
                target = (topic.path, self.assembled[topic.slug].title_slug)
                self.redirects.setdefault((record.path, heading), target)


def plan_routes(
    plan: Plan,
    assembled: Mapping[str, Assembled],
    records: Mapping[str, LegacyRecord],
    view: RepoView,
) -> Routes:
    builder = _RouteBuilder(plan, assembled)
    for topic in plan.topics:
        builder.topic(topic)
    for retirement in plan.retirements:
        if retirement.keep_in is None and retirement.source in records:
            builder.dropped(retirement, records[retirement.source])
    moves = builder.moves
    moves.update((p, index_path(plan)) for p in plan.indexes if p != index_path(plan))
    moves.update((p, index_path(plan)) for p in plan.removed_pages)  # as a legacy index
    builder.fragments.update(_removed_sections(plan, view))
    after = _after(plan, moves, view.tracked)
    moves.update(_emptied_folders(plan, records, after))
    for old, new in list(builder.moves.items()):  # a link to a folder record leads to the record
        if (folder := record_folder(old)) is not None and old in records:
            moves[folder] = new
            builder.fragments.setdefault(folder, builder.fragments.get(old, {}))
    ids = _id_targets(plan, view)
    before = _with_folders(set(view.tracked))
    return Routes(moves, builder.fragments, builder.redirects, ids, after, before)


def _removed_sections(plan: Plan, view: RepoView) -> dict[str, dict[str, str]]:
    """Each removed page's headings, leading to the new index's title: its sections go with it."""
    if not plan.removed_pages:
        return {}
    target = index_path(plan)
    existing = view.documents.get(target) if target not in plan.indexes else None
    title = (
        existing.headings[0].slug
        if existing is not None and existing.headings
        else slugify(default_title(plan.target))
    )
    return {
        page: {h.slug: title for h in doc.headings}
        for page in plan.removed_pages
        if (doc := view.documents.get(page)) is not None
    }


def _emptied_folders(
    plan: Plan, records: Mapping[str, LegacyRecord], after: frozenset[str]
) -> dict[str, str]:
    """Legacy tree folders the migration empties: a link to one leads to the new tree."""
    folders = {posixpath.dirname(p) for p in [*records, *plan.indexes]}
    return {f: plan.target for f in folders if f not in after and f != plan.target}


def _part_headings(record: LegacyRecord) -> Iterator[tuple[str, RecordId]]:
    for heading in record.doc.headings:
        found = part_id(record.record_id, heading.text)
        if found is not None:
            yield heading.slug, found


def _id_targets(plan: Plan, view: RepoView) -> dict[IdKey, IdTarget]:
    """Every id this plan gives a record, and the former ids of records migrated before."""
    titles = {r.path: r.title for r in view.tree}
    ids = {
        parsed.key(): IdTarget(path, titles.get(path, posixpath.basename(path)))
        for name, path in view.former.items()
        if (parsed := parse_id(name)) is not None
    }
    ids.update((i.key(), IdTarget(t.path, t.title)) for t in plan.topics for i in t.ids)
    for retirement in plan.retirements:
        for record_id, slug in retirement.ids.items():
            topic = plan.topic(slug)
            if topic is not None:
                ids.setdefault(record_id.key(), IdTarget(topic.path, topic.title))
    return ids


def _after(plan: Plan, moves: Mapping[str, str], tracked: frozenset[str]) -> frozenset[str]:
    """Files and folders that exist once the plan is applied."""
    gone = set(moves) | {r.source for r in plan.retirements} | set(plan.indexes)
    gone |= set(plan.removed_pages)
    files = (set(tracked) - gone) | {t.path for t in plan.topics} | {index_path(plan)}
    return _with_folders(files)


def _with_folders(files: set[str]) -> frozenset[str]:
    """``files`` and every folder above them."""
    folders = {posixpath.dirname(p) for p in files}
    for folder in list(folders):
        while folder:
            folder = posixpath.dirname(folder)
            folders.add(folder)
    return frozenset(files | folders)

