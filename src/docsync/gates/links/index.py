"""What the links gate knows about the repository, built once per run: the
tracked files and folders, each folder's README, the anchors of documents,
and the nearest path or anchor to suggest for a broken one."""

from __future__ import annotations

import errno
import posixpath
from dataclasses import dataclass, field

from ...model import Document
from ...nearest import CloseIndex
from ...repository.plumbing import Listing
from ...site import Site
from ...site import resolve as resolve_site
from ...workspace.load import Workspace, parse_files

MARKDOWN = (".md", ".markdown")



@dataclass
class RepoIndex:
    """What the links gate knows about the repository, built once per run."""

    workspace: Workspace
    files: frozenset[str]
    dirs: frozenset[str]
    folded: dict[str, str]
    extra_documents: dict[str, Document | None] = field(default_factory=dict)
    # what those files held when parsed: the run's findings depend on them too
    extra_keys: dict[str, str | None] = field(default_factory=dict)
    # anchors_of per target path: a file is linked to from many places.
    anchor_memo: dict[str, tuple[dict[str, str], bool] | None] = field(default_factory=dict)
    # anchors of documents by path, from their link summaries (so the documents stay packed)
    known_anchors: dict[str, dict[str, str]] = field(default_factory=dict)
    # tracked files by lowercase name and by folder, built for the first suggestion
    _by_name: dict[str, list[str]] = field(default_factory=dict)
    _by_folder: dict[str, list[str]] = field(default_factory=dict)
    _sibling_memo: dict[str, tuple[dict[str, str], CloseIndex]] = field(default_factory=dict)
    _anchor_near: dict[str, tuple[dict[str, str], CloseIndex]] = field(default_factory=dict)
    _readmes: dict[str, str] | None = None  # folder → the README GitHub shows there
    # the tracked symlinks, asked of every link's target
    symlinks: frozenset[str] = frozenset()
    # the anchors of the document being summarized (its fragments into itself ask them)
    _own: tuple[Document, dict[str, str]] | None = None
    # old path → new path of the renames the index stages, asked of git at the first L001
    _staged_renames: dict[str, str] | None = None
    # the docs site the config names (None: GitHub only), made on first use
    _site: tuple[Site | None] | None = None

    @classmethod
    def build(cls, workspace: Workspace) -> RepoIndex:
        files, dirs, folded, symlinks = _listed(workspace.listing)
        return cls(workspace, files, dirs, folded, symlinks=symlinks)

    @property
    def site(self) -> Site | None:
        if self._site is None:
            self._site = (site_of(self.workspace),)
        return self._site[0]

    def site_target(self, source: str, decoded: str) -> str | None:
        """The tracked file the docs site serves for a link GitHub cannot resolve, when
        ``source`` is one of the site's pages; None otherwise (see :mod:`docsync.site`)."""
        site = self.site
        if site is None or not site.covers(source):
            return None
        return next((c for c in site.candidates(source, decoded) if c in self.files), None)

    def own_anchors(self, doc: Document) -> dict[str, str]:
        """:func:`document_anchors` of ``doc``, made once while it is summarized."""
        own = self._own
        if own is None or own[0] is not doc:
            own = self._own = (doc, document_anchors(doc))
        return own[1]

    def document(self, path: str) -> Document | None:
        """The parsed target; parses tracked Markdown outside the configured scope on demand."""
        found = self.workspace.documents.get(path)
        if found is not None or not path.lower().endswith(MARKDOWN):
            return found
        if path not in self.extra_documents:
            ws = self.workspace
            documents, _ = parse_files(ws.root, ws.git_dir, [path], ws.config)
            self.extra_documents[path] = documents.get(path)
            self.extra_keys[path] = documents.content_keys.get(path)
        return self.extra_documents[path]

    def anchors_in(self, path: str) -> dict[str, str]:
        """The anchors of the Markdown document at ``path`` (lowercase → as written)."""
        known = self.known_anchors.get(path)
        if known is None:
            known = document_anchors(self.document(path))
            if path in self.workspace.documents:  # kept by content for later runs (AnchorCache)
                self.known_anchors[path] = known
        return dict(known)

    def readme(self, folder: str) -> str | None:
        """The file GitHub shows as ``folder``'s README (see :func:`readme_rank`);
        for the repository root, ``.github/`` first, then the root, then ``docs/``."""
        if self._readmes is None:
            self._readmes = _readmes(self.files)
        places = (".github", "", "docs") if folder == "" else (folder,)
        return next((self._readmes[p] for p in places if p in self._readmes), None)

    def symlink_problem(self, path: str) -> str | None:
        """Why a tracked symlink leads a reader nowhere, or None when it points at a tracked
        file or folder of the repository."""
        full = self.workspace.root / path
        try:
            resolved = full.resolve(strict=True)
        except RuntimeError:  # a loop, before Python 3.13
            return "a symlink that loops"
        except OSError as exc:
            return "a symlink that loops" if exc.errno == errno.ELOOP else "a symlink whose target does not exist"
        try:
            relative = resolved.relative_to(self.workspace.root).as_posix()
        except ValueError:
            return "a symlink that leads out of the repository (GitHub shows no file there)"
        if relative in self.files or relative in self.dirs:
            return None
        if relative == ".git" or relative.startswith(".git/"):
            return "a symlink into .git (GitHub shows no file there)"
        return f"a symlink to '{relative}', which git does not track"

    def closest_path(self, wanted: str) -> str | None:
        """A tracked file the author probably meant: where a staged rename took it (git's own
        rename detection, so a ``git mv`` names its new path), else the same name elsewhere,
        or a near name beside it."""
        moved = self.staged_renames().get(wanted)
        if moved is not None and moved in self.files:
            return moved
        if not self._by_name:
            for path in self.files:
                self._by_name.setdefault(posixpath.basename(path).lower(), []).append(path)
                self._by_folder.setdefault(posixpath.dirname(path), []).append(path)
        base = posixpath.basename(wanted).lower()
        same_name = self._by_name.get(base)
        if same_name:
            return min(same_name, key=lambda p: (_distance(p, wanted), p))
        folder = posixpath.dirname(wanted)
        siblings, near = self._siblings(folder)
        match = near.closest(posixpath.basename(wanted))
        return siblings[match] if match is not None else None

    def staged_renames(self) -> dict[str, str]:
        if self._staged_renames is None:
            from ...repository.plumbing import staged_renames

            self._staged_renames = staged_renames(self.workspace.root)
        return self._staged_renames

    def _siblings(self, folder: str) -> tuple[dict[str, str], CloseIndex]:
        """A folder's tracked files by name, and their names indexed (built once per folder)."""
        found = self._sibling_memo.get(folder)
        if found is None:
            siblings = {posixpath.basename(p): p for p in self._by_folder.get(folder, ())}
            found = self._sibling_memo[folder] = (siblings, CloseIndex(siblings, _PATH_CUTOFF))
        return found

    def closest_anchor(self, path: str, anchors: dict[str, str], fragment: str) -> str | None:
        """The anchor of ``path`` nearest ``fragment`` (lowercase), from an index built once per target."""
        found = self._anchor_near.get(path)
        if found is None or (found[0] is not anchors and found[0] != anchors):
            found = self._anchor_near[path] = (anchors, CloseIndex(anchors, _ANCHOR_CUTOFF))
        return found[1].closest(fragment)


