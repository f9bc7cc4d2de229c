"""Tracked non-Markdown text files a migration rewrites: legacy record paths and bare ids.

Every legacy record path named in code, config or editor rule files becomes
its new path. Ids follow ``code_refs``: those in comments are rewritten, those
in strings and code are reported and kept (``"all"`` rewrites them too).
"""

from __future__ import annotations

import difflib
import posixpath
from collections.abc import Iterable, Iterator, Mapping
from urllib.parse import unquote

from ...model import Edit, Span, apply_edits
from ...records.model import IdTarget
from ...rewrite.code_paths import path_finder, rewrite_code_paths
from ...rewrite.ids import MARKDOWN_LINK, IdKey, pattern_for, program_text_ids, rewrite_code_text
from ...rewrite.record_links import relative_destination
from ...workspace.load import MARKDOWN_SUFFIXES, matches
from ...write.writer import FileWrite
from ..read.repo_view import RepoView
from .routes import Routes
from .stats import Tally


def legacy_paths(routes: Routes) -> dict[str, str]:
    """Legacy record and index files → where they live after the migration."""
    return {
        old: new for old, new in routes.moves.items() if old.lower().endswith(MARKDOWN_SUFFIXES)
    }


def _needles(paths: Iterable[str], ids: Mapping[IdKey, IdTarget]) -> tuple[bytes, ...]:
    """Byte strings one of which a file must hold to need a rewrite (checked before decoding):
    a path, a kind, or a Markdown link (whose relative destination names no whole path)."""
    return tuple(sorted({*(p.encode() for p in paths), *(k[0].encode() for k in ids), b"]("}))


def code_files(
    view: RepoView, skip: set[str], routes: Routes, tally: Tally
) -> Iterator[FileWrite]:
    """Tracked non-Markdown text files: legacy record paths and (``code_refs``) bare ids."""
    paths = legacy_paths(routes)
    ids = routes.ids if view.code_refs else {}
    pattern = path_finder(paths)
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
        new, linked = rewrite_code_links(new, path, routes, ids) if "](" in new else (new, 0)
        moved += linked
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
            tally.code_lines.extend(changed_lines(path, text, new))
            yield FileWrite(path, new)


def rewrite_code_links(
    text: str, path: str, routes: Routes, ids: Mapping[IdKey, IdTarget]
) -> tuple[str, int]:
    """Markdown links in program text (``// See [ADR-111](../docs/adr/adr-111-x.md).``) whose
    destination, read from ``path``'s folder, leads to a moved file: the destination leads to
    its new path, and a text that is the record's id alone becomes its title, as in Markdown
    (``ids``: the id table, empty when ``code_refs`` is off).
    A link that leads anywhere else is left as written, text and destination: its id is the
    link's text, not a bare id, and a destination broken before stays as it was."""
    folder = posixpath.dirname(path)
    titles = {target.path: target.title for target in ids.values()}
    pattern = pattern_for(ids)
    edits: list[Edit] = []
    for link in MARKDOWN_LINK.finditer(text):
        destination, hash_, fragment = link.group("destination").partition("#")
        if not destination or "://" in destination or destination.startswith("/"):
            continue
        old = posixpath.normpath(posixpath.join(folder, unquote(destination)))
        new = routes.moves.get(old)
        if new is None:
            continue
        fragment = routes.fragments.get(old, {}).get(fragment, fragment) if fragment else fragment
        written = relative_destination(path, new) + (hash_ + fragment if hash_ else "")
        words = link.group("text")
        title = titles.get(new) if ids and pattern.fullmatch(words.strip()) else None
        edits.append(Edit(Span(link.start(), link.end()), f"[{title or words}]({written})"))
    return apply_edits(text, edits), len(edits)


def changed_lines(path: str, old: str, new: str) -> Iterator[tuple[str, str, str]]:
    """``path:line`` (in the new text), the line before and after, of each line the rewrite
    changed: a path or an id is replaced within its line, so the lines pair up."""
    before, after = old.split("\n"), new.split("\n")
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, first, last, start, end in matcher.get_opcodes():
        if tag == "equal":
            continue
        for k in range(max(last - first, end - start)):
            was = before[first + k] if first + k < last else ""
            now = after[start + k] if start + k < end else ""
            yield f"{path}:{min(start + k, max(end - 1, start)) + 1}", was, now


def _kept_ids(path: str, text: str, ids: Mapping[IdKey, IdTarget]) -> Iterator[tuple[str, str]]:
    """Ids left in a program's strings and code, at ``path:line:column``."""
    for bare in program_text_ids(text, ids, path=path):
        line = text.count("\n", 0, bare.span.start) + 1
        column = bare.span.start - (text.rfind("\n", 0, bare.span.start) + 1) + 1
        yield f"{path}:{line}:{column}", bare.written

