"""In-memory migrations for the plan and property tests: no git, no disk.

:func:`inputs` parses records from texts and dates them as given;
:func:`changes` computes the change set against a repository made of those
files plus any others.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from datetime import date

from docsync.config import DEFAULT_STATES, DEFAULT_STATUSES
from docsync.migrate.model import ChangeSet, Plan, PlanSpec, TopicSpec
from docsync.migrate.plan.plan import infer_spec, resolve
from docsync.migrate.read.discover import (
    Tree,
    find_trees,
    index_paths,
    kind_for,
    read_record,
)
from docsync.migrate.read.inputs import Dated, Inputs
from docsync.migrate.read.names import numbered
from docsync.migrate.read.repo_view import RepoView
from docsync.migrate.rewrite.changes import Computing, compute
from docsync.parse.native import parse
from docsync.records.model import RecordId

COMMIT = "c0ffee" + "0" * 34


def inputs(
    files: Mapping[str, str],
    dates: Mapping[str, str] | None = None,
    statuses: Mapping[str, str] = DEFAULT_STATUSES,
    tree_slugs: Mapping[str, str] | None = None,
) -> Inputs:
    """Every numbered file of a legacy tree in ``files`` as a record; dates default to 2020-01-01."""
    paths = sorted(files)
    trees = find_trees(paths, ())
    records = {}
    for path in paths:
        parsed = numbered(posixpath.basename(path))
        folder = posixpath.dirname(path)
        if parsed is None or Tree(folder, kind_for(folder)) not in trees:
            continue
        record_id = RecordId(kind_for(folder), parsed[0])
        records[path] = read_record(parse(path, files[path]), record_id, parsed[1])
    given = dates or {}
    origins = {p: Dated(date.fromisoformat(given.get(p, "2020-01-01")), COMMIT) for p in records}
    return Inputs(
        target="docs/rfc",
        states=DEFAULT_STATES,
        statuses=statuses,
        records=records,
        indexes=tuple(p for t in trees for p in index_paths(t, paths)),
        origins=origins,
        commit=COMMIT,
        hashes={p: "sha256:x" for p in records},
        tracked=frozenset(paths),
        tree_slugs=tree_slugs,
    )


def plan_of(
    files: Mapping[str, str],
    spec: PlanSpec | None = None,
    dates: Mapping[str, str] | None = None,
    statuses: Mapping[str, str] = DEFAULT_STATUSES,
) -> Plan:
    given = inputs(files, dates, statuses)
    return resolve(spec or infer_spec(given), given)


def merged_plan(files: Mapping[str, str]) -> Plan:
    """The inferred plan with its same-title questions answered "merge them", as a user would."""
    return resolve(merged_spec(files), inputs(files))


def merged_spec(files: Mapping[str, str]) -> PlanSpec:
    """The inferred spec, records of one tree with one title merged (the user's answer)."""
    spec = infer_spec(inputs(files))
    groups = {path: group for group in spec.same_titles for path in group}
    topics, seen = [], set()
    for topic in spec.topics:
        group = groups.get(topic.sources[0])
        if group is None:
            topics.append(topic)
        elif group not in seen:
            seen.add(group)
            ordered = tuple(t.sources[0] for t in spec.topics if t.sources[0] in group)
            topics.append(TopicSpec(sources=ordered))
    return PlanSpec(spec.target, tuple(topics), (), spec.commit, spec.hashes)


def changes(
    files: Mapping[str, str], plan: Plan, code_refs: bool = True, options: Computing | None = None
) -> ChangeSet:
    given = inputs(files)
    documents = {p: parse(p, t) for p, t in files.items() if p.endswith(".md")}
    view = RepoView(
        documents=documents,
        tracked=frozenset(files),
        read_text=lambda path, needles: files.get(path),
        states=DEFAULT_STATES,
        code_refs=code_refs,
    )
    return compute(plan, given.records, view, Computing() if options is None else options)


def after(files: Mapping[str, str], change_set: ChangeSet) -> dict[str, str]:
    """The repository's files once ``change_set`` is applied."""
    result = dict(files)
    for old, new in change_set.moves:
        result[new] = result.pop(old)
    for path in change_set.removals:
        result.pop(path, None)
    result.update({w.path: w.text for w in change_set.writes})
    return result
