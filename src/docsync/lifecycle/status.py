"""States and the words for them, and a record's ``Status:`` line: what a move writes there."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from ..config import Config
from ..errors import DocsyncError
from ..model import Document, Edit, Span, apply_edits
from ..records.relations import (
    status_value_end,
)
from ..records.status_lines import StatusLine, status_lines

TRANSITIONS: Mapping[str, str] = {
    "implemented": "accepted",
    "rejected": "rejected",
    "proposed": "reopened",
}
"""The word a move into a state records when it was asked for by the state's own name."""


_WORD = re.compile(r"[a-z0-9]+")


_STATUS_VALUE = re.compile(r"Status:[ \t]*(?P<value>.*?)[ \t]*$", re.M)


_FIRST_WORD = re.compile(r"(?P<word>[A-Za-z][A-Za-z-]*)(?P<rest>.*)", re.S)


@dataclass(frozen=True, slots=True)
class Status:
    """A word given on the command line, and the lifecycle state it means."""

    word: str
    state: str


def resolve_status(config: Config, given: str) -> Status:
    """A state name or a status word (``accepted``, ``superseded``) → its lifecycle state."""
    word = given.strip().lower()
    if word in config.states:
        return Status(word, word)
    state = config.statuses.get(word)
    if state is None or state not in config.states:
        raise DocsyncError(
            f"unknown state {given!r}: give a state ({', '.join(config.states)}) "
            "or a status word that [statuses] maps to one"
        )
    return Status(word, state)


def state_word(config: Config, state: str) -> str:
    """The status word a ``Status:`` line uses for ``state``: its own name when that maps back."""
    if config.statuses.get(state) == state:
        return state
    for word, mapped in config.statuses.items():
        if mapped == state:
            return word
    raise DocsyncError(
        f"no status word means the state {state!r}; add one under [statuses] in {config.origin}"
    )


def written_word(config: Config, status: Status) -> str:
    """The word to write for ``status``: the one given, when it is a status word of that state."""
    if config.statuses.get(status.word) == status.state:
        return status.word
    return state_word(config, status.state)


def transition_word(config: Config, status: Status) -> str:
    if status.word != state_word(config, status.state):
        return status.word
    return TRANSITIONS.get(status.state, status.state)


def slug_of(title: str) -> str:
    """Lowercase ASCII words joined by ``-`` (accents folded, other characters dropped)."""
    folded = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    return "-".join(_WORD.findall(folded))


def tree_target(config: Config) -> str:
    return config.target.strip("/")


def state_folder(config: Config, state: str) -> str:
    return f"{tree_target(config)}/{config.states[state]}"


def single_line(value: str, what: str) -> str:
    value = value.strip()
    if "\n" in value or "\r" in value:
        raise DocsyncError(f"the {what} must be one line")
    return value


def status_value_span(doc: Document, status: StatusLine, relations: Mapping[str, str]) -> Span:
    """Where the value of a ``Status:`` line is, over the lines it is wrapped on
    (trailing spaces and a hard break kept)."""
    start = doc.line_starts[status.line - 1] + status.column - 1
    match = _STATUS_VALUE.match(doc.text, start)
    if match is None:  # status_lines found it with the same prefix
        raise AssertionError(f"{doc.path}:{status.line}: no Status: line")
    end = max(match.end("value"), status_value_end(doc, relations, start))
    end = len(doc.text[:end].rstrip(" \t"))
    if doc.text[match.start("value") : end].endswith("\\"):
        end -= 1
    return Span(match.start("value"), end)


def status_value(doc: Document, relations: Mapping[str, str]) -> str:
    """The first ``Status:`` value of ``doc``, its wrapped lines joined into one."""
    span = status_value_span(doc, status_lines(doc)[0], relations)
    return " ".join(part.strip() for part in doc.text[span.start : span.end].split("\n"))


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def earlier_detail(value: str, old_word: str) -> str:
    """What a status value says beyond its state's own word, to keep across a move.

    ``proposed (pts 1-2)`` → ``pts 1-2``; ``Accepted 2020-01-01`` in a tree whose
    word is ``implemented`` → ``Accepted 2020-01-01`` (the old word is history too).
    """
    match = _FIRST_WORD.match(value.strip())
    if match is None:
        return value.strip()
    word, rest = match.group("word"), match.group("rest").strip()
    wrapped = rest.startswith("(") and rest.endswith(")") and _balanced(rest[1:-1])
    inner = rest[1:-1].strip() if wrapped else rest.lstrip(",;:-\u2013\u2014 ").strip()
    if word.lower() == old_word.lower():
        return inner
    if wrapped:
        return f"{word}, {inner}" if inner else word
    return f"{word} {rest}".strip()


def moved_status(
    value: str,
    old_word: str,
    new_word: str,
    transition: str,
    today: date,
    note: str,
    by: str = "",
) -> str:
    """The ``Status:`` value after a move: the new word, earlier detail, then this transition.

    ``by`` (``superseded by [Title](path)``) names what the transition came from:
    the entry is then ``<by> on <date>``.
    """
    stamp = f"{by} on {today.isoformat()}" if by else f"{transition} {today.isoformat()}"
    entry = stamp + (f": {note}" if note else "")
    earlier = earlier_detail(value, old_word)
    return f"{new_word} ({earlier}; {entry})" if earlier else f"{new_word} ({entry})"


def with_status(doc: Document, value: str, relations: Mapping[str, str]) -> str:
    """``doc``'s text with its first ``Status:`` value replaced, or one added under the title."""
    found = status_lines(doc)
    if found:
        return apply_edits(doc.text, [Edit(status_value_span(doc, found[0], relations), value)])
    title = next((h for h in doc.headings if h.level == 1), None)
    if title is None:
        return f"Status: {value}\n\n{doc.text}"
    after = doc.text[title.span.end :]
    gap = "" if after.startswith("\n\n") or after.strip() == "" else "\n"
    return doc.text[: title.span.end] + f"\n\nStatus: {value}{gap}" + after
