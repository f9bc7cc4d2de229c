"""Parsing files into documents, here or in worker processes.

What :mod:`docsync.workspace.load` calls once it knows which files the cache
does not have: each file decoded and parsed once, in parallel across cores
for a large set, with the cyclic garbage collector kept off the documents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..config import Config
from ..config_values import worker_cores
from ..model import Document, Finding
from .cache import ParseCache
from .document_json import encode_document as dumps
from .files import bytes_of, file_problem
from .stat_index import MARKER

if TYPE_CHECKING:
    from concurrent.futures import Future

_PARALLEL_THRESHOLD = 64


Summarize = Callable[[Document], object]
"""Made in a parse worker beside each document it parses (see :func:`docsync.workspace.load.parse_files`)."""


@runtime_checkable
class Packs(Protocol):
    """A summarizer whose summaries the parse cache keeps in place of the document
    (:meth:`docsync.workspace.summaries.Combined.pack`)."""

    def __call__(self, doc: Document) -> object: ...

    def context(self) -> str | None:
        """What the summaries depend on besides the document; None: keep documents."""
        ...

    def pack(self, made: object) -> bytes: ...

    def unpack(self, blob: bytes) -> dict[str, object] | None: ...


@dataclass(frozen=True, slots=True)
class Packed:
    """A document's summaries as a worker sends them when no document is kept: the
    bytes the parse cache stores, and the summaries themselves for this run (pickled
    across in C, where unpacking the bytes would walk them in Python)."""

    blob: bytes
    made: object


Result = tuple[str, str | None, bool, Document | bytes | None, Finding | None, object]
"""What the parse gives per file, in a worker or here: the path; the content key of the
bytes read (None: the file could not be read, and the problem says why); whether they
hold :data:`~.stat_index.MARKER`; the document (a worker's: encoded, or None when its
summaries are :class:`Packed`); the problem; the summary (None for a file parsed here).
A file that was read but neither parsed nor unreadable (no document, no problem) is one
the parse cache holds (:meth:`Reader.cached`)."""


@dataclass(frozen=True, slots=True)
class Reader:
    """How whoever parses a file reads it (a parse worker, or this process): from the
    work tree at ``root``, with the one helper every Markdown file is read by
    (:func:`~.files.bytes_of`, at most ``cap`` bytes), after the caller took its stat. The file's content
    key is made of the bytes read; a file whose key the parse cache holds
    (``known``: its document, or its summaries under ``context``) is not parsed.

    So the caller never holds the tree's bytes: a worker reads its own files, and
    sends back what the caller needs of them (:data:`Result`)."""

    root: str
    cap: int
    known: frozenset[str] = frozenset()
    context: str | None = None

    def read(self, path: str) -> tuple[Result, bytes | None]:
        """The file read: its :data:`Result` when it is not to be parsed (it cannot be
        read, or the cache holds it), else its bytes, beside the path, content key and
        marker that begin its result."""
        data = bytes_of(self.root, path, self.cap)
        if isinstance(data, Finding):
            return (path, None, False, None, data, None), None
        key = ParseCache.key(path, data)
        return (path, key, MARKER in data, None, None, None), None if self.cached(key) else data

    def cached(self, key: str) -> bool:
        """Whether the parse cache holds the content ``key``'s document or summaries."""
        if key in self.known:
            return True
        context = self.context
        return ParseCache.summaries_key(key, context) in self.known if context else False


@dataclass(frozen=True, slots=True)
class _Parsed:
    path: str
    document: Document | None
    problem: Finding | None


def parse_one(path: str, data: bytes) -> _Parsed:
    # Imported here: a run served by the caches parses nothing and imports no parser.
    from ..parse.native import parse
    from ..parse.source import SourceError, decode, text_parts

    try:
        text, newline, bom = decode(data)
    except SourceError as exc:
        problem = file_problem(path, exc.rule, exc.message, exc.line, exc.column)
        if exc.rule != NOT_UTF8:
            return _Parsed(path, None, problem)
        # GitHub shows such a file with U+FFFD for each bad byte: checked as shown, and
        # never rewritten (the writer refuses to replace bytes that do not decode).
        text, newline, bom = text_parts(data.decode("utf-8", "replace"))
        return _Parsed(path, parse(path, text, newline, bom), _as_shown(problem))
    return _Parsed(path, parse(path, text, newline, bom), None)


NOT_UTF8 = "F001"


def _as_shown(problem: Finding) -> Finding:
    return replace(
        problem,
        message=f"{problem.message}; checked as GitHub shows it (U+FFFD for each bad byte), never rewritten",
        suggestion="save the file as UTF-8",
    )


# The worker's reader and summarizer, set once per worker process by _start_worker,
# and its packer when its summaries are kept instead of the documents.
_worker_reader = Reader("", 0)
_worker_summarize: Summarize | None = None
_worker_pack: Callable[[object], bytes] | None = None


def _start_worker(reader: Reader, summarize: Summarize | None, keep_summaries: bool = False) -> None:
    global _worker_reader, _worker_summarize, _worker_pack
    _worker_reader = reader
    _worker_summarize = summarize
    _worker_pack = summarize.pack if keep_summaries and isinstance(summarize, Packs) else None


