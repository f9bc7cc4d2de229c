"""The indexed "did you mean" search gives exactly the plain search's answers.

:class:`docsync.nearest.CloseIndex` must equal difflib over every name (the
reference, :func:`docsync.nearest.reference_closest`): on generated names, and
on whole link-gate runs (the conformance cases and a generated repository with
many broken links), where the gate's findings must be identical with the
reference search put in the index's place.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync import nearest
from docsync.gates.links import check as links
from docsync.gates.links import index as links_index
from docsync.workspace.load import load_workspace
from tests.gitutil import git
from tests.test_links_conformance import build_cases_repo

# A small alphabet, so that generated names often come close to each other.
_NAME = st.text(alphabet="abcde-.0123", min_size=0, max_size=14)


def _quick_passers(word: str, names: Iterable[str], cutoff: float) -> set[str]:
    passers = set()
    for name in names:
        matcher = difflib.SequenceMatcher(None, name, word)
        if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
            passers.add(name)
    return passers


@settings(max_examples=400, deadline=None)
@given(
    names=st.lists(_NAME, max_size=40),
    words=st.lists(_NAME, min_size=1, max_size=8),
    cutoff=st.sampled_from([0.0, 0.3, 0.5, 0.6, 0.75, 0.9, 1.0]),
)
def test_index_equals_the_plain_search(names: list[str], words: list[str], cutoff: float) -> None:
    # scanned with difflib's quick tests, indexed from the first word, and the default (both)
    for scan_first in (10**9, 0, None):
        index = nearest.CloseIndex(names, cutoff, scan_first)
        for word in words + names[:3]:
            assert index.closest(word) == nearest.reference_closest(word, names, cutoff)
            # the filter is exact: the names difflib would not reject outright, no more, no fewer
            assert set(index.candidates(word)) == _quick_passers(word, names, cutoff)
        if scan_first is not None:  # the path asked for was the one taken
            assert (index._postings is None) == (scan_first > 0)


@settings(max_examples=150, deadline=None)
@given(names=st.lists(_NAME, max_size=40), word=_NAME, cutoff=st.sampled_from([0.0, 0.5, 0.75, 1.0]))
def test_the_indexed_bounds_are_difflibs_quick_ratios(names: list[str], word: str, cutoff: float) -> None:
    """The index counts the characters a name shares with the word itself: the bound it
    ranks by is difflib's ``quick_ratio``, to the last bit, in difflib's order."""
    scanned = nearest.CloseIndex(names, cutoff, scan_first=10**9)._bounded(word)
    indexed = nearest.CloseIndex(names, cutoff, scan_first=0)._bounded(word)
    assert indexed == scanned
    for bound, name in indexed:
        assert bound == difflib.SequenceMatcher(None, name, word).quick_ratio()


@settings(max_examples=500, deadline=None)
@given(
    names=st.lists(st.text(alphabet="abc-", max_size=6), max_size=30),
    word=st.text(alphabet="abc-", max_size=6),
    cutoff=st.sampled_from([0.0, 0.3, 0.5, 0.6, 0.75, 1.0]),
)
def test_the_bounded_ranking_equals_difflib_ties_included(names: list[str], word: str, cutoff: float) -> None:
    """Tiny alphabets make many names score alike: a tie goes to the larger name, as in difflib."""
    assert nearest.best_match(word, list(dict.fromkeys(names)), cutoff) == nearest.reference_closest(
        word, names, cutoff
    )


def test_index_equals_the_plain_search_on_file_names() -> None:
    rng = random.Random(11)
    words = ["alpha", "beta", "install", "config", "guide", "release", "notes", "design"]
    names = [f"{rng.choice(words)}-{rng.choice(words)}-{i}.md" for i in range(300)]
    index = nearest.CloseIndex(names, 0.75)
    wanted = [f"missing-{i}.md" for i in range(200)] + [n[:-4] + "x.md" for n in names[:200]]
    answers = [index.closest(w) for w in wanted]
    assert answers == [nearest.reference_closest(w, names, 0.75) for w in wanted]
    assert sum(a is not None for a in answers) >= 150  # the comparison is not vacuous


def test_words_sharing_a_filter_answer_each_alone() -> None:
    """Words of one length holding the same characters share the filter's answer
    (``missing-12.md``, ``missing-21.md``), and difflib still ranks each word alone."""
    rng = random.Random(3)
    names = [f"{rng.choice(['alpha', 'beta', 'missing'])}-{rng.randrange(100)}.md" for _ in range(200)]
    index = nearest.CloseIndex(names, 0.75)
    wanted = [f"missing-{a}{b}.md" for a in range(10) for b in range(10)] + [f"missing-{b}{a}x.md" for a in range(10) for b in range(10)]
    for word in wanted:
        assert index.closest(word) == nearest.reference_closest(word, names, 0.75)
        assert set(index.candidates(word)) == _quick_passers(word, names, 0.75)
    assert len(index._by_key) == 2 * 55  # one answer per unordered pair of digits: the sharing happened


class _Reference:
    """The plain search in the index's place: difflib over every name, every time."""

    def __init__(self, names: Iterable[str], cutoff: float) -> None:
        self._names, self._cutoff = list(names), cutoff

    def closest(self, word: str) -> str | None:
        return nearest.reference_closest(word, self._names, self._cutoff)


def _gate(repo: Path) -> list[str]:
    return [f"{f.path}:{f.line}:{f.column} {f.rule} {f.message}" for f in links.check_workspace(load_workspace(repo))]


def _many_broken_links(repo: Path) -> Path:
    rng = random.Random(5)
    words = ["alpha", "beta", "install", "config", "guide", "release"]
    files = []
    for folder in ("", "docs/"):
        for i in range(30):  # under the parallel threshold: the monkeypatch reaches the parse
            path = f"{folder}{rng.choice(words)}-{rng.choice(words)}-{i}.md"
            heads = "\n\n".join(f"## {rng.choice(words)} {rng.choice(words)} {j}" for j in range(8))
            (repo / path).parent.mkdir(parents=True, exist_ok=True)
            (repo / path).write_text(f"# {i}\n\n{heads}\n")
            files.append(path)
    lines = []
    for n in range(600):
        target = rng.choice(files)
        lines.append(
            [
                f"[x](missing-{n}.md)",
                f"[y]({target[:-4]}x.md)",
                f"[z]({target}#{rng.choice(words)}-{n % 9})",
                f"[r](docs/missing-{n % 7}.md#part)",  # repeated targets, with a fragment
                f"[p]({target[:-5]}{target[-5:-3][::-1]}.md)",  # near misses whose digits are swapped
            ][n % 5]
        )
    (repo / "big.md").write_text("\n\n".join(lines) + "\n")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "many broken links")
    return repo


@pytest.mark.parametrize("make", [build_cases_repo, _many_broken_links], ids=["conformance", "generated"])
def test_gate_findings_identical_to_the_plain_search(
    make: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert callable(make)
    indexed = _gate(make(tmp_path / "indexed"))
    monkeypatch.setattr(links_index, "CloseIndex", _Reference)
    plain = _gate(make(tmp_path / "plain"))
    assert indexed == plain
    assert any("did you mean" in line for line in indexed)
