"""Compute the plan: which records become which topic, with what status, date and name.

Read-only. :func:`infer_spec` proposes a spec from the records found
(records whose normalised titles are equal are merged); :func:`resolve`
decides every value of a spec, from a person's edited plan file or from
:func:`infer_spec`, and lists every problem instead of guessing.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from ..records.model import ID_PATTERN, RecordId, parse_id
from .discover import LegacyRecord, ascii_slug, normalized_title, part_id
from .model import (
    DROP,
    Part,
    Plan,
    PlanSpec,
    Problem,
    Retirement,
    RetireSpec,
    Suggestion,
    Topic,
    TopicSpec,
)
from .status import StatusForm, StatusReading, detail_of, rank, state_of

_STOP_WORDS = frozenset(
    {"a", "an", "and", "the", "of", "for", "to", "in", "on", "with", "use", "using"}
)


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
    retirements = [_retirement(r, inputs, by_slug, problems) for r in spec.retires]
    topics = [_with_retirements(t, retirements, inputs) for t in topics]
    problems.extend(_collisions(topics, retirements, inputs))
    return Plan(
        target=inputs.target,
        topics=tuple(topics),
        retirements=tuple(retirements),
        indexes=inputs.indexes,
        commit=inputs.commit,
        hashes=dict(inputs.hashes),
        problems=tuple(_unique(problems)),
        suggestions=tuple(suggest(topics, inputs)),
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
    state, detail, status_from = _status(spec, parts, inputs, problems)
    day, date_from = _date(spec, parts, inputs, problems)
    ids = _ids(spec, parts, inputs, problems)
    if not parts:
        problems.append(Problem(slug, "topic has no valid source"))
    topic = Topic(slug, title, state, detail, day, parts, ids, "", status_from, date_from)
    return replace(topic, path=topic_path(topic, inputs))


def _valid_part(part: Part, inputs: Inputs) -> bool:
    return next(_known(part, inputs), None) is None


def topic_path(topic: Topic, inputs: Inputs) -> str:
    """``<target>/<state folder>/<yyyy-mm-dd>-<slug>.md``, or "" until state and date are known."""
    folder = inputs.states.get(topic.state)
    if folder is None or topic.date is None:
        return ""
    return posixpath.join(inputs.target, folder, f"{topic.date.isoformat()}-{topic.slug}.md")


def _derived_title(parts: Sequence[Part], inputs: Inputs) -> str:
    if not parts:
        return "Untitled"
    record = inputs.records[parts[0].path]
    if parts[0].section is None:
        return record.title
    heading = next(h for h in record.doc.headings if h.slug == parts[0].section)
    return " ".join(heading.text.split())


def _status(
    spec: TopicSpec, parts: Sequence[Part], inputs: Inputs, problems: list[Problem]
) -> tuple[str, str, str]:
    """(state, detail, where it was read)."""
    derived = _derived_status(parts, inputs, problems if spec.status is None else [])
    if spec.status is None:
        return derived
    if spec.status not in inputs.states:
        known = ", ".join(inputs.states)
        problems.append(
            Problem(spec.status or "(empty)", f"unknown status in the plan (states: {known})")
        )
        return "", spec.detail or "", "plan"
    same = derived[0] == spec.status
    detail = spec.detail if spec.detail is not None else (derived[1] if same else "")
    return spec.status, detail, derived[2] if same else "plan"


def _derived_status(
    parts: Sequence[Part], inputs: Inputs, problems: list[Problem]
) -> tuple[str, str, str]:
    whole = [p.path for p in parts if p.section is None] or [p.path for p in parts[:1]]
    found: list[tuple[int, int, str, str, str]] = []
    for order, path in enumerate(whole):
        record = inputs.records[path]
        reading = record.status
        state = state_of(reading, inputs.statuses) if reading is not None else None
        if state is None and record.default_status:
            where = f"{path} (the default status of its source)"
            found.append((-rank(record.default_status), order, record.default_status, path, where))
            continue
        if reading is None:
            problems.append(
                Problem(path, "no status found (add a Status: line, or set status in the plan)")
            )
            continue
        if state is None:
            problems.append(_unknown_status(path, reading, inputs.statuses))
            continue
        found.append((-rank(state), order, state, path, reading.where(path)))
    if not found or len(found) < len(whole):
        return "", "", ""
    _, _, state, _, where = min(found)
    readings = [inputs.records[path].status for _, _, _, path, _ in sorted(found)]
    return state, _merged_detail(readings, state), where


def _merged_detail(readings: Sequence[StatusReading | None], state: str) -> str:
    """Every source's detail, the deciding ones first: a merge keeps what each status said."""
    details = (detail_of(r, state) for r in readings if r is not None)
    return "; ".join(dict.fromkeys(d for d in details if d))


