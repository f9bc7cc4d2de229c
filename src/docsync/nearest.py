"""``difflib.get_close_matches(word, names, n=1, cutoff)``, answered from an index.

The answer is difflib's own, byte for byte: the index only leaves out names
that difflib would reject anyway, then difflib ranks the few that remain.

A name can reach the cutoff only if its length passes difflib's
``real_quick_ratio`` and the multiset of characters it shares with the word
passes ``quick_ratio``: ``2 * shared / (len(word) + len(name)) >= cutoff``.
Each character occurrence is a token (``("e", 2)`` is a second ``e``), so
``shared`` is the number of tokens the two have in common. A name needing at
least ``t`` of the word's ``n`` tokens must hold one of any ``n - t + 1`` of
them (prefix filtering, as similarity joins do it): the index looks up only
the word's rarest ``n - t + 1`` tokens, whose posting lists are short.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable, Iterator


def _passes(matches: int, length: int, cutoff: float) -> bool:
    """difflib's own test (its ``_calculate_ratio``), in the same floating point."""
    ratio = 2.0 * matches / length if length else 1.0
    return ratio >= cutoff


class CloseIndex:
    """The names, indexed when first worth it; :meth:`closest` per word, memoised."""

    def __init__(self, names: Iterable[str], cutoff: float, scan_first: int | None = None) -> None:
        self._names = list(dict.fromkeys(names))
        self._cutoff = cutoff
        self._scan_first = _SCAN_FIRST if scan_first is None else scan_first
        # Posting lists as bitsets: bit i is set when name i holds the token
        # (the k-th entry of a character's list is for its k-th occurrence); None
        # until ``scan_first`` names (default :data:`_SCAN_FIRST`) were scanned without them.
        self._postings: dict[str, list[int]] | None = None
        self._lengths: dict[int, int] = {}
        self._scanned = 0
        self._memo: dict[str, str | None] = {}
        self._by_size: dict[int, list[tuple[int, int]]] = {}
        self._by_key: dict[str, list[tuple[float, str]]] = {}

    def closest(self, word: str) -> str | None:
        """What ``difflib.get_close_matches(word, names, n=1, cutoff)`` returns first, or None."""
        if word not in self._memo:
            bounded = self._bounded(word)
            self._memo[word] = _ranked(word, bounded, self._cutoff) if bounded else None
        return self._memo[word]

    def candidates(self, word: str) -> list[str]:
        """Exactly the names that pass difflib's ``real_quick_ratio`` and ``quick_ratio`` against ``word``."""
        return [name for _, name in self._bounded(word)]

    def _bounded(self, word: str) -> list[tuple[float, str]]:
        """The names that pass difflib's quick tests against ``word``, each with its
        ``quick_ratio`` (the bound of its ``ratio``), largest first.

        They depend only on the word's length and on how many of each character
        it holds, so words that are anagrams share one answer: ``missing-17.md``
        and ``missing-71.md`` do. (Sorting the word is the cheap key; the answer
        is then made once per anagram class.) A few words are answered by difflib
        over every name; after that the index is built, once."""
        key = "".join(sorted(word))
        found = self._by_key.get(key)
        if found is None:
            if self._postings is None and self._scanned < self._scan_first:
                self._scanned += len(self._names)
                found = _quick_bounds(word, self._names, self._cutoff)
            else:
                found = self._survivors(word)
            self._by_key[key] = found
        return found

    def _build(self) -> dict[str, list[int]]:
        postings: dict[str, list[int]] = {}
        for number, name in enumerate(self._names):
            bit = 1 << number
            self._lengths[len(name)] = self._lengths.get(len(name), 0) | bit
            for char, count in _counts(name).items():
                masks = postings.setdefault(char, [])
                while len(masks) < count:
                    masks.append(0)
                for k in range(count):
                    masks[k] |= bit
        self._postings = postings
        return postings

    def _survivors(self, word: str) -> list[tuple[float, str]]:
        postings = self._postings if self._postings is not None else self._build()
        planes = _count([m for c, n in _counts(word).items() if c in postings for m in postings[c][:n]])
        everyone = (1 << len(self._names)) - 1
        survivors = 0
        for needed, members in self._thresholds(len(word)):
            survivors |= _at_least(planes, needed, everyone) & members
        size, names = len(word), self._names
        found = []
        for number in _bits(survivors):
            shared = 0
            for j, plane in enumerate(planes):
                shared |= (plane >> number & 1) << j
            name = names[number]
            found.append((_ratio(shared, size + len(name)), name))
        found.sort(reverse=True)
        return found

    def _thresholds(self, size: int) -> list[tuple[int, int]]:
        """For a word of ``size`` characters: (shared characters needed, the names of the lengths
        that need that many), for every length that passes ``real_quick_ratio`` (once per size)."""
        found = self._by_size.get(size)
        if found is None:
            groups: dict[int, int] = {}
            for length, members in self._lengths.items():
                needed = _needed(size, length, self._cutoff)
                if needed is not None:
                    groups[needed] = groups.get(needed, 0) | members
            found = self._by_size[size] = sorted(groups.items())
        return found


