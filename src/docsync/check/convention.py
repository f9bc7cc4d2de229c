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

from typing import TYPE_CHECKING

from ..config import Config
from ..workspace.documents import Documents
from ..workspace.load import Workspace

if TYPE_CHECKING:
    from ..adopt.inspection import WrapCount


LEAVE_OFF_FROM = 20
"""Paragraphs breaking ``"none"`` from which a repository without config is read for its convention."""


def unconfigured(config: Config) -> bool:
    """No config file, and wrap left at its default (not chosen some other way)."""
    return config.origin == "(defaults)" and config.wrap == "none"


def wrap_left_off(workspace: Workspace) -> str | None:
    """Why the wrap gate stays off in a repository without config (one line); None
    when its prose follows the default ``"none"`` and the gate's findings stand."""
    from ..adopt.inspection import choose_wrap

    counts = _wrap_counts(workspace)
    mode = choose_wrap(counts)
    default = workspace.config.wrap
    breaking = {c.mode: c.paragraphs for c in counts}
    if mode == default or breaking[default] < LEAVE_OFF_FROM:
        return None
    shown = f'"{mode}"' if isinstance(mode, str) else str(mode)
    return (
        f"wrap gate off: there is no docsync config and the prose follows wrap = {shown} "
        f"({breaking[mode]} paragraphs break it, {breaking[default]} break the default "
        f'"none"); run `docsync init` to write a config that says so.'
    )


def _wrap_counts(workspace: Workspace) -> tuple[WrapCount, ...]:
    """Per candidate, the paragraphs that break it, as far as choosing between them
    needs: the hint's counts (:mod:`docsync.gates.wrap.hint`), the parse workers' where
    they made them and read here for the other documents, when they rule ``"sentence"``
    in or out; else counted exactly, as ``init`` counts."""
    from ..adopt.inspection import workspace_wrap_counts
    from ..gates.wrap.count import CANDIDATES
    from ..gates.wrap.hint import HINT, HintBreaks, hint_breaks, sentence_ruled_out

    documents = workspace.documents
    made = documents.made(HINT) if isinstance(documents, Documents) else {}
    known: list[HintBreaks] = []
    for path in workspace.selected:
        if path in documents:
            kept = made.get(path)
            known.append(kept if isinstance(kept, HintBreaks) else hint_breaks(documents[path], workspace.config))
    counts = sentence_ruled_out(known)
    if counts is None:
        return workspace_wrap_counts(workspace)
    from ..adopt.inspection import WrapCount

    files = [sum(1 for f in known if f.counts[i]) for i in range(len(CANDIDATES))]
    return tuple(WrapCount(mode, counts[i], files[i]) for i, mode in enumerate(CANDIDATES))