def _parse_batch(batch: Sequence[str]) -> list[Result]:
    """Read and parse in a worker. Each document travels back encoded once, in the
    form the cache stores, so the parent neither encodes it again nor decodes it
    until something reads it; with it, its summary when there is a summarizer.
    When the summaries are kept instead (``keep_summaries``), no document is
    encoded: its summaries travel back packed, as the cache stores them."""
    out: list[Result] = []
    reader, summarize, pack = _worker_reader, _worker_summarize, _worker_pack
    for path in batch:
        read, data = reader.read(path)
        if data is None:
            out.append(read)
            continue
        parsed = parse_one(path, data)
        document, problem = parsed.document, parsed.problem
        if document is None or summarize is None:
            out.append((*read[:3], dumps(document) if document is not None else None, problem, None))
        elif pack is not None:
            made = summarize(document)
            out.append((*read[:3], None, problem, Packed(pack(made), made)))
        else:
            out.append((*read[:3], dumps(document), problem, summarize(document)))
    return out


def _parse_forked(
    reader: Reader, summarize: Summarize | None, keep_summaries: bool, batch: Sequence[str]
) -> list[Result]:
    """:func:`_parse_batch` in a forked worker (:mod:`.forked`), which no pool started."""
    _start_worker(reader, summarize, keep_summaries)
    return _parse_batch(batch)


def _workers(config: Config, pending: int) -> int:
    if pending < _PARALLEL_THRESHOLD:
        return 1
    return max(1, min(worker_cores(config.jobs), pending // 32))


def parse_pending(
    paths: Sequence[str],
    reader: Reader,
    config: Config,
    summarize: Summarize | None,
    keep_summaries: bool = False,
    started: Callable[[], None] = lambda: None,
) -> Iterator[Result]:
    """Each of ``paths`` (best largest file first) read by ``reader`` and parsed, the
    results as they come, in no particular order (:data:`Result`). Documents parsed
    here get no summary. With ``keep_summaries`` a worker sends no document for a
    file it parses whole, and the summary is :class:`Packed`.

    ``started`` is called once the workers (if any) are parsing: what the caller
    does there shares the cores with them. The workers read their own files, so
    this process never holds the bytes of the files they parse."""
    workers = _workers(config, len(paths))
    if workers == 1:
        started()
        yield from _parsed_here(paths, reader)
        return
    yield from _in_workers(paths, reader, workers, summarize, keep_summaries, started)


def _in_workers(
    paths: Sequence[str],
    reader: Reader,
    workers: int,
    summarize: Summarize | None,
    keep_summaries: bool,
    started: Callable[[], None],
) -> Iterator[Result]:
    # Imported here: a run served by the caches parses nothing and imports no parser,
    # and multiprocessing is a startup cost a cached run never needs (nor the process
    # pool, which forked workers never need: see _in_pool).
    import multiprocessing

    from ..parse.native import prepare
    from . import forked

    if multiprocessing.get_start_method() == "fork":
        prepare()  # inherited by the workers: built once here, not once in each of them
    share = getattr(summarize, "share", None)
    if share is not None:
        share()  # what the summarizers share among the workers, made before they start

    # Largest files first and small batches keep both cores busy to the end
    # (the last batch, of the smallest files, is all that can leave a worker idle).
    size = max(8, min(32, len(paths) // (workers * 8)))
    batches = [paths[k : k + size] for k in range(0, len(paths), size)]
    if forked.can_fork():
        yield from _in_forked(batches, reader, workers, summarize, keep_summaries, started)
        return
    yield from _in_pool(batches, reader, workers, summarize, keep_summaries, started)


def _in_pool(
    batches: list[Sequence[str]],
    reader: Reader,
    workers: int,
    summarize: Summarize | None,
    keep_summaries: bool,
    started: Callable[[], None],
) -> Iterator[Result]:
    """The batches parsed by a process pool."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(
        max_workers=workers, initializer=_start_worker, initargs=(reader, summarize, keep_summaries)
    ) as pool:
        done: list[Future[list[Result]]] = [pool.submit(_parse_batch, batch) for batch in batches]
        started()
        for batch in done:
            yield from batch.result()


def _in_forked(
    batches: list[Sequence[str]],
    reader: Reader,
    workers: int,
    summarize: Summarize | None,
    keep_summaries: bool,
    started: Callable[[], None],
) -> Iterator[Result]:
    """The batches parsed by forked workers (see :mod:`.forked`); any that none
    reported parsed here, as without workers."""
    from . import forked

    done: set[int] = set()
    work = partial(_parse_forked, reader, summarize, keep_summaries)
    for index, sent in forked.run(batches, workers, work, started):
        done.add(index)
        yield from sent
    for index, batch in enumerate(batches):
        if index not in done:
            yield from _parsed_here(batch, reader)


def _parsed_here(paths: Iterable[str], reader: Reader) -> Iterator[Result]:
    """Each of ``paths`` read and parsed in this process, as :func:`parse_pending` yields results."""
    for path in paths:
        read, data = reader.read(path)
        if data is None:
            yield read
        else:
            parsed = parse_one(path, data)
            yield *read[:3], parsed.document, parsed.problem, None
