"""Every file a plan changes, computed in memory before anything is written.

A :class:`~docsync.migrate.model.ChangeSet` holds the pure moves (``git mv``: each topic's oldest
whole source to its new path), the removals (merged-away sources, retired
records, legacy indexes), and the new text of every file: each topic's
record (:mod:`.markdown_rewrite`), every other Markdown file whose links or
bare ids change, non-Markdown text files whose record paths or bare ids
change (:mod:`.code_refs`), and the tree's index (:mod:`.tree_index`). The
dry run shows its counts; :mod:`..apply.apply` writes it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace

from ...gates.links.check import markdown_url, resolve_url
from ...model import Document
from ...parse.native import parse
from ...records.tree import reads_as_record
from ...write.writer import FileWrite
from ..model import ChangeSet, Plan, Problem, Topic
from ..read.discover import LegacyRecord
from ..read.relations import Related, finish
from ..read.repo_view import RepoView
from ..read.tool_pointers import tool_pointers
from . import rewrite_tasks as tasks
from .assemble import Assembled, Mispredicted, assemble
from .fanout import Fanout, workers_for
from .relinks import relinks
from .rewrite_tasks import Context, Done
from .routes import index_path, plan_routes
from .stats import Tally
from .tree_index import all_records, index_write


def _moves_and_removals(plan: Plan) -> tuple[list[tuple[str, str]], list[str]]:
    moves = [(t.files[0], t.path) for t in plan.topics if t.files]
    moved = {old for old, _ in moves}
    removals = [p for t in plan.topics for p in t.files[1:]]
    removals += [r.source for r in plan.retirements if r.source not in moved]
    removals += [p for p in plan.indexes if p != index_path(plan)]
    removals += plan.removed_pages
    return moves, list(dict.fromkeys(p for p in removals if p not in moved))


def _taken(plan: Plan) -> dict[str, list[str]]:
    """Source path → the heading slugs of its sections that other topics take."""
    taken: dict[str, list[str]] = {}
    for part in (p for t in plan.topics for p in t.parts if p.section is not None):
        taken.setdefault(part.path, []).append(part.section or "")
    return taken


def _writes(
    plan: Plan,
    records: Mapping[str, LegacyRecord],
    view: RepoView,
    tally: Tally,
    options: Computing,
) -> tuple[list[FileWrite], dict[str, Document]]:
    """The new text of every record, every other file whose references change, and the index;
    and the new texts parsed on the way (those of the other files only when ``keep_parsed``).
    The files are rewritten across cores (see :mod:`.rewrite_tasks`); then the records'
    headings are predicted, not parsed here (see :func:`.assemble.assemble`), and when one
    prediction fails, everything is computed again from parsed texts."""
    workers = workers_for(options.jobs, len(plan.topics) + len(view.documents))
    if workers:
        try:
            return _rewritten(plan, records, view, tally, options, workers, predict=True)
        except Mispredicted:
            pass  # nothing was tallied yet
    return _rewritten(plan, records, view, tally, options, workers, predict=False)


def _rewritten(
    plan: Plan,
    records: Mapping[str, LegacyRecord],
    view: RepoView,
    tally: Tally,
    options: Computing,
    workers: int,
    *,
    predict: bool,
) -> tuple[list[FileWrite], dict[str, Document]]:
    taken = _taken(plan)
    assembled = {t.slug: assemble(t, records, taken, predict=predict) for t in plan.topics}
    routes = plan_routes(plan, assembled, records, view)
    skip = set(records) | set(plan.indexes) | set(plan.removed_pages) | {index_path(plan)}
    titles = {r.path: r.title for r in all_records(plan, view)}
    context = Context(plan, assembled, records, view, routes, frozenset(skip), titles, options.keep_parsed)
    topic_tasks, other_tasks = tasks.topic_tasks(context, workers), tasks.other_tasks(context, workers)
    clashes = [p for t in plan.topics for p in _label_clashes(t, assembled[t.slug])]
    # The records first (their results are read first), then the code files, the longest
    # of the other tasks, so that short ones end the run (other_tasks' last is the code's).
    order = [*range(len(topic_tasks) + len(other_tasks) - 1)]
    order.insert(len(topic_tasks), len(topic_tasks) + len(other_tasks) - 1)
    with Fanout([*topic_tasks, *other_tasks], workers, order, Done.packed) as fanout:
        done = [fanout.result(k) for k in range(len(topic_tasks))]  # a misprediction raises here
        tally.problems.extend(clashes)
        for d in done:
            tally.merge(d.tally)
        related = _related(plan, view, titles, done)
        tally.relation_notes.extend(related.notes)
        writes = list(related.writes)
        parsed = dict(related.documents)
        # The index needs only the records' relations: written here while the workers
        # rewrite the other files, its tally merged after theirs, as if written last.
        index_tally = Tally()
        index = index_write(plan, records, view, routes, index_tally, related.edges)
        for k in range(len(topic_tasks), len(topic_tasks) + len(other_tasks)):
            other = fanout.result(k)
            tally.merge(other.tally)
            writes.extend(other.writes)
            parsed.update(other.documents())
    tally.merge(index_tally)
    writes.append(index)
    return writes, parsed


def _related(plan: Plan, view: RepoView, titles: Mapping[str, str], done: list[Done]) -> Related:
    """The records' relations in the gate's form, both ways (see :mod:`.relations`): each
    record's own were read where it was rewritten; the reverses need them all."""
    written = {t.path for t in plan.topics}
    others = {p: view.documents[p] for p in titles if p in view.documents and p not in written}
    normalised = [n for d in done for n in d.normalised]
    parsed = {path: doc for d in done for path, doc in d.documents()}
    return finish(normalised, titles, view.relations, others, parsed)


