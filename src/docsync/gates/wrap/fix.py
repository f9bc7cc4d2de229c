"""The ``wrap`` fixer: re-wrap the paragraphs the gate reports, proven to render the same.

The gate and the fixer share one reading of each paragraph, so that the
check passes exactly when the fixer would change nothing. A paragraph is
read as words and the gaps between them (runs of spaces, tabs, or a line
end with the container prefix of the next line). Each gap knows whether it
is a *break opportunity* (a new line may start there without changing what
the page renders) and whether a line end in it must stay (a hard break, or a
line end next to Chinese or Japanese text). A *plan* says, for every gap,
whether a line should end there; the gate reports the gaps where the plan
and the source disagree and the fixer splices exactly those gaps, leaving
every other byte as it was. Every rewrite is re-parsed and compared twice:
with markdown-it's tokens (:func:`~docsync.parse.markdown.render_signature`) and
with the page GitHub renders (cmark-gfm plus GitHub's alert, math and id
rules, :func:`~docsync.parse.render.github_rendering`); a paragraph whose rewrite
would render differently under either is put back and reported as ``W900``.
The reading lives in :mod:`~docsync.gates.wrap.reading`, the plans in
:mod:`~docsync.gates.wrap.plans`, what the gate reports in
:mod:`~docsync.gates.wrap.violations`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...config import Config
from ...model import Document, Edit, Finding, Paragraph, apply_edits
from ...parse.markdown import render_signature
from ...parse.render import github_rendering
from .plans import Plan, code_joins, plan_changes, plan_joined, plan_sentences, plan_width
from .prose import Prose
from .violations import GATE, prose_of, width_violations


@dataclass(frozen=True)
class WrapFix:
    """The fixed text of one document.

    ``skipped`` holds a ``W900`` finding for each paragraph left as it was
    because its rewrite would render differently or its continuation prefix
    could not be told.
    """

    text: str
    changed: bool
    skipped: tuple[Finding, ...]


@dataclass(frozen=True, slots=True)
class _Rewrite:
    prose: Prose
    edits: tuple[Edit, ...]


class _NoPrefix(Exception):
    """A new line is needed but the paragraph's continuation prefix is unknown."""


def _plan_for(doc: Document, prose: Prose, config: Config) -> Plan | None:
    """The fixer's plan for a paragraph, or None when the gate has nothing to fix there.

    Under a width, a paragraph is re-filled only when one of its lines is too
    wide and could be broken: re-filling lines that already fit would churn
    diffs for nothing, and the check would not have asked for it.
    """
    mode = config.wrap
    if isinstance(mode, int):
        if not width_violations(doc, prose, mode, strict=False):
            return None
        return plan_width(doc.text, prose, mode)
    if mode == "none":
        return plan_joined(prose)
    if mode == "sentence":
        return plan_sentences(prose)
    return None


def _edits(prose: Prose, plan: Plan) -> tuple[Edit, ...]:
    edits: list[Edit] = []
    for gap, line_ends in plan_changes(prose, plan):
        if not line_ends:
            edits.append(Edit(gap.span, " "))
        elif prose.prefix is None:
            raise _NoPrefix
        else:
            edits.append(Edit(gap.span, "\n" + prose.prefix))
    edits += [Edit(join, " ") for join in code_joins(prose)]
    return tuple(edits)


def _skipped(doc: Document, prose: Prose, why: str) -> Finding:
    line, column = doc.position(prose.lines[0].start)
    return Finding(GATE, "W900", doc.path, line, column, why)


_NO_PREFIX = (
    "paragraph left as it was: cannot tell what its continuation lines should start with "
    "(container prefix); wrap it by hand"
)
_RENDERS_DIFFERENTLY = (
    "paragraph left as it was: re-wrapping it would change how it renders; wrap it by hand"
)


def fix_document(
    doc: Document, config: Config, only: Callable[[Paragraph], bool] | None = None
) -> WrapFix:
    """Re-wrap every paragraph the gate would report; prove each rewrite renders the same.

    ``only`` limits the re-wrap to the paragraphs it accepts (every other
    byte stays as it was): a migration re-wraps only what its edits changed.
    """
    if config.wrap == "off":
        return WrapFix(doc.text, False, ())
    rewrites: list[_Rewrite] = []
    skipped: list[Finding] = []
    for prose in prose_of(doc, config):
        if only is not None and not only(prose.paragraph):
            continue
        plan = _plan_for(doc, prose, config)
        if plan is None:
            continue
        try:
            edits = _edits(prose, plan)
        except _NoPrefix:
            skipped.append(_skipped(doc, prose, _NO_PREFIX))
            continue
        if not edits:
            continue
        rewrites.append(_Rewrite(prose, edits))
    accepted, rejected = _proven(doc.text, rewrites)
    skipped += [_skipped(doc, r.prose, _RENDERS_DIFFERENTLY) for r in rejected]
    text = apply_edits(doc.text, [e for r in accepted for e in r.edits])
    ordered = tuple(sorted(skipped, key=Finding.sort_key))
    return WrapFix(text, text != doc.text, ordered)


def _proven(text: str, rewrites: Sequence[_Rewrite]) -> tuple[list[_Rewrite], list[_Rewrite]]:
    """Split rewrites into those that keep the rendering and those that do not.

    All together first: one render in the common case. When that fails, by halves
    (:func:`_settle`): each render reads the whole text, so k rewrites that change the
    rendering among n cost about k·log n renders, where one render per rewrite made a
    text of many paragraphs quadratic (issue #35, class 5).
    """
    if not rewrites:
        return [], []
    expected = render_signature(text)
    on_github = github_rendering(text)

    def renders_same(chosen: Sequence[_Rewrite]) -> bool:
        edited = apply_edits(text, [e for r in chosen for e in r.edits])
        return render_signature(edited) == expected and github_rendering(edited) == on_github

    if renders_same(rewrites):
        return list(rewrites), []
    accepted: list[_Rewrite] = []
    rejected: list[_Rewrite] = []
    middle = max(1, len(rewrites) // 2)  # all of them fail together: halves at once
    for half in (rewrites[:middle], rewrites[middle:]):
        if half:
            _settle(list(half), accepted, rejected, renders_same)
    return accepted, rejected


def _settle(
    group: list[_Rewrite],
    accepted: list[_Rewrite],
    rejected: list[_Rewrite],
    renders_same: Callable[[Sequence[_Rewrite]], bool],
) -> None:
    """Accept ``group`` beside what is accepted when the rendering holds; else each half
    in turn, down to single rewrites, which are rejected."""
    if renders_same([*accepted, *group]):
        accepted.extend(group)
    elif len(group) == 1:
        rejected.extend(group)
    else:
        middle = len(group) // 2
        _settle(group[:middle], accepted, rejected, renders_same)
        _settle(group[middle:], accepted, rejected, renders_same)
