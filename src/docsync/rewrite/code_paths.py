"""Repository paths named in program text (code, config, editor rule files), and their rewrite
when the files they name move: the one definition ``migrate`` and ``move`` share."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

PATH_TOKEN = r"(?<![\w./-])(?:{})(?![\w/-]|\.\w)"
"""A repository path as a token in program text (a sentence's full stop may follow it;
``x.md.orig`` or ``x.md.bak`` name another file)."""

_TOKEN_CHARS = re.compile(r"[\w./-]+")
_RUN = re.compile(r"(?<![\w./-])[\w./-]+")
_WORD = re.compile(r"\w")


def path_pattern(paths: Iterable[str]) -> re.Pattern[str] | None:
    """One regex for all of ``paths`` (longest first, so a path never matches a prefix of one)."""
    ordered = sorted(paths, key=len, reverse=True)
    if not ordered:
        return None
    return re.compile(PATH_TOKEN.format("|".join(map(re.escape, ordered))))


class PathFinder:
    """Where :func:`path_pattern` of ``paths`` matches in a text, without compiling it when it
    can be done without: a regex of hundreds of paths takes a tenth of a second to compile.

    When every path is made of ``[\\w./-]`` only (nearly always), a match of
    that regex starts where such a run of characters starts (its look-behind
    holds nowhere inside one) and is the whole run, or the run's part before
    a ``.`` that no word character follows (its look-ahead): the longest of
    those that is a path is the regex's match, and a run holds at most one.
    """

    def __init__(self, paths: Iterable[str]) -> None:
        self.paths = frozenset(paths)
        plain = all(_TOKEN_CHARS.fullmatch(p) for p in self.paths)
        self._pattern = None if plain else path_pattern(self.paths)

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """(start, end) of each path named in ``text``, in order."""
        if self._pattern is not None:
            yield from (m.span() for m in self._pattern.finditer(text))
            return
        for run in _RUN.finditer(text):
            found = self._longest(run.group(0))
            if found:
                yield run.start(), run.start() + found

    def _longest(self, run: str) -> int:
        """The length of the longest path the run starts with as a token; 0 for none."""
        if run in self.paths:
            return len(run)
        end = run.rfind(".")
        while end > 0:
            if not _WORD.match(run, end + 1) and run[:end] in self.paths:
                return end
            end = run.rfind(".", 0, end)
        return 0


def path_finder(paths: Iterable[str]) -> PathFinder | None:
    finder = PathFinder(paths)
    return finder if finder.paths else None


def rewrite_code_paths(text: str, paths: Mapping[str, str], finder: PathFinder) -> tuple[str, int]:
    """Paths named in program text become their new paths; every other byte stays."""
    parts: list[str] = []
    last = 0
    for start, end in finder.spans(text):
        parts += [text[last:start], paths[text[start:end]]]
        last = end
    if not parts:
        return text, 0
    return "".join(parts) + text[last:], len(parts) // 2