@dataclass(frozen=True, slots=True)
class Computing:
    """How :func:`compute` goes about it; the moves, removals, writes and stats are the same
    whatever these say (tests compare them)."""

    jobs: int = 1
    """Processes (config's ``jobs``; 0: one per core): from 2 on, the other documents are
    rewritten in a forked process (see :mod:`.fanout`)."""
    keep_parsed: bool = True
    """Whether :attr:`ChangeSet.parsed` holds every rewritten document's parse (for an
    apply's re-wrap and closing check), or only those parsed here anyway (a dry run reads
    none of them: it shows paths and counts)."""


def compute(
    plan: Plan,
    records: Mapping[str, LegacyRecord],
    view: RepoView,
    options: Computing = Computing(),
) -> ChangeSet:
    """Every move, removal and write that applying ``plan`` makes."""
    if plan.empty or not plan.complete:
        return ChangeSet()
    tally = Tally()
    writes, parsed = _writes(plan, records, view, tally, options)
    moves, removals = _moves_and_removals(plan)
    created = {t.path for t in plan.topics} | {index_path(plan)}
    untracked = frozenset(w.path for w in writes) - view.tracked - created
    stats = replace(
        tally.stats(_outside_lifecycle(plan, records, view)),
        tool_pointers=tuple(tool_pointers(plan, records, view)),
    )
    problems = tuple(tally.problems)
    relinked, kept = relinks(view.symlinks, moves, view.tracked)
    return ChangeSet(
        tuple(moves), tuple(removals), tuple(writes), stats, problems, untracked,
        read=_reads(view, moves, removals, writes, created), parsed=parsed,
        relinks=relinked, symlinks_kept=kept,
    )


def _reads(
    view: RepoView,
    moves: Iterable[tuple[str, str]],
    removals: Iterable[str],
    writes: Iterable[FileWrite],
    created: set[str],
) -> dict[str, str | None]:
    """What the plan read of each path it touches: a document's text, or absence for a
    path it creates that held nothing. (Other files, such as code files whose references
    change, are compared with the journal's snapshot.)"""
    read: dict[str, str | None] = {}
    paths = [*(old for old, _ in moves), *removals, *(w.path for w in writes)]
    for path in paths:
        doc = view.documents.get(path) or view.excluded.get(path)
        if doc is not None:
            read[path] = doc.text
        elif path in created and path not in view.tracked:
            read[path] = None
    return read


def _outside_lifecycle(
    plan: Plan, records: Mapping[str, LegacyRecord], view: RepoView
) -> tuple[str, ...]:
    """Markdown files left in the tree but outside its lifecycle folders that read as records
    (layout gate, Y001); a page that does not (notes, a folder's README) stays, a page of the tree."""
    folders = {posixpath.join(plan.target, f) for f in view.states.values()}
    skip = set(records) | set(plan.indexes) | {index_path(plan)} | view.exempt
    inside = (p for p in sorted(view.documents) if p.startswith(plan.target + "/"))
    return tuple(
        p for p in inside
        if p not in skip and posixpath.dirname(p) not in folders and reads_as_record(p, view.documents[p])
    )  # fmt: skip


def _label_clashes(topic: Topic, assembled: Assembled) -> Iterator[Problem]:
    """Reference labels two merged sources both define: one source's links would change target."""
    if not topic.merged:
        return  # one source: its labels cannot clash with another's
    owners: dict[str, tuple[str, str]] = {}
    for chunk in assembled.chunks[1:]:
        for definition in parse(chunk.old_path, chunk.text).definitions:
            target = resolve_url(chunk.old_path, markdown_url(definition.destination))
            label, where = (
                definition.normalized_label,
                (chunk.old_path, str(target or definition.destination)),
            )
            owner = owners.setdefault(label, where)
            if owner[0] != where[0] and owner[1] != where[1]:
                yield Problem(
                    where[0],
                    f"defines reference [{definition.label}] differently from {owner[0]}, and both "
                    f"merge into {topic.path or topic.slug}; rename the label in one of them first",
                )
