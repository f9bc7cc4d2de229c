"""The record tree as it is on disk: its files, its index and its former-id table.

Loaded once per run from the parsed workspace and read by the ``layout`` and
``refs`` gates, the lifecycle commands and ``init``; it is silent (``None``)
until some file sits in one of the configured lifecycle folders under ``target``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from pathlib import Path

from ..config import Config
from ..model import Document
from ..parse.source import normalized
from ..rewrite.code_paths import PATH_TOKEN
from ..rewrite.ids import IdKey
from ..workspace.load import Workspace, load_workspace, read_text
from . import graph
from .index import INDEX_NAMES, parse_former_ids, render_index
from .model import IdTarget, Record, parse_id, tree_exists
from .relations import Edge, Mention, read_mentions
from .status_lines import status_lines
from .templates import is_template_path

_NAME = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})-(?P<slug>.+)\.md")


_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


_ATX = re.compile(r"^ {0,3}#[ \t]+(?P<text>.*?)(?:[ \t]+#+)?[ \t]*$")


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
    def pages(self) -> frozenset[str]:
        """The tree's pages that are no records: outside the lifecycle folders, with neither a
        record's name nor a status (notes, a folder of diagrams' README left in a legacy
        folder that became the tree). See :func:`reads_as_record`."""
        return frozenset(
            f.path
            for f in self.files
            if f.state is None and not reads_as_record(f.path, self.workspace.documents.get(f.path))
        )

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
        return re.compile(PATH_TOKEN.format("|".join(alternatives)))

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


# A record's name: a date (2020-01-31-, 20200131-) or a number, alone or after a kind (0007-, adr-12-).
_RECORD_NAME = re.compile(r"(?:\d{4}-?\d{2}-?\d{2}|(?:[A-Za-z]{1,6}[-_ ]?)?\d{1,5})(?:[-_. ]|$)")
_STATUS_WORD_AT_TOP = re.compile(r"(?im)^status[ \t]*:")


def reads_as_record(path: str, doc: Document | None) -> bool:
    """Whether a Markdown file of the tree outside its lifecycle folders reads as a record
    (then misplaced, Y001): it has a record's name, a ``Status:`` line or a front matter
    ``status:``. Anything else is a page of the tree: notes, a folder's README."""
    if _RECORD_NAME.match(posixpath.basename(path)):
        return True
    if doc is None:
        return True  # unread: the gate says what it can
    front = doc.text[: doc.text.find("\n---", 3) + 1] if doc.text.startswith("---") else ""
    return bool(status_lines(doc)) or _STATUS_WORD_AT_TOP.search(front) is not None


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


def _exempt(config: Config, target: str, present: set[str]) -> set[str]:
    """The index, the conventions doc, the template the config names, and any template in the
    target (``adr-template.md``, ``templates/rfc-template.md``, the page of a template folder,
    ``NNNN-template/README.md``; not ``0114-template-compiler.md``): none is a record."""
    exempt = {f"{target}/{name}" for name in INDEX_NAMES}
    exempt.update(p for p in (config.conventions, config.template) if p)
    exempt.update(p for p in present if p.startswith(target + "/") and is_template_path(p))
    return exempt


def load_tree(workspace: Workspace) -> Tree | None:
    """The record tree, or None when the repository has none yet."""
    config = workspace.config
    target = config.target.strip("/")
    present = set(workspace.listing.tracked) | workspace.listing.untracked
    if not tree_exists(target, config.states, present):
        return None
    folder_states = {folder: state for state, folder in config.states.items()}
    exempt = _exempt(config, target, present)
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


def read_text_file(workspace: Workspace, path: str) -> str | None:
    """A tracked text file's content (``\\n`` line ends, no BOM), or None for
    binaries, big files, symlinks."""
    if workspace.listing.is_symlink(path):
        return None
    text = read_text(workspace.root, path, workspace.config.max_file_size)
    if text is None:
        return None
    return normalized(text.removeprefix("\ufeff"))


def whole_repository(workspace: Workspace) -> bool:
    """Whether this run covers every Markdown file (not a pre-commit run on a few)."""
    return set(workspace.documents) <= set(workspace.selected)


def graph_of(start: Path, fmt: str) -> str:
    """``docsync graph``: the relation graph of the tree of the repository at ``start``."""
    tree = load_tree(load_workspace(start))
    if tree is None:
        return graph.render(graph.Graph((), (), ()), fmt)
    return graph.render(graph.build(tree.records, tree.edges, tree.config.states), fmt)
