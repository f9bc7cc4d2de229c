"""Gate ``refs``'s check: bare former ids of migrated records in Markdown
prose, and paths into the tree that no longer exist or former ids in other files.

It also reads tracked non-Markdown text files, because code comments and CI
files name records by path or former id; that reading goes through one reader
that skips symlinks, binaries (a NUL byte), files over ``max_file_size`` and
files that mention nothing the gate looks for, and only happens on
whole-repository runs (a pre-commit run on a few Markdown files must not be
told about code it was not given).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...model import Document, Finding, Span, position_of
from ...records.tree import Tree, whole_repository
from ...rewrite.ids import BareId, bare_code_ids
from ...rewrite.prose_ids import bare_ids
from ...rewrite.record_links import relative_destination
from ...workspace.load import MARKDOWN_SUFFIXES, Workspace, matches, read_text
from ..rules import finding

_LINE_END = re.compile(r"\r\n?|\n")


def _code_files(workspace: Workspace) -> Iterator[str]:
    config = workspace.config
    for path in sorted(workspace.listing.tracked):
        if path.lower().endswith(MARKDOWN_SUFFIXES) or workspace.listing.is_symlink(path):
            continue
        if not matches(path, config.exclude) and not matches(path, config.refs_exclude):
            yield path


def refs_documents(workspace: Workspace) -> Iterator[str]:
    """The selected Markdown files the refs gate reads: all but ``refs_exclude`` (test fixtures)."""
    skip = workspace.config.refs_exclude
    return (p for p in workspace.selected if not matches(p, skip))


def _bare_findings(tree: Tree, doc: Document) -> Iterator[Finding]:
    headings = [h.span for h in doc.headings]
    for mention in bare_ids(doc, tree.ids):
        if mention.target is None:
            continue
        line, column = doc.position(mention.span.start)
        destination = relative_destination(doc.path, mention.target.path)
        in_heading = any(h.start <= mention.span.start < h.end for h in headings)
        text = doc.text[mention.span.start : mention.span.end] if in_heading else mention.target.title
        why = " (in a heading the id stays the text, so its anchor stays)" if in_heading else ""
        yield finding(
            "R001",
            doc.path,
            line,
            column,
            f"bare '{mention.written}' names a migrated record; link it as [{text}]({destination})"
            f"{why} ('docsync fix' does)",
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
class CodeFile:
    """A non-Markdown text file and the refs findings in it."""

    path: str
    text: str
    newline: str
    bom: bool
    paths: tuple[_PathMention, ...]
    ids: tuple[BareId, ...]
    starts: tuple[int, ...]

    def position(self, offset: int) -> tuple[int, int]:
        return position_of(self.starts, offset)


def _code_file(tree: Tree, path: str, present: set[str]) -> CodeFile | None:
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
    return CodeFile(path, text, newline, bom, paths, ids, _line_starts(text))


def _line_starts(text: str) -> tuple[int, ...]:
    """Where each line starts, any of CRLF, LF and a lone CR ending a line (as editors read them)."""
    return (0, *(match.end() for match in _LINE_END.finditer(text)))


def code_files_with_refs(tree: Tree) -> Iterator[CodeFile]:
    present = present_paths(tree.workspace)
    for path in _code_files(tree.workspace):
        found = _code_file(tree, path, present)
        if found is not None and (found.paths or found.ids):
            yield found


def _code_findings(file: CodeFile) -> Iterator[Finding]:
    for mention in file.paths:
        line, column = file.position(mention.span.start)
        fix = (
            f"it is now {mention.replacement} ('docsync fix' rewrites it)"
            if mention.replacement
            else "point it at an existing record"
        )
        yield finding("R002", file.path, line, column, f"'{mention.path}' does not exist; {fix}")
    for bare in file.ids:
        assert bare.target is not None
        line, column = file.position(bare.span.start)
        yield finding(
            "R003",
            file.path,
            line,
            column,
            f"bare '{bare.written}' names a migrated record; write its path {bare.target.path} ('docsync fix' does)",
        )


def check_refs(tree: Tree) -> list[Finding]:
    findings: list[Finding] = []
    if tree.ids:
        for path in refs_documents(tree.workspace):
            doc = tree.workspace.documents.get(path)
            if doc is not None:
                findings.extend(_bare_findings(tree, doc))
    if whole_repository(tree.workspace):
        for file in code_files_with_refs(tree):
            findings.extend(_code_findings(file))
    return findings


def present_paths(workspace: Workspace) -> set[str]:
    """Every path that exists for git's purposes: tracked and untracked files, and their folders."""
    present = set(workspace.listing.tracked) | workspace.listing.untracked
    for path in list(present):
        folder = posixpath.dirname(path)
        while folder and folder not in present:
            present.add(folder)
            folder = posixpath.dirname(folder)
    return present
