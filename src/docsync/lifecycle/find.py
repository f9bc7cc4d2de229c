"""The record a user names on the command line: by path, slug or former id."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from ..errors import DocsyncError
from ..records.model import parse_id
from ..records.tree import Tree, TreeFile
from ..workspace.load import (
    Workspace,
    relative_to_root,
)


def _by_former_id(tree: Tree, raw: str) -> str | None:
    kind_upper = re.sub(r"^\s*[A-Za-z]+", lambda m: m.group(0).upper(), raw)
    wanted = parse_id(raw) or parse_id(kind_upper)
    if wanted is None:
        return None
    for name, path in tree.former.items():
        found = parse_id(name)
        if found is not None and found.key() == wanted.key():
            return path
    return None


def _by_slug(tree: Tree, raw: str) -> list[TreeFile]:
    name = posixpath.basename(raw.strip()).removesuffix(".md")
    return [
        f
        for f in tree.files
        if f.slug == name or posixpath.basename(f.path).removesuffix(".md") == name
    ]


def find_record(tree: Tree, raw: str, path: str | None) -> TreeFile:
    """The record ``raw`` names: a path (``path``: ``raw`` made repository-relative), a slug, or a former id."""
    by_path = {f.path: f for f in tree.files}
    for candidate in (path, raw.strip()):
        if candidate in by_path:
            return by_path[candidate]
    matched = _by_slug(tree, raw)
    if len(matched) > 1:
        names = ", ".join(f.path for f in matched)
        raise DocsyncError(f"{raw!r} names several records ({names}); give the path")
    if matched:
        return matched[0]
    former = _by_former_id(tree, raw) or tree.former.get(path or "") or tree.former.get(raw)
    if former in by_path:
        return by_path[former]
    raise DocsyncError(
        f"no record matches {raw!r}; give its path, its slug or a former id such as 'ADR 0007'"
    )


def from_here(workspace: Workspace, start: Path, record: str) -> str | None:
    try:
        return relative_to_root(workspace.root, start, record)
    except DocsyncError:
        return None
