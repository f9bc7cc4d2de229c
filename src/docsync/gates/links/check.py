"""Gate ``links``: every relative link and fragment resolves as GitHub renders it.

Existence is decided against the git index, not the disk: a file only on
this disk (untracked), a path that differs only in letter case, a dangling
symlink and a path outside the repository all work somewhere and break for
everyone else, so each is a finding of its own. Fragments are matched
against GitHub's heading slugs and ``<a name>`` / ``<a id>`` anchors,
case-insensitively after percent-decoding, as GitHub's page does.
"""

from __future__ import annotations

import functools
import hashlib
import html
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from ...model import Definition, Document, Finding, Link, LinkKind
from ...nearest import CloseIndex
from ...workspace.cache import Dependencies, ResultCache, fingerprint, source_digest
from ...workspace.load import Documents, Workspace, content_key, parse_files

GATE = "links"
RULES: dict[str, tuple[str, str]] = {
    "L001": ("missing-target", "relative link to a path that git does not track"),
    "L002": ("untracked-target", "relative link to a file that exists only untracked on this disk"),
    "L003": ("case-mismatch", "relative link whose path matches a tracked file only in another letter case"),
    "L004": ("outside-repository", "relative link that resolves outside the repository"),
    "L005": ("dangling-symlink", "relative link to a tracked symlink whose target does not exist"),
    "L006": ("missing-fragment", "#fragment that names no heading or anchor in the target"),
    "L007": ("fragment-case", "#fragment that matches an anchor only in another letter case (strict_fragments)"),
    "L008": ("bad-escape", "malformed percent-escape in a link destination or fragment"),
    "L009": ("unused-definition", "reference definition that no link uses"),
    "L010": ("duplicate-definition", "reference definition whose label is already defined"),
    "L011": ("line-anchor-on-markdown", "#L10-style line anchor on a Markdown file, where GitHub renders no line numbers"),
    "L900": ("not-fixed", "file `docsync fix` left alone because repairing its links would change how it renders"),
}

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
_LINE_ANCHOR = re.compile(r"^L\d+(?:C\d+)?(?:-L\d+(?:C\d+)?)?$")
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_ESCAPABLE = re.compile(r"\\([!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])")
_IMAGE_KINDS = frozenset({LinkKind.IMAGE, LinkKind.HTML_SRC})
_MARKDOWN = (".md", ".markdown")


class _BadEscape(ValueError):
    pass


def _percent_decode(value: str) -> str:
    if "%" not in value:
        return value
    if _BAD_ESCAPE.search(value):
        raise _BadEscape(value)
    try:
        return unquote(value, errors="strict")
    except UnicodeDecodeError:
        raise _BadEscape(value) from None


def markdown_url(raw: str) -> str:
    """The URL a Markdown destination stands for: escapes and entities decoded."""
    if "\\" not in raw and "&" not in raw:
        return raw
    return html.unescape(_ESCAPABLE.sub(r"\1", raw))


def is_external(url: str) -> bool:
    return (":" in url and _SCHEME.match(url) is not None) or url.startswith("//")


# --------------------------------------------------------------------------- the repository index


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

    @classmethod
    def build(cls, workspace: Workspace) -> RepoIndex:
        files = frozenset(workspace.listing.tracked)
        dirs: set[str] = {""}
        for path in files:
            parent = posixpath.dirname(path)
            while parent not in dirs:
                dirs.add(parent)
                parent = posixpath.dirname(parent)
        folded: dict[str, str] = {}
        for path in sorted(files | dirs):
            folded.setdefault(path.lower(), path)
        return cls(workspace, files, frozenset(dirs), folded)

    def document(self, path: str) -> Document | None:
        """The parsed target; parses tracked Markdown outside the configured scope on demand."""
        found = self.workspace.documents.get(path)
        if found is not None or not path.lower().endswith(_MARKDOWN):
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
        return dict(known) if known is not None else _document_anchors(self.document(path))

    def readme(self, folder: str) -> str | None:
        """The file GitHub shows as ``folder``'s README (see :func:`readme_rank`);
        for the repository root, ``.github/`` first, then the root, then ``docs/``."""
        if self._readmes is None:
            self._readmes = _readmes(self.files)
        places = (".github", "", "docs") if folder == "" else (folder,)
        return next((self._readmes[p] for p in places if p in self._readmes), None)

    def symlink_target(self, path: str) -> str | None:
        """The repository path a tracked symlink points at, or None when it dangles."""
        full = self.workspace.root / path
        try:
            resolved = full.resolve(strict=True)
            relative = resolved.relative_to(self.workspace.root).as_posix()
        except (OSError, RuntimeError, ValueError):
            return None
        return relative if relative in self.files or relative in self.dirs else None

    def closest_path(self, wanted: str) -> str | None:
        """A tracked file the author probably meant: same name elsewhere, or a near name beside it."""
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


