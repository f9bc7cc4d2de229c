"""The parsed documents of a run, by path, decoded only when read."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field

from ..model import Document
from . import cache as parse_cache
from . import indexed
from .collector import PAUSE_COLLECTOR_FROM, collector_paused
from .indexed import Blob
from .parsing import parse_one
from .stat_index import Source, lacks, source_bytes

_SINGLE_READS = 64

NO_DOCUMENT = b""
"""A packed document that is not in the cache (only its summaries are, see :class:`Kept`):
parsed from the file's bytes when read."""


@dataclass
class Kept:
    """Summaries as the parse cache keeps them, by path, unpacked when read
    (:meth:`docsync.workspace.summaries.Combined.unpack`)."""

    packed: dict[str, Blob] = field(default_factory=dict)
    unpack: Callable[[bytes], Mapping[str, object] | None] | None = None

    def take(self, path: str) -> Mapping[str, object] | None:
        """The path's summaries, once; None when there are none or they do not unpack."""
        blob = self.packed.pop(path, None)
        if blob is None or self.unpack is None:
            return None
        return self.unpack(indexed.data(blob))


class Documents(Mapping[str, Document]):
    """Parsed documents by path, in the order they were asked for.

    Documents that come from the cache stay pickled until read. The first
    few reads unpickle just the document read (a pre-commit run on one file
    reads that file and the files it links to); from the
    ``_SINGLE_READS``-th on, or on iterating, all the rest are unpickled in
    one go (a run that reads most of them is fastest that way). So a run
    whose gates answer from result caches of their own unpickles nothing. An entry that does not unpickle to the
    document it should be is parsed again from the file's bytes.
    ``content_keys`` holds the cache key (the identity of the content) of
    every file that was read, for such result caches. Documents a parse
    worker made stay pickled too, and ``summaries`` holds what the
    summarizer given to :func:`parse_files` made of them in the worker
    (:meth:`made` reads one named summarizer's, see :mod:`.summaries`).
    """

    def __init__(
        self,
        order: Sequence[str],
        ready: dict[str, Document],
        packed: dict[str, tuple[Blob, Source]],
        content_keys: dict[str, str],
        summaries: Mapping[str, object] | None = None,
        kept: Kept | None = None,
    ) -> None:
        self._order = [path for path in order if path in ready or path in packed]
        self._single_reads = 0
        self._ready = ready
        self._packed = packed
        self.content_keys: Mapping[str, str] = content_keys
        self._summaries: dict[str, object] = dict(summaries or {})
        self._kept = kept or Kept()

    @property
    def summaries(self) -> Mapping[str, object]:
        """Every document's summaries, by path (the kept ones unpacked now)."""
        for path in list(self._kept.packed):
            self._summary(path)
        return self._summaries

    def _summary(self, path: str) -> object:
        if path in self._kept.packed:
            taken = self._kept.take(path)  # not ``or``: a mapping's truth would unpack all of it
            self._summaries[path] = {} if taken is None else taken
        return self._summaries.get(path)

    def made(self, name: str) -> Mapping[str, object]:
        """By path, what the summarizer called ``name`` made in the parse workers,
        or kept in the cache from when they did (a document parsed here, taken
        from the cache without summaries, or that it made nothing of, is not in
        it). Kept summaries are unpacked as they are asked for."""
        return _Made(self, name)

    def __getitem__(self, path: str) -> Document:
        if path in self._packed:
            if self._single_reads < _SINGLE_READS:
                self._single_reads += 1
                self._unpack_one(path)
            else:
                self._unpack()
        return self._ready[path]

    def alone(self, path: str) -> Document | None:
        """The document of ``path`` (None for a path not here), read without keeping it and
        without unpickling the others: for a reader of a few documents out of many."""
        if path in self._packed:
            return _unpickled(path, *self._packed[path], self.content_keys.get(path))
        return self._ready.get(path)

    def made_one(self, path: str, name: str) -> object | None:
        summary = self._summary(path)
        return summary.get(name) if isinstance(summary, Mapping) else None

    def _unpack_one(self, path: str) -> None:
        document = _unpickled(path, *self._packed.pop(path), self.content_keys.get(path))
        if document is not None:
            self._ready[path] = document
        else:
            self._order = [p for p in self._order if p != path]

    def packed_source(self, path: str) -> bytes | None:
        """The file's bytes while its document is still pickled (None once it is
        unpickled, or for a path not here): a reader that needs only to know
        whether some text occurs can ask them and leave the document packed."""
        packed = self._packed.get(path)
        return source_bytes(packed[1]) if packed is not None else None

    def packed_without(self, path: str, needle: bytes) -> bool:
        """Whether the document is still pickled and its file's bytes do not hold
        ``needle``: for :data:`~.stat_index.MARKER`, known without reading a file
        this run did not read (:class:`~.stat_index.Unread`)."""
        packed = self._packed.get(path)
        return packed is not None and lacks(packed[1], needle)

    def __contains__(self, path: object) -> bool:
        return path in self._ready or path in self._packed

    def __iter__(self) -> Iterator[str]:
        if self._packed:
            self._unpack()
        return iter(self._order)

    def __len__(self) -> int:
        if self._packed:
            self._unpack()
        return len(self._order)

    def _unpack(self) -> None:
        packed, self._packed = self._packed, {}
        paused = collector_paused() if len(packed) >= PAUSE_COLLECTOR_FROM else nullcontext()
        with paused:
            for path, (blob, data) in packed.items():
                document = _unpickled(path, blob, data, self.content_keys.get(path))
                if document is not None:
                    self._ready[path] = document
        self._order = [path for path in self._order if path in self._ready]


class _Made(Mapping[str, object]):
    """One summarizer's results by path (:meth:`Documents.made`)."""

    def __init__(self, documents: Documents, name: str) -> None:
        self._documents = documents
        self._name = name

    def __getitem__(self, path: str) -> object:
        found = self._documents.made_one(path, self._name)
        if found is None:
            raise KeyError(path)
        return found

    def _all(self) -> dict[str, object]:
        name = self._name
        return {
            path: summary[name]
            for path, summary in self._documents.summaries.items()
            if isinstance(summary, Mapping) and name in summary
        }

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def unpickled(path: str, blob: Blob) -> Document | None:
    """The document of ``path`` that ``blob`` (this run's parse worker's) holds; None
    when it holds none."""
    document = parse_cache.loads(blob) if len(blob) else None
    return document if document is not None and document.path == path else None


def _unpickled(path: str, blob: Blob, source: Source, key: str | None) -> Document | None:
    """A packed document, believed only when it is verifiably the parse of the file's
    bytes (:func:`~.cache.verified`); parsed from its bytes when only its summaries
    were kept, and again when the entry is corrupt, foreign or another file's."""
    document = parse_cache.loads(blob) if len(blob) else None
    if document is not None and (key is None or not parse_cache.verified(document, path, key, source)):
        document = None
    if document is None:
        document = parse_one(path, source_bytes(source)).document
    return document