_SCAN_FIRST = 64
"""Names a :class:`CloseIndex` scans with difflib's quick tests before it builds its index:
an anchor list of twenty asked once or twice costs less scanned than indexed."""


def _counts(word: str) -> dict[str, int]:
    """How many times each character occurs in ``word`` (a ``Counter``'s counts, made faster)."""
    return {char: word.count(char) for char in set(word)}


@functools.lru_cache(maxsize=4096)
def _needed(size: int, length: int, cutoff: float) -> int | None:
    """The characters a name of ``length`` must share with a word of ``size`` to pass
    ``quick_ratio``; None when its length fails ``real_quick_ratio``."""
    if not _passes(min(size, length), size + length, cutoff):
        return None
    return next(m for m in range(size + 1) if _passes(m, size + length, cutoff))


def _ratio(matches: int, length: int) -> float:
    """difflib's ``_calculate_ratio``, in the same floating point."""
    return 2.0 * matches / length if length else 1.0


def _quick_bounds(word: str, names: Iterable[str], cutoff: float) -> list[tuple[float, str]]:
    """(``quick_ratio``, name) of each name passing difflib's quick tests against ``word``, largest first."""
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    bounded: list[tuple[float, str]] = []
    for name in names:
        matcher.set_seq1(name)
        if matcher.real_quick_ratio() >= cutoff:
            bound = matcher.quick_ratio()
            if bound >= cutoff:
                bounded.append((bound, name))
    bounded.sort(reverse=True)
    return bounded


def best_match(word: str, names: Iterable[str], cutoff: float) -> str | None:
    """``difflib.get_close_matches(word, names, n=1, cutoff)``'s answer, or None."""
    return _ranked(word, _quick_bounds(word, names, cutoff), cutoff)


def _ranked(word: str, bounded: list[tuple[float, str]], cutoff: float) -> str | None:
    """The name difflib ranks first among ``bounded`` ((``quick_ratio``, name), largest first).

    difflib scores every name that passes its quick tests with ``ratio()``
    and takes the largest (score, name). ``quick_ratio()`` is an upper bound
    of ``ratio()`` (same denominator, at least as many matches, so the same
    holds in floating point), so the names are scored in falling order of
    that bound, and the search stops at the first bound below the best score
    found: no name after it can beat or tie it. (A bound equal to the best
    score is still scored: a tie goes to the larger name, as in difflib.)"""
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    best: tuple[float, str] | None = None
    for bound, name in bounded:
        if best is not None and bound < best[0]:
            break
        matcher.set_seq1(name)
        score = matcher.ratio()
        if score >= cutoff and (best is None or (score, name) > best):
            best = (score, name)
    return best[1] if best is not None else None


def _count(masks: list[int]) -> list[int]:
    """Per name, how many of ``masks`` hold it, as bit planes (plane j is bit j of the count)."""
    planes: list[int] = []
    for mask in masks:
        carry = mask
        for j, plane in enumerate(planes):
            if not carry:
                break
            planes[j], carry = plane ^ carry, plane & carry
        if carry:
            planes.append(carry)
    return planes


def _at_least(planes: list[int], needed: int, everyone: int) -> int:
    """The names whose count in ``planes`` is at least ``needed``."""
    if needed <= 0:
        return everyone
    if needed >= 1 << len(planes):
        return 0
    greater, equal = 0, everyone
    for j in reversed(range(len(planes))):
        if needed >> j & 1:
            equal &= planes[j]
        else:
            greater |= equal & planes[j]
            equal &= ~planes[j]
    return greater | equal


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def reference_closest(word: str, names: Iterable[str], cutoff: float) -> str | None:
    """The plain search :class:`CloseIndex` must equal: difflib over every name."""
    match = difflib.get_close_matches(word, list(dict.fromkeys(names)), n=1, cutoff=cutoff)
    return match[0] if match else None
