"""Gates ``layout`` and ``refs``: the record tree stays in the shape migrate left it.

Both are silent until the tree exists (some file sits in one of the
configured lifecycle folders under ``target``), so a repository that has not
migrated is not told about rules it never adopted.

``layout`` reads only Markdown the workspace already parsed. ``refs`` also
reads tracked non-Markdown text files, because code comments and CI files
name records by path or former id; that reading goes through
one reader that skips symlinks, binaries (a NUL byte), files over
``max_file_size`` and files that mention nothing the gate looks for, and
only happens on whole-repository runs (a pre-commit run on a few Markdown
files must not be told about code it was not given).
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property

from ..config import Config
from ..errors import DocsyncError
from ..model import Document, Edit, Finding, Span, apply_edits
from ..parse.markdown import normalized, parse
from ..records import conventions
from ..records.index import INDEX_NAMES, IndexMarkersError, parse_former_ids, render_index
from ..records.model import IdTarget, Record, parse_id
from ..records.relations import (
    SUPERSEDES,
    Edge,
    Mention,
    label,
    one_sided,
    read_mentions,
    reverses,
    superseded_state,
    with_relation_lines,
)
from ..rewrite.references import (
    BareId,
    IdKey,
    bare_code_ids,
    bare_ids,
    relative_destination,
    rewrite_code_text,
    rewrite_document,
)
from ..workspace.load import MARKDOWN_SUFFIXES, Workspace, matches, read_text
from ..write.writer import FileWrite
from .tree_rules import LAYOUT_RULES as LAYOUT_RULES
from .tree_rules import REFS_RULES as REFS_RULES
from .tree_rules import RULE_TABLES as RULE_TABLES
from .wrap import check as wrap

_NAME = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})-(?P<slug>.+)\.md")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_STATUS = re.compile(r"Status:[ \t]*(?P<value>.*)")
_STATUS_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")
_ATX = re.compile(r"^ {0,3}#[ \t]+(?P<text>.*?)(?:[ \t]+#+)?[ \t]*$")


# --------------------------------------------------------------------------- the tree


@dataclass(frozen=True, slots=True)
class TreeFile:
    """A Markdown file under the tree, and what its place and name say about it."""

    path: str
    state: str | None
    day: date | None
    slug: str | None
    name_ok: bool


@dataclass(frozen=True)
class Tree:
    """The record tree as it is on disk: its files, index and former-id table."""

    workspace: Workspace
    target: str
    files: tuple[TreeFile, ...]
    index_path: str

    @property
    def config(self) -> Config:
        return self.workspace.config

    @cached_property
    def index_text(self) -> str | None:
        doc = self.workspace.documents.get(self.index_path)
        if doc is not None:
            return doc.text
        return read_text_file(self.workspace, self.index_path)

    @cached_property
    def records(self) -> tuple[Record, ...]:
        """Well-placed, well-named records, as the index lists them."""
        found: list[Record] = []
        for file in self.files:
            if file.state is None or file.day is None or file.slug is None or not file.name_ok:
                continue
            doc = self.workspace.documents.get(file.path)
            title = (record_title(doc) if doc else None) or file.slug.replace("-", " ").capitalize()
            found.append(Record(file.path, title, file.state, file.day, file.slug))
        return tuple(found)

    @cached_property
    def former(self) -> dict[str, str]:
        """Former id or path → record repository path, repointed at records that changed folder."""
        if self.index_text is None:
            return {}
        folder = posixpath.dirname(self.index_path)
        by_name = {posixpath.basename(r.path): r.path for r in self.records}
        known = {r.path for r in self.records}
        former: dict[str, str] = {}
        for name, relative in parse_former_ids(self.index_text).items():
            path = posixpath.normpath(posixpath.join(folder, relative))
            former[name] = path if path in known else by_name.get(posixpath.basename(path), path)
        return former

    @cached_property
    def companions(self) -> frozenset[str]:
        """Files in a record's own folder: ``x/`` beside a record or former record ``x.md``.

        rust-lang/rfcs keeps an RFC's translations and chapters in
        ``text/3392-leadership-council/``; they belong to that record, they are not records.
        """
        owners = {p.removesuffix(".md") for p in (*self.former, *(r.path for r in self.records))}
        return frozenset(f.path for f in self.files if owners.intersection(_ancestors(f.path)))

    @cached_property
    def ids(self) -> dict[IdKey, IdTarget]:
        """The former-id table as the rewriter's id map."""
        titles = {r.path: r.title for r in self.records}
        ids: dict[IdKey, IdTarget] = {}
        for name, path in self.former.items():
            parsed = parse_id(name)
            if parsed is not None:
                ids[parsed.key()] = IdTarget(path, titles.get(path, posixpath.basename(path)))
        return ids

    @cached_property
    def path_pattern(self) -> re.Pattern[str]:
        """Repository paths into the tree, and former record paths, as tokens in text."""
        former_paths = sorted((p for p in self.former if "/" in p), key=len, reverse=True)
        alternatives = [re.escape(self.target) + r"/[\w./-]*?\.md", *map(re.escape, former_paths)]
        return re.compile(r"(?<![\w./-])(?:" + "|".join(alternatives) + r")(?![\w/-])")

    @cached_property
    def needles(self) -> tuple[bytes, ...]:
        """Byte strings one of which a file must hold to mention the tree at all."""
        words = {self.target, *(p for p in self.former if "/" in p), *(k[0] for k in self.ids)}
        return tuple(sorted(w.encode() for w in words))

    @cached_property
    def mentions(self) -> dict[str, tuple[Mention, ...]]:
        """Each record's relations as it writes them (records that write none left out)."""
        found: dict[str, tuple[Mention, ...]] = {}
        for file in self.files:
            doc = self.workspace.documents.get(file.path)
            mentions = tuple(read_mentions(doc, self.config.relations)) if doc is not None else ()
            if mentions:
                found[file.path] = mentions
        return found

    @cached_property
    def edges(self) -> tuple[Edge, ...]:
        """Every relation between two records of the tree, written on either side or both."""
        records = {r.path for r in self.records}
        edges = {
            m.edge
            for mentions in self.mentions.values()
            for m in mentions
            if m.source in records and m.target in records
        }
        return tuple(sorted(edges))

    def rendered_index(self) -> str:
        """The index as it should be (raises IndexMarkersError for broken markers)."""
        return render_index(
            self.target,
            self.records,
            self.config.states,
            self.former,
            self.index_text,
            edges=self.edges,
        )


