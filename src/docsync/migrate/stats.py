"""The counts and findings of a migration's rewrite.

:class:`Tally` gathers them while the files are rewritten; :class:`Stats`
is what the change set keeps, for the dry run, the adoption record and the
closing verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..gates.links.check import markdown_url, resolve_url
from ..rewrite.references import RewriteStats
from .model import Problem


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

    def add(self, path: str, stats: RewriteStats, before: frozenset[str]) -> None:
        self.links += stats.links
        self.refs += stats.refs
        self.unresolved.extend((path, i) for i in stats.unresolved)
        for destination in stats.dangling:
            if _existed(path, destination, before):
                self.dangling.append((path, destination))
            else:
                self.already_broken += 1

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


def _existed(path: str, destination: str, before: frozenset[str]) -> bool:
    """Whether a link now dangling in ``path`` named a file or folder that existed before.

    The rewriter keeps every link that leads to an unmoved file pointing at
    that same file, so a dangling link whose target did not exist before
    either was broken already; only the others are the migration's doing.
    """
    found = resolve_url(path, markdown_url(destination))
    return found is not None and bool(found[0]) and found[0] in before
