""":func:`docsync.report.indented_json.dumps` is ``json.dumps(value, indent=2, ensure_ascii=False)``, byte for byte."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.gates.rules import by_code
from docsync.model import FINDING_ORDER, Finding, Severity
from docsync.report.formats import (
    _PIECE,
    SCHEMA_VERSION,
    _json_visible,
    _record,
    as_json,
    json_pieces,
)
from docsync.report.indented_json import dumps

# Text rich in what the layout trick must not be fooled by: braces, commas, newlines, quotes.
_TEXT = st.text(alphabet=st.sampled_from(list('ab{}[],: \n\r\t"\\\x1b\u2028é')), max_size=12)
_SCALAR = st.one_of(_TEXT, st.integers(), st.none(), st.booleans(), st.floats(allow_nan=False))
_FLAT_OBJECT = st.dictionaries(_TEXT, st.one_of(_TEXT, st.integers(), st.none()), max_size=5)
_VALUE = st.recursive(
    _SCALAR,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_TEXT, inner, max_size=4)),
    max_leaves=20,
)


def _reference(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


@settings(max_examples=400, deadline=None)
@given(_VALUE)
def test_any_json_value(value: Any) -> None:
    assert dumps(value) == _reference(value)


@settings(max_examples=300, deadline=None)
@given(st.lists(_FLAT_OBJECT, max_size=6), st.integers(0, 2))
def test_lists_of_flat_objects_at_any_depth(objects: list[dict[str, Any]], depth: int) -> None:
    value: Any = objects
    for _ in range(depth):
        value = {"findings": value, "files": 3}
    assert dumps(value) == _reference(value)


def test_a_report_of_findings() -> None:
    findings = [
        {"rule": "L001", "line": n, "message": f"no file 'x-{n}.md' }},\n      {{", "suggestion": None if n % 2 else "y"}
        for n in range(50)
    ]
    report = {"version": 1, "files": 2, "findings": findings}
    assert dumps(report) == _reference(report)
    assert dumps({"version": 1, "files": 0, "findings": []}) == _reference({"version": 1, "files": 0, "findings": []})


# --------------------------------------------------------------------------- the report itself

_FINDING_TEXT = st.text(
    alphabet=st.sampled_from(list('ab{}[],: \n\r\t"\\\x1b\x7f\x85\u2028\u202eé€😀')), max_size=14
)
_FINDINGS = st.lists(
    st.builds(
        Finding,
        st.sampled_from(["links", "wrap", "files"]),
        st.sampled_from(["L001", "W001", "F004", "X999"]),  # X999: a code with no rule
        _FINDING_TEXT,
        st.integers(1, 10**6),
        st.integers(1, 999),
        _FINDING_TEXT,
        st.one_of(st.none(), _FINDING_TEXT),
        st.sampled_from(list(Severity)),
    ),
    max_size=8,
)


@settings(max_examples=400, deadline=None)
@given(_FINDINGS, st.integers(0, 10**5))
def test_the_json_report_is_json_dumps_of_its_payload_made_visible(
    findings: list[Finding], files: int
) -> None:
    """``as_json`` writes the report a finding at a time: byte for byte what encoding
    the payload with ``json.dumps`` and escaping the unsafe characters gives."""
    rules = by_code()
    payload = {"version": SCHEMA_VERSION, "files": files, "findings": [_record(f, rules) for f in findings]}
    expected = _json_visible(json.dumps(payload, indent=2, ensure_ascii=False)) + "\n"
    assert as_json(files, findings) == expected


def _expected_report(files: int, findings: list[Finding]) -> str:
    rules = by_code()
    payload = {"version": SCHEMA_VERSION, "files": files, "findings": [_record(f, rules) for f in findings]}
    return _json_visible(json.dumps(payload, indent=2, ensure_ascii=False)) + "\n"


def test_a_report_of_many_pieces_is_the_one_json_dumps_gives() -> None:
    """The report of more findings than a piece holds, written piece by piece (as
    ``check --format json`` writes it), is the same bytes: the pieces join with
    the separator, none is dropped at a piece's edge, the last one closes the list."""
    for count in (_PIECE - 1, _PIECE, _PIECE + 1, 2 * _PIECE + 3):
        findings = [
            Finding("wrap" if n % 3 else "links", "W001" if n % 3 else "L001", f"d/{n // 7}.md",
                    n, 1 + n % 5, f"message {n % 11} \u202e", None if n % 2 else "docsync fix")
            for n in range(count)
        ]
        pieces = list(json_pieces(4, findings))
        assert len(pieces) > count // _PIECE  # written in pieces, not as one string
        assert "".join(pieces) == _expected_report(4, findings) == as_json(4, findings)


@settings(max_examples=100, deadline=None)
@given(_FINDINGS)
def test_the_report_order_is_the_findings_sort_key(findings: list[Finding]) -> None:
    assert [FINDING_ORDER(f) for f in findings] == [f.sort_key() for f in findings]