def _tree_file(path: str, target: str, folder_states: Mapping[str, str]) -> TreeFile:
    folder, name = posixpath.split(path)
    state = folder_states.get(folder.removeprefix(target + "/")) if folder != target else None
    match = _NAME.fullmatch(name)
    if match is None:
        return TreeFile(path, state, None, None, False)
    try:
        day: date | None = date.fromisoformat(match.group("date"))
    except ValueError:
        day = None
    slug = match.group("slug")
    return TreeFile(path, state, day, slug, _SLUG.fullmatch(slug) is not None)


def _ancestors(path: str) -> Iterator[str]:
    folder = posixpath.dirname(path)
    while folder:
        yield folder
        folder = posixpath.dirname(folder)


def _exempt(config: Config, target: str) -> set[str]:
    exempt = {f"{target}/{name}" for name in INDEX_NAMES}
    exempt.update(p for p in (config.conventions, config.template) if p)
    return exempt


def load_tree(workspace: Workspace) -> Tree | None:
    """The record tree, or None when the repository has none yet."""
    config = workspace.config
    target = config.target.strip("/")
    present = set(workspace.listing.tracked) | workspace.listing.untracked
    folders = [f"{target}/{folder}/" for folder in config.states.values()]
    if not any(path.startswith(tuple(folders)) for path in present):
        return None
    folder_states = {folder: state for state, folder in config.states.items()}
    exempt = _exempt(config, target)
    files = tuple(
        _tree_file(path, target, folder_states)
        for path in sorted(workspace.documents)
        if path.startswith(target + "/") and path not in exempt
    )
    index = next(
        (f"{target}/{n}" for n in INDEX_NAMES if f"{target}/{n}" in present),
        f"{target}/{INDEX_NAMES[0]}",
    )
    return Tree(workspace, target, files, index)


def record_title(doc: Document) -> str | None:
    """The Markdown source of the first level-1 heading (``# Title`` or setext)."""
    for heading in doc.headings:
        if heading.level != 1:
            continue
        lines = doc.text[heading.span.start : heading.span.end].split("\n")
        atx = _ATX.match(lines[0])
        if atx is not None:
            return atx.group("text").strip() or None
        return " ".join(line.strip() for line in lines[:-1]).strip() or None
    return None


# --------------------------------------------------------------------------- files outside Markdown


