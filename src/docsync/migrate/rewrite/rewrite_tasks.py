"""The rewrite of every record and every other file a plan touches, as tasks for :mod:`.fanout`.

A task is a contiguous run of records, of other Markdown documents, or the
code files: each is rewritten (and verified) on its own, with a tally of its
own, so tasks can run in any process; their results, read in task order and
merged, are what one pass in that order makes. Each record's own relations
are read there too, so only small results travel back: the texts, the
tallies, the relations each record writes, and the rewritten documents only
when the caller keeps them (an apply does; a dry run does not).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from ...model import Document
from ...workspace import cache as parse_cache
from ...workspace.document_json import encode_document as dumps
from ...workspace.load import matches
from ...write.writer import FileWrite
from ..model import Plan, Topic
from ..read.discover import LegacyRecord
from ..read.relations import Normalised, normalise
from ..read.repo_view import RepoView
from .assemble import Assembled, sole_source
from .code_refs import code_files
from .markdown_rewrite import other_documents, topic_text
from .routes import Routes
from .stats import Tally

_SHORTEST_RUN = 8  # files: a task costs little more than its files, but each result travels on its own


@dataclass(frozen=True)
class Done:
    """What one task made: its writes, the rewritten documents kept, its tally."""

    writes: list[FileWrite]
    tally: Tally
    parsed: dict[str, bytes | Document] = field(default_factory=dict)
    """Pickled (:meth:`packed`) when made in a forked process."""
    normalised: list[Normalised] = field(default_factory=list)
    """Records: each with its own relations read (:func:`.relations.normalise`)."""

    def packed(self) -> Done:
        """Fit to travel from a forked process: its documents pickled by the parse cache's
        pickler, which is faster both ways than the pickling of the whole result."""
        if not self.parsed:
            return self
        parsed: dict[str, bytes | Document] = {
            p: d if isinstance(d, bytes) else dumps(d) for p, d in self.parsed.items()
        }
        return replace(self, parsed=parsed)

    def documents(self) -> Iterator[tuple[str, Document]]:
        for path, kept in self.parsed.items():
            document = parse_cache.loads(kept) if isinstance(kept, bytes) else kept
            if document is not None:
                yield path, document


@dataclass(frozen=True)
class Context:
    """What every task reads (inherited by a forked process, never pickled)."""

    plan: Plan
    assembled: Mapping[str, Assembled]
    records: Mapping[str, LegacyRecord]
    view: RepoView
    routes: Routes
    skip: frozenset[str]
    titles: Mapping[str, str]
    """Every record the tree will hold, by path: its title."""
    keep_parsed: bool


def _runs(items: Sequence[str], workers: int, later: int = 0) -> list[Sequence[str]]:
    """``items`` in contiguous runs that shrink as the work left does: each about a
    ``1 / (4 * workers)`` share of what is left (``later``: the files of the tasks taken
    after these), and no shorter than :data:`_SHORTEST_RUN`. The first tasks are long,
    and the last ones, whose ends decide when all the processes end, are short."""
    shares = 4 * max(1, workers)
    runs: list[Sequence[str]] = []
    start = 0
    while start < len(items):
        size = max(_SHORTEST_RUN, -(-(len(items) - start + later) // shares))
        runs.append(items[start : start + size])
        start += size
    return runs


def topic_tasks(context: Context, workers: int) -> list[Callable[[], Done]]:
    slugs = [t.slug for t in context.plan.topics]
    topics = {t.slug: t for t in context.plan.topics}
    others = len(context.view.documents) - len(slugs)  # about as many as :func:`other_tasks` rewrites
    return [
        partial(_topics, context, [topics[s] for s in run])
        for run in _runs(slugs, workers, max(0, others))
    ]


def _topics(context: Context, topics: list[Topic]) -> Done:
    """Each record rewritten, then its own relations read; its new text's parse travels back
    only when the caller keeps them."""
    tally = Tally()
    parsed: dict[str, bytes | Document] = {}
    normalised: list[Normalised] = []
    for topic in topics:
        first = context.records[topic.parts[0].path].doc
        source = sole_source(topic, context.records)
        text, doc = topic_text(topic, context.assembled[topic.slug], context.routes, tally, source)
        write = FileWrite(topic.path, text, first.newline, first.bom)
        known = replace(doc, newline=first.newline, bom=first.bom) if doc is not None else None
        relations = context.view.relations
        done, after = normalise(write, known, context.titles, relations, context.routes.ids)
        normalised.append(done)
        if context.keep_parsed:
            parsed[topic.path] = after
    return Done([], tally, parsed, normalised)


def other_tasks(context: Context, workers: int) -> list[Callable[[], Done]]:
    """The other Markdown documents, gated ones first (links and ids), then those config
    keeps out of the gates and test fixtures (links only); then the code files."""
    view = context.view
    fixtures = {p for p in view.documents if matches(p, view.refs_exclude)}
    gated = sorted(p for p in view.documents if p not in context.skip and p not in fixtures)
    links_only = {**view.excluded, **{p: view.documents[p] for p in fixtures}}
    outside = sorted(
        p for p in links_only if p not in context.skip and (p not in view.documents or p in fixtures)
    )
    tasks: list[Callable[[], Done]] = [
        partial(_documents, context, run, False) for run in _runs(gated, workers, len(outside))
    ]
    tasks += [partial(_documents, context, run, True) for run in _runs(outside, workers)]
    tasks.append(partial(_code, context))
    return tasks


def _documents(context: Context, paths: Sequence[str], links_only: bool) -> Done:
    tally = Tally()
    view, routes = context.view, context.routes
    if links_only:
        documents = {p: view.documents[p] if p in view.documents else view.excluded[p] for p in paths}
        routes = replace(routes, ids={})
    else:
        documents = {p: view.documents[p] for p in paths}
    writes: list[FileWrite] = []
    parsed: dict[str, bytes | Document] = {}
    for write, doc in other_documents(documents, set(), routes, tally):
        writes.append(write)
        if context.keep_parsed:
            parsed[write.path] = doc
    return Done(writes, tally, parsed)


def _code(context: Context) -> Done:
    tally = Tally()
    writes = list(code_files(context.view, set(context.skip), context.routes, tally))
    return Done(writes, tally)
