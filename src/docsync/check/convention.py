"""A repository without docsync config: which wrap convention its prose follows.

``wrap = "none"`` is the default, and under it every hard-wrapped paragraph is
a W001 that ``docsync fix`` would join into one line. For a repository whose
prose is wrapped at 80 columns (or a sentence a line) that is neither certain
nor wanted. So without config, ``check`` and ``fix`` count the paragraphs that
break each candidate, as ``init`` does (:func:`docsync.adopt.inspection.choose_wrap`):
when ``"none"`` wins, its findings stand; otherwise the wrap gate stays off and
one line says which convention the prose follows and that ``docsync init``
writes it down. Below :data:`LEAVE_OFF_FROM` paragraphs that break ``"none"``
the findings stand too: a handful of joins is quickly reviewed, and a few
paragraphs say little about a convention.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from ..config import Config, WrapMode
from ..model import Document
from ..workspace.documents import Documents
from ..workspace.load import Workspace

if TYPE_CHECKING:
    from ..gates.wrap.hint import HintBreaks

LEAVE_OFF_FROM = 20
"""Paragraphs breaking ``"none"`` from which a repository without config is read for its convention."""


def unconfigured(config: Config) -> bool:
    """No config file, and wrap left at its default (not chosen some other way)."""
    return config.origin == "(defaults)" and config.wrap == "none"


def wrap_left_off(workspace: Workspace) -> str | None:
    """Why the wrap gate stays off in a repository without config (one line); None
    when its prose follows the default ``"none"`` and the gate's findings stand."""
    mode, breaking = _chosen(workspace)
    return worded(mode, breaking, workspace.config.wrap)


def worded(mode: WrapMode, breaking: Mapping[WrapMode, int], default: WrapMode) -> str | None:
    """The hint for the convention ``mode`` chosen over ``default``, given how many
    paragraphs break each (``breaking`` holds both); None when there is none to give."""
    if mode == default or breaking[default] < LEAVE_OFF_FROM:
        return None
    shown = f'"{mode}"' if isinstance(mode, str) else str(mode)
    return (
        f"wrap gate off: there is no docsync config and the prose follows wrap = {shown} "
        f"({breaking[mode]} paragraphs break it, {breaking[default]} break the default "
        f'"none"); run `docsync init` to write a config that says so.'
    )


def _chosen(workspace: Workspace) -> tuple[WrapMode, dict[WrapMode, int]]:
    """The convention ``init`` would choose, and the exact counts of the paragraphs that
    break it and the default, from the hint's bounds (:mod:`docsync.gates.wrap.hint`): the
    parse workers' where they made them, read here for the other documents (:func:`settled`):
    those parsed before the run needed the hint, or here."""
    from ..adopt.inspection import choose_wrap, workspace_wrap_counts
    from ..gates.wrap.hint import HINT, HintBreaks

    documents, config = workspace.documents, workspace.config
    made = documents.made(HINT) if isinstance(documents, Documents) else {}
    known: dict[str, HintBreaks] = {}
    for path in workspace.selected:
        kept = made.get(path)
        if isinstance(kept, HintBreaks):
            known[path] = kept
        elif (doc := _alone(documents, path)) is not None:  # read here once: "sentence" exactly
            known[path] = _sentence_exact(doc, config)
    chosen = settled(known, lambda path: _alone(documents, path), config)
    if chosen is not None:
        return chosen
    counts = workspace_wrap_counts(workspace)  # a document that could not be read again
    return choose_wrap(counts), {c.mode: c.paragraphs for c in counts}


def settled(
    known: dict[str, HintBreaks], read: Callable[[str], Document | None], config: Config
) -> tuple[WrapMode, dict[WrapMode, int]] | None:
    """What :func:`decided` makes of the documents' bounds ``known`` (by path), reading
    documents again (``read``) where they do not settle it; None only when one cannot be.

    The documents whose ``"sentence"`` is a bound are read first, and it is counted
    exactly (the workers count it so only while it may win). If a kept summary leans on
    another document's since changed (a narrower width still a bound may win), every
    document whose bounds are not all exact is read so, its widths leaning on no other
    document's. Then they settle it: a width narrower than the widest whose count is still
    a bound has a paragraph of its own document that breaks it and not the widest, so it
    loses to the widest."""
    from ..gates.wrap.count import CANDIDATES

    chosen = decided(known.values(), config.wrap)
    sentence = CANDIDATES.index("sentence")
    for every in (False, True):  # "sentence" alone first, then every bound
        if chosen is not None:
            return chosen
        for path, bounds in known.items():
            again = not all(bounds.exact) if every else not bounds.exact[sentence]
            if again and (doc := read(path)) is not None:
                known[path] = _sentence_exact(doc, config)
        chosen = decided(known.values(), config.wrap)
    return chosen


def _sentence_exact(doc: Document, config: Config) -> HintBreaks:
    """``doc``'s bounds with ``"sentence"`` counted exactly, as read here (never a worker's)."""
    from ..gates.wrap.hint import hint_breaks

    return hint_breaks(doc, config, sentences=lambda _: True)


def _alone(documents: Mapping[str, Document], path: str) -> Document | None:
    """The document of ``path``, read without unpickling every other (None when not there)."""
    if isinstance(documents, Documents):
        return documents.alone(path)
    return documents.get(path)


def decided(per_file: Iterable[HintBreaks], default: WrapMode) -> tuple[WrapMode, dict[WrapMode, int]] | None:
    """The candidate ``init``'s exact counts would choose, and the exact counts the documents'
    bounds give (the chosen one's and the default's among them); None when the bounds do
    not settle it. The candidate the bounds choose is the exact counts' choice when its
    count is exact: every other candidate's exact count is at least its bound, and the
    bounds already place it after the chosen one."""
    from ..adopt.inspection import WrapCount, choose_wrap
    from ..gates.wrap.count import CANDIDATES
    from ..gates.wrap.hint import summed

    total = summed(per_file)
    mode = choose_wrap([WrapCount(c, n, 0) for c, n in zip(CANDIDATES, total.counts, strict=True)])
    if not all(total.exact[CANDIDATES.index(m)] for m in (mode, default)):
        return None
    return mode, {c: n for c, n, e in zip(CANDIDATES, total.counts, total.exact, strict=True) if e}
