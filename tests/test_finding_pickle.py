"""A finding crosses from a parse worker to the parent by pickle, as its field values.

A frozen slots dataclass pickles through ``dataclasses``' own state methods,
which call ``dataclasses.fields`` per instance both ways; :class:`Finding`
gives its values instead (:meth:`Finding.__reduce__`). The findings made
again must equal the ones sent, field for field and type for type.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.model import Finding, Severity

_findings = st.builds(
    Finding,
    gate=st.text(max_size=8),
    rule=st.text(max_size=5),
    path=st.text(max_size=20),
    line=st.integers(min_value=0, max_value=10**9),
    column=st.integers(min_value=0, max_value=10**6),
    message=st.text(max_size=60),
    suggestion=st.none() | st.text(max_size=20),
    severity=st.sampled_from(list(Severity)),
)


@settings(max_examples=60, deadline=None)
@given(found=st.lists(_findings, max_size=6))
def test_findings_round_trip_through_pickle(found: list[Finding]) -> None:
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        back = pickle.loads(pickle.dumps(found, protocol=protocol))
        assert back == found
        assert [type(f) for f in back] == [Finding] * len(found)
        assert [type(f.severity) for f in back] == [Severity] * len(found)
    assert [copy.copy(f) for f in found] == found


def test_pickling_never_asks_dataclasses_for_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    found = [Finding("links", "L001", "big.md", n, 1, f"'missing-{n}.md' does not exist") for n in range(3)]
    found.append(Finding("wrap", "W001", "a.md", 1, 81, "too long", "wrap it", Severity.WARNING))

    def refuse(_: object) -> tuple[dataclasses.Field[object], ...]:
        raise AssertionError("dataclasses.fields called while pickling a finding")

    monkeypatch.setattr(dataclasses, "fields", refuse)
    assert pickle.loads(pickle.dumps(found)) == found
