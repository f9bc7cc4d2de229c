"""Gate ``layout``'s check: every record in a lifecycle folder, named
``yyyy-mm-dd-slug.md``, with one status that matches its folder; one slug per
topic; the index, the conventions doc and the relations as they should be.

It reads only Markdown the workspace already parsed.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from ...model import Document, Finding
from ...records import conventions
from ...records.index import IndexMarkersError
from ...records.status_lines import StatusLine, status_lines
from ...records.tree import Tree, TreeFile, whole_repository
from ..rules import finding
from .relations import check_relations

_STATUS_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")


def _placement(tree: Tree, file: TreeFile) -> Iterator[Finding]:
    folders = ", ".join(f"{tree.target}/{f}/" for f in tree.config.states.values())
    if file.state is None:
        yield finding(
            "Y001",
            file.path,
            1,
            1,
            f"record is not in a lifecycle folder; move it into one of {folders}",
        )
    name = posixpath.basename(file.path)
    if file.slug is None or not file.name_ok:
        day = file.day.isoformat() if file.day else "yyyy-mm-dd"
        hint = f"{day}-{_suggested_slug(file.slug or name.removesuffix('.md'))}"
        yield finding(
            "Y002",
            file.path,
            1,
            1,
            f"'{name}' is not named yyyy-mm-dd-slug.md (lowercase ASCII words joined by '-'); rename it, e.g. to {hint}.md (the date: when the topic was first proposed)",
        )
    elif file.day is None:
        yield finding(
            "Y003",
            file.path,
            1,
            1,
            f"'{name[:10]}' is not a real date; rename the file with the date the topic was first proposed",
        )


def _suggested_slug(text: str) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower().encode("ascii", "ignore").decode())
    return "-".join(words) or "topic"


def _in_preamble(doc: Document, lines: list[StatusLine]) -> list[StatusLine]:
    """The status lines above the record's first section: a ``Status:`` line inside a
    section (a history of transitions, a merged record's old header) is prose."""
    sections = [doc.position(h.span.start)[0] for h in doc.headings if h.level > 1]
    first_section = min(sections, default=doc.line_count + 1)
    return [line for line in lines if line.line < first_section]


def _status(tree: Tree, file: TreeFile, doc: Document) -> Iterator[Finding]:
    lines = status_lines(doc)
    states = tree.config.states
    example = f"Status: {file.state or next(iter(states), 'proposed')}"
    if not lines:
        yield finding(
            "Y004",
            file.path,
            1,
            1,
            f"no 'Status:' line; add one under the title, e.g. '{example}'",
        )
        return
    for extra in _in_preamble(doc, lines[1:]):
        yield finding(
            "Y005",
            file.path,
            extra.line,
            extra.column,
            f"second 'Status:' line (first at line {lines[0].line}); keep one",
        )
    first = lines[0]
    word_match = _STATUS_WORD.match(first.value)
    word = word_match.group(0).lower() if word_match else ""
    state = tree.config.statuses.get(word)
    if state is None:
        yield finding(
            "Y006",
            file.path,
            first.line,
            first.column,
            f"status '{first.value}' maps to no lifecycle state; start it with a state ({', '.join(states)}) or add the word to [statuses] in the config",
        )
    elif file.state is not None and state != file.state:
        folder = f"{tree.target}/{states.get(state, state)}/"
        yield finding(
            "Y007",
            file.path,
            first.line,
            first.column,
            f"status '{word}' means {state}, but the record is in the {file.state} folder; git mv it into {folder} or correct the status",
        )


def _duplicate_slugs(tree: Tree) -> Iterator[Finding]:
    by_slug: dict[str, list[str]] = {}
    for file in tree.files:
        if file.slug is not None and file.name_ok:
            by_slug.setdefault(file.slug, []).append(file.path)
    for slug, paths in sorted(by_slug.items()):
        for path in paths[1:]:
            yield finding(
                "Y008",
                path,
                1,
                1,
                f"slug '{slug}' is also used by {paths[0]}; merge the records or give one a more specific slug",
            )


def _index(tree: Tree) -> Iterator[Finding]:
    current = tree.index_text
    try:
        wanted = tree.rendered_index()
    except IndexMarkersError as exc:
        yield finding(
            "Y010",
            tree.index_path,
            1,
            1,
            f"{exc}; repair the markers so docsync can find its generated part",
        )
        return
    if current is None:
        yield finding(
            "Y009",
            tree.index_path,
            1,
            1,
            "the record tree has no index; run 'docsync fix' to generate it",
        )
    elif current != wanted:
        line = _first_difference(current, wanted)
        yield finding(
            "Y009",
            tree.index_path,
            line,
            1,
            "the index does not list the records as they are; run 'docsync fix' to regenerate it",
        )


def _first_difference(a: str, b: str) -> int:
    for number, (x, y) in enumerate(zip(a.split("\n"), b.split("\n"), strict=False), start=1):
        if x != y:
            return number
    return min(a.count("\n"), b.count("\n")) + 1


def _touches_tree(tree: Tree) -> bool:
    prefix = tree.target + "/"
    return whole_repository(tree.workspace) or any(
        p.startswith(prefix) for p in tree.workspace.selected
    )


def check_layout(tree: Tree) -> list[Finding]:
    selected = set(tree.workspace.selected)
    findings: list[Finding] = []
    for file in tree.files:
        if file.path not in selected or file.path in tree.companions or file.path in tree.pages:
            continue
        findings.extend(_placement(tree, file))
        doc = tree.workspace.documents.get(file.path)
        if doc is not None:
            findings.extend(_status(tree, file, doc))
    if _touches_tree(tree):
        findings.extend(check_relations(tree, selected))
        findings.extend(_duplicate_slugs(tree))
        findings.extend(_index(tree))
    if conventions.selected(tree):
        findings.extend(conventions.check(tree))
    return findings
