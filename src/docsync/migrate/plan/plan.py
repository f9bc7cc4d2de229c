"""Compute the plan: which records become which topic, with what status, date and name.

Read-only. :func:`infer_spec` proposes a spec from the records found
(records whose normalised titles are equal are merged); :func:`resolve`
decides every value of a spec, from a person's edited plan file or from
:func:`infer_spec`, and lists every problem instead of guessing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import date

from ...records.model import RecordId, parse_id
from ..model import KeptPage, Part, Plan, PlanSpec, Problem, Topic, TopicSpec
from ..read.discover import LegacyRecord, normalized_title, part_id
from ..read.inputs import Inputs, path_for
from ..read.names import ascii_slug
from .collisions import collisions
from .derive import topic_date, topic_status
from .retire import resolve_retirement, with_retirements
from .suggest import suggest

# --------------------------------------------------------------------------- inferring


def infer_spec(inputs: Inputs) -> PlanSpec:
    """One topic per record; records of different trees with the same normalised title merged.

    Records of one tree with the same title stay apart (a copied title is not
    a shared topic) and become a question of the plan.
    """
    groups: dict[str, list[LegacyRecord]] = {}
    for record in sorted(inputs.records.values(), key=lambda r: _age(inputs, r.path)):
        key = normalized_title(record.title, record.kind) or record.path
        groups.setdefault(key, []).append(record)
    merged: list[list[LegacyRecord]] = []
    same: list[tuple[str, ...]] = []
    for group in groups.values():
        if len({r.tree for r in group}) == len(group):
            merged.append(group)
        else:
            merged.extend([r] for r in group)
            same.append(tuple(sorted(r.path for r in group)))
    ordered = sorted(merged, key=lambda group: min(r.path for r in group))
    topics = tuple(TopicSpec(sources=tuple(r.path for r in group)) for group in ordered)
    return PlanSpec(
        inputs.target, topics, (), inputs.commit, dict(inputs.hashes), same_titles=tuple(same)
    )


def _age(inputs: Inputs, path: str) -> tuple[date, str]:
    origin = inputs.origins.get(path)
    return (origin.date if origin else date.max, path)


# --------------------------------------------------------------------------- resolving


def resolve(spec: PlanSpec, inputs: Inputs) -> Plan:
    """Decide every value of ``spec``; what cannot be decided becomes a :class:`Problem`."""
    problems: list[Problem] = list(_same_titles(spec, inputs))
    if spec.target.strip("/") != inputs.target:
        problems.append(
            Problem("", f"the plan targets {spec.target!r}, but the target is {inputs.target!r}")
        )
    problems.extend(_coverage(spec, inputs))
    topics = [_topic(t, inputs, problems) for t in spec.topics]
    by_slug = {t.slug: t for t in topics}
    retirements = [resolve_retirement(r, inputs, by_slug, problems) for r in spec.retires]
    topics = [with_retirements(t, retirements, inputs) for t in topics]
    problems.extend(collisions(topics, retirements, inputs))
    return Plan(
        target=inputs.target,
        topics=tuple(topics),
        retirements=tuple(retirements),
        indexes=inputs.indexes,
        commit=inputs.commit,
        hashes=dict(inputs.hashes),
        problems=tuple(_unique(problems)),
        suggestions=tuple(suggest(topics, inputs)),
        pages=tuple(
            KeptPage(path, reason, path in spec.remove_pages)
            for path, reason in sorted((inputs.kept or {}).items())
        ),
        symlinks=inputs.symlinks,
    )


def _same_titles(spec: PlanSpec, inputs: Inputs) -> Iterator[Problem]:
    """The question for records of one tree that share a title, listed first."""
    for paths in spec.same_titles:
        title = inputs.records[paths[0]].title
        yield Problem(
            paths[0],
            f"has the same title ({title!r}) as {', '.join(paths[1:])} in the same tree; a "
            "copied title is not a shared topic, so they are kept apart: write the plan with "
            "--write-plan and apply it to keep them apart, or list them in one topic's "
            "sources there to merge them",
        )


def _unique(problems: Iterable[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


def parse_part(source: str) -> Part:
    path, _, section = source.partition("#")
    return Part(path.strip(), section.strip() or None)


# ------------------------------------------------------------------------ which record goes where


def _coverage(spec: PlanSpec, inputs: Inputs) -> Iterator[Problem]:
    """Every record in exactly one topic or retire; every source a known record and section."""
    whole: dict[str, int] = {}
    sections: set[Part] = set()
    for topic in spec.topics:
        for part in map(parse_part, topic.sources):
            yield from _known(part, inputs)
            if part.section is None:
                whole[part.path] = whole.get(part.path, 0) + 1
            elif part in sections:
                yield Problem(str(part), "this section is a source of two topics")
            sections.add(part)
    retired = [r.source for r in spec.retires]
    for path in inputs.records:
        yield from _claimed_once(path, whole.get(path, 0) + retired.count(path))
    for path in retired:
        if path not in inputs.records:
            yield Problem(path, "retire: not a record of a legacy tree")


def _claimed_once(path: str, count: int) -> Iterator[Problem]:
    if count == 0:
        yield Problem(path, 'in no topic (add it to a topic, or retire it with text = "drop")')
    elif count > 1:
        yield Problem(path, "listed whole by more than one topic or retire (list it once)")


def _known(part: Part, inputs: Inputs) -> Iterator[Problem]:
    record = inputs.records.get(part.path)
    if record is None:
        yield Problem(part.path, "not a record of a legacy tree (check the path)")
    elif part.section is not None and part.section not in {h.slug for h in record.doc.headings}:
        slugs = ", ".join(h.slug for h in record.doc.headings) or "none"
        yield Problem(str(part), f"no heading with this slug (headings: {slugs})")


# --------------------------------------------------------------------------- one topic


def _topic(spec: TopicSpec, inputs: Inputs, problems: list[Problem]) -> Topic:
    parts = tuple(p for p in map(parse_part, spec.sources) if _valid_part(p, inputs))
    records = [inputs.records[p.path] for p in parts]
    title = spec.title or _derived_title(parts, inputs)
    slug = spec.slug or (
        records[0].name_slug if parts and parts[0].section is None else ascii_slug(title)
    )
    if spec.slug is not None and ascii_slug(spec.slug) != spec.slug:
        problems.append(Problem(spec.slug, "a slug is lowercase ASCII words joined by '-'"))
    state, detail, status_from = topic_status(spec, parts, inputs, problems)
    day, date_from = topic_date(spec, parts, inputs, problems)
    ids = _ids(spec, parts, inputs, problems)
    if not parts:
        problems.append(Problem(slug, "topic has no valid source"))
    path = path_for(slug, state, day, inputs)
    return Topic(slug, title, state, detail, day, parts, ids, path, status_from, date_from)


def _valid_part(part: Part, inputs: Inputs) -> bool:
    return next(_known(part, inputs), None) is None


def _derived_title(parts: Sequence[Part], inputs: Inputs) -> str:
    if not parts:
        return "Untitled"
    record = inputs.records[parts[0].path]
    if parts[0].section is None:
        return record.title
    heading = next(h for h in record.doc.headings if h.slug == parts[0].section)
    return " ".join(heading.text.split())


def _ids(
    spec: TopicSpec, parts: Sequence[Part], inputs: Inputs, problems: list[Problem]
) -> tuple[RecordId, ...]:
    if spec.ids is None:
        return tuple(dict.fromkeys(i for p in parts if (i := _part_id(p, inputs)) is not None))
    ids: list[RecordId] = []
    for text in spec.ids:
        parsed = parse_id(text)
        if parsed is None:
            problems.append(
                Problem(text, "not an id (write it as in 'ADR 0007' or 'RFC 005 part 1')")
            )
        else:
            ids.append(parsed)
    return tuple(ids)


def _part_id(part: Part, inputs: Inputs) -> RecordId | None:
    record = inputs.records[part.path]
    if part.section is None:
        return record.record_id
    heading = next(h for h in record.doc.headings if h.slug == part.section)
    return part_id(record.record_id, heading.text)