def site_of(workspace: Workspace) -> Site | None:
    """The docs site ``workspace``'s config describes, its folder read from the generator's config."""
    config = workspace.config
    return resolve_site(
        config.site, config.site_root, config.html_to_md, workspace.listing.tracked, workspace.root
    )


_Listed = tuple[frozenset[str], frozenset[str], dict[str, str], frozenset[str]]
_LISTED: list[tuple[Listing, _Listed]] = []
"""The last listing :func:`_listed` was asked of, and its answer: a run builds an
index twice (for its parse workers' summaries, then for the gate), of one listing."""


def _listed(listing: Listing) -> _Listed:
    """The tracked files, their folders, both by lowercase path, and the tracked symlinks."""
    for known, made in _LISTED:
        if known is listing:
            return made
    files = frozenset(listing.tracked)
    dirs: set[str] = {""}
    for path in files:
        parent = posixpath.dirname(path)
        while parent not in dirs:
            dirs.add(parent)
            parent = posixpath.dirname(parent)
    folded: dict[str, str] = {}
    for path in sorted(files | dirs):
        folded.setdefault(path.lower(), path)
    symlinks = frozenset(path for path in files if listing.is_symlink(path))
    made = (files, frozenset(dirs), folded, symlinks)
    _LISTED[:] = [(listing, made)]
    return made


