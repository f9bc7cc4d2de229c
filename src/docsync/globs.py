"""Config's globs (``include``, ``exclude``, ``per-file-ignores``, ``refs_exclude``),
read by one maintained matcher: pathspec's gitignore matcher, so a pattern means
what it means in a ``.gitignore`` (``**`` crosses folders, ``*`` and ``?`` do not,
``[1-3]`` and ``[!a]`` are classes, a pattern without ``/`` matches at any depth,
a folder's pattern matches the files in it, ``!`` re-includes).

The only module that imports pathspec. A pattern the matcher cannot read, or
reads as nothing (a comment, a lone ``[``), is a :class:`ConfigError`, never a
silent no-match; so are braces (``{a,b}``), which gitignore takes literally.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import pathspec

from .errors import ConfigError

_BRACES = re.compile(r"(?<!\\)\{[^{}]*,[^{}]*(?<!\\)\}")


def problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a glob the matcher reads; None when it is one."""
    if _BRACES.search(pattern):
        return "braces are not gitignore syntax (they match literally); write one pattern per alternative"
    if _LOOSE_STARS.search(pattern):
        return "has '**' beside other characters of a path segment, which git reads unlike its own docs; write '*', or '**' as a whole segment"
    try:
        compiled = pathspec.GitIgnoreSpec.from_lines([pattern]).patterns
    except Exception as exc:  # pathspec raises its own errors and re.error alike
        return f"not a gitignore pattern ({exc})"
    if not compiled or compiled[0].include is None:
        return "matches nothing (an empty pattern, a comment or an unclosed '[')"
    return None


def checked(patterns: Sequence[str], where: str) -> tuple[str, ...]:
    """``patterns`` as given; :class:`ConfigError` naming ``where`` for the first unreadable one."""
    for pattern in patterns:
        why = problem(pattern)
        if why is not None:
            raise ConfigError(f"{where}: glob {pattern!r} {why}")
    return tuple(patterns)


@cache
def _spec(patterns: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    checked(patterns, "glob")
    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    return pathspec.GitIgnoreSpec([_no_slash_in_negated_classes(p) for p in spec.patterns])


# "**" that is not a whole path segment ("a**", "**b", "a**/x"): gitignore's docs call it a
# plain "*", git's matcher treats it otherwise, so its meaning cannot be promised.
_LOOSE_STARS = re.compile(r"[^/]\*\*|\*\*[^/]")
_NEGATED_CLASS = re.compile(r"(?<!\\)\[\^")


def _no_slash_in_negated_classes(pattern: Any) -> Any:
    """``pattern`` whose negated classes (``[!a]``, compiled ``[^a]``) never match ``/``,
    as in git, where a class never matches the folder separator; pathspec's would."""
    regex = pattern.regex
    if regex is None or not _NEGATED_CLASS.search(regex.pattern):
        return pattern
    return type(pattern)(re.compile(_NEGATED_CLASS.sub("[^/", regex.pattern)), pattern.include)


def matches(path: str, patterns: Iterable[str]) -> bool:
    """Whether the repository-relative ``path`` is matched by ``patterns``, read as
    the lines of one ``.gitignore`` at the repository root (the last match decides)."""
    chosen = tuple(patterns)
    return bool(chosen) and _spec(chosen).match_file(path)
