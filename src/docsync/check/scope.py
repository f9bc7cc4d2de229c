"""Which files a run reports on: a folder, the text read from stdin, or the changed files
and those that link to them (their link targets kept in a content-keyed cache)."""

from __future__ import annotations

from dataclasses import replace

from ..gates.links import check as links
from ..model import Document
from ..workspace.documents import Documents
from ..workspace.load import Workspace
from ..workspace.results import TargetCache


def inside(workspace: Workspace, folder: str | None) -> Workspace:
    """The workspace reporting only on the files in ``folder`` (None: as it is)."""
    if folder is None:
        return workspace
    inside = tuple(p for p in workspace.selected if p.startswith(folder.rstrip("/") + "/"))
    chosen = set(inside)
    return replace(
        workspace, selected=inside, problems=tuple(p for p in workspace.problems if p.path in chosen)
    )


def with_text(workspace: Workspace, path: str, text: str) -> Workspace:
    """The workspace with ``text`` as the file at ``path``, the only one reported on."""
    from collections import ChainMap

    from ..parse.native import parse
    from ..parse.source import text_parts

    doc = parse(path, text_parts(text)[0])  # as a file's text is read
    # not a Documents: the gates' result caches, keyed by file content, stay out of it
    documents: ChainMap[str, Document] = ChainMap({path: doc}, dict(workspace.documents))
    return replace(workspace, documents=documents, problems=(), selected=(path,))


def narrow_to(workspace: Workspace, changed: frozenset[str]) -> Workspace:
    """The workspace reporting only on ``changed`` and the files linking into it."""
    targets = _link_targets(workspace)
    selected = [
        path
        for path in workspace.selected
        if path in changed or not changed.isdisjoint(targets.get(path, ()))
    ]
    chosen = set(selected)
    return replace(
        workspace,
        selected=tuple(selected),
        problems=tuple(p for p in workspace.problems if p.path in chosen),
    )


def _link_targets(workspace: Workspace) -> dict[str, tuple[str, ...]]:
    """Where each selected document's links resolve, through a cache keyed by content."""
    documents = workspace.documents
    keys = documents.content_keys if isinstance(documents, Documents) else {}
    store = TargetCache.open(workspace.git_dir) if keys and workspace.config.cache else None
    found: dict[str, tuple[str, ...]] = {}
    wanted: set[str] = set()
    for path in workspace.selected:
        content = keys.get(path)
        key = TargetCache.key(path, content) if content is not None else None
        known = store.get(key) if store is not None and key is not None else None
        if known is None:
            doc = documents.get(path)
            known = _targets_of(doc) if doc is not None else ()
            if store is not None and key is not None:
                store.put(key, known)
        if key is not None:
            wanted.add(key)
        found[path] = known
    if store is not None:
        store.save(wanted)
    return found


def _targets_of(doc: Document) -> tuple[str, ...]:
    targets = set()
    for _, url in links.link_targets(doc):
        target = links.resolve_url(doc.path, url)
        if target is not None:
            targets.add(target[0])
    return tuple(sorted(targets))
