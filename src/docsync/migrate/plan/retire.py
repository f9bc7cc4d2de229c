"""Retiring a record: its ids and date flow to other topics, its text is dropped or kept in one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ...records.model import RecordId, parse_id
from ..model import DROP, Part, Problem, Retirement, RetireSpec, Topic
from ..read.inputs import Inputs, topic_path


def resolve_retirement(
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


def with_retirements(topic: Topic, retirements: Sequence[Retirement], inputs: Inputs) -> Topic:
    """Flow umbrella dates into ``dates_to`` topics, and kept umbrella text into its topic."""
    for retirement in retirements:
        if topic.slug in retirement.dates_to:
            topic = _earlier(topic, retirement.source, inputs)
        if topic.slug == retirement.keep_in:
            parts = (*topic.parts, Part(retirement.source))
            topic = replace(topic, parts=parts, retired=(*topic.retired, retirement.source))
    path = topic_path(topic, inputs)
    return topic if path == topic.path else replace(topic, path=path)


def _earlier(topic: Topic, umbrella: str, inputs: Inputs) -> Topic:
    origin = inputs.origins.get(umbrella)
    if origin is None or topic.date is None or topic.date < origin.date:
        return topic
    if topic.date_from == "plan" and topic.date != origin.date:
        return topic
    return replace(topic, date=origin.date, date_from=f"{origin.commit[:10]} ({umbrella})")