# --------------------------------------------------------------------------- checking one document


@dataclass(frozen=True, slots=True)
class _Target:
    """One destination to verify, from a link or a definition."""

    raw: str
    url: str
    line: int
    column: int
    image: bool


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


def _targets(doc: Document) -> Iterator[_Target]:
    for link in doc.links:
        if link.kind == LinkKind.REFERENCE:
            continue
        yield _Target(link.destination, link_url(link), link.line, link.column, link.kind in _IMAGE_KINDS)
    image_labels = {x.label for x in doc.links if x.kind == LinkKind.IMAGE and x.label}
    link_labels = {x.label for x in doc.links if x.kind == LinkKind.REFERENCE and x.label}
    seen: set[str] = set()
    for definition in doc.definitions:
        if definition.normalized_label in seen:
            continue
        seen.add(definition.normalized_label)
        image = definition.normalized_label in image_labels and definition.normalized_label not in link_labels
        yield _Target(definition.destination, markdown_url(definition.destination), definition.line, definition.column, image)


_Pending = tuple[str, int, int, str, str]
"""A fragment check that needs another document's anchors: (raw, line, column, target path, fragment)."""


@dataclass(frozen=True, slots=True)
class LinkSummary:
    """The gate's verdict on one document as far as it needs no other document.

    ``items`` are the findings in the order :func:`check` reports them, with
    the fragment checks that need another document's anchors left pending in
    their place; ``anchors`` are the document's own (lowercase → as written),
    for the pending checks of documents that link here. Everything in it
    depends only on the document and what git lists, so a parse worker makes
    it beside the document and the gate never needs the document itself.
    """

    path: str
    items: tuple[Finding | _Pending, ...]
    anchors: dict[str, str]


def check(doc: Document, index: RepoIndex) -> list[Finding]:
    return finish(summarize(doc, index), index)


def summarize(doc: Document, index: RepoIndex) -> LinkSummary:
    """Phase one: every check that needs only ``doc`` and the repository listing."""
    items: list[Finding | _Pending] = []
    for target in _targets(doc):
        items.extend(_check_target(doc, target, index))
    items.extend(_check_definitions(doc))
    return LinkSummary(doc.path, tuple(items), _document_anchors(doc))


def finish(summary: LinkSummary, index: RepoIndex) -> list[Finding]:
    """Phase two: the pending fragment checks, against the anchors of their targets."""
    findings: list[Finding] = []
    for item in summary.items:
        if isinstance(item, Finding):
            findings.append(item)
            continue
        raw, line, column, path, fragment = item
        target = _Target(raw, "", line, column, False)
        findings.extend(_check_fragment(summary.path, target, path, fragment, index))
    return findings


class Summarizer:
    """:func:`summarize` for parse workers, which run before the workspace has documents.

    Made from the workspace as known before parsing (its listing, root and
    config; no documents), which is all :func:`summarize` reads.
    """

    def __init__(self, workspace: Workspace) -> None:
        self._index = RepoIndex.build(workspace)

    def __call__(self, doc: Document) -> LinkSummary:
        return summarize(doc, self._index)


def _finding(source: str, target: _Target, rule: str, message: str, suggestion: str | None = None) -> Finding:
    text = f"{message} (did you mean '{suggestion}'?)" if suggestion else message
    return Finding(GATE, rule, source, target.line, target.column, text, suggestion)


