"""Every file a plan changes, computed in memory before anything is written.

A :class:`ChangeSet` holds the pure moves (``git mv``: each topic's oldest
whole source to its new path), the removals (merged-away sources, retired
records, legacy indexes), and the new text of every file: each topic's
record, every other Markdown file whose links or bare ids change, non-
Markdown text files whose bare ids change (``code_refs = "path"``), and the
tree's index. The dry run shows its counts; :mod:`.apply` writes it.

References are rewritten by :func:`docsync.rewrite.references.rewrite_document`, which
verifies each result by re-parsing it. A link into a section that became a
record of its own (a split, or a part of a retired umbrella) is first
pointed at that record here, since the rewriter's moves are per file.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from urllib.parse import unquote

from ..config import DEFAULT_RELATIONS
from ..gates.links.check import link_targets, markdown_url, resolve_url
from ..model import BlockKind, Document, Edit, apply_edits
from ..parse.markdown import parse
from ..records.index import INDEX_NAMES, default_title, render_index
from ..records.model import IdTarget, Record, RecordId, parse_id
from ..records.relations import Edge
from ..rewrite.references import (
    IdKey,
    RewriteError,
    RewriteStats,
    program_text_ids,
    rewrite_code_text,
    rewrite_document,
)
from ..workspace.load import matches
from ..write.writer import FileWrite
from .assemble import Assembled, assemble, join_chunks
from .discover import LegacyRecord, part_id
from .model import Plan, Problem, Retirement, Topic
from .relations import Related, relate

MARKDOWN_SUFFIXES = (".md", ".markdown")


@dataclass(frozen=True)
class RepoView:
    """What computing changes reads from the repository."""

    documents: Mapping[str, Document]
    tracked: frozenset[str]
    read_text: Callable[[str, Sequence[bytes]], str | None]
    """A text file as stored, or None (binary, too large, or holding none of the needles)."""
    states: Mapping[str, str]
    code_refs: bool = True
    code_everywhere: bool = False
    """``code_refs = "all"``: ids in a program's strings and code are rewritten too, not only in comments."""
    relations: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_RELATIONS))
    tree: tuple[Record, ...] = ()
    former: Mapping[str, str] = field(default_factory=dict)
    exempt: frozenset[str] = frozenset()
    refs_exclude: tuple[str, ...] = ()
    """Globs the refs gate does not read (test fixtures): their Markdown links follow the
    moves; the paths and ids they name (records of the repository a test builds) stay."""
    excluded: Mapping[str, Document] = field(default_factory=dict)
    """Markdown files config keeps out of the gates: their links into moved
    files are kept working, and nothing else in them changes."""


@dataclass(frozen=True, slots=True)
class Stats:
    links: int = 0
    refs: int = 0
    code_refs: int = 0
    code_paths: int = 0
    unresolved: tuple[tuple[str, str], ...] = ()
    dangling: tuple[tuple[str, str], ...] = ()
    """Links the migration breaks: their target existed before and does not after."""
    outside: tuple[str, ...] = ()
    already_broken: int = 0
    """Links whose target did not exist before the migration either (``docsync check`` reports them)."""
    tool_pointers: tuple[str, ...] = ()
    """Another tool's config that points at a legacy tree: where, and the line to change."""
    relation_notes: tuple[tuple[str, str], ...] = ()
    """Relation prose left as written (its target is no record, or it is no relation)."""
    code_kept: tuple[tuple[str, str], ...] = ()
    """Ids of records in program strings and code, left as written: ``path:line:column`` and the id."""


@dataclass(frozen=True)
class ChangeSet:
    moves: tuple[tuple[str, str], ...] = ()
    removals: tuple[str, ...] = ()
    writes: tuple[FileWrite, ...] = ()
    stats: Stats = field(default_factory=Stats)
    problems: tuple[Problem, ...] = ()
    untracked: frozenset[str] = frozenset()
    adoption_record: str | None = None
    conventions: str | None = None

    @property
    def empty(self) -> bool:
        return not (self.moves or self.removals or self.writes)

    @property
    def to_stage(self) -> list[str]:
        """Written files git should track: everything but untracked files whose links changed."""
        return [w.path for w in self.writes if w.path not in self.untracked]

    @property
    def touched(self) -> tuple[str, ...]:
        """Every path the change set creates, changes or removes."""
        paths = [p for move in self.moves for p in move] + list(self.removals)
        paths += [w.path for w in self.writes]
        return tuple(dict.fromkeys(paths))


