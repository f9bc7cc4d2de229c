"""docsync's own code is linear on pathological Markdown (the parser's part is its own).

``wrap = "sentence"`` once searched ``[.!?]\\S*[ \\t]+\\S`` in every line: on a run
of dots each dot starts a scan to the run's end, quadratic (64 KB took 22 s).
:func:`sentence_then_text` answers the same question reading each run and gap
once. A property checks the two agree on generated lines; a ratio checks that ten
times the input costs about ten times the CPU, not a hundred (a ratio, not a
time: the machine's speed cancels out).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.gates.wrap.sentences import SENTENCE_END_THEN_TEXT, sentence_then_text

KB = 1024


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=".!?a \t\u00a0x[]*", max_size=40))
def test_the_linear_check_agrees_with_the_expression(line: str) -> None:
    assert sentence_then_text(line) == bool(SENTENCE_END_THEN_TEXT.search(line))


PATHOLOGICAL: dict[str, Callable[[int], str]] = {
    "dots": lambda n: "." * n,
    "dots then a word": lambda n: "." * (n - 2) + " a",
    "sentence ends": lambda n: ("?!." * n)[:n],
    "brackets": lambda n: ("![" * n)[:n],
    "dots and tabs": lambda n: (".\t" * n)[:n],
    "one long word": lambda n: "a" * n,
    "dots between spaces": lambda n: (". ." * n)[:n],
}


def _cpu(check: Callable[[str], object], text: str) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        check(text)
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("shape", list(PATHOLOGICAL))
def test_ten_times_the_line_costs_about_ten_times(shape: str) -> None:
    make = PATHOLOGICAL[shape]
    small, large = make(100 * KB), make(1000 * KB)
    ratio = _cpu(sentence_then_text, large) / max(_cpu(sentence_then_text, small), 1e-4)
    assert ratio < 30, f"{shape}: 10x the input took {ratio:.0f}x the time (quadratic is 100x)"
