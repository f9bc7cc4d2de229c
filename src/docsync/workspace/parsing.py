"""Parsing files into documents, here or in worker processes.

What :mod:`docsync.workspace.load` calls once it knows which files the cache
does not have: each file decoded and parsed once, in parallel across cores
for a large set, with the cyclic garbage collector kept off the documents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import chain, islice
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..config import Config
from ..config_values import worker_cores
from ..model import Document, Finding
from .document_json import encode_document as dumps

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


@dataclass(frozen=True, slots=True)
class _Parsed:
    path: str
    document: Document | None
    problem: Finding | None


def file_problem(path: str, rule: str, message: str, line: int = 1, column: int = 1) -> Finding:
    return Finding("files", rule, path, line, column, message)


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


_Sent = tuple[str, bytes | None, Finding | None, object]
"""What a worker sends back per file: path, encoded document, problem, summary."""

# The worker's summarizer, set once per worker process by _start_worker, and
# its packer when its summaries are kept instead of the documents.
_worker_summarize: Summarize | None = None
_worker_pack: Callable[[object], bytes] | None = None


def _start_worker(summarize: Summarize | None, keep_summaries: bool = False) -> None:
    global _worker_summarize, _worker_pack
    _worker_summarize = summarize
    _worker_pack = summarize.pack if keep_summaries and isinstance(summarize, Packs) else None


def _parse_batch(batch: Sequence[tuple[str, bytes]]) -> list[_Sent]:
    """Parse in a worker. Each document travels back encoded once, in the form
    the cache stores, so the parent neither encodes it again nor decodes it
    until something reads it; with it, its summary when there is a summarizer.
    When the summaries are kept instead (``keep_summaries``), no document is
    encoded: its summaries travel back packed, as the cache stores them."""
    out: list[_Sent] = []
    summarize, pack = _worker_summarize, _worker_pack
    for path, data in batch:
        parsed = parse_one(path, data)
        document = parsed.document
        if document is None or summarize is None:
            out.append((path, dumps(document) if document is not None else None, parsed.problem, None))
        elif pack is not None:
            made = summarize(document)
            out.append((path, None, parsed.problem, Packed(pack(made), made)))
        else:
            out.append((path, dumps(document), parsed.problem, summarize(document)))
    return out


def _parse_forked(summarize: Summarize | None, keep_summaries: bool, batch: Sequence[tuple[str, bytes]]) -> list[_Sent]:
    """:func:`_parse_batch` in a forked worker (:mod:`.forked`), which no pool started."""
    _start_worker(summarize, keep_summaries)
    return _parse_batch(batch)


def _workers(config: Config, pending: int) -> int:
    if pending < _PARALLEL_THRESHOLD:
        return 1
    return max(1, min(worker_cores(config.jobs), pending // 32))


def parse_pending(
    pending: Iterable[tuple[str, bytes]],
    expected: int,
    config: Config,
    summarize: Summarize | None,
    keep_summaries: bool = False,
    started: Callable[[], None] = lambda: None,
) -> Iterator[tuple[str, Document | bytes | None, Finding | None, object]]:
    """Parse results as they come, in no particular order: (path, the document
    or a worker's pickle of it, problem, summary). Documents parsed here get no
    summary. With ``keep_summaries`` a worker sends no document for a file it
    parses whole, and the summary is :class:`Packed`.

    ``pending`` is read as it is needed, largest file first (its bytes are best
    read by the caller meanwhile); ``expected`` is at most how many it holds. All
    of ``pending`` is read before the first result; ``started`` is called then,
    once the workers (if any) are parsing: what the caller does there shares the
    cores with them. Forked workers (:mod:`.forked`) start once every file is
    read; a pool's start once :data:`_PARALLEL_THRESHOLD` files are pending,
    and parse while the rest are read."""
    items = iter(pending)
    first = list(islice(items, _PARALLEL_THRESHOLD))
    workers = _workers(config, len(first) if len(first) < _PARALLEL_THRESHOLD else max(expected, len(first)))
    if workers == 1:
        here = [*first, *items]
        started()
        yield from _parsed_here(here)
        return
    everything = chain(first, items)
    del first  # the chain holds them, until read
    yield from _in_workers(everything, expected, workers, summarize, keep_summaries, started)


def _in_workers(
    pending: Iterator[tuple[str, bytes]],
    expected: int,
    workers: int,
    summarize: Summarize | None,
    keep_summaries: bool,
    started: Callable[[], None],
) -> Iterator[tuple[str, Document | bytes | None, Finding | None, object]]:
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
    size = max(8, min(32, expected // (workers * 8)))
    if forked.can_fork():
        yield from _in_forked(list(pending), size, workers, summarize, keep_summaries, started)
        return
    yield from _in_pool(pending, size, workers, summarize, keep_summaries, started)


def _in_pool(
    pending: Iterator[tuple[str, bytes]],
    size: int,
    workers: int,
    summarize: Summarize | None,
    keep_summaries: bool,
    started: Callable[[], None],
) -> Iterator[tuple[str, Document | bytes | None, Finding | None, object]]:
    """The files parsed by a process pool, in batches of ``size``."""
    from concurrent.futures import ProcessPoolExecutor

    batches: list[Future[list[_Sent]]] = []
    batch: list[tuple[str, bytes]] = []
    with ProcessPoolExecutor(
        max_workers=workers, initializer=_start_worker, initargs=(summarize, keep_summaries)
    ) as pool:
        for path, data in pending:
            batch.append((path, data))
            if len(batch) == size:
                batches.append(pool.submit(_parse_batch, batch))
                batch = []
        if batch:
            batches.append(pool.submit(_parse_batch, batch))
        started()
        for done in batches:
            yield from done.result()


def _in_forked(
    items: list[tuple[str, bytes]],
    size: int,
    workers: int,
    summarize: Summarize | None,
    keep_summaries: bool,
    started: Callable[[], None],
) -> Iterator[tuple[str, Document | bytes | None, Finding | None, object]]:
    """The batches parsed by forked workers (see :mod:`.forked`); any that none
    reported parsed here, as without workers."""
    from . import forked

    batches = [items[k : k + size] for k in range(0, len(items), size)]
    del items  # the batches hold each file's bytes, and let them go as they are done
    done: set[int] = set()
    for index, sent in forked.run(batches, workers, partial(_parse_forked, summarize, keep_summaries), started):
        done.add(index)
        batches[index] = []  # its bytes are the workers' (their copies); the caller keeps what it needs
        yield from sent
    for index, batch in enumerate(batches):
        if index not in done:
            yield from _parsed_here(batch)


def _parsed_here(items: Iterable[tuple[str, bytes]]) -> Iterator[tuple[str, Document | None, Finding | None, None]]:
    """Each of ``items`` parsed in this process, as :func:`parse_pending` yields results."""
    for path, data in items:
        parsed = parse_one(path, data)
        yield path, parsed.document, parsed.problem, None
