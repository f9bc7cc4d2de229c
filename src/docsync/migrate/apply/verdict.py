"""What ``docsync check`` says of the files a migration wrote: findings it caused, and older ones.

Before ``--apply`` the Markdown files the change set will write are checked
as they are (a moved record under its old path); after, as written. A
broken link counts as "there before" only when that same break was there:
the same rule, in the same file (old paths mapped through the moves), for a
link that resolved to the same target (its path mapped through the moves,
and its fragment; in a moved file also read from its old path, since the
rewrite leaves a link that was broken before as written). Each break
before vouches for one break after, never more. Other findings are counted against their file and rule: where the
file has more findings of a rule than before, the excess is the
migration's doing. There should be none; everything else was there before
and is counted apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ...check.check import run_check
from ...config import load as load_config
from ...gates.links.check import link_targets, resolve_url
from ...model import Document, Finding
from ...parse.native import parse
from ...parse.source import SourceError, decode
from ...repository import plumbing
from ...workspace import cache as parse_cache
from ...workspace.load import MARKDOWN_SUFFIXES
from ..model import ChangeSet

LINKS = "links"

_Key = tuple[str, str, str]
"""(path after the migration, rule code, the break: a link's target after the moves; "" for other gates)."""


@dataclass(frozen=True)
class Before:
    """The findings of the files a migration will write, keyed by their path after it."""

    counts: Counter[_Key]


@dataclass(frozen=True)
class Verdict:
    caused: tuple[Finding, ...]
    already: int  # findings verified to have been there before (the same break, for links)


def _markdown(paths: list[str]) -> list[str]:
    return [p for p in paths if p.lower().endswith(MARKDOWN_SUFFIXES)]


def _urls(root: Path, path: str, known: Mapping[str, Document]) -> dict[tuple[int, int], str]:
    """The URL of each link and definition in ``path``, by where it starts (line, column);
    ``known`` holds documents parsed already (the rewrite's, of the files it wrote)."""
    try:
        text, newline, bom = decode((root / path).read_bytes())
    except (OSError, SourceError):
        return {}
    doc = known.get(path)
    if doc is None or doc.path != path or doc.text != text:
        doc = parse(path, text, newline, bom)
    return {(target.line, target.column): url for target, url in link_targets(doc)}


def _keyed(
    root: Path,
    findings: Iterable[Finding],
    new_path: Mapping[str, str],
    moves: Mapping[str, str],
    known: Mapping[str, Document],
    read_from: Mapping[str, str] | None = None,
) -> list[tuple[Finding, _Key]]:
    """Each finding with its key; a link's break resolved from the file as it is now
    (``finding.path``), or from ``read_from``'s path for it (where a link left as written was)."""
    urls: dict[str, dict[tuple[int, int], str]] = {}
    keyed: list[tuple[Finding, _Key]] = []
    for finding in findings:
        after = new_path.get(finding.path, finding.path)
        if finding.gate != LINKS:
            keyed.append((finding, (after, finding.rule, "")))
            continue
        if finding.path not in urls:
            urls[finding.path] = _urls(root, finding.path, known)
        source = (read_from or {}).get(finding.path, finding.path)
        broken = _broken(finding, source, urls[finding.path], moves)
        keyed.append((finding, (after, finding.rule, broken)))
    return keyed


def _broken(
    finding: Finding, source: str, urls: Mapping[tuple[int, int], str], moves: Mapping[str, str]
) -> str:
    """What a link finding says is broken: the target its link resolves to, after the moves."""
    url = urls.get((finding.line, finding.column))
    if url is None:  # not at a link's start (a duplicate definition, say): the finding itself
        return f"finding: {finding.message}"
    found = resolve_url(source, url)
    if found is None:
        return f"url: {url}"
    path, fragment = found
    return f"{moves.get(path, path)}#{fragment}"


def before(
    root: Path, changes: ChangeSet, repo: plumbing.RepoPaths | None = None, listing: plumbing.Listing | None = None
) -> Before:
    """Check, as they are now, the files ``changes`` will write; among the files the run
    listed (``listing``, else listed here), which the plan that made ``changes`` read."""
    moves = dict(changes.moves)
    moved_from = {new: old for old, new in changes.moves}
    old_of = {moved_from.get(w.path, w.path): w.path for w in changes.writes}
    present = [p for p in _markdown(list(old_of)) if (root / p).is_file()]
    if not present:
        return Before(Counter())
    found = run_check(root, paths=present, repo=repo, listing=listing).findings
    return Before(Counter(key for _, key in _keyed(root, found, old_of, moves, {})))


def after(
    root: Path, changes: ChangeSet, earlier: Before, repo: plumbing.RepoPaths | None = None
) -> Verdict:
    """Check the written files and split their findings into caused and verified older ones.
    The files are listed again: the apply moved, made and removed some."""
    written = [p for p in _markdown([w.path for w in changes.writes]) if (root / p).is_file()]
    if not written:
        return Verdict((), 0)
    remember_parsed(root, changes, repo)
    left = Counter(earlier.counts)
    caused: list[Finding] = []
    already = 0
    found = sorted(run_check(root, paths=written, repo=repo).findings, key=Finding.sort_key)
    moved_from = {new: old for old, new in changes.moves}
    # A link broken before is left as written: read from the old path it names the old break.
    as_written = _keyed(root, found, {}, dict(changes.moves), changes.parsed, moved_from)
    for (finding, key), (_, old_key) in zip(
        _keyed(root, found, {}, {}, changes.parsed), as_written, strict=True
    ):
        key = old_key if left[key] == 0 and finding.path in moved_from else key
        if left[key] > 0:
            left[key] -= 1
            already += 1
        else:
            caused.append(finding)
    return Verdict(tuple(caused), already)


def remember_parsed(root: Path, changes: ChangeSet, repo: plumbing.RepoPaths | None = None) -> None:
    """Put the written files the rewrite parsed already into the parse cache.

    Each is keyed, as every cache entry is, by the bytes now on disk, and only
    when those bytes decode to exactly the text that was parsed: the check
    then reads the same document a parse would make instead of making it again.
    """
    if not changes.parsed or not load_config(root).cache:
        return
    store = parse_cache.open_cache((repo or plumbing.find_repo(root)).git_dir)
    for path, doc in changes.parsed.items():
        try:
            data = (root / path).read_bytes()
            text, newline, bom = decode(data)
        except (OSError, SourceError):
            continue
        if doc.path == path and (text, newline, bom) == (doc.text, doc.newline, doc.bom):
            store.put(store.key(path, data), doc)
    store.save()
