"""Caches of what gates computed, beside the parse cache under ``<git dir>/docsync/``.

A gate's findings per document for one exact set of inputs (:class:`ResultCache`),
and the paths each document's links resolve to (:class:`TargetCache`). Both
keep the parse cache's distrust: plain JSON (:mod:`.plain`), every value checked
for its shape, anything else ignored and rebuilt.
"""

from __future__ import annotations

import functools
import gc
import hashlib
from pathlib import Path
from typing import Any, TypeGuard

from .. import model
from . import indexed, plain
from .cache import fingerprint
from .collector import collector_off
from .indexed import Blob

_RESULTS_MAGIC = b"docsync-gate-results 5\n"
_RESULTS_KEPT = 4  # runs whose results are kept, newest first


Dependencies = tuple[tuple[str, str | None], ...]
"""Files a gate read beyond the run's own inputs: (path, digest of its bytes or None)."""


class ResultCache:
    """A gate's findings per document for one exact set of inputs (the run key).

    One file, each run's findings an entry of their own (:mod:`.indexed`): a run
    reads its own and not the others'. Same distrust as the parse cache: plain
    JSON, findings made only from rows of the right shape.
    """

    def __init__(self, file: Path, runs: dict[str, tuple[Dependencies, Blob]]) -> None:
        self._file = file
        self._runs = runs

    @classmethod
    def open(cls, git_dir: Path, gate: str) -> ResultCache:
        file = git_dir / "docsync" / f"{gate}-results"
        return cls(file, _load_runs(file))

    def get(self, run: str) -> tuple[Dependencies, dict[str, tuple[model.Finding, ...]]] | None:
        entry = self._runs.get(run)
        if entry is None:
            return None
        dependencies, blob = entry
        with collector_off():
            findings = plain.decode_findings(indexed.data(blob))
        if findings is None:  # corrupt or foreign: recompute
            return None
        if len(blob) >= _FREEZE_FROM:
            gc.freeze()
        return dependencies, findings

    def put(
        self, run: str, dependencies: Dependencies, findings: dict[str, tuple[model.Finding, ...]]
    ) -> None:
        kept = [key for key in self._runs if key != run][: _RESULTS_KEPT - 1]
        self._runs = {run: (dependencies, plain.encode_findings(findings)), **{k: self._runs[k] for k in kept}}
        header = {"fingerprint": fingerprint(), "dependencies": {k: v[0] for k, v in self._runs.items()}}
        indexed.write(self._file, _RESULTS_MAGIC, header, {k: v[1] for k, v in self._runs.items()})


_FREEZE_FROM = 1 << 20
"""Bytes of encoded findings (some 30,000 of them) from which the collector is told to
leave everything there is alone from then on (``gc.freeze``). They live to the end of
the run, none is in a cycle, and each later collection of the oldest generation
would walk them again: a warm run on 80,000 findings spent 0.05 s of its 0.4 s so.
A frozen object is still freed when its last reference goes."""


def _load_runs(file: Path) -> dict[str, tuple[Dependencies, Blob]]:
    found = indexed.read(file, _RESULTS_MAGIC)
    if found is None:
        return {}
    header, stored = found
    dependencies = header.get("dependencies")
    if header.get("fingerprint") != fingerprint():
        return {}  # another docsync version's: of no use, not damaged
    if (
        not isinstance(dependencies, dict)
        or dependencies.keys() != stored.keys()
        or not all(_dependencies(d) for d in dependencies.values())
    ):
        plain.ignored(file, "not a result cache docsync wrote")
        return {}
    return {
        run: (tuple((item[0], item[1]) for item in dependencies[run]), blob) for run, blob in stored.items()
    }


def _dependencies(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(item, list)
        and len(item) == 2
        and isinstance(item[0], str)
        and (item[1] is None or isinstance(item[1], str))
        for item in value
    )


@functools.cache
def source_digest(*modules: str) -> str:
    """Digest of docsync modules' source files, for a gate's result-cache key: an
    edited gate in an editable install must not be served its old self's findings."""
    digest = hashlib.blake2b(digest_size=20)
    for module in modules:
        try:
            digest.update(Path(module).read_bytes())
        except OSError:
            digest.update(module.encode())
    return digest.hexdigest()


