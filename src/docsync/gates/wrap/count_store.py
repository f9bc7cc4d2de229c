"""init's wrap counts per document, kept by content key between runs.

``docsync init`` (and ``check``'s wrap suggestion) weighs every candidate
convention by counting, per document, the paragraphs that break it
(:func:`docsync.gates.wrap.count.document_breaks`). On a cold parse those
counts are made in the parse workers; on a warm parse cache the documents
come from the cache and every count would be made again in the main
process, unpickling each document for it. So each document's counts are
kept in ``.git/docsync/wrap-counts.json``, keyed by the document's content
key under a run key for the counting code and the scope options it reads
(``wrap_lists``, ``wrap_blockquotes``): a run on an unchanged tree reads no
document for them. Plain JSON, validated on load; anything else is ignored
and the counts are made afresh.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ...config import Config
from ...workspace import plain
from ...workspace.cache import fingerprint
from ...workspace.documents import Documents
from ...workspace.load import Workspace
from ...workspace.results import source_digest
from . import boundaries, count, display, fields, prose, reading, violations
from .count import CANDIDATES, Breaks

_FILE = "wrap-counts.json"
_MODULES = (count, boundaries, display, fields, prose, reading, violations)


def _run_key(config: Config) -> str:
    code = source_digest(__file__, *(str(m.__file__) for m in _MODULES))
    inputs = f"{code}\0{fingerprint()}\0{config.wrap_lists}\0{config.wrap_blockquotes}"
    return hashlib.blake2b(inputs.encode(), digest_size=20).hexdigest()


def _load(file: Path, run: str) -> dict[str, tuple[int, ...]]:
    payload = plain.read_json(file)  # a regular file only, never a FIFO or a device
    if not isinstance(payload, dict) or payload.get("run") != run:
        return {}
    counts = payload.get("counts")
    if not isinstance(counts, dict):
        return {}
    return {
        key: tuple(value)
        for key, value in counts.items()
        if isinstance(key, str)
        and isinstance(value, list)
        and len(value) == len(CANDIDATES)
        and all(type(n) is int and n >= 0 for n in value)
    }


class CountStore:
    """The kept counts of one workspace; :meth:`save` writes what was added."""

    def __init__(self, workspace: Workspace) -> None:
        documents = workspace.documents
        usable = workspace.config.cache and isinstance(documents, Documents)
        self._keys = documents.content_keys if isinstance(documents, Documents) else {}
        self._file = workspace.git_dir / "docsync" / _FILE if usable else None
        self._run = _run_key(workspace.config)
        self._known = _load(self._file, self._run) if self._file is not None else {}
        self._added = False

    def get(self, path: str) -> Breaks | None:
        key = self._keys.get(path)
        found = self._known.get(key) if key is not None else None
        return Breaks(found) if found is not None else None

    def add(self, path: str, breaks: Breaks) -> None:
        key = self._keys.get(path)
        if key is not None and self._file is not None:
            self._known[key] = breaks.counts
            self._added = True

    def save(self) -> None:
        """Write the counts of the current tree (a cache that cannot be written only costs speed)."""
        if self._file is None or not self._added:
            return
        current = set(self._keys.values())
        counts = {key: list(n) for key, n in self._known.items() if key in current}
        plain.write_sealed(self._file, json.dumps({"run": self._run, "counts": counts}).encode())