def _unknown_status(path: str, reading: StatusReading, statuses: Mapping[str, str]) -> Problem:
    where = reading.where(path)
    if reading.form == StatusForm.PROSE:
        start = " ".join(reading.value.split()[:8])
        return Problem(
            path,
            f"the Status section at {where.split(' (')[0]} is prose, not a status "
            f'("{start} …"); set status in the plan (status = "implemented", "proposed" or '
            '"rejected"); the paragraph stays in the record as it is',
        )
    word = reading.phrase(statuses)
    return Problem(
        path,
        f"unknown status {word!r} at {where}; map it in [statuses] (for example "
        f'{toml_key(word or "word")} = "proposed") or set status in the plan',
    )


def toml_key(word: str) -> str:
    """``word`` as a TOML key: bare when it can be, quoted otherwise (``"in review"``)."""
    return word if word.replace("-", "").replace("_", "").isalnum() else f'"{word}"'


def _date(
    spec: TopicSpec, parts: Sequence[Part], inputs: Inputs, problems: list[Problem]
) -> tuple[date | None, str]:
    """(first-proposed date, the commit and file it came from)."""
    derived = _derived_date(parts, inputs, problems if spec.date is None else [])
    if spec.date is None or spec.date == derived[0]:
        return derived
    return spec.date, "plan"


def _derived_date(
    parts: Sequence[Part], inputs: Inputs, problems: list[Problem]
) -> tuple[date | None, str]:
    known = [(o.date, o.commit, p.path) for p in parts if (o := inputs.origins.get(p.path))]
    for part in parts:
        if part.path not in inputs.origins:
            problems.append(
                Problem(
                    part.path, "no commit adds this file (commit it first, or set date in the plan)"
                )
            )
    if not known or len(known) < len(parts):
        return None, ""
    day, commit, path = min(known)
    return day, f"{commit[:10]} ({path})"


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


# --------------------------------------------------------------------------- retiring


def _retirement(
    spec: RetireSpec, inputs: Inputs, topics: Mapping[str, Topic], problems: list[Problem]
) -> Retirement:
    ids: dict[RecordId, str] = {}
    for text, slug in spec.ids.items():
        parsed = parse_id(text)
        if parsed is None:
            problems.append(Problem(spec.source, f"retire: {text!r} is not an id"))
        elif _known_slug(slug, topics, spec.source, problems):
            ids[parsed] = slug
    dates_to = tuple(s for s in spec.dates_to if _known_slug(s, topics, spec.source, problems))
    keep_in = None if spec.text == DROP else spec.text
    if keep_in is not None and not _known_slug(keep_in, topics, spec.source, problems):
        keep_in = None
    record = inputs.records.get(spec.source)
    own = record.record_id if record is not None else None
    if own is not None and own not in ids and (keep_in or ids):
        ids[own] = keep_in or next(iter(ids.values()))
    return Retirement(spec.source, ids, dates_to, keep_in)


def _known_slug(
    slug: str, topics: Mapping[str, Topic], source: str, problems: list[Problem]
) -> bool:
    if slug in topics:
        return True
    problems.append(
        Problem(source, f'retire: no topic has slug {slug!r} (text is "drop" or a topic slug)')
    )
    return False


def _with_retirements(topic: Topic, retirements: Sequence[Retirement], inputs: Inputs) -> Topic:
    """Flow umbrella dates into ``dates_to`` topics, and kept umbrella text into its topic."""
    for retirement in retirements:
        if topic.slug in retirement.dates_to:
            topic = _earlier(topic, retirement.source, inputs)
        if topic.slug == retirement.keep_in:
            parts = (*topic.parts, Part(retirement.source))
            topic = replace(topic, parts=parts, retired=(*topic.retired, retirement.source))
    return replace(topic, path=topic_path(topic, inputs))


def _earlier(topic: Topic, umbrella: str, inputs: Inputs) -> Topic:
    origin = inputs.origins.get(umbrella)
    if origin is None or topic.date is None or topic.date < origin.date:
        return topic
    if topic.date_from == "plan" and topic.date != origin.date:
        return topic
    return replace(topic, date=origin.date, date_from=f"{origin.commit[:10]} ({umbrella})")


# --------------------------------------------------------------------------- collisions


