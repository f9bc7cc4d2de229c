"""Gather what a migration reads, once, and compute the plan and its changes.

This is the read side of ``docsync migrate``: it opens the repository, finds
the legacy trees, parses each record once, reads git history in one pass
(only when there are records to date), and hashes every source. Nothing
here writes; :mod:`.apply.apply` does.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Config, Source, conventions_beside
from ..config import load as load_config
from ..config_paths import leads_inside
from ..errors import PlanError
from ..model import Document
from ..records.model import Record
from ..repository import plumbing
from ..workspace.load import (
    Progress,
    Workspace,
    excluded_documents,
    load_workspace,
    parse_files,
    read_text,
)
from .read.dating import EarlyDates
from .read.discover import (
    LegacyRecord,
    Tree,
    default_status,
    find_trees,
    index_paths,
    lifecycle_folders,
    read_record,
    record_paths,
)
from .read.folders import metadata_statuses, prose
from .read.former import former_ids, without_moved_companions
from .read.inputs import Inputs
from .read.kinds import kind_question, with_kinds
from .read.supersession import superseded
from .read.symlinks import skipped_symlinks
from .read.tree import read_tree_record, tree_paths

if TYPE_CHECKING:
    from .model import Outcome, Plan, PlanSpec, Problem
    from .read.repo_view import RepoView


@dataclass(frozen=True, slots=True)
class Options:
    """What the command line may override."""

    sources: tuple[str, ...] = ()
    target: str | None = None
    plan_file: Path | None = None
    adoption_record: bool = True
    today: date | None = None  # the migration's day (the adoption record's date); None: today
    progress: Progress | None = None  # hears parsing and the history scan; the CLI shows it
    texts: bool = True
    """Whether the writes' final texts are wanted (to apply them). A dry run shows the
    writes' paths and counts only: it re-wraps no paragraph and keeps no rewritten
    document's parse but the records'. Every rewrite is still made and verified."""
    meanwhile: Callable[[], object] | None = None
    """Called once while the files parse (see :func:`_meanwhile`): the command line
    imports there what it needs afterwards (the plan's output)."""


@dataclass(frozen=True)
class Session:
    """Everything one run reads, gathered once."""

    root: Path
    config: Config
    records: Mapping[str, LegacyRecord]
    inputs: Inputs
    view: RepoView
    problems: tuple[Problem, ...] = ()
    repo: plumbing.RepoPaths | None = None  # where it is and its files, as git was asked once:
    listing: plumbing.Listing | None = None  # an apply passes them down (see :mod:`.apply.apply`)


# --------------------------------------------------------------------------- reading the repository


def configured(config: Config, options: Options) -> Config:
    sources = tuple(Source(s.strip("/"), "") for s in options.sources) or config.sources
    target = (options.target or config.target).strip("/")
    conventions = config.conventions
    if conventions == conventions_beside(config.target):
        conventions = conventions_beside(target)  # the default follows --target
    return replace(config, sources=sources, target=target, conventions=conventions)


@dataclass(frozen=True)
class _Found:
    """What one look at the working tree finds: legacy records and indexes, the tree so far."""

    workspace: Workspace
    records: dict[str, LegacyRecord]
    indexes: tuple[str, ...]
    tree: tuple[Record, ...]
    former: dict[str, str]
    problems: tuple[Problem, ...]
    kept: dict[str, str]  # another tool's pages in a legacy tree → why they are kept
    symlinks: tuple[str, ...] = ()  # where a record would be: neither read nor moved


def _find(repo: plumbing.RepoPaths, config: Config, progress: Progress | None, listing: plumbing.Listing) -> _Found:
    root = repo.root
    workspace = load_workspace(root, config=config, progress=progress, eager=True, repo=repo, listing=listing)
    from .read.kept_pages import kept_pages, kept_reason  # imported while the files parsed

    listing = workspace.listing  # a symlink (keps/sig-release/2019…-x.md) points at a record: no record
    every = set(listing.tracked) | listing.untracked
    links = sorted(p for p in every if listing.is_symlink(p))
    paths = sorted(every.difference(links))
    paths = without_moved_companions(root, config.target, paths)
    trees = find_trees(paths, config.sources, lifecycle_folders(config.target, config.states.values()))
    lifecycle = set(tree_paths(config.target, config.states, paths))
    trees, unknown = with_kinds(trees, paths, workspace.documents, config.sources)
    records, problems = _records(
        workspace, trees, [p for p in paths if p not in lifecycle], config.statuses
    )
    from .model import Problem  # imported while the files parsed

    problems += [Problem(tree.path, kind_question(tree)) for tree in unknown]
    indexes = tuple(
        p
        for tree in trees
        for p in index_paths(tree, paths)
        if not _own_index(root, config, p, config.max_file_size)
    )
    tree = tuple(_tree(workspace, paths, config))
    former = former_ids(root, config.target, indexes)
    kept = {
        p: kept_reason(tree_, paths)
        for tree_ in trees
        for p in kept_pages(tree_, paths)
        if posixpath.dirname(p) != config.target
    }
    problems.extend(_misnamed(workspace))
    symlinks = skipped_symlinks(trees, paths, links)
    return _Found(workspace, records, indexes, tree, former, tuple(problems), kept, symlinks)


def _misnamed(workspace: Workspace) -> list[Problem]:
    """A Markdown file whose name is not UTF-8 may be a record or link to one: docsync can
    neither read nor rewrite it, so the plan waits until it is renamed."""
    from ..untrusted_text import shown
    from .model import Problem

    return [
        Problem(shown(p), "the file name is not valid UTF-8; docsync can neither read nor rewrite "
                "it: rename it (git mv), then run docsync migrate again")
        for p in workspace.listing.unnamable
        if p.lower().endswith((".md", ".markdown"))
    ]


def _own_index(root: Path, config: Config, path: str, limit: int) -> bool:
    """Whether ``path`` is the target tree's own index, generated before: never a legacy index.

    A re-run would otherwise read the generated block as prose and carry it
    over, one more block on every run.
    """
    from ..records.index import BEGIN as INDEX_BEGIN

    if posixpath.dirname(path) != config.target:
        return False
    text = read_text(root, path, limit)
    return text is not None and INDEX_BEGIN in text


def _inputs(root: Path, config: Config, found: _Found, dates: EarlyDates) -> Inputs:
    hashes = dates.hashes([*found.records, *found.indexes, *found.kept])
    return Inputs(
        target=config.target,
        states=config.states,
        statuses=config.statuses,
        records=found.records,
        indexes=found.indexes,
        origins=dates.origins(list(found.records)),
        commit=dates.head_commit(),
        hashes=hashes,
        tracked=frozenset(found.workspace.listing.tracked),
        tree_slugs={r.slug: r.path for r in found.tree},
        former=found.former,
        kept=found.kept,
        symlinks=found.symlinks,
        superseded=superseded(found.records, config.relations),
    )


def _view(root: Path, config: Config, found: _Found) -> RepoView:
    from .read.repo_view import RepoView, symlink_targets  # imported while the files parsed

    return RepoView(
        documents={**found.workspace.documents, **{r.path: r.doc for r in found.records.values()}},
        tracked=frozenset(found.workspace.listing.tracked),
        read_text=lambda path, needles: read_text(root, path, config.max_file_size, needles),
        states=config.states,
        code_refs=config.code_refs != "off",
        code_everywhere=config.code_refs == "all",
        relations=config.relations,
        tree=found.tree,
        former=found.former,
        exempt=frozenset(p for p in (config.conventions, config.template) if p),
        refs_exclude=config.refs_exclude,
        excluded=excluded_documents(found.workspace, skip=found.records),  # legacy records migrate
        symlinks=symlink_targets(root, found.workspace.listing),
    )


def load_session(start: Path, options: Options, repo: plumbing.RepoPaths | None = None) -> Session:
    """Read the repository holding ``start`` once: config, records, history, the tree so far.
    ``repo``: where it is, when the caller has asked git already. Its files are listed once,
    before the history reader forks, which inherits the listing."""
    repo = repo or plumbing.find_repo(start)
    root = repo.root
    config = configured(load_config(root), options)
    listing = plumbing.list_files(root)
    with EarlyDates(root, config, options.progress, listing, repo) as dates:  # read while the files parse
        found = _find(repo, config, _meanwhile(options.progress, options.meanwhile), listing)
        # What needs no dates comes first: the history may still be being read.
        view = _view(root, config, found)
        inputs = _inputs(root, config, found, dates)
    return Session(root, config, found.records, inputs, view, found.problems, repo, listing)


def _import_later() -> None:
    """The modules the run needs once the files are parsed: the records' and tree's index,
    the plan, its adoption, the changes (half the dry run's imports)."""
    from ..records import index, tree  # noqa: F401
    from . import model  # noqa: F401
    from .plan import plan  # noqa: F401
    from .read import kept_pages, repo_view  # noqa: F401
    from .rewrite import adoption, changes  # noqa: F401


def _meanwhile(progress: Progress | None, also: Callable[[], object] | None) -> Progress:
    """The parse's progress hook, which imports what the run needs after the parse (and
    calls ``also``) on its first call: the parse makes it once the workers are parsing,
    so the imports share the cores with the workers instead of waiting for the parse
    to end. Were it called earlier or not at all, each
    module would still be imported where it is used."""
    pending = True

    def hear(step: str, done: int, total: int) -> None:
        nonlocal pending
        if pending:
            pending = False
            _import_later()
            if also is not None:
                also()
        if progress is not None:
            progress(step, done, total)

    return hear


def _documents(workspace: Workspace, paths: list[str]) -> dict[str, Document]:
    found = {p: workspace.documents[p] for p in paths if p in workspace.documents}
    missing = [p for p in paths if p not in found and leads_inside(workspace.root, p)]
    if missing:
        parsed, _ = parse_files(workspace.root, workspace.git_dir, missing, workspace.config)
        found.update(parsed)
    return found


def _records(
    workspace: Workspace, trees: tuple[Tree, ...], paths: list[str], statuses: Mapping[str, str]
) -> tuple[dict[str, LegacyRecord], list[Problem]]:
    found = [
        (tree, path, rid, slug) for tree in trees for path, rid, slug in record_paths(tree, paths)
    ]
    documents = _documents(workspace, [path for _, path, _, _ in found])
    from .model import Problem  # imported while the files parsed

    records: dict[str, LegacyRecord] = {}
    problems: list[Problem] = []
    beside = metadata_statuses(workspace.root, {p: t.status_key for t, p, _, _ in found}, paths, workspace.config.max_file_size)
    for tree, path, rid, slug in found:
        if path not in documents:
            problems.append(Problem(path, "cannot be read as Markdown (see docsync check)"))
            continue
        record = read_record(documents[path], rid, slug, tree.kind, default_status(tree, path), statuses, tree.path, tree.status_key)
        records[path] = replace(record, status=beside[path]) if path in beside and prose(record.status) else record
    return records, problems


def _tree(workspace: Workspace, paths: list[str], config: Config) -> Iterator[Record]:
    for path in tree_paths(config.target, config.states, paths):
        record = read_tree_record(path, workspace.documents.get(path), config.states)
        if record is not None:
            yield record


# --------------------------------------------------------------------------- the plan


def check_fresh(spec: PlanSpec, session: Session, origin: str) -> tuple[str, ...]:
    """Refuse a plan computed from other sources than the repository holds now.

    A plan without ``[hashes]`` or ``commit`` (written by hand) was never
    computed, so it cannot be stale: it is accepted with one warning.
    """
    if not spec.hashes and not spec.commit:
        return (
            f"{origin} has no [hashes] and no commit: the staleness check is off "
            "(--write-plan writes both)",
        )
    if spec.hashes:
        _check_hashes(spec, session, origin)
    if spec.commit and not plumbing.is_ancestor(session.root, spec.commit):
        raise PlanError(
            f"{origin} is stale: it was computed at {spec.commit[:10]}, which HEAD does not contain"
        )
    return ()


def _check_hashes(spec: PlanSpec, session: Session, origin: str) -> None:
    now = session.inputs.hashes
    changed = sorted(p for p in set(now) | set(spec.hashes) if now.get(p) != spec.hashes.get(p))
    if changed:
        raise PlanError(
            f"{origin} is stale: {changed[0]} changed since it was computed"
            + (f" (and {len(changed) - 1} more)" if len(changed) > 1 else "")
            + "; compute it again with --write-plan and redo your edits"
        )


def _check_removals(spec: PlanSpec, inputs: Inputs, origin: str) -> None:
    """Refuse a ``[pages] remove`` entry that is not a kept page: it would remove something else."""
    from ..suggest import did_you_mean

    kept = inputs.kept or {}
    for path in spec.remove_pages:
        if path not in kept:
            hint = did_you_mean(path, kept) or f" (kept pages: {', '.join(sorted(kept)) or 'none'})"
            raise PlanError(f"{origin}: [pages] remove: {path!r} is not a kept page{hint}")


def plan_for(session: Session, options: Options) -> tuple[Plan, tuple[str, ...]]:
    """The plan (inferred, or read from the plan file) and the warnings reading it gave."""
    from .plan.plan import infer_spec, resolve  # imported while the files parsed

    warnings: tuple[str, ...] = ()
    if options.plan_file is None or not session.inputs.records:
        # No legacy record is left: a plan file applied already has nothing more to do, and
        # says so as the run without one does, instead of calling its own sources stale.
        spec = infer_spec(session.inputs)
    else:
        from .plan import planfile

        spec = planfile.read(options.plan_file)
        warnings = check_fresh(spec, session, str(options.plan_file))
        _check_removals(spec, session.inputs, str(options.plan_file))
    plan = resolve(spec, session.inputs)
    return replace(plan, problems=session.problems + plan.problems), warnings


def run(start: Path, options: Options, repo: plumbing.RepoPaths | None = None) -> tuple[Session, Outcome]:
    """Read the repository, compute the plan and every change it makes (nothing is written)."""
    session = load_session(start, options, repo)
    from .model import Outcome
    from .rewrite.adoption import (  # imported while the files parsed (_meanwhile)
        extend,
        plan_adoption,
    )
    from .rewrite.changes import Computing, compute

    plan, warnings = plan_for(session, options)
    today = options.today or date.today()
    adoption = plan_adoption(
        plan, session.view, session.config, today, record=options.adoption_record
    )
    view = adoption.view(session.view)
    if plan.complete and not plan.empty:
        from ..parse.native import prepare

        prepare()  # before the rewrite forks its workers, which parse: they inherit it
    computing = Computing(jobs=session.config.jobs, keep_parsed=options.texts)
    changes = extend(
        adoption,
        plan,
        session.records,
        view,
        compute(plan, session.records, view, computing),
        rewrap=options.texts,
    )
    return session, Outcome(plan, changes, len(session.view.tree), warnings)
