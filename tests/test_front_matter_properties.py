"""Properties of the front matter rewrite on generated YAML front matter: it never raises,
twice equals once, and YAML that parsed before parses after to the same values, where
only the destinations of paths into moved files differ."""

from __future__ import annotations

import re
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.parse.native import parse
from docsync.rewrite.references import rewrite_document
from tests.test_rewrite_properties import MOVES, NEW, OLD

FRAGMENTS = {"docs/rfc/001-plugin-api.md": {"motivation": "why"}}
MISSING = {"docs/rfc/gone.md", "docs/gone.md"}

DESTINATIONS = [
    "./001-plugin-api.md",
    "001-plugin-api.md#motivation",
    "../adr/0007-use-postgres.md#x",
    "./gone.md",
    "gone.md#L3",
    "./a%20b.md",
    "(https://x.org)",
    "https://x.org/a.md",
    "#old",
    "./",
    "../../up.md",
]
WORDS = ["alpha", "EIP-7", "see", "(x)", "a-b", "x.md", "#tag"]

destination = st.sampled_from(DESTINATIONS)
link = st.tuples(st.sampled_from(["t", "EIP-1", "a b"]), destination).map(lambda t: f"[{t[0]}]({t[1]})")
words = st.lists(st.one_of(st.sampled_from(WORDS), link), min_size=1, max_size=4).map(" ".join)
scalar = st.one_of(
    words.map(lambda w: "x " + w),  # a plain scalar that starts with no indicator
    words.map(lambda w: f'"{w}"'),
    words.map(lambda w: f"'{w}'"),
    destination,
    destination.map(lambda d: f'"{d}"'),
    destination.map(lambda d: f"'{d}'  # why"),
)
entry = st.one_of(
    st.tuples(st.sampled_from(["a", "discussions-to", "withdrawal-reason"]), scalar).map(
        lambda t: f"{t[0]}: {t[1]}"
    ),
    st.lists(scalar, min_size=1, max_size=3).map(lambda vs: "list:\n" + "\n".join(f"  - {v}" for v in vs)),
    st.lists(words, min_size=1, max_size=2).map(lambda ws: "block: |\n" + "\n".join(f"  {w}" for w in ws)),
    st.just("# a comment [t](./001-plugin-api.md)"),
)
documents = st.lists(entry, min_size=1, max_size=5).map(
    lambda es: "---\n" + "\n".join(es) + "\n---\n# Title\n\nBody [b](001-plugin-api.md).\n"
)


def _rewrite(text: str, old: str, new: str, moves: dict[str, str]) -> str:
    out, _ = rewrite_document(
        parse(old, text),
        old_path=old,
        new_path=new,
        moves=moves,
        fragments=FRAGMENTS if moves else {},
        ids={},
        exists=lambda path: path not in MISSING,
    )
    return out


def _front(text: str) -> Any:
    return yaml.safe_load(text.split("---\n")[1])


_PATHISH = re.compile(r"\]\((?:[^()\s]|\([^()\s]*\))*\)|^\.{1,2}/\S*$")


def _masked(value: Any) -> Any:
    """Every value with its link destinations and whole-value paths blanked out."""
    if isinstance(value, dict):
        return {k: _masked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_masked(v) for v in value]
    if isinstance(value, str):
        return _PATHISH.sub("<path>", value)
    return value


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(documents)
def test_never_raises_twice_equals_once_and_the_front_matter_still_parses(text: str) -> None:
    once = _rewrite(text, OLD, NEW, MOVES)
    assert _rewrite(once, NEW, NEW, {}) == once
    assert once.count("\n") == text.count("\n")
    try:
        before = _front(text)
    except yaml.YAMLError:
        return  # not YAML to begin with: only "never raises" and idempotence hold
    after = _front(once)
    assert _masked(after) == _masked(before)


@PROPERTY
@given(documents)
def test_a_front_matter_with_nothing_moved_is_byte_for_byte_the_same(text: str) -> None:
    assert _rewrite(text, OLD, OLD, {}) == text
