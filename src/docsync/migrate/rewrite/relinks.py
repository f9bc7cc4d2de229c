"""Tracked symlinks that point at what the migration moves (issue #37).

``keps/sig-release/20190331-release-notes.md -> 1733-release-notes/README.md``
would dangle once its record moves: it is pointed at the moved path, with a
relative target, through the guarded writer (the link itself is replaced,
never written through). A symlink that moves with its record folder still
reaches what it reached (the writer's rename keeps it pointing there), and is
pointed at the new place when that moved too. A link to a record folder whose
README became a file (its other files moved too) points at that file. A symlink whose target lies
outside the repository, or in ``.git``, is left alone and named.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping

from ..model import Relink


def _moved_to(resolved: str, moves: Mapping[str, str], tracked: Iterable[str]) -> str | None:
    """Where ``resolved`` (a repository path, a file or a folder) is after ``moves``. A
    folder moves only when every tracked file in it does: to one folder, under the same
    names, or, a record folder whose README became a file, to that file."""
    if resolved in moves:
        return moves[resolved]
    if not any(old.startswith(resolved + "/") for old in moves):  # the moves are few; the files many
        return None
    inside = [p for p in tracked if p.startswith(resolved + "/")]
    if any(p not in moves for p in inside):
        return None
    places = {
        moves[p][: len(moves[p]) - len(p) + len(resolved)]
        for p in inside
        if moves[p].endswith(p[len(resolved) :])
    }
    if len(places) == 1 and all(moves[p].endswith(p[len(resolved) :]) for p in inside):
        return places.pop()
    return moves.get(resolved + "/README.md")


def _outside(resolved: str) -> str | None:
    if resolved == ".." or resolved.startswith("../") or resolved.startswith("/"):
        return "leads out of the repository"
    if resolved == ".git" or resolved.startswith(".git/"):
        return "leads into .git"
    return None


def relinks(
    symlinks: Mapping[str, str], moves: Iterable[tuple[str, str]], tracked: Iterable[str]
) -> tuple[tuple[Relink, ...], tuple[tuple[str, str], ...]]:
    """The symlinks to point at moved paths, and those left alone (path, why)."""
    tracked = tuple(tracked)
    moved = dict(moves)
    changed: list[Relink] = []
    kept: list[tuple[str, str]] = []
    for path, target in sorted(symlinks.items()):
        if posixpath.isabs(target):
            kept.append((path, "an absolute target; left as it is"))
            continue
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        why = _outside(resolved)
        if why is not None:
            kept.append((path, f"{why}; left as it is"))
            continue
        place = _moved_to(resolved, moved, tracked)
        if place is None:
            continue
        link = moved.get(path, path)
        now = posixpath.relpath(place, posixpath.dirname(link) or ".")
        changed.append(Relink(link, target, now))
    return tuple(changed), tuple(kept)
