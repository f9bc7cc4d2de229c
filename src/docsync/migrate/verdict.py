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
from ..model import Finding
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