# --------------------------------------------------------------------------- routes


@dataclass(frozen=True)
class Routes:
    """Where every old path, heading and id leads after the migration."""

    moves: Mapping[str, str]
    fragments: Mapping[str, Mapping[str, str]]
    redirects: Mapping[tuple[str, str], tuple[str, str]]
    ids: Mapping[IdKey, IdTarget]
    after: frozenset[str]
    before: frozenset[str] = frozenset()

    def exists(self, path: str) -> bool:
        return path in self.after


def index_path(plan: Plan) -> str:
    return posixpath.join(plan.target, INDEX_NAMES[0])


@dataclass
class _RouteBuilder:
    """Collects where old files, headings and sections lead, topic by topic."""

    plan: Plan
    assembled: Mapping[str, Assembled]
    moves: dict[str, str] = field(default_factory=dict)
    fragments: dict[str, dict[str, str]] = field(default_factory=dict)
    redirects: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)

    def topic(self, topic: Topic) -> None:
        """A whole source moves to the topic; a section's links are pointed at it."""
        for chunk in self.assembled[topic.slug].chunks[1:]:
            if chunk.section is None:
                self.moves[chunk.old_path] = topic.path
                self.fragments[chunk.old_path] = dict(chunk.renames)
            else:
                for old, new in chunk.renames.items():
                    self.redirects[(chunk.old_path, old)] = (topic.path, new)

    def dropped(self, retirement: Retirement, record: LegacyRecord) -> None:
        """Links into a dropped umbrella go to its whole id's topic; its parts to theirs."""
        rid = record.record_id
        whole = self.plan.topic(retirement.ids.get(rid, "") if rid is not None else "")
        if whole is None:
            return
        self.moves[record.path] = whole.path
        title = self.assembled[whole.slug].title_slug
        self.fragments[record.path] = {h.slug: title for h in record.doc.headings}
        for heading, record_id in _part_headings(record):
            topic = self.plan.topic(retirement.ids.get(record_id, ""))
            if topic is not None:
                target = (topic.path, self.assembled[topic.slug].title_slug)
                self.redirects.setdefault((record.path, heading), target)


def _routes(
    plan: Plan,
    assembled: Mapping[str, Assembled],
    records: Mapping[str, LegacyRecord],
    view: RepoView,
) -> Routes:
    builder = _RouteBuilder(plan, assembled)
    for topic in plan.topics:
        builder.topic(topic)
    for retirement in plan.retirements:
        if retirement.keep_in is None and retirement.source in records:
            builder.dropped(retirement, records[retirement.source])
    moves = builder.moves
    moves.update((p, index_path(plan)) for p in plan.indexes if p != index_path(plan))
    after = _after(plan, moves, view.tracked)
    moves.update(_emptied_folders(plan, records, after))
    ids = _id_targets(plan, view)
    before = _with_folders(set(view.tracked))
    return Routes(moves, builder.fragments, builder.redirects, ids, after, before)


def _emptied_folders(
    plan: Plan, records: Mapping[str, LegacyRecord], after: frozenset[str]
) -> dict[str, str]:
    """Legacy tree folders the migration empties: a link to one leads to the new tree."""
    folders = {posixpath.dirname(p) for p in [*records, *plan.indexes]}
    return {f: plan.target for f in folders if f not in after and f != plan.target}


def _part_headings(record: LegacyRecord) -> Iterator[tuple[str, RecordId]]:
    for heading in record.doc.headings:
        found = part_id(record.record_id, heading.text)
        if found is not None:
            yield heading.slug, found


def _id_targets(plan: Plan, view: RepoView) -> dict[IdKey, IdTarget]:
    """Every id this plan gives a record, and the former ids of records migrated before."""
    titles = {r.path: r.title for r in view.tree}
    ids = {
        parsed.key(): IdTarget(path, titles.get(path, posixpath.basename(path)))
        for name, path in view.former.items()
        if (parsed := parse_id(name)) is not None
    }
    ids.update((i.key(), IdTarget(t.path, t.title)) for t in plan.topics for i in t.ids)
    for retirement in plan.retirements:
        for record_id, slug in retirement.ids.items():
            topic = plan.topic(slug)
            if topic is not None:
                ids.setdefault(record_id.key(), IdTarget(topic.path, topic.title))
    return ids


