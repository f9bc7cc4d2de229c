"""Records already in the target tree (from an earlier migration, or written since)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from datetime import date

from ...model import Document
from ...records.model import Record
from .status import read_status

RECORD_NAME = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})-(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)\.md$")


def tree_paths(target: str, states: Mapping[str, str], paths: Iterable[str]) -> list[str]:
    """Dated record files directly inside a lifecycle folder of ``target``."""
    folders = {posixpath.join(target, folder) for folder in states.values()}
    return sorted(
        p
        for p in paths
        if posixpath.dirname(p) in folders and RECORD_NAME.match(posixpath.basename(p))
    )


def read_tree_record(path: str, doc: Document | None, states: Mapping[str, str]) -> Record | None:
    match = RECORD_NAME.match(posixpath.basename(path))
    if match is None:
        return None
    try:
        day = date.fromisoformat(match.group("date"))
    except ValueError:
        return None
    from ...records.tree import record_title  # read once the files are parsed, not to date them

    folder = posixpath.basename(posixpath.dirname(path))
    state = next((s for s, f in states.items() if f == folder), folder)
    title = (record_title(doc) if doc is not None else None) or match.group("slug").replace(
        "-", " "
    )
    status = read_status(doc) if doc is not None else None
    detail = status.value if status is not None else ""
    return Record(path, title, state, day, match.group("slug"), (), detail)
