"""'did you mean …' for a mistyped key, gate or rule code."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice most like ``word`` (case aside), the earliest of equals; None below the cutoff."""
    best: tuple[float, str] | None = None
    for choice in dict.fromkeys(choices):
        score = difflib.SequenceMatcher(None, word.lower(), choice.lower()).ratio()
        if score >= CUTOFF and (best is None or score > best[0]):
            best = (score, choice)
    return best[1] if best else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` for the closest choice, or ``""`` when none is close."""
    found = closest(word, choices)
    return f" (did you mean {found!r}?)" if found else ""
