"""``docsync new`` and ``docsync move`` as the command line runs them: the arguments given (or,
with ``--continue``, the unfinished run's), checked, then the change and what it did."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import DocsyncError
from .output import change_report, here_repo, say


def new(asked: Mapping[str, Any], redo: Mapping[str, Any] | None) -> None:
    """Create the record ``asked`` describes (``redo``: the unfinished run's arguments instead)."""
    from ..lifecycle.new import create

    given = redo if redo is not None else asked
    template = Path(given["template"]) if given["template"] else None
    today = date.fromisoformat(given["today"])
    if given["title"] is None:
        raise DocsyncError('give the record\'s title: docsync new "Title"')
    if given["relation"] != "supersedes" and given["supersedes"] is None:
        raise DocsyncError("--relation needs --supersedes RECORD (the record it relates to)")
    change = create(
        Path.cwd(), given["title"], given["status"], template, today, given["supersedes"], given["relation"],
        here_repo(),
    )
    change_report(change)


def move(asked: Mapping[str, Any], redo: Mapping[str, Any] | None) -> None:
    """Move the record ``asked`` names (``redo``: the unfinished run's arguments instead)."""
    from ..lifecycle.move import move as move_record

    given = redo if redo is not None else asked
    if given["record"] is None or given["state"] is None:
        raise DocsyncError("give the record and the state: docsync move RECORD STATE")
    if given["relation"] != "supersedes" and given["by"] is None:
        raise DocsyncError("--relation needs --by RECORD (the record it relates to)")
    today = date.fromisoformat(given["today"])
    change = move_record(
        Path.cwd(), given["record"], given["state"], given["note"], today, given["by"], given["relation"],
        here_repo(),
    )
    say(f"moved {change.source} -> {change.record}")
    change_report(change)
