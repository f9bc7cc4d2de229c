"""What an earlier migration left in the tree's index: its former-id table, as repository
paths, and the folders of the records it moved (``design/44167/`` of ``design/44167-x.md``),
which stay theirs: no folder record on the next run."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from pathlib import Path

from ...workspace.load import read_text
from .folders import moved_companions


def former_ids(root: Path, target: str, legacy: Sequence[str]) -> dict[str, str]:
    """The former-id table of an index an earlier migration wrote, as repository paths."""
    from ...records.index import INDEX_NAMES, parse_former_ids

    for name in INDEX_NAMES:
        path = posixpath.join(target, name)
        text = read_text(root, path, 10_000_000)
        if text is not None and path not in legacy:
            found = parse_former_ids(text)
            return {k: posixpath.normpath(posixpath.join(target, v)) for k, v in found.items()}
    return {}


def without_moved_companions(root: Path, target: str, paths: list[str]) -> list[str]:
    """``paths`` without the pages of the folders that belong to a record an earlier
    migration moved (see :func:`.folders.moved_companions`)."""
    gone = [p for p in former_ids(root, target, ()) if "/" in p]
    if not gone:
        return paths
    companions = moved_companions(paths, gone)
    return [p for p in paths if p not in companions]
