"""The counts and findings of a migration's rewrite.

:class:`Tally` gathers them while the files are rewritten; :class:`~docsync.migrate.model.Stats`
is what the change set keeps, for the dry run, the adoption record and the
closing verdict.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ...gates.links.check import link_targets, markdown_url, resolve_url
from ...model import Document
from ...rewrite.references import RewriteStats
from ..model import Problem, Stats


@dataclass
class Tally:
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
    code_lines: list[tuple[str, str, str]] = field(default_factory=list)

    def add(self, path: str, stats: RewriteStats, before: frozenset[str], old: Document) -> None:
        """``old`` (at its old path) rewritten to ``path``; a link dangling there counts as
        broken before only when ``old`` had that same break, each break once."""
        self.links += stats.links
        self.refs += stats.refs
        self.unresolved.extend((path, i) for i in stats.unresolved)
        breaks = _breaks(old, before) if stats.dangling else Counter[str]()
        for destination in stats.dangling:
            target = _target(path, markdown_url(destination))
            if target is None or breaks[target] == 0:
                # a link broken before is left as written: it names its old target from ``old``
                target = _target(old.path, markdown_url(destination))
            if target is not None and target not in before and breaks[target] > 0:
                breaks[target] -= 1
                self.already_broken += 1
            else:
                self.dangling.append((path, destination))

    def merge(self, other: Tally) -> None:
        """What ``other`` gathered, after what this one has: as if this one had gathered it."""
        self.links += other.links
        self.refs += other.refs
        self.code_refs += other.code_refs
        self.code_paths += other.code_paths
        self.unresolved.extend(other.unresolved)
        self.dangling.extend(other.dangling)
        self.already_broken += other.already_broken
        self.problems.extend(other.problems)
        self.relation_notes.extend(other.relation_notes)
        self.code_kept.extend(other.code_kept)
        self.code_lines.extend(other.code_lines)

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
            tuple(self.code_lines),
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
