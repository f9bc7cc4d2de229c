"""Which paths a gitignore-like glob names: config's ``include`` and ``exclude``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from ..config import Config


@cache
def _glob_regex(pattern: str) -> re.Pattern[str]:
    """Translate a gitignore-like glob (``**`` crosses folders, ``*`` does not)."""
    out: list[str] = []
    i = 0
    if "/" not in pattern.rstrip("/"):
        out.append("(?:.*/)?")
    pattern = pattern.lstrip("/")
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    if pattern.endswith("/"):
        out.append(".*")
    return re.compile("".join(out) + r"(?:/.*)?\Z")


def matches(path: str, patterns: Iterable[str]) -> bool:
    return any(_glob_regex(p).match(path) for p in patterns)


def in_scope(path: str, config: Config) -> bool:
    return matches(path, config.include) and not matches(path, config.exclude)
