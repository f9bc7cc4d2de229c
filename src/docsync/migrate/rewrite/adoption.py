"""What a migration adds besides the moved records: the adoption record and the conventions doc.

The adoption record is one implemented record, dated the day of the
migration, that documents the decision: the trees merged, the counts
(records moved, merged, split, retired; links and ids rewritten), the gates
now enforced and where the former-id table is. The conventions doc
(:mod:`docsync.records.conventions`) tells people and agents how the new
tree works.

Both are decided before the change set is computed, so that the index lists
the adoption record, and written after it, since the record quotes the
counts of the rewrite. Both follow every gate: links relative to their own
folder and resolving, the wrap convention in force, no bare ids in prose.
The same step keeps the wrap convention in the files the migration
rewrote: a Markdown file whose rewrite gained wrap findings is re-wrapped.

The adoption record is skipped when ``--no-adoption-record`` asks, when the
plan changes nothing, when the tree has no ``implemented`` state, and when a
record with its slug exists already (a later migration adds records to a
tree whose adoption is already recorded).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from ...config import Config
from ...gates.wrap import check as wrap
from ...gates.wrap.fix import fix_document
from ...parse.native import parse
from ...parse.slugs import slugify
from ...records.conventions import (
    ADOPTION_SLUG,
    Conventions,
    ConventionsMarkersError,
    conventions_for,
    render,
)
from ...records.index import FORMER_HEADING
from ...records.model import Record
from ...rewrite.record_links import link_text, relative_destination
from ...write.writer import FileWrite
from ..model import ChangeSet, Plan, Problem, Stats
from ..read.discover import LegacyRecord
from ..read.repo_view import RepoView
from .routes import index_path

ADOPTION_TITLE = "Adopting docsync"
IMPLEMENTED = "implemented"


@dataclass(frozen=True)
class Adoption:
    """The extra files a migration writes, decided before its changes are computed."""

    config: Config
    today: date
    record: Record | None

    def view(self, view: RepoView) -> RepoView:
        """``view`` with the adoption record in the tree, so the index lists it."""
        if self.record is None:
            return view
        return replace(view, tree=(*view.tree, self.record))


def plan_adoption(
    plan: Plan, view: RepoView, config: Config, today: date, *, record: bool = True
) -> Adoption:
    """Where the adoption record goes, or that there is none (see the module docstring)."""
    folder = config.states.get(IMPLEMENTED)
    if not record or folder is None or plan.empty or not plan.complete:
        return Adoption(config, today, None)
    taken = {t.slug for t in plan.topics} | {r.slug for r in view.tree}
    path = posixpath.join(plan.target, folder, f"{today.isoformat()}-{ADOPTION_SLUG}.md")
    if ADOPTION_SLUG in taken or path in view.tracked:
        return Adoption(config, today, None)
    return Adoption(config, today, Record(path, ADOPTION_TITLE, IMPLEMENTED, today, ADOPTION_SLUG))


def extend(
    adoption: Adoption,
    plan: Plan,
    records: Mapping[str, LegacyRecord],
    view: RepoView,
    changes: ChangeSet,
    *,
    rewrap: bool = True,
) -> ChangeSet:
    """``changes`` plus the adoption record and the conventions doc; both are staged.

    ``rewrap`` False (a dry run, which shows the writes' paths and counts, never their
    texts) re-wraps only the conventions doc, whose text decides whether it is written.
    """
    if changes.empty:
        return changes
    wanted = conventions_for(adoption.config, _tree_records(plan, view), index_path(plan))
    before = {new: records[old].doc for old, new in changes.moves if old in records}
    writes = {
        w.path: (
            w  # outside the gates: links fixed, nothing else
            if w.path in view.excluded
            or not (rewrap or (wanted is not None and w.path == wanted.path))
            else wrap.keep_wrapped(
                before.get(w.path) or view.documents.get(w.path),
                w,
                adoption.config,
                changes.parsed.get(w.path),  # the rewrite's own parse of it: not parsed again
            )
        )
        for w in changes.writes
    }
    added: list[FileWrite] = []
    problems: list[Problem] = []
    if adoption.record is not None:
        text = adoption_text(adoption, plan, records, changes)
        added.append(FileWrite(adoption.record.path, text))
    conventions = _conventions_write(wanted, view, writes, problems)
    if conventions is not None:
        added.append(conventions)
    writes.update((w.path, w) for w in added)
    parsed = {
        path: doc
        for path, doc in changes.parsed.items()
        if path in writes and writes[path].text == doc.text
    }
    return replace(
        changes,
        writes=tuple(writes.values()),
        parsed=parsed,
        problems=changes.problems + tuple(problems),
        untracked=changes.untracked - {w.path for w in added},
        adoption_record=adoption.record.path if adoption.record else None,
        conventions=conventions.path if conventions else None,
    )


# --------------------------------------------------------------------------- the conventions doc


def _tree_records(plan: Plan, view: RepoView) -> list[Record]:
    """The tree once the plan is applied (``view`` holds the adoption record already)."""
    new = [
        Record(t.path, t.title, t.state, t.date, t.slug) for t in plan.topics if t.date is not None
    ]
    paths = {r.path for r in new}
    return new + [r for r in view.tree if r.path not in paths]


def _conventions_write(
    wanted: Conventions | None,
    view: RepoView,
    writes: Mapping[str, FileWrite],
    problems: list[Problem],
) -> FileWrite | None:
    if wanted is None:
        return None
    doc = view.documents.get(wanted.path)
    earlier = writes.get(wanted.path)
    existing = earlier.text if earlier is not None else (doc.text if doc is not None else None)
    try:
        text = render(wanted, existing)
    except ConventionsMarkersError as exc:
        problems.append(Problem(wanted.path, f"conventions doc: {exc}; repair the markers"))
        return None
    if text == existing:
        return None
    newline, bom = (doc.newline, doc.bom) if doc is not None else ("\n", False)
    return FileWrite(wanted.path, text, newline, bom)


# --------------------------------------------------------------------------- the adoption record


def _count(number: int, one: str, many: str = "") -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"


def _trees(records: Mapping[str, LegacyRecord]) -> list[str]:
    """``docs/adr/`` (3 records, ids such as `ADR 0001`), one per legacy tree."""
    found: dict[str, list[LegacyRecord]] = {}
    for record in records.values():
        found.setdefault(posixpath.dirname(record.path), []).append(record)
    described = []
    for folder, group in sorted(found.items()):
        ids = sorted(r.record_id for r in group if r.record_id is not None)
        such = f"ids such as `{ids[0]}`" if ids else "named by date"
        described.append(f"`{folder}/` ({_count(len(group), 'record')}, {such})")
    return described


def _joined(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _record_counts(plan: Plan, changes: ChangeSet) -> str:
    """What happened to the records; counts of zero are left out, except the moves."""
    merged = [t for t in plan.topics if len(t.files) > 1]
    split = [p for t in plan.topics for p in t.parts if p.section is not None]
    counts = [f"{_count(len(changes.moves), 'record')} moved into the tree"]
    if merged:
        sources = sum(len(t.files) for t in merged)
        counts.append(f"{_count(len(merged), 'record')} merged from {sources} sources")
    if split:
        counts.append(f"{_count(len(split), 'record')} split out of a section of another")
    if plan.retirements:
        counts.append(
            f"{_count(len(plan.retirements), 'umbrella record')} retired, its ids pointing "
            "at the records that took over its parts"
        )
    return "- Records: " + "; ".join(counts) + "."


def _reference_counts(stats: Stats) -> str:
    code = f", and {_count(stats.code_refs, 'id')} in other files," if stats.code_refs else ""
    return (
        f"- References: {_count(stats.links, 'link')} and {_count(stats.refs, 'bare id')} "
        f"in Markdown{code} rewritten to the records' new paths."
    )


def _link(adoption: Adoption, text: str, target: str, fragment: str = "") -> str:
    assert adoption.record is not None
    destination = relative_destination(adoption.record.path, target)
    return f"[{link_text(text)}]({destination}{'#' + fragment if fragment else ''})"


def _former(adoption: Adoption, plan: Plan) -> str:
    fragment = slugify(FORMER_HEADING.lstrip("# "))
    table = _link(adoption, "the former-id table", index_path(plan), fragment)
    return (
        f"- Former ids and paths: {table} in the tree's index maps each to its record, so an "
        "old reference in a commit message or an issue can still be followed."
    )


def _sections(
    adoption: Adoption, plan: Plan, records: Mapping[str, LegacyRecord], changes: ChangeSet
) -> Iterator[str]:
    trees = _trees(records)
    kept_in = "numbered trees" if len(trees) > 1 else "a numbered tree"
    yield (
        "## Context\n\n"
        f"The design records were kept in {kept_in}: "
        f"{_joined(trees)}. "
        "Cross-references were written as bare numbers, and nothing checked that a link still "
        "led to the record it meant, or that a record's status matched where it was kept."
    )
    tree = _link(adoption, plan.target + "/", index_path(plan))
    yield (
        "## Decision\n\n"
        f"We keep every record in one tree, {tree}, with a folder per lifecycle state and each "
        "record named after the day its topic was first proposed, and we let docsync enforce "
        f"the conventions from now on. `docsync migrate` made the change on "
        f"{adoption.today.isoformat()}:\n\n"
        + "\n".join(
            [
                _record_counts(plan, changes),
                _reference_counts(changes.stats),
                _former(adoption, plan),
            ]
        )
    )
    yield _consequences(adoption)


def _consequences(adoption: Adoption) -> str:
    gates = _joined([f"`{g}`" for g in adoption.config.gates])
    enforced = (
        f"`docsync check` enforces the {'gate' if len(adoption.config.gates) == 1 else 'gates'} "
        f"{gates}, in pre-commit and in CI."
        if gates
        else "No gate is enabled yet; `docsync check` checks nothing until one is."
    )
    guide = ""
    if adoption.config.conventions:
        doc = _link(adoption, "The conventions doc", adoption.config.conventions)
        guide = (
            f" {doc} explains where records live, how to name and link them and which commands "
            "keep them in shape."
        )
    return (
        "## Consequences\n\n"
        f"{enforced} New records start with `docsync new`, and `docsync move` moves a record to "
        f"another state, rewriting every link to it.{guide}"
    )


def adoption_text(
    adoption: Adoption, plan: Plan, records: Mapping[str, LegacyRecord], changes: ChangeSet
) -> str:
    """The adoption record, wrapped by the convention in force."""
    assert adoption.record is not None
    header = f"# {ADOPTION_TITLE}\n\nStatus: {IMPLEMENTED}"
    text = "\n\n".join([header, *_sections(adoption, plan, records, changes)]) + "\n"
    return fix_document(parse(adoption.record.path, text), adoption.config).text
