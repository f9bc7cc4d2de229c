"""What a move rewrites besides the record: every link into it (excluded files too), its own
relative links, code paths naming it, and the warning for a folder it leaves empty."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Sequence
from dataclasses import replace

from ..gates.links.check import link_targets, resolve_url
from ..gates.wrap import check as wrap
from ..model import Document
from ..parse.native import parse
from ..records.relations import (
    with_relation_lines,
)
from ..rewrite.code_paths import path_finder, rewrite_code_paths
from ..rewrite.references import rewrite_document
from ..workspace.load import (
    MARKDOWN_SUFFIXES,
    Workspace,
    excluded_documents,
    matches,
    read_text,
)
from ..write.writer import FileWrite
from .status import with_status


def _links_to(doc: Document, path: str) -> bool:
    for _, url in link_targets(doc):
        target = resolve_url(doc.path, url)
        if target is not None and target[0] == path:
            return True
    return False


def present_after(workspace: Workspace, old: str, new: str) -> set[str]:
    present = (set(workspace.listing.tracked) | workspace.listing.untracked) - {old}
    present.add(new)
    for path in list(present):
        present.update(_folders(path))
    return present


def _folders(path: str) -> Iterator[str]:
    folder = posixpath.dirname(path)
    while folder:
        yield folder
        folder = posixpath.dirname(folder)


def inbound(workspace: Workspace, old: str, new: str, present: set[str]) -> Iterator[FileWrite]:
    """Every other Markdown document that links to ``old``, rewritten to link to ``new``.

    Files config excludes from the gates are rewritten too (a move must not
    break anybody's link), but left as they are otherwise: never re-wrapped.
    ``present`` is what exists after the move (:func:`present_after`).
    """
    checked = [(doc, True) for doc in workspace.documents.values()]
    for doc, in_scope in [*checked, *((doc, False) for doc in excluded_documents(workspace).values())]:
        if doc.path == old or not _links_to(doc, old):
            continue
        text, _ = rewrite_document(
            doc,
            old_path=doc.path,
            new_path=doc.path,
            moves={old: new},
            fragments={},
            ids={},
            exists=present.__contains__,
        )
        if text == doc.text:
            continue
        write = FileWrite(doc.path, text, doc.newline, doc.bom)
        yield wrap.keep_wrapped(doc, write, workspace.config) if in_scope else write


def moved_text(
    workspace: Workspace,
    doc: Document,
    new: str,
    value: str | None,
    present: set[str],
    lines: Sequence[str] = (),
) -> FileWrite:
    """The record at its new path: relative links repointed, its status value replaced
    (unless ``value`` is None) and relation ``lines`` added under it."""
    text, _ = rewrite_document(
        doc,
        old_path=doc.path,
        new_path=new,
        moves={doc.path: new},
        fragments={},
        ids={},
        exists=present.__contains__,
    )
    if value is not None:
        text = with_status(
            parse(new, text, doc.newline, doc.bom), value, workspace.config.relations
        )
    text = with_relation_lines(parse(new, text, doc.newline, doc.bom), workspace.config.relations, lines)
    write = FileWrite(new, text, doc.newline, doc.bom)
    return wrap.keep_wrapped(replace(doc, path=new), write, workspace.config)


def code_mentions(workspace: Workspace, old: str, new: str) -> Iterator[FileWrite]:
    """Tracked non-Markdown text files that name ``old`` by its repository path, as the refs
    gate reads them: ``refs_exclude`` (test fixtures) and ``exclude`` left alone, and
    ``old.orig`` (another file) not a mention."""
    pattern = path_finder([old])
    assert pattern is not None
    needle = old.encode()
    config = workspace.config
    for path in sorted(workspace.listing.tracked):
        if path.lower().endswith(MARKDOWN_SUFFIXES) or workspace.listing.is_symlink(path):
            continue
        if matches(path, config.exclude) or matches(path, config.refs_exclude):
            continue
        text = read_text(workspace.root, path, config.max_file_size, (needle,))
        if text is None:
            continue
        replaced, _ = rewrite_code_paths(text, {old: new}, pattern)
        if replaced != text:
            yield FileWrite(path, replaced)  # as read: line endings and BOM are in the text


def emptied_folder(workspace: Workspace, old: str, present: set[str]) -> tuple[str, ...]:
    """A warning when the move leaves the record's folder empty and links point at it.

    git keeps no empty folders, so a link to ``proposed/`` breaks once its
    last record moves out; there is nothing to rewrite it to.
    """
    folder = posixpath.dirname(old)
    if folder in present:
        return ()
    linking = [
        f"{doc.path}:{item.line}:{item.column}"
        for doc in workspace.documents.values()
        for item, url in link_targets(doc)
        if (target := resolve_url(doc.path, url)) is not None and target[0] == folder
    ]
    if not linking:
        return ()
    return (
        f"{folder}/ is empty after the move and git keeps no empty folders; "
        f"{len(linking)} link(s) to it now break: {', '.join(linking)} "
        "(link to the record index instead)",
    )
