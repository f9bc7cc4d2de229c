"""``docsync fix --gate links``: repair links broken by renames, moves and letter case.

A broken target is repaired only when there is exactly one answer: the one
tracked path that matches it in another letter case, or the one file git's
rename history says it became. Everything else stays a finding of the links
gate, with its "did you mean" candidates, for a person to decide. Edits go
through :func:`docsync.rewrite.rewrite_document`, which re-parses and
verifies that every rewritten link resolves to its intended target.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .errors import GitError
from .gates.links import RepoIndex, link_targets, resolve_url
from .gitrepo import read_history
from .history import rename_map
from .model import Document, Finding
from .rewrite import rewrite_document
from .workspace import Workspace
from .writer import FileWrite


@dataclass(frozen=True)
class LinkFixResult:
    writes: tuple[FileWrite, ...]
    unfixable: tuple[Finding, ...] = ()


def broken_targets(doc: Document, index: RepoIndex) -> set[str]:
    """Repository paths that ``doc`` links to and that git does not track."""
    broken: set[str] = set()
    for _, url in link_targets(doc):
        target = resolve_url(doc.path, url)
        if target is not None and target[0] and not _exists(index, target[0]):
            broken.add(target[0])
    return broken


def _exists(index: RepoIndex, path: str) -> bool:
    return path in index.files or path in index.dirs


def repairs(
    broken: set[str], index: RepoIndex, renames: Callable[[], Mapping[str, str]]
) -> dict[str, str]:
    """Broken path → its one repair; paths with no single answer are left out."""
    found: dict[str, str] = {}
    for path in sorted(broken):
        other_case = index.folded.get(path.lower())
        if other_case is not None and other_case != path:
            found[path] = other_case
            continue
        moved = renames().get(path)
        if moved is not None and _exists(index, moved):
            found[path] = moved
    return found


def _rename_reader(workspace: Workspace) -> Callable[[], Mapping[str, str]]:
    cache: dict[str, str] | None = None

    def read() -> Mapping[str, str]:
        nonlocal cache
        if cache is None:
            try:
                cache = rename_map(read_history(workspace.root))
            except GitError:
                # A shallow clone cannot say where files went; case fixes still apply.
                cache = {}
        return cache

    return read


def fix(workspace: Workspace) -> LinkFixResult:
    index = RepoIndex.build(workspace)
    documents = [workspace.documents[p] for p in workspace.selected if p in workspace.documents]
    broken_by_doc = {doc.path: broken_targets(doc, index) for doc in documents}
    moves = repairs(set().union(*broken_by_doc.values()), index, _rename_reader(workspace))
    writes: list[FileWrite] = []
    for doc in documents:
        if not broken_by_doc[doc.path] & moves.keys():
            continue
        text, _ = rewrite_document(
            doc,
            old_path=doc.path,
            new_path=doc.path,
            moves=moves,
            fragments={},
            ids={},
            exists=lambda p: _exists(index, p),
        )
        if text != doc.text:
            writes.append(FileWrite(doc.path, text, doc.newline, doc.bom))
    return LinkFixResult(tuple(writes))