def _after(plan: Plan, moves: Mapping[str, str], tracked: frozenset[str]) -> frozenset[str]:
    """Files and folders that exist once the plan is applied."""
    gone = set(moves) | {r.source for r in plan.retirements} | set(plan.indexes)
    files = (set(tracked) - gone) | {t.path for t in plan.topics} | {index_path(plan)}
    return _with_folders(files)


def _with_folders(files: set[str]) -> frozenset[str]:
    """``files`` and every folder above them."""
    folders = {posixpath.dirname(p) for p in files}
    for folder in list(folders):
        while folder:
            folder = posixpath.dirname(folder)
            folders.add(folder)
    return frozenset(files | folders)


# --------------------------------------------------------------------------- rewriting


def redirect_sections(
    doc: Document, redirects: Mapping[tuple[str, str], tuple[str, str]]
) -> Document:
    """Point links into sections that became records of their own at those records."""
    if not redirects:
        return doc
    edits: list[Edit] = []
    for item, url in link_targets(doc):
        span = item.dest_span
        found = resolve_url(doc.path, url)
        if found is None or span is None or doc.text[span.start : span.end] != item.destination:
            continue  # only destinations whose position the parser knows exactly
        target = redirects.get((found[0], unquote(found[1]).lower()))
        if target is not None:
            relative = posixpath.relpath(target[0], posixpath.dirname(doc.path) or ".")
            edits.append(Edit(span, relative + (f"#{target[1]}" if target[1] else "")))
    if not edits:
        return doc
    return parse(doc.path, apply_edits(doc.text, edits), doc.newline, doc.bom)


@dataclass
class _Tally:
    """Counts and findings gathered while rewriting."""

    links: int = 0
    refs: int = 0
    code_refs: int = 0
    code_paths: int = 0
    unresolved: list[tuple[str, str]] = field(default_factory=list)
    dangling: list[tuple[str, str]] = field(default_factory=list)
    already_broken: int = 0
    problems: list[Problem] = field(default_factory=list)
    relation_notes: list[tuple[str, str]] = field(default_factory=list)
    code_kept: list[tuple[str, str]] = field(default_factory=list)

    def add(self, path: str, stats: RewriteStats, before: frozenset[str], old: Document) -> None:
        """``old`` (at its old path) rewritten to ``path``; a link dangling there counts as
        broken before only when ``old`` had that same break, each break once."""
        self.links += stats.links
        self.refs += stats.refs
        self.unresolved.extend((path, i) for i in stats.unresolved)
        breaks = _breaks(old, before) if stats.dangling else Counter[str]()
        for destination in stats.dangling:
            target = _target(path, markdown_url(destination))
            if target is not None and target not in before and breaks[target] > 0:
                breaks[target] -= 1
                self.already_broken += 1
            else:
                self.dangling.append((path, destination))

    def stats(self, outside: tuple[str, ...]) -> Stats:
        unresolved, dangling = tuple(self.unresolved), tuple(self.dangling)
        return Stats(
            self.links,
            self.refs,
            self.code_refs,
            self.code_paths,
            unresolved,
            dangling,
            outside,
            self.already_broken,
            (),
            tuple(self.relation_notes),
            tuple(self.code_kept),
        )


def _target(path: str, url: str) -> str | None:
    """The repository path a link's URL in ``path`` names (None: external, outside, itself)."""
    found = resolve_url(path, url)
    return found[0] if found is not None and found[0] else None


def _breaks(doc: Document, before: frozenset[str]) -> Counter[str]:
    """The links of ``doc``, where it was, that named no file or folder there was: its breaks, by target."""
    found: Counter[str] = Counter()
    for _, url in link_targets(doc):
        target = _target(doc.path, url)
        if target is not None and target not in before:
            found[target] += 1
    return found


def _rewrite(doc: Document, new_path: str, routes: Routes, tally: _Tally) -> str | None:
    """``doc``'s text for ``new_path``; None (and a problem) when it cannot be rewritten safely."""
    try:
        text, stats = rewrite_document(
            redirect_sections(doc, routes.redirects),
            old_path=doc.path,
            new_path=new_path,
            moves=routes.moves,
            fragments=routes.fragments,
            ids=routes.ids,
            exists=routes.exists,
        )
    except RewriteError as exc:
        tally.problems.append(Problem(doc.path, f"cannot rewrite safely: {exc.reason}"))
        return None
    tally.add(new_path, stats, routes.before, doc)
    return text


