"""The kind of a tree's ids when its names do not say it: how the repository's prose names them.

``text/0042-x.md`` says nothing of a kind, and neither does ``design/31415-x.md``;
``TEXT 0042`` and ``DESIGN 31415`` are no one's words. The prose is: ``RFC 42``,
``proposal 31415``. The word written before the tree's own record numbers, for the most
records, is the kind. Words that name other things by number (``issue 42``, ``PR 42``,
``step 3``) are passed over. When no word names two of the tree's records (or its one
record), the kind cannot be told: the dry run asks for it, once per tree.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace

from ...config import Source
from ...model import Document
from .discover import Tree, find_trees, named_kind, record_paths, source_of
from .folders import tree_names

_MENTION = re.compile(r"\b(?P<word>[A-Za-z][A-Za-z]{1,9})[ \t]?[-#]?[ \t]?0*(?P<number>\d{1,5})\b")
# Words written before numbers that are not a record's kind.
_NOT_KINDS = frozenset(
    {"issue", "issues", "pr", "prs", "pull", "request", "step", "steps", "page", "line", "lines",
     "version", "part", "section", "chapter", "figure", "table", "item", "option", "phase",
     "stage", "level", "go", "python", "node", "java", "rust", "v", "vs", "the", "and", "of",
     "in", "to", "from", "since", "at", "on", "by", "for", "with", "is", "was", "see", "top",
     "over", "about", "than", "year", "years", "day", "days", "week", "weeks", "month", "months",
     "commit", "ticket", "bug", "jira", "case", "test", "example", "number", "no", "nr", "id"}
)  # fmt: skip


def prose_kind(
    numbers: Mapping[int, str], documents: Iterable[Document], taken: Collection[str] = ()
) -> str | None:
    """The word the prose writes before the tree's record ``numbers`` (each with its slug),
    upper case; None when no word names two of them (one, for a tree of one record). A word
    of the record's own slug is its title's (``Idea 42`` of ``0042-idea-42.md``), no kind, and
    a kind another tree of the repository has (``taken``: ``ADR 1`` names ``docs/adr``'s) is its."""
    wanted = {n: set(slug.split("-")) for n, slug in numbers.items()}
    skipped = _NOT_KINDS | {kind.lower() for kind in taken}
    if not wanted:
        return None
    named: defaultdict[str, set[int]] = defaultdict(set)
    mentions: defaultdict[str, int] = defaultdict(int)
    for doc in documents:
        for match in _MENTION.finditer(doc.text):
            word, number = match.group("word").lower(), int(match.group("number"))
            if number in wanted and word not in skipped and word not in wanted[number]:
                named[word].add(number)
                mentions[word] += 1
    enough = min(2, len(wanted))
    found = [(len(n), mentions[w], w) for w, n in named.items() if len(n) >= enough]
    return max(found)[2].upper() if found else None


def with_kinds(
    trees: Sequence[Tree], paths: Sequence[str], documents: Mapping[str, Document], sources: Sequence[Source]
) -> tuple[tuple[Tree, ...], tuple[Tree, ...]]:
    """``trees``, each with the kind its names say, its source sets, or its prose writes; and the
    trees whose kind none of them tells (they keep the folder's word until it is set)."""
    configured = {s.path.strip("/") for s in sources if s.kind}
    # A tree below a source that says its kind has that kind (see :func:`.discover.source_of`).
    configured |= {t.path for t in trees if (i := source_of(t.path, sources)) is not None and sources[i].kind}
    named = {tree.path for tree in trees if tree.path in configured or _named(tree, paths)}
    # Every other tree's kind is taken, configured or not (``ADR 1`` names docs/adr's record).
    others = find_trees(paths, ()) if sources else ()
    taken = {tree.kind for tree in trees if tree.path in named} | {t.kind for t in others if _named(t, paths)}
    told: list[Tree] = []
    unknown: list[Tree] = []
    for tree in trees:
        if tree.path in named:
            told.append(tree)
            continue
        # Category letters (``A1``) are their ids' kinds: nothing is left for the prose to tell.
        numbers = {rid.number: slug for _, rid, slug in record_paths(tree, paths) if rid is not None and len(rid.kind) > 1}
        kind = prose_kind(numbers, documents.values(), taken) if numbers else None
        if kind is None and numbers:
            unknown.append(tree)
        told.append(replace(tree, kind=kind) if kind else tree)
    return tuple(told), tuple(unknown)


def _named(tree: Tree, paths: Sequence[str]) -> bool:
    return named_kind(tree.path, tree_names(tree.path, paths)) is not None


def kind_question(tree: Tree) -> str:
    """What the dry run asks of a tree whose kind cannot be told, and the key that answers it."""
    return (
        f"the kind of its ids is not told by its names nor by the prose (no 'RFC 42' naming its "
        f"records); set it in the config: sources = [{{ path = \"{tree.path}\", kind = \"RFC\" }}] "
        f"(until then: {tree.kind})"
    )
