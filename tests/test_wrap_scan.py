"""The wrap gate's quick reading reports exactly what the full reading reports.

The reference is the gate as it was: every paragraph that may break the
convention read in full (``prose_of``: words, gaps, sentence ends, guarded
line starts) and asked ``violations``. The gate now asks the quick reading
of :mod:`docsync.gates.wrap.scan` first and reads in full only where it is
not certain (``document_violations``). Both run on every case file of the
test suite, this repository's docs and README, and generated documents with
lines on both sides of the widths, in every mode, strict or not, in every
scope.
"""

from __future__ import annotations

import string
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.config import Config, WrapMode
from docsync.gates.wrap.boundaries import starts_block
from docsync.gates.wrap.display import display_width, overflow_index
from docsync.gates.wrap.prose import DocumentIndex
from docsync.gates.wrap.scan import joined_finding
from docsync.gates.wrap.violations import (
    Violation,
    document_violations,
    in_scope,
    may_violate,
    prose_of,
    violations,
)
from docsync.gates.wrap.width import paragraph_verdict, wide_lines
from docsync.model import Document, line_starts_of
from docsync.parse.native import parse
from tests.case_readings import case_documents, reference_reading
from tests.test_wrap_properties import DOCUMENTS
from tests.test_wrapcount import SCOPES, WIDE_DOCUMENTS

MODES: list[WrapMode] = ["none", 40, 72, 80, 100, "sentence"]


def _reference(doc: Document, config: Config) -> list[Violation]:
    """The gate's findings as it computed them before: the full reading of each paragraph."""
    return [v for prose in prose_of(doc, config) for v in violations(doc, prose, config)]


def _case_reference(doc: Document, config: Config) -> list[Violation]:
    """:func:`_reference` for a case file, each paragraph read in full once per process."""
    with reference_reading():
        return _reference(doc, config)


def _key(violation: Violation) -> tuple[int, str, int]:
    return violation.offset, violation.rule, violation.measured


def _same(doc: Document, config: Config) -> bool:
    new = sorted(document_violations(doc, config), key=_key)
    return new == sorted(_reference(doc, config), key=_key)


@pytest.mark.parametrize("mode", ["none", 40, 80, 100], ids=str)
@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
def test_case_files_report_the_same(mode: WrapMode, strict: bool) -> None:
    # ("sentence" is always read in full; the generated documents cover it too.)
    differing = []
    for scope in SCOPES:
        config = replace(scope, wrap=mode, wrap_strict=strict)
        for doc in case_documents():
            new = sorted(document_violations(doc, config), key=_key)
            if new != sorted(_case_reference(doc, config), key=_key):
                differing.append(f"{doc.path} {config.wrap} {scope}")
    assert differing == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.one_of(DOCUMENTS, WIDE_DOCUMENTS),
    scope=st.sampled_from(SCOPES),
    mode=st.sampled_from(MODES),
    strict=st.booleans(),
)
def test_generated_documents_report_the_same(
    text: str, scope: Config, mode: WrapMode, strict: bool
) -> None:
    doc = parse("generated.md", text)
    assert _same(doc, replace(scope, wrap=mode, wrap_strict=strict))


def _answered(mode: WrapMode) -> tuple[int, int]:
    """Of the case files' paragraphs that may break ``mode``, how many the quick
    reading decided without the full one, and how many there were."""
    config = Config(wrap=mode)
    answered = total = 0
    for doc in case_documents():
        index = DocumentIndex.of(doc)
        for para in doc.paragraphs:
            if not (in_scope(para, config) and may_violate(doc, para, config)):
                continue
            total += 1
            if isinstance(mode, int):
                answered += paragraph_verdict(doc, para, mode, index=index) is not None
            else:
                answered += joined_finding(doc, para, index) is not None
    return answered, total


@pytest.mark.parametrize("mode", ["none", 80], ids=str)
def test_the_quick_reading_decides_most_paragraphs(mode: WrapMode) -> None:
    """Else the comparisons above would prove nothing (the full reading would decide all)."""
    answered, total = _answered(mode)
    assert total > 100
    assert answered > 0.6 * total, (answered, total)


def test_a_doubtful_line_falls_back_to_the_full_reading() -> None:
    # A line end after two spaces may be a hard break, a wide line whose only
    # plain spaces follow a backslash may have no break opportunity: both are
    # read in full.
    hard = parse("h.md", "one  \ntwo\nthree\n")
    (para,) = hard.paragraphs
    assert joined_finding(hard, para, DocumentIndex.of(hard)) is None
    assert _same(hard, Config())
    escaped = parse("e.md", "a\\ " * 40 + "end\n")
    (para,) = escaped.paragraphs
    assert paragraph_verdict(escaped, para, 80, strict=True) is None
    assert _same(escaped, Config(wrap=80, wrap_strict=True))


@pytest.mark.parametrize(
    "line",
    [
        "https://example.com/" + "a" * 90,  # no space at all
        "[A title of many words](https://example.com/" + "a" * 80 + ")",  # spaces in link text only
        "`code with spaces " + "b" * 80 + "`",  # spaces in a code span only
    ],
    ids=["url", "link-text", "code"],
)
def test_a_line_with_no_plain_space_is_decided_unbreakable(line: str) -> None:
    """Such a line holds no break opportunity but line ends: W005 under ``wrap_strict``,
    nothing otherwise, without the full reading, as the full reading says."""
    doc = parse("w.md", line + "\n")
    (para,) = doc.paragraphs
    assert paragraph_verdict(doc, para, 80, strict=True) == [("W005", 1, 81, len(line))]
    assert paragraph_verdict(doc, para, 80) == []
    assert _same(doc, Config(wrap=80, wrap_strict=True)) and _same(doc, Config(wrap=80))


_LINE_CHARACTERS = st.sampled_from(
    [" ", " ", "a", "b", "\\", "`", "\t", "\r", "\x0b", "\x7f", "é", "e\u0301", "中", "文", "한", "\u200b",
     "\u3000", "\uff21", "😀", "\ufe0f"]
)


@settings(max_examples=120, deadline=None)
@given(
    lines=st.lists(st.lists(_LINE_CHARACTERS, max_size=70).map("".join), min_size=1, max_size=6),
    width=st.sampled_from([8, 20, 40, 80]),
)
def test_the_wide_lines_of_a_text_are_those_display_width_measures(lines: list[str], width: int) -> None:
    """:func:`wide_lines` tells a text's lines over the width at once (by their characters,
    and by measuring only the lines that hold a tab or a character outside printable ASCII):
    the lines, widths and columns :func:`display_width` and :func:`overflow_index` give."""
    text = "\n".join(lines)
    expected = [
        (n, display_width(line), overflow_index(line, width) + 1)
        for n, line in enumerate(text.split("\n"), start=1)
        if display_width(line) > width
    ]
    assert wide_lines(text, line_starts_of(text), width) == expected


@settings(max_examples=60, deadline=None)
@given(first=st.sampled_from(string.ascii_letters), rest=st.text(max_size=12))
def test_a_word_starting_with_a_letter_starts_no_block(first: str, rest: str) -> None:
    """What the width verdict's common break (``width._EASY``) takes for granted."""
    assert not starts_block(first + rest)