def _topic_text(topic: Topic, assembled: Assembled, routes: Routes, tally: _Tally) -> str:
    texts = []
    for chunk in assembled.chunks:
        text = _rewrite(parse(chunk.old_path, chunk.text), topic.path, routes, tally)
        texts.append(chunk.text if text is None else text)
    return join_chunks(texts)


def _other_documents(
    documents: Mapping[str, Document], skip: set[str], routes: Routes, tally: _Tally
) -> Iterator[FileWrite]:
    for path in sorted(documents):
        if path in skip:
            continue
        doc = documents[path]
        text = _rewrite(doc, path, routes, tally)
        if text is not None and text != doc.text:
            yield FileWrite(path, text, doc.newline, doc.bom)


_PATH_TOKEN = r"(?<![\w./-])(?:{})(?![\w/-]|\.\w)"
"""A repository path as a token in program text (a sentence's full stop may follow it)."""


def legacy_paths(routes: Routes) -> dict[str, str]:
    """Legacy record and index files → where they live after the migration."""
    return {
        old: new for old, new in routes.moves.items() if old.lower().endswith(MARKDOWN_SUFFIXES)
    }


def path_pattern(paths: Iterable[str]) -> re.Pattern[str] | None:
    """One regex for all of ``paths`` (longest first, so a path never matches a prefix of one)."""
    ordered = sorted(paths, key=len, reverse=True)
    if not ordered:
        return None
    return re.compile(_PATH_TOKEN.format("|".join(map(re.escape, ordered))))


def rewrite_code_paths(text: str, paths: Mapping[str, str], pattern: re.Pattern[str]) -> tuple[str, int]:
    """Legacy record paths named in program text become their new paths; every other byte stays."""
    count = 0

    def moved(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return paths[match.group(0)]

    return pattern.sub(moved, text), count


def _needles(paths: Iterable[str], ids: Mapping[IdKey, IdTarget]) -> tuple[bytes, ...]:
    """Byte strings one of which a file must hold to need a rewrite (checked before decoding)."""
    return tuple(sorted({*(p.encode() for p in paths), *(k[0].encode() for k in ids)}))


def _code_files(
    view: RepoView, skip: set[str], routes: Routes, tally: _Tally
) -> Iterator[FileWrite]:
    """Tracked non-Markdown text files: legacy record paths and (``code_refs``) bare ids."""
    paths = legacy_paths(routes)
    ids = routes.ids if view.code_refs else {}
    pattern = path_pattern(paths)
    if pattern is None and not ids:
        return
    needles = _needles(paths, ids)
    for path in sorted(view.tracked):
        if path in skip or path.lower().endswith(MARKDOWN_SUFFIXES):
            continue
        if matches(path, view.refs_exclude):
            continue  # a fixture names records of the repository its test builds, not this one
        text = view.read_text(path, needles)
        if text is None:
            continue
        new, moved = rewrite_code_paths(text, paths, pattern) if pattern else (text, 0)
        new, count = (
            rewrite_code_text(new, ids=ids, path=path, everywhere=view.code_everywhere)
            if ids
            else (new, 0)
        )
        if ids and not view.code_everywhere:
            tally.code_kept.extend(_kept_ids(path, new, ids))
        if moved or count:
            tally.code_paths += moved
            tally.code_refs += count
            yield FileWrite(path, new)


def _kept_ids(path: str, text: str, ids: Mapping[IdKey, IdTarget]) -> Iterator[tuple[str, str]]:
    """Ids left in a program's strings and code, at ``path:line:column``."""
    for bare in program_text_ids(text, ids, path=path):
        line = text.count("\n", 0, bare.span.start) + 1
        column = bare.span.start - (text.rfind("\n", 0, bare.span.start) + 1) + 1
        yield f"{path}:{line}:{column}", bare.written


# --------------------------------------------------------------------------- the index


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
    plan: Plan, records: Mapping[str, LegacyRecord], view: RepoView, routes: Routes, tally: _Tally
) -> list[str]:
    """The prose of every legacy index, rewritten for the new index's folder."""
    carried: list[str] = []
    # The target's own legacy index first: its prose is the tree's introduction.
    for path in sorted(plan.indexes, key=lambda p: posixpath.dirname(p) != plan.target):
        doc = view.documents.get(path)
        prose = carried_prose(doc, frozenset(records), default_title(plan.target)) if doc else ""
        if prose:
            rewritten = _rewrite(parse(path, prose), index_path(plan), routes, tally)
            carried.append((rewritten if rewritten is not None else prose).strip("\n"))
    return carried