def _check_target(doc: Document, target: _Target, index: RepoIndex) -> Sequence[Finding | _Pending]:
    url = target.url.strip()
    if not url or is_external(url):
        return []
    path_part, hash_sign, fragment = url.partition("#")
    path_part, _, query = path_part.partition("?")
    try:
        decoded = _percent_decode(path_part)
        decoded_fragment = _percent_decode(fragment) if hash_sign else ""
    except _BadEscape:
        return [_finding(doc.path, target, "L008", f"malformed percent-escape in '{target.raw}'")]
    if not decoded:
        return _fragment(doc, target, doc.path, decoded_fragment, index) if hash_sign else []
    resolved = _resolve(doc.path, decoded)
    if resolved is None:
        return [_finding(doc.path, target, "L004", f"'{target.raw}' resolves outside the repository")]
    problem = _existence(doc, target, resolved, index)
    if problem is not None:
        return [problem]
    if hash_sign and not target.image:
        if _plain_view(query) and _LINE_ANCHOR.match(decoded_fragment) and resolved in index.files:
            return []  # ?plain=1 shows the source, with line numbers, even for Markdown
        return _fragment(doc, target, resolved, decoded_fragment, index)
    return []


def _plain_view(query: str) -> bool:
    """Whether a query asks GitHub for a file's source (``?plain=1``) rather than its rendering."""
    return any(part == "plain=1" for part in query.split("&"))


@functools.lru_cache(maxsize=4096)
def _folder(path: str) -> str:
    return posixpath.dirname(path)


def _resolve(source: str, decoded: str) -> str | None:
    """The repository path a decoded link path names, or None outside the repository."""
    if decoded.startswith("/"):
        joined = decoded.lstrip("/")
    else:  # posixpath.join(dirname(source), decoded), without its generality
        folder = _folder(source)
        joined = f"{folder}/{decoded}" if folder else decoded
    normal = posixpath.normpath(joined) if joined else "."
    if normal == ".." or normal.startswith("../"):
        return None
    return "" if normal == "." else normal


def _existence(doc: Document, target: _Target, path: str, index: RepoIndex) -> Finding | None:
    if path in index.files:
        if index.workspace.listing.is_symlink(path) and index.symlink_target(path) is None:
            return _finding(doc.path, target, "L005", f"'{target.raw}' is a symlink whose target does not exist")
        return None
    if path in index.dirs:
        return None
    if path in index.workspace.listing.untracked:
        return _finding(doc.path, target, "L002", f"'{target.raw}' is not tracked by git (git add it, or it is broken for everyone else)")
    other_case = index.folded.get(path.lower())
    if other_case is not None:
        return _finding(doc.path, target, "L003", f"'{target.raw}' matches '{other_case}' only in letter case; it breaks on GitHub and Linux", _relative(doc.path, other_case))
    closest = index.closest_path(path)
    suggestion = _relative(doc.path, closest) if closest else None
    message = f"'{target.raw}' does not exist"
    if suggestion is None and target.url.startswith("/"):
        # Documentation sites read "/x" as their own root; GitHub reads the repository's.
        message += f" (a leading '/' is the repository root on GitHub: this names '{path}')"
    return _finding(doc.path, target, "L001", message, suggestion)


def _relative(source: str, path: str) -> str:
    return posixpath.relpath(path, posixpath.dirname(source) or ".")


def anchors_of(path: str, index: RepoIndex) -> tuple[dict[str, str], bool] | None:
    """Anchors of a target (lowercase → as written) and whether line anchors work there.

    None means the target's anchors cannot be known (not Markdown, not a folder).
    """
    if index.workspace.listing.is_symlink(path):
        return {}, False
    if path in index.dirs and path not in index.files:
        readme = index.readme(path)
        if readme is not None and not readme.lower().endswith(_MARKDOWN):
            return None  # rendered from markup docsync does not read: its anchors are unknown
        anchors = index.anchors_in(readme) if readme else {}
        anchors.setdefault("readme", "readme")
        return anchors, False
    if path.lower().endswith(_MARKDOWN):
        return index.anchors_in(path), False
    return {}, True


