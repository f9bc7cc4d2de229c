"""The links gate's fragment checks: a ``#fragment`` against its target's anchors.

A fragment into the linking document itself (or a file without anchors)
is decided while that document is summarized; one into another Markdown
document waits, as a pending item, for that document's anchors.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ...model import Document, Finding, constructor
from .index import MARKDOWN, RepoIndex, anchors_of

GATE = "links"
LINE_ANCHOR = re.compile(r"^L\d+(?:C\d+)?(?:-L\d+(?:C\d+)?)?$")



@dataclass(frozen=True, slots=True)
class Target:
    """One destination to verify, from a link or a definition."""

    raw: str
    url: str
    line: int
    column: int
    image: bool


Pending = tuple[str, int, int, str, str]
"""A fragment check that needs another document's anchors: (raw, line, column, target path, fragment)."""


_new_finding = constructor(Finding)  # a file may hold 100,000 broken links


def finding(source: str, target: Target, rule: str, message: str, suggestion: str | None = None) -> Finding:
    text = f"{message} (did you mean '{suggestion}'?)" if suggestion else message
    return _new_finding(GATE, rule, source, target.line, target.column, text, suggestion)


_USER_CONTENT = "user-content-"


def fragment_check(
    doc: Document, target: Target, path: str, fragment: str, index: RepoIndex
) -> Sequence[Finding | Pending]:
    """The fragment check now when ``doc`` and the listing decide it, else pending."""
    if fragment == "" or fragment.lower() == "top":
        return []
    known = _local_anchors(doc, path, index)
    if known is None:
        return [(target.raw, target.line, target.column, path, fragment)]
    return _fragment_findings(doc.path, target, path, fragment, known, index)


def _local_anchors(doc: Document, path: str, index: RepoIndex) -> tuple[dict[str, str], bool] | None:
    """:func:`anchors_of` when it needs no document but ``doc``; None when it does."""
    if path in index.symlinks:
        return {}, False
    if path in index.dirs and path not in index.files:
        return None
    if path.lower().endswith(MARKDOWN):
        return (index.own_anchors(doc), False) if path == doc.path else None
    return {}, True


def check_fragment(source: str, target: Target, path: str, fragment: str, index: RepoIndex) -> list[Finding]:
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
    source: str, target: Target, path: str, fragment: str, known: tuple[dict[str, str], bool], index: RepoIndex
) -> list[Finding]:
    anchors, line_numbers = known
    if fragment.lower().startswith(_USER_CONTENT) and fragment.lower() not in anchors:
        fragment = fragment[len(_USER_CONTENT) :]  # the id as GitHub writes it
    if LINE_ANCHOR.match(fragment):
        if line_numbers:
            return []
        if fragment.lower() not in anchors:
            return [finding(source, target, "L011", f"'#{fragment}' is a line anchor, but GitHub renders Markdown without line numbers (link to the heading instead)")]
    exact = anchors.get(fragment.lower())
    if exact is not None:
        if index.workspace.config.strict_fragments and exact != fragment:
            return [finding(source, target, "L007", f"'#{fragment}' matches '#{exact}' only in letter case", _with_fragment(target.raw, exact))]
        return []
    where = "this file" if path == source else f"'{path or '/'}'"
    close = index.closest_anchor(path, anchors, fragment.lower())
    if close is not None:
        suggestion = _with_fragment(target.raw, anchors[close])
        return [finding(source, target, "L006", f"'#{fragment}' names no heading or anchor in {where}", suggestion)]
    return [finding(source, target, "L006", f"'#{fragment}' names no heading or anchor in {where}; {_anchor_list(anchors)}")]


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