# How alike a name or a fragment must be to be suggested (difflib's ratio).
_PATH_CUTOFF = 0.75


_ANCHOR_CUTOFF = 0.5


def _distance(a: str, b: str) -> int:
    """How many folder steps apart two paths are."""
    parts_a, parts_b = a.split("/")[:-1], b.split("/")[:-1]
    common = 0
    for x, y in zip(parts_a, parts_b, strict=False):
        if x != y:
            break
        common += 1
    return len(parts_a) + len(parts_b) - 2 * common


# The extensions of the markup GitHub renders as a folder's README, in the
# order docsync prefers them when a folder has several (Markdown first, plain
# text and no extension last; GitHub does not document its own order).
README_EXTENSIONS = (
    ".md", ".markdown", ".mdown", ".mkdn", ".mkd", ".mdwn",
    ".rst", ".adoc", ".asciidoc", ".asc", ".org", ".textile", ".rdoc",
    ".creole", ".mediawiki", ".wiki", ".pod", ".txt", "",
)


def readme_rank(name: str) -> tuple[int, int, str] | None:
    """Where a file name stands among a folder's READMEs, or None if it is none.

    ``README`` in any letter case, with an extension GitHub renders (any
    case); ranked by extension (:data:`README_EXTENSIONS`), then the
    upper-case ``README`` spelling, then the name.
    """
    stem, dot, extension = name.partition(".")
    if stem.lower() != "readme":
        return None
    extension = (dot + extension).lower()
    if extension not in README_EXTENSIONS:
        return None
    return README_EXTENSIONS.index(extension), int(stem != "README"), name


def _readmes(files: frozenset[str]) -> dict[str, str]:
    best: dict[str, tuple[tuple[int, int, str], str]] = {}
    for path in files:
        folder, _, name = path.rpartition("/")
        rank = readme_rank(name)
        if rank is not None and (folder not in best or rank < best[folder][0]):
            best[folder] = (rank, path)
    return {folder: path for folder, (_, path) in best.items()}


def anchors_of(path: str, index: RepoIndex) -> tuple[dict[str, str], bool] | None:
    """Anchors of a target (lowercase → as written) and whether line anchors work there.

    None means the target's anchors cannot be known (not Markdown, not a folder).
    """
    if index.workspace.listing.is_symlink(path):
        return {}, False
    if path in index.dirs and path not in index.files:
        readme = index.readme(path)
        if readme is not None and not readme.lower().endswith(MARKDOWN):
            return None  # rendered from markup docsync does not read: its anchors are unknown
        anchors = index.anchors_in(readme) if readme else {}
        anchors.setdefault("readme", "readme")
        return anchors, False
    if path.lower().endswith(MARKDOWN):
        return index.anchors_in(path), False
    return {}, True


def document_anchors(doc: Document | None) -> dict[str, str]:
    """Heading slugs, ``<a name>``/``<a id>`` anchors and footnote ids.

    GitHub writes every id with a ``user-content-`` prefix and its page also
    resolves the fragment without it; the prefixed form is accepted where a
    fragment is looked up (:data:`_USER_CONTENT`), not listed here.
    """
    if doc is None:
        return {}
    anchors: dict[str, str] = {}
    for name in [h.slug for h in doc.headings] + [a.name for a in doc.anchors]:
        anchors.setdefault(name.lower(), name)
    for name in doc.footnote_ids:
        anchors.setdefault(name.lower(), name)
    return anchors
