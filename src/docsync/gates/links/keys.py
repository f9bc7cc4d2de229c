"""What the links gate's findings depend on, hashed: the keys of its result cache
and of the link summaries the parse cache keeps (:class:`.check.Summarizer`)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ...config import Config
from ...repository.plumbing import Listing
from ...workspace.cache import fingerprint
from ...workspace.documents import Documents
from ...workspace.load import Workspace, content_key
from ...workspace.results import AnchorCache, Dependencies, source_digest
from .index import site_of


def anchor_cache(workspace: Workspace) -> AnchorCache | None:
    """The anchors kept by content, when the run has a cache; keyed to the code that makes anchors."""
    if not workspace.config.cache or not isinstance(workspace.documents, Documents):
        return None
    code = source_digest(str(Path(__file__).with_name("index.py")))
    return AnchorCache.open(workspace.git_dir, code)


def run_key(workspace: Workspace) -> str | None:
    """Everything the gate's findings depend on, hashed; None when there is no cache.

    The gate reads: the documents (their content keys), and what :func:`context`
    hashes, and tracked Markdown outside the configured scope that links point
    into (checked separately: :func:`dependencies_changed`).
    """
    documents = workspace.documents
    if not workspace.config.cache or not isinstance(documents, Documents):
        return None
    digest = hashlib.blake2b(digest_size=20)
    digest.update(context(workspace).encode())
    for path, key in sorted(documents.content_keys.items()):
        digest.update(f"{path}\0{key}\0".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


_CODE = tuple(str(Path(__file__).with_name(name)) for name in ("check.py", "fragments.py", "index.py", "keys.py", "urls.py"))


_MADE: list[tuple[Listing, Config, Path, str]] = []
"""The last listing and config :func:`context` was asked of, and its answer: a run
asks twice (its parse workers' summaries, then the result cache), of the same ones."""


def context(workspace: Workspace) -> str:
    """Everything a document's findings depend on besides the documents, hashed:
    what git tracks and with which modes, the untracked files, HEAD and the index (a
    staged rename names a broken link's candidate), where tracked
    symlinks point on this disk, the config, docsync's version, its parser and
    this gate's code. A link summary (:class:`.check.Summarizer`) depends on no more;
    the parse cache keeps one under this key."""
    for listing, config, root, made in _MADE:
        if listing is workspace.listing and config is workspace.config and root == workspace.root:
            return made
    made = _context(workspace)
    _MADE[:] = [(workspace.listing, workspace.config, workspace.root, made)]
    return made


def _context(workspace: Workspace) -> str:
    digest = hashlib.blake2b(digest_size=20)

    def add(*parts: str) -> None:
        for part in parts:
            digest.update(part.encode("utf-8", "surrogateescape"))
            digest.update(b"\0")

    site = str(Path(__file__).parents[2] / "site.py")
    add(source_digest(*_CODE, str(Path(__file__).parents[2] / "nearest.py"), site), fingerprint(), repr(workspace.config))
    add(repr(site_of(workspace)))  # the site's folder, read from its generator's config file
    tracked = sorted(workspace.listing.tracked.items())
    for path, mode in tracked:
        add(path, mode)
    add("untracked", *sorted(workspace.listing.untracked))
    add("index", workspace.listing.staged)  # a broken link's candidate: where a staged rename took it
    add("symlinks")
    for path, _ in tracked:
        if workspace.listing.is_symlink(path):
            add(path, _points_to(workspace.root, path))
    return digest.hexdigest()


def _points_to(root: Path, path: str) -> str:
    try:
        return str((root / path).resolve(strict=True))
    except (OSError, RuntimeError):
        return ""


def dependencies_changed(workspace: Workspace, dependencies: Dependencies) -> bool:
    return any(
        content_key(workspace.root, path, workspace.config) != key for path, key in dependencies
    )
