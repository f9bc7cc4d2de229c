"""Gate ``links``: every relative link and fragment resolves as GitHub renders it.

Existence is decided against the git index, not the disk: a file only on
this disk (untracked), a path that differs only in letter case, a dangling
symlink and a path outside the repository all work somewhere and break for
everyone else, so each is a finding of its own. Fragments are matched
against GitHub's heading slugs and ``<a name>`` / ``<a id>`` anchors,
case-insensitively after percent-decoding, as GitHub's page does.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ...model import Definition, Document, Finding, LinkKind
from ...workspace.documents import Documents
from ...workspace.load import Workspace
from ...workspace.results import ResultCache
from . import keys
from .fragments import GATE, LINE_ANCHOR, Pending, Target, check_fragment, finding, fragment_check
from .index import MARKDOWN, RepoIndex
from .urls import BadEscape, percent_decode, resolve
from .urls import is_external as is_external
from .urls import link_targets as link_targets
from .urls import link_url as link_url
from .urls import markdown_url as markdown_url
from .urls import resolve_url as resolve_url

_IMAGE_KINDS = frozenset({LinkKind.IMAGE, LinkKind.HTML_SRC})
_REFERENCE = LinkKind.REFERENCE


# --------------------------------------------------------------------------- checking one document


def _definition_targets(doc: Document) -> Iterator[Target]:
    """The definitions a used reference renders, each once (the links' own: :func:`summarize`)."""
    image_labels = {x.label for x in doc.links if x.kind == LinkKind.IMAGE and x.label}
    link_labels = {x.label for x in doc.links if x.kind == LinkKind.REFERENCE and x.label}
    seen: set[str] = set()
    for definition in doc.definitions:
        # an unused definition renders no link (L009 says so; its target is no one's)
        if definition.normalized_label in seen or definition.normalized_label not in doc.used_labels:
            continue
        seen.add(definition.normalized_label)
        image = definition.normalized_label in image_labels and definition.normalized_label not in link_labels
        yield Target(definition.destination, markdown_url(definition.destination), definition.line, definition.column, image)


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
    items: tuple[Finding | Pending, ...]
    anchors: dict[str, str]


def check(doc: Document, index: RepoIndex) -> list[Finding]:
    return finish(summarize(doc, index), index)


def summarize(doc: Document, index: RepoIndex) -> LinkSummary:
    """Phase one: every check that needs only ``doc`` and the repository listing."""
    items: list[Finding | Pending] = []
    add = items.extend
    for link in doc.links:
        kind = link.kind
        if kind == _REFERENCE:  # checked once, at its definition
            continue
        found = _check_link(doc, link.destination, link_url(link), link.line, link.column, kind in _IMAGE_KINDS, index)
        if found:
            add(found)
    for target in _definition_targets(doc):
        add(_check_target(doc, target, index))
    add(_check_definitions(doc))
    return LinkSummary(doc.path, tuple(items), index.own_anchors(doc))


def finish(summary: LinkSummary, index: RepoIndex) -> list[Finding]:
    """Phase two: the pending fragment checks, against the anchors of their targets."""
    findings: list[Finding] = []
    memo, strict = index.anchor_memo, index.workspace.config.strict_fragments
    for item in summary.items:
        if isinstance(item, Finding):
            findings.append(item)
            continue
        raw, line, column, path, fragment = item
        known = memo.get(path)
        if known is not None:  # most fragments name an anchor as written: nothing to report
            exact = known[0].get(fragment.lower())
            if exact is not None and (exact == fragment or not strict):
                continue
        target = Target(raw, "", line, column, False)
        findings.extend(check_fragment(summary.path, target, path, fragment, index))
    return findings


class Summarizer:
    """:func:`summarize` for parse workers, which run before the workspace has documents.

    Made from the workspace as known before parsing (its listing, root and
    config; no documents), which is all :func:`summarize` reads.
    """

    def __init__(self, workspace: Workspace) -> None:
        self._index = RepoIndex.build(workspace)
        self.context = keys.context(workspace)

    def __call__(self, doc: Document) -> LinkSummary:
        return summarize(doc, self._index)

    def pack(self, result: object) -> object:
        """A summary as plain data, for the parse cache (:class:`~docsync.workspace.summaries.Kept`)."""
        assert isinstance(result, LinkSummary)
        return (result.path, result.items, result.anchors)

    def unpack(self, data: object) -> LinkSummary | None:
        """:meth:`pack`'s data back, checked field by field."""
        if not (type(data) is tuple and len(data) == 3):
            return None
        path, items, anchors = data
        if (
            type(path) is str
            and type(items) is tuple
            and _items(items)
            and type(anchors) is dict
            and set(map(type, anchors)) <= {str}
            and set(map(type, anchors.values())) <= {str}
        ):
            return LinkSummary(path, items, anchors)
        return None



_PENDING_TYPES = (str, int, int, str, str)


def _items(items: tuple[object, ...]) -> bool:
    """Whether unpacked items are a summary's: findings, and pending checks of
    the right shape (asked of the types as sets, in C: a summary has thousands)."""
    kinds = set(map(type, items))
    if not kinds <= {Finding, tuple}:
        return False
    if tuple not in kinds:
        return True
    pending = [item for item in items if type(item) is tuple]
    if set(map(len, pending)) != {len(_PENDING_TYPES)}:
        return False
    columns = zip(*pending, strict=True)
    return all(set(map(type, column)) == {kind} for column, kind in zip(columns, _PENDING_TYPES, strict=True))


def _check_link(
    doc: Document, raw: str, url: str, line: int, column: int, image: bool, index: RepoIndex
) -> Sequence[Finding | Pending]:
    """:func:`_check_target` of one link, its common cases decided without a :class:`Target`:
    a plain path (no space around it, no escape, no query) to a tracked file that is no
    symlink, or to a tracked folder, with no fragment or one that waits for another
    document's anchors (a pending check). Anything else is checked as :func:`_check_target`
    checks it: from the resolved path on, when the path was plain."""
    stripped = url.strip()
    if not stripped or is_external(stripped):
        return ()
    path_part, hash_sign, fragment = url.partition("#")
    if stripped == url and path_part and "%" not in url and "?" not in path_part:
        resolved = resolve(doc.path, path_part)
        if resolved is not None:
            if resolved in index.files:
                exists = resolved not in index.symlinks
                folder = False
            else:
                exists = folder = resolved in index.dirs
            if exists:
                if not hash_sign or image or fragment == "" or fragment.lower() == "top":
                    return ()
                if folder or (resolved != doc.path and resolved.lower().endswith(MARKDOWN)):
                    return ((raw, line, column, resolved, fragment),)
        # what the whole check would find: the path is decoded and resolved already
        return _check_path(doc, Target(raw, url, line, column, image), path_part, resolved, hash_sign, "", fragment, index)
    return _check_target(doc, Target(raw, url, line, column, image), index)


def _check_target(doc: Document, target: Target, index: RepoIndex) -> Sequence[Finding | Pending]:
    url = target.url.strip()
    if not url or is_external(url):
        return []
    path_part, hash_sign, fragment = url.partition("#")
    path_part, _, query = path_part.partition("?")
    try:
        decoded = percent_decode(path_part)
        decoded_fragment = percent_decode(fragment) if hash_sign else ""
    except BadEscape:
        return [finding(doc.path, target, "L008", f"malformed percent-escape in '{target.raw}'")]
    if not decoded:
        return fragment_check(doc, target, doc.path, decoded_fragment, index) if hash_sign else []
    return _check_path(doc, target, decoded, resolve(doc.path, decoded), hash_sign, query, decoded_fragment, index)


def _check_path(
    doc: Document, target: Target, decoded: str, resolved: str | None, hash_sign: str, query: str, fragment: str,
    index: RepoIndex,
) -> Sequence[Finding | Pending]:
    """:func:`_check_target` once the link's path is decoded (``decoded``) and resolved."""
    problem = None if resolved is None else _existence(doc, target, resolved, index)
    if resolved is None or problem is not None:
        built = index.site_target(doc.path, decoded)  # a link written for the docs site
        if built is None and problem is not None:
            return [problem]
        if built is None:
            return [finding(doc.path, target, "L004", f"'{target.raw}' resolves outside the repository")]
        resolved = built
    if hash_sign and not target.image:
        if _plain_view(query) and LINE_ANCHOR.match(fragment) and resolved in index.files:
            return []  # ?plain=1 shows the source, with line numbers, even for Markdown
        return fragment_check(doc, target, resolved, fragment, index)
    return []


def _plain_view(query: str) -> bool:
    """Whether a query asks GitHub for a file's source (``?plain=1``) rather than its rendering."""
    return any(part == "plain=1" for part in query.split("&"))


def _existence(doc: Document, target: Target, path: str, index: RepoIndex) -> Finding | None:
    if path in index.files:
        problem = index.symlink_problem(path) if path in index.symlinks else None
        return finding(doc.path, target, "L005", f"'{target.raw}' is {problem}") if problem else None
    if path in index.dirs:
        return None
    if path in index.workspace.listing.untracked:
        return finding(doc.path, target, "L002", f"'{target.raw}' is not tracked by git (git add it, or it is broken for everyone else)")
    other_case = index.folded.get(path.lower())
    if other_case is not None:
        return finding(doc.path, target, "L003", f"'{target.raw}' matches '{other_case}' only in letter case; it breaks on GitHub and Linux", _relative(doc.path, other_case))
    submodule = index.workspace.listing.submodule_of(path)
    if submodule is not None:  # GitHub shows a submodule as a link to its repository, not its files
        return finding(doc.path, target, "L001", f"'{target.raw}' is inside the submodule '{submodule}', whose files GitHub does not show here (link to them in the submodule's own repository)")
    closest = index.closest_path(path)
    suggestion = _relative(doc.path, closest) if closest else None
    message = f"'{target.raw}' does not exist"
    if suggestion is None and target.url.startswith("/"):
        # Documentation sites read "/x" as their own root; GitHub reads the repository's.
        message += f" (a leading '/' is the repository root on GitHub: this names '{path}')"
    return finding(doc.path, target, "L001", message, suggestion)


def _relative(source: str, path: str) -> str:
    return posixpath.relpath(path, posixpath.dirname(source) or ".")


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
    run = keys.run_key(workspace)
    store = ResultCache.open(workspace.git_dir, GATE) if run is not None else None
    known = store.get(run) if store is not None and run is not None else None
    if (
        known is not None
        and all(path in known[1] for path in workspace.selected)
        and not keys.dependencies_changed(workspace, known[0])
    ):
        return [f for path in workspace.selected for f in known[1][path]]
    index = RepoIndex.build(workspace)
    documents = workspace.documents
    made = documents.made(GATE) if isinstance(documents, Documents) else {}
    # Anchors from the workers' summaries, or kept from an earlier run by content:
    # the documents they describe stay packed.
    index.known_anchors = {p: s.anchors for p, s in made.items() if isinstance(s, LinkSummary)}
    anchors = keys.anchor_cache(workspace)
    contents = documents.content_keys if isinstance(documents, Documents) else {}
    if anchors is not None:
        for path, key in contents.items():
            if path not in index.known_anchors and (kept := anchors.get(key)) is not None:
                index.known_anchors[path] = kept
    per_path: dict[str, tuple[Finding, ...]] = {}
    for path in workspace.selected:
        summary = made.get(path)
        if not isinstance(summary, LinkSummary):  # parsed here, or from the cache
            doc = documents.get(path)
            summary = summarize(doc, index) if doc is not None else None
            if summary is not None:
                index.known_anchors.setdefault(path, summary.anchors)
        per_path[path] = tuple(finish(summary, index)) if summary is not None else ()
    if anchors is not None:
        anchors.save({contents[p]: a for p, a in index.known_anchors.items() if p in contents})
    if store is not None and run is not None:
        dependencies = dict(known[0]) if known is not None else {}
        dependencies.update(index.extra_keys)
        earlier = known[1] if known is not None else {}
        store.put(run, tuple(sorted(dependencies.items())), {**earlier, **per_path})
    return [f for path in workspace.selected for f in per_path[path]]