def read_text_file(workspace: Workspace, path: str) -> str | None:
    """A tracked text file's content (``\\n`` line ends, no BOM), or None for
    binaries, big files, symlinks."""
    if workspace.listing.is_symlink(path):
        return None
    text = read_text(workspace.root, path, workspace.config.max_file_size)
    if text is None:
        return None
    return normalized(text.removeprefix("\ufeff"))


def _code_files(workspace: Workspace) -> Iterator[str]:
    config = workspace.config
    for path in sorted(workspace.listing.tracked):
        if path.lower().endswith(MARKDOWN_SUFFIXES) or workspace.listing.is_symlink(path):
            continue
        if not matches(path, config.exclude) and not matches(path, config.refs_exclude):
            yield path


def _refs_documents(workspace: Workspace) -> Iterator[str]:
    """The selected Markdown files the refs gate reads: all but ``refs_exclude`` (test fixtures)."""
    skip = workspace.config.refs_exclude
    return (p for p in workspace.selected if not matches(p, skip))


def _whole_repository(workspace: Workspace) -> bool:
    """Whether this run covers every Markdown file (not a pre-commit run on a few)."""
    return set(workspace.documents) <= set(workspace.selected)


# --------------------------------------------------------------------------- layout


_GATES = {"Y": "layout", "R": "refs"}


def _finding(rule: str, path: str, line: int, column: int, message: str) -> Finding:
    return Finding(_GATES[rule[0]], rule, path, line, column, message)


def _placement(tree: Tree, file: TreeFile) -> Iterator[Finding]:
    folders = ", ".join(f"{tree.target}/{f}/" for f in tree.config.states.values())
    if file.state is None:
        yield _finding(
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
        yield _finding(
            "Y002",
            file.path,
            1,
            1,
            f"'{name}' is not named yyyy-mm-dd-slug.md (lowercase ASCII words joined by '-'); rename it, e.g. to {hint}.md (the date: when the topic was first proposed)",
        )
    elif file.day is None:
        yield _finding(
            "Y003",
            file.path,
            1,
            1,
            f"'{name[:10]}' is not a real date; rename the file with the date the topic was first proposed",
        )


def _suggested_slug(text: str) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower().encode("ascii", "ignore").decode())
    return "-".join(words) or "topic"


@dataclass(frozen=True, slots=True)
class StatusLine:
    """A ``Status:`` line of a record: where it is and what follows the colon."""

    line: int
    column: int
    value: str


