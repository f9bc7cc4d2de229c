"""Other tools' config that points at a legacy tree: adr-tools' ``.adr-dir``, log4brains' ``adrFolder``."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping

from ..model import Plan
from .discover import LegacyRecord
from .repo_view import RepoView

_ADR_TOOLS = ".adr-dir"
_LOG4BRAINS = ".log4brains.yml"
_ADR_FOLDER = re.compile(r"^(?P<lead>\s*adrFolder:\s*)(?P<folder>\S+?)/?\s*$")


def tool_pointers(
    plan: Plan, records: Mapping[str, LegacyRecord], view: RepoView
) -> Iterator[str]:
    """Lines of adr-tools' ``.adr-dir`` and log4brains' ``.log4brains.yml`` that name a legacy tree.

    They are reported with the line to write, not rewritten: the other tool
    would go on writing numbered records into whatever folder it is given,
    which the lifecycle tree's layout gate rejects; ``docsync new`` replaces it.
    """
    folders = {posixpath.dirname(p) for p in records}
    proposed = posixpath.join(plan.target, view.states.get("proposed", "proposed"))
    for path in sorted(view.tracked):
        name = posixpath.basename(path)
        if name not in (_ADR_TOOLS, _LOG4BRAINS):
            continue
        text = view.read_text(path, ())
        for number, line in enumerate((text or "").splitlines(), 1):
            found = _pointer(path, name, line, folders)
            if found is not None:
                lead, written = found
                yield (
                    f"{path}:{number}: '{line.strip()}' points {_TOOL[name]} at the legacy tree "
                    f"{written}; write '{lead.strip()}{' ' if lead.strip() else ''}{proposed}' "
                    "there, or drop the file and create records with docsync new"
                )


_TOOL = {_ADR_TOOLS: "adr-tools", _LOG4BRAINS: "log4brains"}


def _pointer(path: str, name: str, line: str, folders: set[str]) -> tuple[str, str] | None:
    """(what comes before the folder, the folder as written) when ``line`` names a legacy tree."""
    base = posixpath.dirname(path)
    if name == _ADR_TOOLS:
        lead, written = "", line.strip()
    else:
        match = _ADR_FOLDER.match(line)
        if match is None:
            return None
        lead, written = match.group("lead"), match.group("folder").strip("'\"")
    folder = posixpath.normpath(posixpath.join(base, written)).strip("/")
    return (lead, written) if written and folder in folders else None