def _document_anchors(doc: Document | None) -> dict[str, str]:
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


_USER_CONTENT = "user-content-"


def _fragment(doc: Document, target: _Target, path: str, fragment: str, index: RepoIndex) -> Sequence[Finding | _Pending]:
    """The fragment check now when ``doc`` and the listing decide it, else pending."""
    if fragment == "" or fragment.lower() == "top":
        return []
    known = _local_anchors(doc, path, index)
    if known is None:
        return [(target.raw, target.line, target.column, path, fragment)]
    return _fragment_findings(doc.path, target, path, fragment, known, index)


def _local_anchors(doc: Document, path: str, index: RepoIndex) -> tuple[dict[str, str], bool] | None:
    """:func:`anchors_of` when it needs no document but ``doc``; None when it does."""
    if index.workspace.listing.is_symlink(path):
        return {}, False
    if path in index.dirs and path not in index.files:
        return None
    if path.lower().endswith(_MARKDOWN):
        return (_document_anchors(doc), False) if path == doc.path else None
    return {}, True


def _check_fragment(source: str, target: _Target, path: str, fragment: str, index: RepoIndex) -> list[Finding]:
    if fragment == "" or fragment.lower() == "top":
        return []
    if path in index.anchor_memo:
        known = index.anchor_memo[path]
    else:
        known = index.anchor_memo[path] = anchors_of(path, index)
    if known is None:
        return []  # a README in markup docsync does not read: nothing to check against
    return _fragment_findings(source, target, path, fragment, known, index)


def _fragment_findings(
    source: str, target: _Target, path: str, fragment: str, known: tuple[dict[str, str], bool], index: RepoIndex
) -> list[Finding]:
    anchors, line_numbers = known
    if fragment.lower().startswith(_USER_CONTENT) and fragment.lower() not in anchors:
        fragment = fragment[len(_USER_CONTENT) :]  # the id as GitHub writes it
    if _LINE_ANCHOR.match(fragment):
        if line_numbers:
            return []
        if fragment.lower() not in anchors:
            return [_finding(source, target, "L011", f"'#{fragment}' is a line anchor, but GitHub renders Markdown without line numbers (link to the heading instead)")]
    exact = anchors.get(fragment.lower())
    if exact is not None:
        if index.workspace.config.strict_fragments and exact != fragment:
            return [_finding(source, target, "L007", f"'#{fragment}' matches '#{exact}' only in letter case", _with_fragment(target.raw, exact))]
        return []
    where = "this file" if path == source else f"'{path or '/'}'"
    close = index.closest_anchor(path, anchors, fragment.lower())
    if close is not None:
        suggestion = _with_fragment(target.raw, anchors[close])
        return [_finding(source, target, "L006", f"'#{fragment}' names no heading or anchor in {where}", suggestion)]
    return [_finding(source, target, "L006", f"'#{fragment}' names no heading or anchor in {where}; {_anchor_list(anchors)}")]


_LISTED_ANCHORS = 5


def _anchor_list(anchors: dict[str, str]) -> str:
    """What a fragment could name instead, when nothing is close enough to suggest."""
    if not anchors:
        return "it has no headings or anchors"
    names = [f"#{name}" for name in list(anchors.values())[:_LISTED_ANCHORS]]
    more = len(anchors) - len(names)
    return f"it has {', '.join(names)}" + (f" and {more} more" if more else "")


def _with_fragment(raw: str, anchor: str) -> str:
    return f"{raw.partition('#')[0]}#{anchor}"


def _check_definitions(doc: Document) -> list[Finding]:
    findings: list[Finding] = []
    first: dict[str, Definition] = {}
    for definition in doc.definitions:
        label = definition.normalized_label
        if label in first:
            findings.append(
                Finding(GATE, "L010", doc.path, definition.line, definition.column,
                        f"duplicate definition of [{definition.label}]; the one at line {first[label].line} wins (remove this one)")
            )
            continue
        first[label] = definition
        if label not in doc.used_labels:
            findings.append(
                Finding(GATE, "L009", doc.path, definition.line, definition.column,
                        f"reference definition [{definition.label}] is never used (remove it or link to it)")
            )
    return findings


