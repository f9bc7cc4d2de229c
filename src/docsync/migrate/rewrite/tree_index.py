"""The new tree's index: the legacy indexes' prose carried over, the generated listing.

A legacy index keeps its prose (its title demoted to a section heading, its
listing of records dropped), rewritten for the new index's folder. An index
the target already holds keeps everything around its generated block.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence

from ...gates.links.check import link_targets, resolve_url
from ...model import BlockKind, Document
from ...parse.native import parse
from ...records.index import BEGIN, default_title, render_index
from ...records.model import Record
from ...records.relations import Edge
from ...write.writer import FileWrite
from ..model import Plan
from ..read.discover import LegacyRecord
from ..read.repo_view import RepoView
from .markdown_rewrite import rewrite_markdown
from .routes import Routes, index_path
from .stats import Tally


def _listing_lines(doc: Document, record_paths: frozenset[str]) -> set[int]:
    """Lines of the legacy index's generated listing: tables and list items linking to records."""
    linking = {
        link.line
        for link, url in link_targets(doc)
        if (found := resolve_url(doc.path, url)) is not None and found[0] in record_paths
    }
    lines: set[int] = set()
    for block in doc.blocks:
        span = range(block.lines.first, block.lines.last + 1)
        if block.kind == BlockKind.TABLE and linking.intersection(span):
            lines.update(span)
    for paragraph in doc.paragraphs:
        span = range(paragraph.lines.first, paragraph.lines.last + 1)
        if "list" in paragraph.containers and linking.intersection(span):
            lines.update(span)
    return lines


def carried_prose(doc: Document, record_paths: frozenset[str], index_title: str) -> str:
    """A legacy index without its listing of records, its title demoted to a section heading.

    A title equal to the new index's title is dropped; the result is empty
    when nothing but headings would be left.
    """
    drop = _listing_lines(doc, record_paths)
    title = next((h for h in doc.headings if h.level == 1), None)
    if title is not None and title.text.strip().lower() == index_title.lower():
        drop |= set(range(title.line, doc.position(title.span.end)[0] + 1))
        title = None
    lines = [
        _demoted(doc.line_text(n), n, title.line if title else 0)
        for n in range(1, doc.line_count + 1)
        if n not in drop
    ]
    if all(not line.strip() or line.lstrip().startswith("#") for line in lines):
        return ""
    return _squeeze_blank_lines("\n".join(lines))


_ATX_H1 = re.compile(r"^( {0,3})#(?=[ \t]|$)")
_SETEXT_H1 = re.compile(r"^ {0,3}=+[ \t]*$")


def _demoted(line: str, number: int, title_line: int) -> str:
    if number == title_line:
        return _ATX_H1.sub(r"\1##", line)
    if number == title_line + 1 and _SETEXT_H1.match(line):
        return line.replace("=", "-")
    return line


def _squeeze_blank_lines(text: str) -> str:
    out: list[str] = []
    for line in text.split("\n"):
        if not line.strip() and out and not out[-1].strip():
            continue
        out.append(line)
    return "\n".join(out).strip("\n") + "\n"


def _carried(
    plan: Plan, records: Mapping[str, LegacyRecord], view: RepoView, routes: Routes, tally: Tally
) -> list[str]:
    """The prose of every legacy index, rewritten for the new index's folder."""
    carried: list[str] = []
    # The target's own legacy index first: its prose is the tree's introduction.
    for path in sorted(plan.indexes, key=lambda p: posixpath.dirname(p) != plan.target):
        doc = view.documents.get(path)
        prose = carried_prose(doc, frozenset(records), default_title(plan.target)) if doc else ""
        if prose:
            rewritten = rewrite_markdown(parse(path, prose), index_path(plan), routes, tally)
            carried.append((rewritten.text if rewritten is not None else prose).strip("\n"))
    return carried


def index_write(
    plan: Plan,
    records: Mapping[str, LegacyRecord],
    view: RepoView,
    routes: Routes,
    tally: Tally,
    edges: Sequence[Edge] = (),
) -> FileWrite:
    target_index = index_path(plan)
    carried = _carried(plan, records, view, routes, tally)
    former = _former(plan)
    existing = None
    if target_index not in plan.indexes and target_index in view.documents:
        existing = _with_carried(view.documents[target_index].text, carried)
        former = {**view.former, **former}
        carried = []
    records_now = all_records(plan, view)
    text = render_index(
        plan.target, records_now, view.states, former, existing, "\n\n".join(carried), edges=edges
    )
    return FileWrite(target_index, text)


def _with_carried(existing: str, carried: Sequence[str]) -> str:
    if not carried:
        return existing
    at = existing.find(BEGIN)
    prose = "\n\n".join(c.strip("\n") for c in carried) + "\n\n"
    if at == -1:
        return existing.rstrip("\n") + "\n\n" + prose
    return existing[:at] + prose + existing[at:]


def all_records(plan: Plan, view: RepoView) -> list[Record]:
    new = [
        Record(t.path, t.title, t.state, t.date, t.slug, tuple(str(i) for i in t.ids), t.detail)
        for t in plan.topics
        if t.date is not None
    ]
    paths = {r.path for r in new}
    return new + [r for r in view.tree if r.path not in paths]


def _former(plan: Plan) -> dict[str, str]:
    former: dict[str, str] = {}
    for topic in plan.topics:
        former.update((str(i), topic.path) for i in topic.ids)
        former.update((p, topic.path) for p in topic.files)
    for retirement in plan.retirements:
        for record_id, slug in retirement.ids.items():
            found = plan.topic(slug)
            if found is not None:
                former.setdefault(str(record_id), found.path)
                if record_id.part is None:
                    former.setdefault(retirement.source, found.path)
    return former

