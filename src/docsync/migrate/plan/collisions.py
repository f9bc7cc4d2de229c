"""What two topics of a plan cannot share: a slug, a path, an id."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from ...records.model import parse_id
from ..model import Problem, Retirement, Topic
from ..read.inputs import Inputs


def collisions(
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