def _index_write(
    plan: Plan,
    records: Mapping[str, LegacyRecord],
    view: RepoView,
    routes: Routes,
    tally: _Tally,
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
    records_now = _all_records(plan, view)
    text = render_index(
        plan.target, records_now, view.states, former, existing, "\n\n".join(carried), edges=edges
    )
    return FileWrite(target_index, text)


def _with_carried(existing: str, carried: Sequence[str]) -> str:
    if not carried:
        return existing
    from ..records.index import BEGIN

    at = existing.find(BEGIN)
    prose = "\n\n".join(c.strip("\n") for c in carried) + "\n\n"
    if at == -1:
        return existing.rstrip("\n") + "\n\n" + prose
    return existing[:at] + prose + existing[at:]


def _all_records(plan: Plan, view: RepoView) -> list[Record]:
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


# --------------------------------------------------------------------------- the change set


def _moves_and_removals(plan: Plan) -> tuple[list[tuple[str, str]], list[str]]:
    moves = [(t.files[0], t.path) for t in plan.topics if t.files]
    moved = {old for old, _ in moves}
    removals = [p for t in plan.topics for p in t.files[1:]]
    removals += [r.source for r in plan.retirements if r.source not in moved]
    removals += [p for p in plan.indexes if p != index_path(plan)]
    return moves, list(dict.fromkeys(p for p in removals if p not in moved))


def _taken(plan: Plan) -> dict[str, list[str]]:
    """Source path → the heading slugs of its sections that other topics take."""
    taken: dict[str, list[str]] = {}
    for part in (p for t in plan.topics for p in t.parts if p.section is not None):
        taken.setdefault(part.path, []).append(part.section or "")
    return taken


def _writes(
    plan: Plan, records: Mapping[str, LegacyRecord], view: RepoView, tally: _Tally
) -> list[FileWrite]:
    """The new text of every record, every other file whose references change, and the index."""
    assembled = {t.slug: assemble(t, records, _taken(plan)) for t in plan.topics}
    routes = _routes(plan, assembled, records, view)
    tally.problems.extend(p for t in plan.topics for p in _label_clashes(t, assembled[t.slug]))
    topics = [_topic_write(t, assembled[t.slug], records, routes, tally) for t in plan.topics]
    related = _related(plan, view, routes, topics)
    tally.relation_notes.extend(related.notes)
    writes = list(related.writes)
    skip = set(records) | set(plan.indexes) | {index_path(plan)}
    fixtures = {p for p in view.documents if matches(p, view.refs_exclude)}
    writes.extend(_other_documents(view.documents, skip | fixtures, routes, tally))
    links_only = replace(routes, ids={})
    links_only_documents = {**view.excluded, **{p: view.documents[p] for p in fixtures}}
    gated = set(view.documents) - fixtures
    writes.extend(_other_documents(links_only_documents, skip | gated, links_only, tally))
    writes.extend(_code_files(view, skip, routes, tally))
    writes.append(_index_write(plan, records, view, routes, tally, related.edges))
    return writes


def _related(plan: Plan, view: RepoView, routes: Routes, topics: list[FileWrite]) -> Related:
    """The records' relations in the gate's form, both ways (see :mod:`.relations`)."""
    titles = {r.path: r.title for r in _all_records(plan, view)}
    written = {w.path for w in topics}
    others = {p: view.documents[p] for p in titles if p in view.documents and p not in written}
    return relate(topics, titles, view.relations, routes.ids, others)


def compute(plan: Plan, records: Mapping[str, LegacyRecord], view: RepoView) -> ChangeSet:
    """Every move, removal and write that applying ``plan`` makes."""
    if plan.empty or not plan.complete:
        return ChangeSet()
    tally = _Tally()
    writes = _writes(plan, records, view, tally)
    moves, removals = _moves_and_removals(plan)
    created = {t.path for t in plan.topics} | {index_path(plan)}
    untracked = frozenset(w.path for w in writes) - view.tracked - created
    stats = replace(
        tally.stats(_outside_lifecycle(plan, records, view)),
        tool_pointers=tuple(tool_pointers(plan, records, view)),
    )
    problems = tuple(tally.problems)
    return ChangeSet(tuple(moves), tuple(removals), tuple(writes), stats, problems, untracked)


_ADR_TOOLS = ".adr-dir"
_LOG4BRAINS = ".log4brains.yml"
_ADR_FOLDER = re.compile(r"^(?P<lead>\s*adrFolder:\s*)(?P<folder>\S+?)/?\s*$")


def tool_pointers(
    plan: Plan, records: Mapping[str, LegacyRecord], view: RepoView
) -> Iterator[str]:
    """Lines of adr-tools' ``.adr-dir`` and log4brains' ``.log4brains.yml`` that name a legacy tree.

    They are reported with the line to write, not rewritten: the other tool
    would go on writing numbered records into whatever folder it is given,
    which the lifecycle tree's layout gate rejects; ``docsync new`` replaces it.
    """
    folders = {posixpath.dirname(p) for p in records}
    proposed = posixpath.join(plan.target, view.states.get("proposed", "proposed"))
    for path in sorted(view.tracked):
        name = posixpath.basename(path)
        if name not in (_ADR_TOOLS, _LOG4BRAINS):
            continue
        text = view.read_text(path, ())
        for number, line in enumerate((text or "").splitlines(), 1):
            found = _pointer(path, name, line, folders)
            if found is not None:
                lead, written = found
                yield (
                    f"{path}:{number}: '{line.strip()}' points {_TOOL[name]} at the legacy tree "
                    f"{written}; write '{lead.strip()}{' ' if lead.strip() else ''}{proposed}' "
                    "there, or drop the file and create records with docsync new"
                )


_TOOL = {_ADR_TOOLS: "adr-tools", _LOG4BRAINS: "log4brains"}


def _pointer(path: str, name: str, line: str, folders: set[str]) -> tuple[str, str] | None:
    """(what comes before the folder, the folder as written) when ``line`` names a legacy tree."""
    base = posixpath.dirname(path)
    if name == _ADR_TOOLS:
        lead, written = "", line.strip()
    else:
        match = _ADR_FOLDER.match(line)
        if match is None:
            return None
        lead, written = match.group("lead"), match.group("folder").strip("'\"")
    folder = posixpath.normpath(posixpath.join(base, written)).strip("/")
    return (lead, written) if written and folder in folders else None


def _outside_lifecycle(
    plan: Plan, records: Mapping[str, LegacyRecord], view: RepoView
) -> tuple[str, ...]:
    """Markdown files left in the tree but outside its lifecycle folders (layout gate, Y001)."""
    folders = {posixpath.join(plan.target, f) for f in view.states.values()}
    skip = set(records) | set(plan.indexes) | {index_path(plan)} | view.exempt
    inside = (p for p in sorted(view.documents) if p.startswith(plan.target + "/"))
    return tuple(p for p in inside if p not in skip and posixpath.dirname(p) not in folders)


def _label_clashes(topic: Topic, assembled: Assembled) -> Iterator[Problem]:
    """Reference labels two merged sources both define: one source's links would change target."""
    if not topic.merged:
        return  # one source: its labels cannot clash with another's
    owners: dict[str, tuple[str, str]] = {}
    for chunk in assembled.chunks[1:]:
        for definition in parse(chunk.old_path, chunk.text).definitions:
            target = resolve_url(chunk.old_path, markdown_url(definition.destination))
            label, where = (
                definition.normalized_label,
                (chunk.old_path, str(target or definition.destination)),
            )
            owner = owners.setdefault(label, where)
            if owner[0] != where[0] and owner[1] != where[1]:
                yield Problem(
                    where[0],
                    f"defines reference [{definition.label}] differently from {owner[0]}, and both "
                    f"merge into {topic.path or topic.slug}; rename the label in one of them first",
                )


def _topic_write(
    topic: Topic,
    assembled: Assembled,
    records: Mapping[str, LegacyRecord],
    routes: Routes,
    tally: _Tally,
) -> FileWrite:
    first = records[topic.parts[0].path].doc
    return FileWrite(
        topic.path, _topic_text(topic, assembled, routes, tally), first.newline, first.bom
    )


def paths_of(writes: Iterable[FileWrite]) -> list[str]:
    return [w.path for w in writes]