def _collisions(
    topics: Sequence[Topic], retirements: Sequence[Retirement], inputs: Inputs
) -> Iterator[Problem]:
    seen: dict[str, Topic] = {}
    for topic in topics:
        other = seen.setdefault(topic.slug, topic)
        if other is not topic:
            yield Problem(
                topic.path or topic.slug,
                f"slug {topic.slug!r} is also the slug of the topic from "
                f"{other.parts[0] if other.parts else '?'} (set a different slug in the plan)",
            )
        existing = (inputs.tree_slugs or {}).get(topic.slug)
        if existing is not None:
            yield Problem(
                topic.path or topic.slug,
                f"slug {topic.slug!r} is taken by {existing} (set a different slug in the plan)",
            )
        if topic.path and topic.path in inputs.tracked and topic.path not in topic.files:
            yield Problem(topic.path, "already exists (set a different slug or date in the plan)")
    yield from _duplicate_ids(topics, retirements, inputs.former or {})


def _duplicate_ids(
    topics: Sequence[Topic], retirements: Sequence[Retirement], former: Mapping[str, str]
) -> Iterator[Problem]:
    taken = {parsed.key(): path for name, path in former.items() if (parsed := parse_id(name))}
    owners: dict[tuple[str, int, int | None], tuple[str, str]] = {}
    pairs = [(i, t.slug, _first_file(t)) for t in topics for i in t.ids]
    pairs += [(i, slug, r.source) for r in retirements for i, slug in r.ids.items()]
    for record_id, slug, source in pairs:
        if record_id.key() in taken:
            yield Problem(
                str(record_id),
                f"is already the former id of {taken[record_id.key()]} "
                "(give this tree another kind in the sources config key)",
            )
        owner, owner_source = owners.setdefault(record_id.key(), (slug, source))
        if owner == slug:
            continue
        if owner_source != source:
            yield Problem(
                str(record_id),
                f"is the id of two records, {owner_source} and {source}: say which one it "
                f'names with ids = ["{record_id}"] on that topic in the plan and ids = [] '
                "(or another id) on the other",
            )
        else:
            yield Problem(str(record_id), f"id points at two topics: {owner!r} and {slug!r}")


def _first_file(topic: Topic) -> str:
    return topic.parts[0].path if topic.parts else topic.slug


# --------------------------------------------------------------------------- suggestions


@dataclass(frozen=True)
class _Profile:
    """What suggesting reads of one record: its topic, slug words and the ids it cites."""

    topic: str
    record: LegacyRecord
    words: frozenset[str]
    cited: frozenset[tuple[str, int, int | None]]

    @classmethod
    def of(cls, topic: str, record: LegacyRecord) -> _Profile:
        ids = (parse_id(m.group(0)) for m in ID_PATTERN.finditer(record.doc.text))
        cited = frozenset(i.whole().key() for i in ids if i is not None)
        words = frozenset(w for w in record.name_slug.split("-") if w and not w.isdigit())
        return cls(topic, record, words - _STOP_WORDS, cited)


def suggest(topics: Sequence[Topic], inputs: Inputs) -> Iterator[Suggestion]:
    """Pairs of records in different topics that share slug words (and maybe cite each other).

    Only pairs sharing a word are compared, and a word that most records
    share (``decision`` in ``0001-decision-x``) is no evidence at all.
    """
    profiles = [_Profile.of(t.slug, inputs.records[p]) for t in topics for p in t.files]
    for i, j in _candidate_pairs(profiles):
        a, b = profiles[i], profiles[j]
        reason = _similarity(a, b) if a.topic != b.topic else ""
        if reason:
            yield Suggestion(a.record.path, b.record.path, reason)


def _candidate_pairs(profiles: Sequence[_Profile]) -> list[tuple[int, int]]:
    by_word: dict[str, list[int]] = {}
    for index, profile in enumerate(profiles):
        for word in profile.words:
            by_word.setdefault(word, []).append(index)
    limit = max(3, len(profiles) // 20)
    pairs = {
        (a, b)
        for members in by_word.values()
        if len(members) <= limit
        for n, a in enumerate(members)
        for b in members[n + 1 :]
    }
    return sorted(pairs)


def _similarity(a: _Profile, b: _Profile) -> str:
    shared = sorted(a.words & b.words)
    share = len(shared) / max(1, min(len(a.words), len(b.words)))
    cites = _cites(a, b) or _cites(b, a)
    if share < 0.5 and not cites:
        return ""
    reason = f"share slug words: {', '.join(shared)}"
    return f"{reason}; {cites}" if cites else reason


def _cites(a: _Profile, b: _Profile) -> str:
    if b.record.record_id is not None and b.record.record_id.key() in a.cited:
        return f"{a.record.path} cites {b.record.record_id}"
    if posixpath.basename(b.record.path) in a.record.doc.text:
        return f"{a.record.path} links to {b.record.path}"
    return ""
