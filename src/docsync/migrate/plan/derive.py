"""A topic's status and first-proposed date: the plan's value, else derived from its sources."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from ..model import Part, Problem, TopicSpec
from ..read.inputs import Inputs
from ..read.status import StatusForm, StatusReading, detail_of, rank, state_of

NO_STATUS = (
    "no status found; answer in the config: give its source a default "
    '(sources = [{ path = "…", status = "implemented" }]) or the front-matter key its status '
    'is under (status_key = "stage"); or in the plan: status = "implemented" on its topic'
)


def topic_status(
    spec: TopicSpec, parts: Sequence[Part], inputs: Inputs, problems: list[Problem]
) -> tuple[str, str, str]:
    """(state, detail, where it was read)."""
    derived = _superseded(parts, inputs, _derived_status(parts, inputs, problems if spec.status is None else []))
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
                Problem(path, NO_STATUS)
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


SUPERSEDED = "superseded"


def _superseded(parts: Sequence[Part], inputs: Inputs, derived: tuple[str, str, str]) -> tuple[str, str, str]:
    """``derived``, or the superseded state when another record supersedes a source (and the
    status has a state, and the status word ``superseded`` maps to one): the layout gate
    wants a superseded record there (Y013), whatever its own status line said."""
    state = inputs.statuses.get(SUPERSEDED)
    if not inputs.superseded or state not in inputs.states or derived[0] in ("", state):
        return derived
    own = {p.path for p in parts}
    newer = [n for p in parts if p.section is None for n in inputs.superseded.get(p.path, ()) if n not in own]
    if not newer:
        return derived
    return str(state), SUPERSEDED, f"{newer[0]} (it supersedes this record)"


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
    written = " ".join(reading.value.split())
    shown = f"{word!r}" if written.lower() == word else f"{word!r} (written {written!r})"
    return Problem(
        path,
        f"unknown status {shown} at {where}; map it in [statuses] (for example "
        f'{toml_key(word or "word")} = "proposed") or set status in the plan',
    )


def toml_key(word: str) -> str:
    """``word`` as a TOML key: bare when it can be, quoted otherwise (``"in review"``)."""
    return word if word.replace("-", "").replace("_", "").isalnum() else f'"{word}"'


def topic_date(
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
