"""``docsync fix --gate links``: repair links broken by renames, moves and letter case.

A broken target is repaired only when there is exactly one answer: the one
tracked path that matches it in another letter case, or the one file git's
rename history says it became. A broken fragment is repaired when the target's
own history shows the heading it named renamed one-for-one into a heading that
exists now. Everything else stays a finding of the links
gate, with its "did you mean" candidates, for a person to decide. Edits go
through :func:`docsync.rewrite.references.rewrite_document`, which re-parses and
verifies that every rewritten link resolves to its intended target.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from ...errors import GitError
from ...model import Document, Finding, Heading
from ...parse.native import parse_bytes
from ...parse.slugs import site_heading_id
from ...parse.source import SourceError
from ...repository.commits import CommitChanges
from ...repository.git_history import read_blobs, read_history
from ...repository.history import rename_map, versions
from ...repository.plumbing import staged_renames
from ...rewrite.references import RewriteError, rewrite_document
from ...workspace.load import Workspace
from ...write.writer import FileWrite
from .check import link_targets, resolve_url
from .index import RepoIndex, anchors_of


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


class _History:
    """git history, read once and only when a repair needs it."""

    def __init__(self, workspace: Workspace) -> None:
        self._root = workspace.root
        self._commits: list[CommitChanges] | None = None
        self._renames: dict[str, str] | None = None

    def commits(self) -> list[CommitChanges]:
        if self._commits is None:
            try:
                self._commits = read_history(self._root)
            except GitError:
                # A shallow clone cannot say where files went; case fixes still apply.
                self._commits = []
        return self._commits

    def renames(self) -> Mapping[str, str]:
        """Committed renames (old path → path at HEAD), then those the index stages, so
        a ``git mv`` not yet committed is followed too (``a → b`` committed and ``b → c``
        staged give ``a: c`` and ``b: c``)."""
        if self._renames is None:
            staged = staged_renames(self._root)
            committed = {old: staged.get(new, new) for old, new in rename_map(self.commits()).items()}
            self._renames = {**committed, **staged}
        return self._renames

    def heading_versions(self, paths: Sequence[str]) -> dict[str, list[tuple[Section, ...]]]:
        """The sections of each version of each of ``paths``, newest first; the
        blobs of all of them read in one pass. A file with one version in
        history has no renamed heading to follow (:func:`follow_heading` needs
        an older version): its one version is not read."""
        wanted = {path: versions(self.commits(), path) for path in paths}
        wanted = {path: blobs for path, blobs in wanted.items() if len(blobs) > 1}
        every = [blob for blobs in wanted.values() for blob in blobs]
        contents = read_blobs(self._root, every) if every else {}
        found: dict[str, list[tuple[Section, ...]]] = {}
        for path, blobs in wanted.items():
            found[path] = []
            for blob in blobs:
                try:
                    found[path].append(sections(parse_bytes(path, contents[blob])))
                except (KeyError, SourceError):
                    break
        return found


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and the text under it, up to the next heading."""

    slug: str
    title: str
    body: str


def sections(doc: Document) -> tuple[Section, ...]:
    headings: tuple[Heading, ...] = doc.headings
    ends = [h.span.start for h in headings[1:]] + [len(doc.text)]
    return tuple(
        Section(h.slug, h.text, doc.text[h.span.end : end].strip())
        for h, end in zip(headings, ends, strict=True)
    )


def broken_fragments(doc: Document, index: RepoIndex) -> set[tuple[str, str]]:
    """(Markdown target, fragment) pairs ``doc`` links to that name no anchor there."""
    broken: set[tuple[str, str]] = set()
    for _, url in link_targets(doc):
        target = resolve_url(doc.path, url)
        if target is None or not target[1] or target[0] not in index.files:
            continue
        path, fragment = target
        known = anchors_of(path, index)
        markdown = path.lower().endswith((".md", ".markdown"))
        missing = markdown and known is not None and fragment.lower() not in (*known[0], "top")
        if missing and fragment.lower() not in _site_ids(index.document(path)):
            broken.add((path, fragment))
    return broken


