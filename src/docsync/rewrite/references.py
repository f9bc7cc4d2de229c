"""Rewrite references when files move: link destinations, fragments and bare ids.

Pure functions: a parsed document (or plain text) and a description of the
moves come in, new text comes out. Nothing here reads the disk or git, so the
migrate planner can compute every rewrite before anything is written, and
``docsync fix`` can reuse the same code for the refs gate.

Every rewrite is a list of :class:`~docsync.model.Edit` spans spliced into
the original text, so every byte that is not part of an intended change is
kept. The result is re-parsed and compared with the input before it is
returned: the block structure must be the same, the number of links must
have grown by exactly the number of ids turned into links, and every link
must resolve to where the corresponding old link pointed (after the moves),
and the page GitHub renders (cmark-gfm, see :mod:`docsync.parse.render`) must keep
every element and attribute but the links' targets and text.
A mismatch raises :class:`RewriteError` instead of returning text that would
silently point somewhere else.

Bare ids are linked only in prose: paragraph lines (in lists, quotes and
footnotes too), table rows and headings. In a heading the id stays the
link's text, because changing a heading's text changes its slug and would
break every ``#fragment`` pointing at it. Code spans, code blocks,
HTML (blocks, tags, and the content of ``<a>``/``<code>``-like elements),
front matter, autolinks, images, reference definitions and the text of links
that say more than the id are never touched either, nor are formulas (``$…$``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from urllib.parse import unquote

from ..errors import DocsyncError
from ..gates.links.check import link_targets
from ..model import Definition, Document, Edit, Link, Span, apply_edits
from ..parse.native import parse
from ..parse.render import github_structure
from ..records.model import IdTarget
from .destinations import (
    Destination,
    Moves,
    expected_target,
    locate,
    planned,
    relative_destinations,
    reliable_span,
    unquoted,
)
from .front_matter import front_matter_destinations, front_matter_raw, holds_as_written
from .ids import IdKey
from .prose_ids import prose_id_edits


class RewriteError(DocsyncError):
    """A rewrite failed its own verification; the text was not returned.

    Either a docsync bug or text whose rewrite GitHub would render otherwise
    than intended; ``fix`` reports the file (L900), ``migrate`` lists it as a
    plan problem, and ``move`` refuses with the reason (exit 2), writing nothing.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: refusing to rewrite: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True, slots=True)
class RewriteStats:
    """What one rewrite changed.

    ``unresolved`` lists bare ids of a known kind that name no record (``RFC
    2119``), as written, once each. ``dangling`` lists relative link
    destinations (as written in the result) whose target ``exists`` denies,
    so the planner can report links that will not resolve after migration.
    """

    links: int
    refs: int
    unresolved: tuple[str, ...]
    dangling: tuple[str, ...] = ()


_Expected = dict[Span, tuple[str, str]]


def _link_edits(
    doc: Document, moves: Moves, destinations: list[Destination]
) -> tuple[list[Edit], _Expected]:
    """The edits of ``destinations``, and where each must lead after the rewrite (by span,
    for :func:`_verify`): both read from one :func:`planned`."""
    edits: list[Edit] = []
    expected: _Expected = {}
    for dest in destinations:
        new_raw, target = planned(dest, moves)
        expected[dest.span] = target
        if new_raw is None or new_raw == dest.raw:
            continue
        edits.append(_verified(doc, dest, new_raw, dest.url(new_raw), moves.new_path, target))
    return edits, expected


def _verified(
    doc: Document, dest: Destination, new_raw: str, url: str, new_path: str,
    expected: tuple[str, str], *, where: str = "", readable: bool = True,
) -> Edit:
    """The edit of ``dest`` to ``new_raw``, once ``url`` (what it reads as, from ``new_path``)
    is proven to reach ``expected`` (:func:`expected_target`, the target the old
    destination reached), and the text around reads ``new_raw`` as written (``readable``);
    a :class:`RewriteError` otherwise."""
    resolved = locate(new_path, url)
    got = None if resolved is None else (resolved[0], unquote(resolved[1]))
    if not readable or got != expected:
        raise RewriteError(
            doc.path, f"{where}'{dest.raw}' rewritten to '{new_raw}' would resolve to {got}"
        )
    return Edit(dest.span, new_raw)


def _front_matter_edits(doc: Document, moves: Moves) -> list[Edit]:
    """Paths in the front matter's values, rewritten by the rule of links (see
    :mod:`docsync.rewrite.front_matter`); only their characters change."""
    edits: list[Edit] = []
    for dest, bare in front_matter_destinations(doc):
        new_raw = front_matter_raw(dest, bare, moves)
        if new_raw is None:
            continue
        edits.append(
            _verified(
                doc, dest, new_raw, new_raw, moves.new_path, expected_target(dest, moves),
                where="front matter ", readable=holds_as_written(new_raw),
            )
        )
    return edits


# --------------------------------------------------------------------------- verification


_Targets = list[tuple[Link | Definition, str]]
_Located = list[tuple[Link | Definition, str, tuple[str, str] | None]]


def _located(doc: Document, source: str) -> _Located:
    """Every destination of ``doc``, its URL and where it leads from ``source`` (None: an
    unreliable span, or a URL that names no repository path); read once for both the
    verification and the dangling links."""
    return [
        (item, url, locate(source, url) if reliable_span(doc, item) else None)
        for item, url in link_targets(doc)
    ]