def status_lines(doc: Document) -> list[StatusLine]:
    """Lines of prose that start with ``Status:`` (quoted ones are examples, not the record's)."""
    found: list[StatusLine] = []
    for paragraph in doc.paragraphs:
        if "blockquote" in paragraph.containers:
            continue
        for span in paragraph.line_spans:
            match = _STATUS.match(doc.text, span.start, span.end)
            if match is not None:
                line, column = doc.position(span.start)
                found.append(StatusLine(line, column, match.group("value").strip()))
    return found


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
        yield _finding(
            "Y004",
            file.path,
            1,
            1,
            f"no 'Status:' line; add one under the title, e.g. '{example}'",
        )
        return
    for extra in _in_preamble(doc, lines[1:]):
        yield _finding(
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
        yield _finding(
            "Y006",
            file.path,
            first.line,
            first.column,
            f"status '{first.value}' maps to no lifecycle state; start it with a state ({', '.join(states)}) or add the word to [statuses] in the config",
        )
    elif file.state is not None and state != file.state:
        folder = f"{tree.target}/{states.get(state, state)}/"
        yield _finding(
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
            yield _finding(
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
        yield _finding(
            "Y010",
            tree.index_path,
            1,
            1,
            f"{exc}; repair the markers so docsync can find its generated part",
        )
        return
    if current is None:
        yield _finding(
            "Y009",
            tree.index_path,
            1,
            1,
            "the record tree has no index; run 'docsync fix' to generate it",
        )
    elif current != wanted:
        line = _first_difference(current, wanted)
        yield _finding(
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


# --------------------------------------------------------------------------- relations


def _sides(tree: Tree) -> set[tuple[Edge, bool]]:
    return {(m.edge, m.forward) for ms in tree.mentions.values() for m in ms}


def _phrase(tree: Tree, mention: Mention, forward: bool) -> str:
    return mention.kind if forward else tree.config.relations[mention.kind]


def _says(tree: Tree, mention: Mention) -> str:
    return mention.kind if mention.forward else "is " + tree.config.relations[mention.kind]


def _missing_target(tree: Tree, mention: Mention) -> Finding:
    moved = tree.former.get(mention.target)
    hint = (
        f"the former-id table says it is now {moved}; point the link there"
        if moved in {f.path for f in tree.files}
        else "point it at an existing record or remove the relation"
    )
    return _finding(
        "Y014",
        mention.source,
        mention.line,
        mention.column,
        f"'{_phrase(tree, mention, mention.forward)}' links to {mention.target}, "
        f"which is not a record of the tree; {hint}",
    )


def _missing_reverse(tree: Tree, mention: Mention) -> Finding:
    reverse = label(_phrase(tree, mention, not mention.forward))
    return _finding(
        "Y012",
        mention.source,
        mention.line,
        mention.column,
        f"this record {_says(tree, mention)} {mention.target}, but {mention.target} has no "
        f"'{reverse}' link back to it; 'docsync fix' adds it",
    )


def _relation_targets(tree: Tree, selected: set[str]) -> Iterator[Finding]:
    files = {f.path for f in tree.files}
    for path, mentions in tree.mentions.items():
        if path in selected:
            yield from (_missing_target(tree, m) for m in mentions if m.target not in files)
    for mention in one_sided(tree.mentions, files):
        if mention.source in selected:
            yield _missing_reverse(tree, mention)


def _superseded_states(tree: Tree, selected: set[str]) -> Iterator[Finding]:
    try:
        wanted = superseded_state(tree.config)
    except DocsyncError:
        return
    states = {f.path: f.state for f in tree.files}
    reported: set[str] = set()
    for edge in tree.edges:
        state = states.get(edge.older)
        if edge.kind != SUPERSEDES or state in (None, wanted) or edge.older in reported:
            continue
        if edge.older not in selected:
            continue
        reported.add(edge.older)
        doc = tree.workspace.documents.get(edge.older)
        found = status_lines(doc) if doc is not None else []
        line, column = (found[0].line, found[0].column) if found else (1, 1)
        folder = f"{tree.target}/{tree.config.states[wanted]}/"
        yield _finding(
            "Y013",
            edge.older,
            line,
            column,
            f"superseded by {edge.newer}, but the record is {state}, not {wanted}; "
            f"run 'docsync move {edge.older} superseded --by {edge.newer}' to file it under {folder}",
        )


def _cycles(edges: Sequence[Edge]) -> list[list[str]]:
    """The supersession loops: strongly connected groups (Tarjan), each sorted."""
    after: dict[str, list[str]] = {}
    for edge in edges:
        after.setdefault(edge.newer, []).append(edge.older)
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for nxt in after.get(node, []):
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            group: list[str] = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1 or node in after.get(node, []):
                groups.append(sorted(group))

    for node in sorted(after):
        if node not in order:
            visit(node)
    return sorted(groups)


def _loops(tree: Tree, selected: set[str]) -> Iterator[Finding]:
    supersedes = [e for e in tree.edges if e.kind == SUPERSEDES]
    supersedes += [
        m.edge
        for ms in tree.mentions.values()
        for m in ms
        if m.kind == SUPERSEDES and m.source == m.target
    ]
    for group in _cycles(supersedes):
        first = group[0]
        if first not in selected:
            continue
        mention = next(
            (m for m in tree.mentions.get(first, ()) if m.kind == SUPERSEDES and m.target in group),
            None,
        )
        line, column = (mention.line, mention.column) if mention else (1, 1)
        chain = " -> ".join([*group, group[0]])
        yield _finding(
            "Y015",
            first,
            line,
            column,
            f"supersession loop: {chain} each supersede the next; remove the relation that is "
            "wrong (a record cannot be replaced by what it replaced)",
        )


def check_relations(tree: Tree, selected: set[str]) -> Iterator[Finding]:
    yield from _relation_targets(tree, selected)
    yield from _superseded_states(tree, selected)
    yield from _loops(tree, selected)


def fix_relations(tree: Tree) -> list[FileWrite]:
    """The missing reverse of every one-sided relation, as a line under the other record's status."""
    titles = {r.path: r.title for r in tree.records}
    files = {f.path for f in tree.files}
    writes: list[FileWrite] = []
    for path, lines in sorted(reverses(tree.mentions, files, tree.config.relations, titles).items()):
        doc = tree.workspace.documents.get(path)
        if doc is None:
            continue
        text = with_relation_lines(doc, tree.config.relations, lines)
        write = FileWrite(path, text, doc.newline, doc.bom)
        writes.append(wrap.keep_wrapped(doc, write, tree.config))
    return writes


def _touches_tree(tree: Tree) -> bool:
    prefix = tree.target + "/"
    return _whole_repository(tree.workspace) or any(
        p.startswith(prefix) for p in tree.workspace.selected
    )


def check_layout(tree: Tree) -> list[Finding]:
    selected = set(tree.workspace.selected)
    findings: list[Finding] = []
    for file in tree.files:
        if file.path not in selected or file.path in tree.companions:
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


def fix_index(workspace: Workspace) -> FileWrite | None:
    """The regenerated index, or None when it is up to date, broken or there is no tree."""
    tree = load_tree(workspace)
    if tree is None:
        return None
    try:
        wanted = tree.rendered_index()
    except IndexMarkersError:
        return None
    if wanted == tree.index_text:
        return None
    doc = workspace.documents.get(tree.index_path)
    return FileWrite(
        tree.index_path, wanted, doc.newline if doc else "\n", doc.bom if doc else False
    )


# --------------------------------------------------------------------------- refs


def _bare_findings(tree: Tree, doc: Document) -> Iterator[Finding]:
    for mention in bare_ids(doc, tree.ids):
        if mention.target is None:
            continue
        line, column = doc.position(mention.span.start)
        link = f"[{mention.target.title}]({relative_destination(doc.path, mention.target.path)})"
        yield _finding(
            "R001",
            doc.path,
            line,
            column,
            f"bare '{mention.written}' names a migrated record; link it as {link} ('docsync fix' does)",
        )


@dataclass(frozen=True, slots=True)
class _PathMention:
    span: Span
    path: str
    replacement: str | None


def _path_mentions(tree: Tree, text: str, present: set[str]) -> Iterator[_PathMention]:
    for match in tree.path_pattern.finditer(text):
        path = match.group(0)
        if path in present:
            continue
        yield _PathMention(Span(match.start(), match.end()), path, _moved_to(tree, path, present))


def _moved_to(tree: Tree, path: str, present: set[str]) -> str | None:
    """Where a missing path went: the former-id table, else one record with the same name."""
    if path in tree.former and tree.former[path] in present:
        return tree.former[path]
    same_name = [
        r.path for r in tree.records if posixpath.basename(r.path) == posixpath.basename(path)
    ]
    return same_name[0] if len(same_name) == 1 else None


@dataclass(frozen=True, slots=True)
class _CodeFile:
    """A non-Markdown text file and the refs findings in it."""

    path: str
    text: str
    newline: str
    bom: bool
    paths: tuple[_PathMention, ...]
    ids: tuple[BareId, ...]
    starts: tuple[int, ...]

    def position(self, offset: int) -> tuple[int, int]:
        index = bisect.bisect_right(self.starts, offset) - 1
        return index + 1, offset - self.starts[index] + 1


def _code_file(tree: Tree, path: str, present: set[str]) -> _CodeFile | None:
    raw = read_text(tree.workspace.root, path, tree.workspace.config.max_file_size, tree.needles)
    if raw is None:
        return None
    # Rewritten as read (a fix changes the mentions and not a byte more),
    # the BOM aside so that columns on the first line count from its text.
    bom = raw.startswith("\ufeff")
    text, newline = raw.removeprefix("\ufeff"), "\n"
    paths = tuple(_path_mentions(tree, text, present))
    mode = tree.config.code_refs  # "path": ids in comments only (strings are the program's); "all": every id
    everywhere = mode == "all"
    ids = tuple(bare_code_ids(text, tree.ids, path=path, everywhere=everywhere)) if mode != "off" else ()
    return _CodeFile(path, text, newline, bom, paths, ids, _line_starts(text))


_LINE_END = re.compile(r"\r\n?|\n")


def _line_starts(text: str) -> tuple[int, ...]:
    """Where each line starts, any of CRLF, LF and a lone CR ending a line (as editors read them)."""
    return (0, *(match.end() for match in _LINE_END.finditer(text)))


def _code_files_with_refs(tree: Tree) -> Iterator[_CodeFile]:
    present = _present(tree.workspace)
    for path in _code_files(tree.workspace):
        found = _code_file(tree, path, present)
        if found is not None and (found.paths or found.ids):
            yield found


def _code_findings(file: _CodeFile) -> Iterator[Finding]:
    for mention in file.paths:
        line, column = file.position(mention.span.start)
        fix = (
            f"it is now {mention.replacement} ('docsync fix' rewrites it)"
            if mention.replacement
            else "point it at an existing record"
        )
        yield _finding("R002", file.path, line, column, f"'{mention.path}' does not exist; {fix}")
    for bare in file.ids:
        assert bare.target is not None
        line, column = file.position(bare.span.start)
        yield _finding(
            "R003",
            file.path,
            line,
            column,
            f"bare '{bare.written}' names a migrated record; write its path {bare.target.path} ('docsync fix' does)",
        )


def check_refs(tree: Tree) -> list[Finding]:
    findings: list[Finding] = []
    if tree.ids:
        for path in _refs_documents(tree.workspace):
            doc = tree.workspace.documents.get(path)
            if doc is not None:
                findings.extend(_bare_findings(tree, doc))
    if _whole_repository(tree.workspace):
        for file in _code_files_with_refs(tree):
            findings.extend(_code_findings(file))
    return findings


def _present(workspace: Workspace) -> set[str]:
    """Every path that exists for git's purposes: tracked and untracked files, and their folders."""
    present = set(workspace.listing.tracked) | workspace.listing.untracked
    for path in list(present):
        folder = posixpath.dirname(path)
        while folder and folder not in present:
            present.add(folder)
            folder = posixpath.dirname(folder)
    return present


def _fixed_markdown(tree: Tree, doc: Document, present: set[str]) -> FileWrite | None:
    if not any(m.target for m in bare_ids(doc, tree.ids)):
        return None
    text, _ = rewrite_document(
        doc,
        old_path=doc.path,
        new_path=doc.path,
        moves={},
        fragments={},
        ids=tree.ids,
        exists=present.__contains__,
    )
    return FileWrite(doc.path, text, doc.newline, doc.bom) if text != doc.text else None


def _fixed_code(tree: Tree, file: _CodeFile) -> FileWrite | None:
    edits = [Edit(m.span, m.replacement) for m in file.paths if m.replacement]
    text = apply_edits(file.text, edits)
    if file.ids:
        everywhere = tree.config.code_refs == "all"
        text = rewrite_code_text(text, ids=tree.ids, path=file.path, everywhere=everywhere)[0]
    return FileWrite(file.path, text, file.newline, file.bom) if text != file.text else None


def fix_refs(
    workspace: Workspace, updated: Mapping[str, Document] | None = None
) -> list[FileWrite]:
    """Rewrites for the fixable refs findings: bare former ids, moved tree paths in code.

    ``updated`` replaces documents another fixer already changed (see :func:`fix`).
    """
    tree = load_tree(workspace)
    if tree is None:
        return []
    present = _present(workspace)
    documents = {**workspace.documents, **(updated or {})}
    writes: list[FileWrite | None] = []
    if tree.ids:
        for path in _refs_documents(workspace):
            doc = documents.get(path)
            if doc is not None:
                writes.append(_fixed_markdown(tree, doc, present))
    if _whole_repository(workspace):
        writes.extend(_fixed_code(tree, file) for file in _code_files_with_refs(tree))
    return [w for w in writes if w is not None]


def fix(workspace: Workspace, gates: Sequence[str]) -> list[FileWrite]:
    """Every layout and refs fix, composed so that two fixes of one file do not collide.

    The index and the conventions doc are regenerated first; the refs fixes
    then read their new text, so bare ids in the index's own prose are linked
    in the same run.
    """
    writes: dict[str, FileWrite] = {}
    index = fix_index(workspace) if "layout" in gates else None
    if index is not None:
        writes[index.path] = index
    tree = load_tree(workspace) if "layout" in gates else None
    regenerated = conventions.fix(tree) if tree is not None else None
    if regenerated is not None:
        writes[regenerated.path] = regenerated
    if tree is not None:
        writes.update((w.path, w) for w in fix_relations(tree))
    if "refs" in gates:
        updated = {p: parse(p, w.text, w.newline, w.bom) for p, w in writes.items()}
        writes.update((w.path, w) for w in fix_refs(workspace, updated))
    return list(writes.values())


# --------------------------------------------------------------------------- entry point


def check(workspace: Workspace, gates: Sequence[str]) -> list[Finding]:
    """Findings of the ``layout`` and ``refs`` gates named in ``gates``; none without a tree."""
    if "layout" not in gates and "refs" not in gates:
        return []
    tree = load_tree(workspace)
    if tree is None:
        return []
    findings: list[Finding] = []
    if "layout" in gates:
        findings.extend(check_layout(tree))
    if "refs" in gates:
        findings.extend(check_refs(tree))
    return findings
