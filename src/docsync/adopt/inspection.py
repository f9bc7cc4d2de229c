"""What ``docsync init`` finds in a repository, read from the parsed workspace.

The legacy record trees and their kinds, the lifecycle tree, the status
words the records use and where each maps, the Markdown files in scope, and
the wrap convention the prose already follows. Nothing is written here.

The wrap convention: every paragraph is analysed once
(:func:`docsync.gates.wrap.violations.prose_of`, the reading the ``wrap`` gate checks
with), in the parse workers, and reduced to what each candidate's verdict
needs (:mod:`docsync.gates.wrap.count`); the candidate fewest paragraphs break wins. Ties go to ``"none"`` (the default), then ``"sentence"``, then
the narrowest width, since prose wrapped at 72 columns also fits 80, 100 and
120, and the narrowest width that fits is the one it was written to.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..config import Config, WrapMode
from ..gates.wrap.count import CANDIDATES, COUNTS, Breaks, document_breaks
from ..gates.wrap.count_store import CountStore
from ..migrate.read.discover import (
    Tree,
    find_trees,
    index_paths,
    lifecycle_folders,
    record_paths,
    template_paths,
)
from ..migrate.read.folders import metadata_statuses, prose
from ..migrate.read.kept_pages import kept_pages, kept_reason
from ..migrate.read.kinds import with_kinds
from ..migrate.read.status import StatusForm, StatusReading, read_status
from ..migrate.read.status_keys import status_key
from ..migrate.read.tree import RECORD_NAME
from ..model import Document
from ..site import detect as detect_site
from ..workspace.documents import Documents
from ..workspace.load import Progress, Workspace

_TIE_ORDER: tuple[WrapMode, ...] = ("none", "sentence", 72, 80, 100, 120)


@dataclass(frozen=True, slots=True)
class LegacyTree:
    """A legacy tree: its folder, the kind word of its ids, its numbered records and indexes."""

    path: str
    kind: str
    records: tuple[str, ...]
    indexes: tuple[str, ...]
    templates: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    """Another tool's pages in the tree (log4brains' ``index.md``): migrate leaves them."""
    kept_reason: str = ""
    status_key: str = ""
    """The front-matter key its records keep their status under, when not ``status``."""
    kind_told: bool = True
    """False when neither its names nor the prose tell its kind (``kind`` is the folder's word)."""


@dataclass(frozen=True, slots=True)
class StatusWord:
    """A status word the records use, the state it maps to (None: unknown) and where."""

    word: str
    state: str | None
    paths: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WrapCount:
    """How many paragraphs (in how many files) would break one wrap candidate."""

    mode: WrapMode
    paragraphs: int
    files: int


@dataclass(frozen=True)
class Inspection:
    files: tuple[str, ...]
    trees: tuple[LegacyTree, ...]
    target: str
    tree_records: int
    words: tuple[StatusWord, ...]
    missing: tuple[str, ...]
    wrap: tuple[WrapCount, ...]
    chosen: WrapMode
    site: tuple[str, str] | None = None  # the docs generator found, and its config file

    @property
    def legacy_records(self) -> int:
        return sum(len(t.records) for t in self.trees)

    @property
    def migrated(self) -> bool:
        """A lifecycle tree with records, and no numbered records left to migrate."""
        return self.tree_records > 0 and not self.legacy_records


def _lifecycle_roots(paths: Sequence[str], states: Mapping[str, str]) -> list[str]:
    """Folders with dated records in lifecycle folders: ``docs/rfc`` for ``docs/rfc/implemented/…``."""
    folders = set(states.values())
    roots = {
        posixpath.dirname(posixpath.dirname(p))
        for p in paths
        if posixpath.basename(posixpath.dirname(p)) in folders
        and RECORD_NAME.match(posixpath.basename(p))
    }
    return sorted(roots)


def _target(
    config: Config, raw: Mapping[str, Any], trees: Sequence[LegacyTree], paths: Sequence[str]
) -> str:
    """The configured target; else the one lifecycle tree there is; else the one legacy tree
    (records at the repository's root go to ``docs/<kind>``: ``docs/adr``)."""
    default = config.target.strip("/")
    if "target" in raw:
        return default
    roots = _lifecycle_roots(paths, config.states)
    if roots:
        return default if default in roots else roots[0]
    if len(trees) == 1 and not trees[0].path:
        kind = trees[0].kind.lower()
        return f"docs/{kind}" if kind.isalpha() and f"docs/{kind}" not in _folders(paths) else default
    if len(trees) == 1:
        return trees[0].path
    return default


def _folders(paths: Sequence[str]) -> set[str]:
    return {posixpath.dirname(p) for p in paths}


def _legacy_trees(
    paths: Sequence[str], config: Config, documents: Mapping[str, Document]
) -> tuple[LegacyTree, ...]:
    roots = {config.target.strip("/"), *_lifecycle_roots(paths, config.states)}
    lifecycle = frozenset(
        folder for root in roots for folder in lifecycle_folders(root, config.states.values())
    )
    trees, unknown = with_kinds(find_trees(paths, config.sources, lifecycle), paths, documents, config.sources)
    return tuple(
        LegacyTree(
            tree.path,
            tree.kind,
            tuple(path for path, _, _ in record_paths(tree, paths)),
            tuple(posixpath.basename(p) for p in index_paths(tree, paths)),
            tuple(template_paths(tree, paths)),
            *_kept(tree, paths),
            status_key=tree.status_key,
            kind_told=tree not in unknown,
        )
        for tree in trees
    )


def _with_status_keys(
    trees: Sequence[LegacyTree], documents: Mapping[str, Document], config: Config
) -> tuple[LegacyTree, ...]:
    """Each tree, with the front-matter key its status is under when most of its records
    have no status to read (``stage: accepted``; see :mod:`docsync.migrate.read.status_keys`)."""
    found: list[LegacyTree] = []
    for tree in trees:
        docs = [d for p in tree.records if (d := documents.get(p)) is not None]
        bare = [d for d in docs if read_status(d, config.statuses, tree.status_key) is None]
        key = tree.status_key
        if not key and docs and len(bare) * 2 >= len(docs):
            key = status_key(bare, config.statuses)
        found.append(replace(tree, status_key=key))
    return tuple(found)


def _kept(tree: Tree, paths: Sequence[str]) -> tuple[tuple[str, ...], str]:
    pages = tuple(kept_pages(tree, paths))
    return pages, kept_reason(tree, paths) if pages else ""


def _tree_record_paths(target: str, config: Config, paths: Sequence[str]) -> list[str]:
    folders = {posixpath.join(target, f) for f in config.states.values()}
    return [
        p
        for p in paths
        if posixpath.dirname(p) in folders and RECORD_NAME.match(posixpath.basename(p))
    ]


def _status_words(
    documents: Mapping[str, Document],
    records: Sequence[str],
    config: Config,
    keys: Mapping[str, str],
    beside: Mapping[str, StatusReading],
) -> tuple[tuple[StatusWord, ...], tuple[str, ...]]:
    seen: dict[str, list[str]] = {}
    missing: list[str] = []
    for path in records:
        doc = documents.get(path)
        reading = read_status(doc, config.statuses, keys.get(path, "")) if doc is not None else None
        reading = beside.get(path, reading) if prose(reading) else reading  # a folder record's kep.yaml
        if reading is None or not reading.word or reading.form == StatusForm.PROSE:
            missing.append(path)
        else:
            seen.setdefault(reading.phrase(config.statuses), []).append(path)
    words = tuple(
        StatusWord(word, config.statuses.get(word), tuple(paths))
        for word, paths in sorted(seen.items(), key=lambda item: (-len(item[1]), item[0]))
    )
    return words, tuple(missing)


MEASURING = "Measuring wrap conventions"


def _counted(per_file: Sequence[Breaks]) -> tuple[WrapCount, ...]:
    return tuple(
        WrapCount(mode, sum(f.counts[i] for f in per_file), sum(1 for f in per_file if f.counts[i]))
        for i, mode in enumerate(CANDIDATES)
    )


def wrap_counts(
    documents: Sequence[Document], config: Config, progress: Progress | None = None
) -> tuple[WrapCount, ...]:
    """For each candidate, the paragraphs (and files) that break it; each paragraph read once."""
    per_file: list[Breaks] = []
    for done, doc in enumerate(documents):
        if progress is not None:
            progress(MEASURING, done, len(documents))
        per_file.append(document_breaks(doc, config))
    if progress is not None:
        progress(MEASURING, len(documents), len(documents))
    return _counted(per_file)


def workspace_wrap_counts(
    workspace: Workspace, progress: Progress | None = None
) -> tuple[WrapCount, ...]:
    """:func:`wrap_counts` of the selected files. A document parsed in a worker
    was counted there (:class:`docsync.gates.wrap.count.Summarizer`) and is not unpickled
    for it; the rest are counted here."""
    documents = workspace.documents
    made = documents.made(COUNTS) if isinstance(documents, Documents) else {}
    paths = [p for p in workspace.selected if p in made or p in documents]
    per_file: list[Breaks] = []
    kept = CountStore(workspace)  # counts of unchanged documents from an earlier run
    for done, path in enumerate(paths):
        if progress is not None:
            progress(MEASURING, done, len(paths))
        summary = made.get(path)
        breaks = kept.get(path)
        if breaks is None:
            breaks = summary if isinstance(summary, Breaks) else None
            breaks = breaks or document_breaks(documents[path], workspace.config)
            kept.add(path, breaks)
        per_file.append(breaks)
    kept.save()
    if progress is not None:
        progress(MEASURING, len(paths), len(paths))
    return _counted(per_file)


def choose_wrap(counts: Sequence[WrapCount]) -> WrapMode:
    """The candidate the fewest paragraphs break (ties: see the module docstring)."""
    best = min(counts, key=lambda c: (c.paragraphs, _TIE_ORDER.index(c.mode)))
    return best.mode


def inspect(
    workspace: Workspace, raw: Mapping[str, Any], progress: Progress | None = None
) -> Inspection:
    """What the repository holds, read from the parsed workspace (nothing is written)."""
    config = workspace.config
    listing = workspace.listing  # a symlink points at a record, it is none
    paths = sorted(p for p in set(listing.tracked) | listing.untracked if not listing.is_symlink(p))
    trees = _with_status_keys(_legacy_trees(paths, config, workspace.documents), workspace.documents, config)
    target = _target(config, raw, trees, paths)
    in_tree = _tree_record_paths(target, config, paths)
    legacy = [p for tree in trees for p in tree.records]
    keys = {p: tree.status_key for tree in trees for p in tree.records}
    beside = metadata_statuses(workspace.root, keys, paths, config.max_file_size)
    words, missing = _status_words(workspace.documents, [*legacy, *in_tree], config, keys, beside)
    counts = workspace_wrap_counts(workspace, progress)
    return Inspection(
        files=workspace.selected,
        trees=trees,
        target=target,
        tree_records=len(in_tree),
        words=words,
        missing=missing,
        wrap=counts,
        chosen=choose_wrap(counts),
        site=detect_site(workspace.listing.tracked),
    )
