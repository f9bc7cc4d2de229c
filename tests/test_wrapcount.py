"""init's wrap counts (one reading per paragraph) equal the gate's, candidate by candidate.

The reference is what init computed before: every paragraph read by
``prose_of`` and asked the gate's own ``violations`` under each candidate
(not strict). The fast count reduces each reading to three facts once
(:mod:`docsync.gates.wrap.count`). Both run on every case file of the test suite, on
this repository's own docs, and on generated documents with lines on both
sides of every candidate width.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.config import Config
from docsync.gates.wrap.count import CANDIDATES, Breaks, Summarizer, document_breaks
from docsync.gates.wrap.violations import prose_of, violations
from docsync.model import Document
from docsync.parse.native import parse
from tests.case_readings import CASE_FILES, case_breaks, case_documents, reference_reading
from tests.test_wrap_properties import DOCUMENTS, TOKENS, blocks

SCOPES = [
    Config(),
    Config(wrap_lists=False),
    Config(wrap_blockquotes=False),
]


def reference_breaks(doc: Document, config: Config) -> Breaks:
    """The gate asked once per candidate about each paragraph (init's former count)."""
    conventions = [replace(config, wrap=mode) for mode in CANDIDATES]
    readings = prose_of(doc, config, conventions)
    return Breaks(
        tuple(
            sum(1 for prose in readings if violations(doc, prose, replace(c, wrap_strict=False)))
            for c in conventions
        )
    )


_CASE_REFERENCES: dict[int, dict[str, Breaks]] = {}


def _case_references(scope: int) -> dict[str, Breaks]:
    """:func:`reference_breaks` of every case file under ``SCOPES[scope]``, made once per
    process: the test below needs the default scope's, and so does the one after it."""
    if scope not in _CASE_REFERENCES:
        with reference_reading():
            scoped = SCOPES[scope]
            _CASE_REFERENCES[scope] = {doc.path: reference_breaks(doc, scoped) for doc in case_documents()}
    return _CASE_REFERENCES[scope]


def test_the_corpus_is_not_trivial() -> None:
    """The comparison below means something: the files break every candidate somewhere."""
    assert repr(SCOPES[0]) == repr(Config())
    totals = [0] * len(CANDIDATES)
    for counts in _case_references(0).values():
        totals = [a + b for a, b in zip(totals, counts.counts, strict=True)]
    assert len(CASE_FILES) > 100
    assert all(total > 0 for total in totals), totals


@pytest.mark.parametrize("scope", range(len(SCOPES)), ids=["default", "no-lists", "no-quotes"])
def test_case_files_count_the_same(scope: int) -> None:
    references = _case_references(scope)
    scoped = SCOPES[scope]
    differing = [doc.path for doc in case_documents() if case_breaks(doc, scoped) != references[doc.path]]
    assert differing == []


@st.composite
def long_lines(draw: st.DrawFn) -> str:
    """A paragraph whose lines are around the candidate widths (60 to 140 columns)."""
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        line = draw(TOKENS)
        target = draw(st.integers(60, 140))
        while len(line) < target:
            line += draw(st.sampled_from([" ", " ", "  ", "\t"])) + draw(TOKENS)
        lines.append(line.replace("\n", " "))
    text = "\n".join(lines)
    prefix = draw(st.sampled_from(["", "- ", "> ", "1. "]))
    indent = {"": "", "- ": "  ", "> ": "> ", "1. ": "   "}[prefix]
    return prefix + text.replace("\n", "\n" + indent)


WIDE_DOCUMENTS = st.lists(st.one_of(long_lines(), blocks()), min_size=1, max_size=5).map(
    "\n\n".join
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(DOCUMENTS, WIDE_DOCUMENTS), scope=st.sampled_from(SCOPES))
def test_generated_documents_count_the_same(text: str, scope: Config) -> None:
    doc = parse("generated.md", text)
    assert document_breaks(doc, scope) == reference_breaks(doc, scope)


def test_wide_documents_reach_every_width() -> None:
    """The generated wide paragraphs do break widths (else the property above proves little)."""
    text = "\n\n".join(
        ["alpha " * 12 + "end", "beta " * 17 + "end", "gamma " * 18 + "end", "x " * 70 + "y"]
    )
    counts = document_breaks(parse("w.md", text), Config())
    assert counts == reference_breaks(parse("w.md", text), Config())
    assert counts.counts[1:5] == (4, 3, 2, 1)  # lines of 75, 88, 111 and 141 columns


def test_summarizer_counts_under_the_workspace_config() -> None:
    class _Workspace:
        config = Config(wrap_lists=False)

    doc = parse("l.md", "- " + "word " * 30 + "end\n\n" + "word " * 30 + "end\n")
    made = Summarizer(_Workspace())(doc)  # type: ignore[arg-type]
    assert made == document_breaks(doc, Config(wrap_lists=False))
    assert made.counts[1] == 1  # the list item is out of scope