def check_workspace(workspace: Workspace) -> list[Finding]:
    """Findings for every selected document, from the result cache when nothing changed."""
    run = _run_key(workspace)
    store = ResultCache.open(workspace.git_dir, GATE) if run is not None else None
    known = store.get(run) if store is not None and run is not None else None
    if (
        known is not None
        and all(path in known[1] for path in workspace.selected)
        and not _dependencies_changed(workspace, known[0])
    ):
        return [f for path in workspace.selected for f in known[1][path]]
    index = RepoIndex.build(workspace)
    documents = workspace.documents
    made = documents.summaries if isinstance(documents, Documents) else {}
    # Anchors from the workers' summaries: the documents they describe stay packed.
    index.known_anchors = {p: s.anchors for p, s in made.items() if isinstance(s, LinkSummary)}
    per_path: dict[str, tuple[Finding, ...]] = {}
    for path in workspace.selected:
        summary = made.get(path)
        if not isinstance(summary, LinkSummary):  # parsed here, or from the cache
            doc = documents.get(path)
            summary = summarize(doc, index) if doc is not None else None
        per_path[path] = tuple(finish(summary, index)) if summary is not None else ()
    if store is not None and run is not None:
        dependencies = dict(known[0]) if known is not None else {}
        dependencies.update(index.extra_keys)
        earlier = known[1] if known is not None else {}
        store.put(run, tuple(sorted(dependencies.items())), {**earlier, **per_path})
    return [f for path in workspace.selected for f in per_path[path]]


# --------------------------------------------------------------------------- the result cache


def _run_key(workspace: Workspace) -> str | None:
    """Everything the gate's findings depend on, hashed; None when there is no cache.

    The gate reads: the documents (their content keys), what git tracks and
    with which modes, the untracked files, where tracked symlinks point on
    this disk, the config, and tracked Markdown outside the configured scope
    that links point into (checked separately: :func:`_dependencies_changed`).
    The key also covers docsync's version, its parser and this module's code.
    """
    documents = workspace.documents
    if not workspace.config.cache or not isinstance(documents, Documents):
        return None
    digest = hashlib.blake2b(digest_size=20)

    def add(*parts: str) -> None:
        for part in parts:
            digest.update(part.encode("utf-8", "surrogateescape"))
            digest.update(b"\0")

    add(source_digest(__file__), fingerprint(), repr(workspace.config))
    tracked = sorted(workspace.listing.tracked.items())
    for path, mode in tracked:
        add(path, mode)
    add("untracked", *sorted(workspace.listing.untracked))
    add("contents")
    for path, key in sorted(documents.content_keys.items()):
        add(path, key)
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


def _dependencies_changed(workspace: Workspace, dependencies: Dependencies) -> bool:
    return any(
        content_key(workspace.root, path, workspace.config) != key for path, key in dependencies
    )


def link_url(link: Link) -> str:
    """The URL a link goes to. An autolink without a scheme is an email
    address (CommonMark allows no other), which renders as ``mailto:``."""
    if link.kind in (LinkKind.HTML_HREF, LinkKind.HTML_SRC):
        return link.destination
    if link.kind == LinkKind.AUTOLINK and _SCHEME.match(link.destination) is None:
        return "mailto:" + link.destination
    return markdown_url(link.destination)


def link_targets(doc: Document) -> Iterator[tuple[Link | Definition, str]]:
    """Every link or definition with a destination of its own, with its URL (for rewriters)."""
    for link in doc.links:
        if link.dest_span is not None:
            yield link, link_url(link)
    for definition in doc.definitions:
        yield definition, markdown_url(definition.destination)


def resolve_url(source: str, url: str) -> tuple[str, str] | None:
    """(repository path, fragment) a relative URL in ``source`` points at; None if external or outside."""
    if not url or is_external(url):
        return None
    path_part, _, fragment = url.partition("#")
    try:
        decoded = _percent_decode(path_part.partition("?")[0])
    except _BadEscape:
        return None
    if not decoded:
        return source, fragment
    resolved = _resolve(source, decoded)
    return None if resolved is None else (resolved, fragment)
