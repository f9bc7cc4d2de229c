"""``check --staged`` reads what the commit will hold: the index, not the work tree.

A pre-commit hook runs before the commit is made, with whatever the user left
unstaged still on disk. pre-commit stashes those changes first; lefthook, husky
and a plain ``.git/hooks/pre-commit`` do not. So every Markdown file whose
work-tree copy differs from its staged copy (an unstaged fix, an unstaged break,
a deletion not yet staged) is read from the index: the files the index changes,
and the files they link to, whose anchors a fragment names. Untracked files are
no part of the commit and are not reported on (a link to one stays L002).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace

from ..globs import matches
from ..model import Document, Finding
from ..repository.plumbing import index_blobs, staged_changes, unstaged_paths
from ..workspace.files import file_problem
from ..workspace.load import Workspace, is_markdown
from ..workspace.parsing import parse_one
from .scope import narrow_to


class Overlaid(Mapping[str, Document]):
    """``base`` with the documents of ``over`` in place of (or beside) its own, and
    without those of ``gone``."""

    def __init__(
        self, over: Mapping[str, Document], base: Mapping[str, Document], gone: frozenset[str] = frozenset()
    ) -> None:
        self._over = over
        self._base = base
        self._hidden = gone | frozenset(over)

    def __getitem__(self, path: str) -> Document:
        found = self._over.get(path)
        if found is not None:
            return found
        if path in self._hidden:
            raise KeyError(path)
        return self._base[path]

    def __iter__(self) -> Iterator[str]:
        yield from self._over
        yield from (path for path in self._base if path not in self._hidden)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, path: object) -> bool:
        return path in self._over or (path not in self._hidden and path in self._base)


def staged_workspace(workspace: Workspace) -> Workspace:
    """The workspace as the index holds it, reporting on the paths the index changes
    against HEAD (both sides of a rename, deletes too) and the files linking to them."""
    indexed = as_staged(workspace)
    narrowed = narrow_to(indexed, staged_changes(workspace.root))
    tracked = workspace.listing.tracked
    chosen = tuple(path for path in narrowed.selected if path in tracked)
    kept = set(chosen)
    return replace(narrowed, selected=chosen, problems=tuple(p for p in narrowed.problems if p.path in kept))


def as_staged(workspace: Workspace) -> Workspace:
    """``workspace`` with each in-scope Markdown file whose work-tree copy differs from the
    index parsed from its staged blob (unchanged when none does: the common case)."""
    config = workspace.config
    listing = workspace.listing
    differing = [
        path
        for path in sorted(unstaged_paths(workspace.root))
        if path in listing.tracked
        and not listing.is_symlink(path)
        and is_markdown(path)
        and matches(path, config.include)
        and not matches(path, config.exclude)
    ]
    if not differing:
        return workspace
    blobs = index_blobs(workspace.root, differing)
    documents: dict[str, Document] = {}
    problems: dict[str, Finding] = {}
    for path, data in blobs.items():
        if len(data) > config.max_file_size:
            problems[path] = file_problem(
                path, "F003", f"staged file is {len(data)} bytes, over max_file_size ({config.max_file_size})"
            )
            continue
        parsed = parse_one(path, data)
        if parsed.document is not None:
            documents[path] = parsed.document
        if parsed.problem is not None:
            problems[path] = parsed.problem
    selected = tuple(dict.fromkeys([*workspace.selected, *(p for p in differing if p in blobs)]))
    unread = frozenset(differing) - set(documents)  # staged copies that did not parse
    restaged = set(differing)
    return replace(
        workspace,
        documents=Overlaid(documents, workspace.documents, unread),
        problems=(*(p for p in workspace.problems if p.path not in restaged), *problems.values()),
        selected=selected,
    )