def _resolved_targets(located: _Located) -> Counter[tuple[str, str]]:
    """Every destination as (repository path, decoded fragment), or ("url", raw)."""
    return Counter(
        ("url", url) if resolved is None else (resolved[0], unquoted(resolved[1]))
        for _item, url, resolved in located
    )


def _expected_targets(
    targets: _Targets, id_targets: list[str], expected_by_span: _Expected
) -> Counter[tuple[str, str]]:
    """Where each of ``targets`` (the document's before the rewrite) must lead after it
    (``expected_by_span``: its relative destinations', :func:`_link_edits`)."""
    expected: Counter[tuple[str, str]] = Counter()
    for item, url in targets:
        target = expected_by_span.get(item.dest_span) if item.dest_span is not None else None
        expected[("url", url) if target is None else target] += 1
    expected.update((path, "") for path in id_targets)
    return expected


def _block_shape(doc: Document) -> tuple[object, ...]:
    """Blocks and paragraphs by kind and lines: edits never add or remove a line break."""
    return (doc.blocks, tuple((p.lines, p.containers) for p in doc.paragraphs))


def _verify(
    before: Document,
    after: Document,
    moves: Moves,
    id_links: list[str],
    targets: _Targets,
    expected: _Expected,
) -> _Located:
    """Raises :class:`RewriteError` unless ``after`` is ``before`` rewritten as intended
    (``targets``: ``before``'s link targets, ``expected``: where its relative ones must
    lead, by span); returns
    ``after``'s destinations located from its new path, read on the way."""
    path = before.path
    if len(after.links) != len(before.links) + len(id_links):
        raise RewriteError(
            path, f"expected {len(before.links) + len(id_links)} links, got {len(after.links)}"
        )
    if len(after.definitions) != len(before.definitions):
        raise RewriteError(path, "the number of reference definitions changed")
    located = _located(after, moves.new_path)
    got = _resolved_targets(located)
    want = _expected_targets(targets, id_links, expected)
    if got != want:
        wrong = sorted((got - want).elements())[:3]
        raise RewriteError(path, f"links would resolve to unintended targets: {wrong}")
    if _block_shape(before) != _block_shape(after):
        raise RewriteError(path, "the block structure of the document would change")
    if github_structure(before.text) != github_structure(after.text):
        raise RewriteError(path, "GitHub would render the document differently (cmark-gfm)")
    return located


# --------------------------------------------------------------------------- entry point


def rewrite_document(
    doc: Document,
    *,
    old_path: str,
    new_path: str,
    moves: Mapping[str, str],
    fragments: Mapping[str, Mapping[str, str]],
    ids: Mapping[IdKey, IdTarget],
    exists: Callable[[str], bool],
) -> tuple[str, RewriteStats]:
    """The text ``doc`` (parsed at ``old_path``) must have to live at ``new_path``.

    ``moves`` maps old repository paths to new ones (files or folders);
    ``fragments`` maps a file's old path to its renamed heading slugs (old →
    new); ``ids`` maps id keys to the records they now name; ``exists`` says
    whether a repository path exists after the moves (to report ``dangling``
    links, and to leave a link that was broken before as written). Raises
    :class:`RewriteError` when the result fails verification.
    """
    after, stats = rewrite_parsed(
        doc,
        old_path=old_path,
        new_path=new_path,
        moves=moves,
        fragments=fragments,
        ids=ids,
        exists=exists,
    )
    return after.text, stats


def rewrite_parsed(
    doc: Document,
    *,
    old_path: str,
    new_path: str,
    moves: Mapping[str, str],
    fragments: Mapping[str, Mapping[str, str]],
    ids: Mapping[IdKey, IdTarget],
    exists: Callable[[str], bool],
) -> tuple[Document, RewriteStats]:
    """:func:`rewrite_document`'s result as the document it parsed to verify it, at ``new_path``."""
    if doc.path != old_path:
        raise ValueError(f"document was parsed at {doc.path!r}, not at old_path {old_path!r}")
    context = Moves(old_path, new_path, moves, fragments, exists)
    targets = list(link_targets(doc))
    destinations = list(relative_destinations(doc, targets))
    link_edits, expected = _link_edits(doc, context, destinations)
    link_edits += _front_matter_edits(doc, context)
    id_edits, unresolved, id_links = prose_id_edits(doc, new_path, ids, context.led_to)
    edits = link_edits + id_edits
    # Unchanged text parses the same; only where it lives differs (the parser never reads it).
    if edits:
        text = apply_edits(doc.text, edits)
        after = parse(new_path, text, doc.newline, doc.bom)
    else:
        after = replace(doc, path=new_path) if old_path != new_path else doc
    if edits or old_path != new_path:
        located = _verify(doc, after, context, id_links, targets, expected)
    else:
        located = _located(after, new_path)
    stats = RewriteStats(
        links=len(link_edits),
        refs=len(id_edits),
        unresolved=tuple(unresolved),
        dangling=tuple(_dangling(after, located, exists)),
    )
    return after, stats


def _dangling(doc: Document, located: _Located, exists: Callable[[str], bool]) -> Iterator[str]:
    for item, url, resolved in located:
        if resolved is not None and resolved[0] and not exists(resolved[0]):
            yield doc.text[item.dest_span.start : item.dest_span.end] if item.dest_span else url
