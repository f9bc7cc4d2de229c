"""What ``docsync check`` says of the files a migration wrote: findings it caused, and older ones.

Before ``--apply`` the Markdown files the change set will write are checked
as they are (a moved record under its old path); after, as written. A
finding is counted against its file (old paths mapped through the moves) and
rule code: where the file has more findings of a rule than before, the
excess is the migration's doing, and there should be none. Everything else
was there before and is counted apart.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..check.check import run_check
from ..config import load as load_config
from ..model import Finding
from ..parse.markdown import SourceError, decode
from ..repository import gitrepo
from ..workspace import cache as parse_cache
from ..workspace.load import MARKDOWN_SUFFIXES
from .changes import ChangeSet

_Key = tuple[str, str]  # (path after the migration, rule code)


@dataclass(frozen=True)
class Before:
    """The findings of the files a migration will write, keyed by their path after it."""

    counts: Counter[_Key]


@dataclass(frozen=True)
class Verdict:
    caused: tuple[Finding, ...]
    already: int  # findings of the same files and rules that were there before


def _markdown(paths: list[str]) -> list[str]:
    return [p for p in paths if p.lower().endswith(MARKDOWN_SUFFIXES)]


def before(root: Path, changes: ChangeSet) -> Before:
    """Check, as they are now, the files ``changes`` will write."""
    moved_from = {new: old for old, new in changes.moves}
    old_of = {moved_from.get(w.path, w.path): w.path for w in changes.writes}
    present = [p for p in _markdown(list(old_of)) if (root / p).is_file()]
    if not present:
        return Before(Counter())
    found = run_check(root, paths=present).findings
    return Before(Counter((old_of.get(f.path, f.path), f.rule) for f in found))


def after(root: Path, changes: ChangeSet, earlier: Before) -> Verdict:
    """Check the written files and split their findings into caused and older ones."""
    written = [p for p in _markdown([w.path for w in changes.writes]) if (root / p).is_file()]
    if not written:
        return Verdict((), 0)
    remember_parsed(root, changes)
    left = Counter(earlier.counts)
    caused: list[Finding] = []
    already = 0
    for finding in sorted(run_check(root, paths=written).findings, key=Finding.sort_key):
        key = (finding.path, finding.rule)
        if left[key] > 0:
            left[key] -= 1
            already += 1
        else:
            caused.append(finding)
    return Verdict(tuple(caused), already)


def remember_parsed(root: Path, changes: ChangeSet) -> None:
    """Put the written files the rewrite parsed already into the parse cache.

    Each is keyed, as every cache entry is, by the bytes now on disk, and only
    when those bytes decode to exactly the text that was parsed: the check
    then reads the same document a parse would make instead of making it again.
    """
    if not changes.parsed or not load_config(root).cache:
        return
    store = parse_cache.open_cache(gitrepo.find_repo(root).git_dir)
    for path, doc in changes.parsed.items():
        try:
            data = (root / path).read_bytes()
            text, newline, bom = decode(data)
        except (OSError, SourceError):
            continue
        if doc.path == path and (text, newline, bom) == (doc.text, doc.newline, doc.bom):
            store.put(store.key(path, data), doc)
    store.save()
