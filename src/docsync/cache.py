"""A content-keyed cache of parsed documents under ``<git dir>/docsync/``.

The key is a hash of docsync's version, the file's path and its bytes, so
an edited file, a renamed file or a new docsync version misses the cache.
The cache is never trusted: a file that fails to load for any reason
(corrupt, truncated, written by another version, or holding anything but
docsync's own model types) is ignored and rebuilt. Loading goes through a
restricted unpickler that only constructs docsync's frozen model classes.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import __version__, model

_MAGIC = "docsync-parse-cache"
_FORMAT = 1
_MAX_ENTRIES = 100_000
_ALLOWED = {
    ("docsync.model", name)
    for name in (
        "Span", "LineSpan", "LinkKind", "Link", "Definition", "Heading", "Anchor",
        "BlockKind", "Block", "Paragraph", "Document",
    )
} | {("builtins", "frozenset"), ("builtins", "set")}


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"refusing {module}.{name}")
        return super().find_class(module, name)


def _key(path: str, data: bytes) -> str:
    digest = hashlib.blake2b(digest_size=20)
    digest.update(__version__.encode())
    digest.update(b"\0" + path.encode() + b"\0")
    digest.update(data)
    return digest.hexdigest()


class ParseCache:
    def __init__(self, file: Path | None, entries: dict[str, model.Document]) -> None:
        self._file = file
        self._entries = entries
        self._used: dict[str, model.Document] = {}
        self._dirty = False

    def get(self, path: str, data: bytes) -> model.Document | None:
        key = _key(path, data)
        document = self._entries.get(key)
        if isinstance(document, model.Document) and document.path == path:
            self._used[key] = document
            return document
        return None

    def update(self, sources: Mapping[str, bytes], documents: Mapping[str, model.Document]) -> None:
        for path, data in sources.items():
            if path in documents:
                self._used[_key(path, data)] = documents[path]
                self._dirty = True

    def save(self) -> None:
        if self._file is None or not self._dirty:
            return
        merged = {**self._entries, **self._used}
        if len(merged) > _MAX_ENTRIES:
            merged = dict(self._used)
        payload = {"magic": _MAGIC, "format": _FORMAT, "version": __version__, "entries": merged}
        try:
            self._file.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self._file.parent, prefix=".parse-cache.")
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(payload, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self._file)
        except OSError:
            # A cache we cannot write only costs speed.
            return


def disabled() -> ParseCache:
    return ParseCache(None, {})


def open_cache(git_dir: Path) -> ParseCache:
    file = git_dir / "docsync" / "parse-cache.pickle"
    return ParseCache(file, _load(file))


def _load(file: Path) -> dict[str, model.Document]:
    try:
        payload = _Unpickler(io.BytesIO(file.read_bytes())).load()
    except Exception:  # any failure means: not our cache, rebuild it
        return {}
    if (
        not isinstance(payload, dict)
        or payload.get("magic") != _MAGIC
        or payload.get("format") != _FORMAT
        or payload.get("version") != __version__
        or not isinstance(payload.get("entries"), dict)
    ):
        return {}
    entries: dict[str, model.Document] = payload["entries"]
    return entries
