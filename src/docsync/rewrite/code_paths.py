"""Repository paths named in program text (code, config, editor rule files), and their rewrite
when the files they name move: the one definition ``migrate`` and ``move`` share."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

PATH_TOKEN = r"(?<![\w./-])(?:{})(?![\w/-]|\.\w)"
"""A repository path as a token in program text (a sentence's full stop may follow it;
``x.md.orig`` or ``x.md.bak`` name another file)."""


def path_pattern(paths: Iterable[str]) -> re.Pattern[str] | None:
    """One regex for all of ``paths`` (longest first, so a path never matches a prefix of one)."""
    ordered = sorted(paths, key=len, reverse=True)
    if not ordered:
        return None
    return re.compile(PATH_TOKEN.format("|".join(map(re.escape, ordered))))


def rewrite_code_paths(text: str, paths: Mapping[str, str], pattern: re.Pattern[str]) -> tuple[str, int]:
    """Paths named in program text become their new paths; every other byte stays."""
    count = 0

    def moved(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return paths[match.group(0)]

    return pattern.sub(moved, text), count