def file_digest(path: Path) -> str | None:
    """Digest of a file's bytes, None when it cannot be read (a dependency's state)."""
    try:
        data = path.read_bytes()
    except (OSError, ValueError):
        return None
    return hashlib.blake2b(data, digest_size=20).hexdigest()


_TARGETS_MAGIC = "docsync-link-targets"


def _ours(payload: object, file: Path, magic: str) -> TypeGuard[dict[str, Any]]:
    """Whether ``payload`` is a JSON object of docsync's under ``magic`` with its entries;
    noted as ignored when it is something else (nothing: the file is missing)."""
    if isinstance(payload, dict) and payload.get("magic") == magic and isinstance(payload.get("entries"), dict):
        return True
    if payload is not None:
        plain.ignored(file, "not a cache docsync wrote")
    return False


class TargetCache:
    """The repository paths each document's links resolve to, by path and content key:
    what ``--changed`` and ``--staged`` ask of every file ("does it link into what
    changed?") without decoding a single document on a warm run. Plain data only."""

    def __init__(self, file: Path, entries: dict[str, tuple[str, ...]]) -> None:
        self._file = file
        self._entries = entries
        self._added = False

    @classmethod
    def open(cls, git_dir: Path) -> TargetCache:
        file = git_dir / "docsync" / "link-targets.json"
        payload = plain.read_json(file)  # missing, corrupt or foreign: start afresh
        if not _ours(payload, file, _TARGETS_MAGIC) or payload.get("fingerprint") != fingerprint():
            return cls(file, {})
        entries = {
            key: tuple(value)
            for key, value in payload["entries"].items()
            if isinstance(value, list) and all(isinstance(v, str) for v in value)
        }
        return cls(file, entries)

    @staticmethod
    def key(path: str, content_key: str) -> str:
        return f"{path}\0{content_key}"

    def get(self, key: str) -> tuple[str, ...] | None:
        return self._entries.get(key)

    def put(self, key: str, targets: tuple[str, ...]) -> None:
        self._entries[key] = targets
        self._added = True

    def save(self, keep: set[str]) -> None:
        """Write the entries in ``keep`` (the files as they are now), if anything was added."""
        if not self._added:
            return
        kept = {k: v for k, v in self._entries.items() if k in keep}
        plain.write_json(self._file, {"magic": _TARGETS_MAGIC, "fingerprint": fingerprint(), "entries": kept})


_ANCHORS_MAGIC = "docsync-anchors"


class AnchorCache:
    """Each document's anchors (lowercase → as written) by content key: what the links
    gate asks of every target a link names, answered without unpickling the target on
    a run that checks links again (a staged rename: the selected files' links are
    checked against every other file's anchors). ``code`` is a digest of the code
    that computes anchors; a cache made by other code is not read. Plain data only."""

    def __init__(self, file: Path, code: str, entries: dict[str, dict[str, str]]) -> None:
        self._file = file
        self._code = code
        self._entries = entries

    @classmethod
    def open(cls, git_dir: Path, code: str) -> AnchorCache:
        file = git_dir / "docsync" / "anchors.json"
        payload = plain.read_json(file)  # missing, corrupt or foreign: start afresh
        if (
            not _ours(payload, file, _ANCHORS_MAGIC)
            or payload.get("fingerprint") != fingerprint()
            or payload.get("code") != code
        ):
            return cls(file, code, {})
        entries = {
            key: value
            for key, value in payload["entries"].items()
            if isinstance(value, dict) and all(type(v) is str for v in value.values())
        }
        return cls(file, code, entries)

    def get(self, key: str) -> dict[str, str] | None:
        return self._entries.get(key)

    def save(self, anchors: dict[str, dict[str, str]]) -> None:
        """Keep exactly ``anchors`` (the files as they are now, by content key), written
        only when they are other files than those read (a key names its content)."""
        if anchors.keys() == self._entries.keys():
            return
        self._entries = anchors
        payload = {"magic": _ANCHORS_MAGIC, "fingerprint": fingerprint(), "code": self._code, "entries": anchors}
        plain.write_json(self._file, payload)