def _site_ids(doc: Document | None) -> set[str]:
    """The ``{#id}`` ids a docs site gives ``doc``'s headings: a link to one is
    broken on GitHub but works on the site, so it is reported, never rewritten."""
    if doc is None:
        return set()
    return {found.lower() for h in doc.headings if (found := site_heading_id(h.text))}


def follow_heading(fragment: str, history: Sequence[tuple[Section, ...]]) -> str | None:
    """The current slug of the heading that had slug ``fragment`` in an older version.

    Headings are matched between consecutive versions by their text: an
    unchanged heading keeps its place, and a heading replaced one-for-one
    within a block of changed headings is the same heading renamed when the
    text under it stayed mostly the same. A heading that was deleted, split,
    or replaced by a new section has no single answer.
    """
    wanted = fragment.lower()
    start = next(
        (k for k, heads in enumerate(history) if any(h.slug == wanted for h in heads)), None
    )
    if start is None or start == 0:
        return None
    position = [h.slug for h in history[start]].index(wanted)
    for k in range(start, 0, -1):
        old, new = history[k], history[k - 1]
        moved = _carry(position, old, new)
        if moved is None:
            return None
        position = moved
    return history[0][position].slug


def _same_body(old: Section, new: Section) -> bool:
    if old.body == new.body:
        return True
    return SequenceMatcher(None, old.body, new.body).ratio() >= _SAME_BODY


_SAME_BODY = 0.6


def _carry(position: int, old: Sequence[Section], new: Sequence[Section]) -> int | None:
    """Where the section at ``position`` in ``old`` is in ``new``, if exactly one place fits."""
    matcher = SequenceMatcher(None, [h.title for h in old], [h.title for h in new])
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if not i1 <= position < i2:
            continue
        if tag == "equal":
            return j1 + (position - i1)
        fits = [j for j in range(j1, j2) if _same_body(old[position], new[j])]
        return fits[0] if len(fits) == 1 else None
    return None


def fragment_repairs(
    pairs: set[tuple[str, str]], history: _History
) -> dict[str, dict[str, str]]:
    repaired: dict[str, dict[str, str]] = {}
    if not pairs:
        return repaired
    by_path = history.heading_versions(sorted({p for p, _ in pairs}))
    for target, fragment in sorted(pairs):
        current = follow_heading(fragment, by_path.get(target, []))
        if current is not None:
            repaired.setdefault(target, {})[fragment] = current
    return repaired


def fix(workspace: Workspace) -> LinkFixResult:
    index = RepoIndex.build(workspace)
    documents = [workspace.documents[p] for p in workspace.selected if p in workspace.documents]
    history = _History(workspace)
    broken_by_doc = {doc.path: broken_targets(doc, index) for doc in documents}
    moves = repairs(set().union(*broken_by_doc.values()), index, history.renames)
    fragments_by_doc = {doc.path: broken_fragments(doc, index) for doc in documents}
    fragments = fragment_repairs(set().union(*fragments_by_doc.values()), history)
    writes: list[FileWrite] = []
    unfixable: list[Finding] = []
    for doc in documents:
        fixable_fragment = any(f in fragments.get(p, {}) for p, f in fragments_by_doc[doc.path])
        if not (broken_by_doc[doc.path] & moves.keys() or fixable_fragment):
            continue
        try:
            text, _ = rewrite_document(
                doc,
                old_path=doc.path,
                new_path=doc.path,
                moves=moves,
                fragments=fragments,
                ids={},
                exists=lambda p: _exists(index, p),
            )
        except RewriteError as error:
            unfixable.append(_not_fixed(doc, error))
            continue
        if text != doc.text:
            writes.append(FileWrite(doc.path, text, doc.newline, doc.bom))
    return LinkFixResult(tuple(writes), tuple(unfixable))


def _not_fixed(doc: Document, error: RewriteError) -> Finding:
    """The file reported, not written: its repair failed verification (for
    instance GitHub would render it differently)."""
    return Finding(
        "links", "L900", doc.path, 1, 1,
        f"links left as they were: {error.reason}; repair them by hand",
    )
