"""A very large file parsed in parts across the parse workers.

One file with a hundred thousand links is most of a run, and parsed whole
it keeps one worker busy while the others wait. :mod:`docsync.parse.chunks`
parses it in parts that make exactly the one parse's document, or says that
they cannot; here the parts become jobs for the workers and their results
one entry again: the parts' encodings in one cache entry (joined when the
document is read, :func:`docsync.workspace.cache.loads`), and their link
summaries joined by the summarizer. When a part did not end clean, the file
is parsed whole, here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..model import Document
from . import document_json

if TYPE_CHECKING:
    from ..parse.chunks import Part


@runtime_checkable
class PartSummarize(Protocol):
    """A summarizer that also summarizes a part of a document and joins the parts' summaries."""

    def __call__(self, doc: Document) -> object: ...

    def part(self, doc: Document) -> object:
        """The summary of one part's document (its positions the whole text's)."""
        ...

    def join(self, parts: Sequence[object], outline: Document) -> object:
        """The whole document's summary from its parts', in order; ``outline``
        is the whole document's headings, anchors and footnote ids (the rest empty)."""
        ...


@dataclass(frozen=True, slots=True)
class PartJob:
    path: str
    data: bytes
    index: int
    count: int
    part: Part


@dataclass(frozen=True, slots=True)
class PartDone:
    """What a worker sends back for one part: the part's encoding, its summary,
    its outline (see :meth:`PartSummarize.join`) and whether it ended clean."""

    job: PartJob
    blob: bytes
    summary: object
    outline: Document
    clean: bool


def jobs(path: str, data: bytes, workers: int, summarize: object) -> list[PartJob]:
    """The parts to parse ``data`` in, one per worker; none when it is not worth
    it, cannot be split, or the summarizer cannot summarize parts."""
    # Imported here, as in parsing.py: a run served by the caches imports no parser,
    # and the parser only for a file large enough (the workers import it themselves).
    from ..parse import chunks

    if workers < 2 or len(data) < chunks.SPLIT_FROM:
        return []
    if summarize is not None and not isinstance(summarize, PartSummarize):
        return []
    from ..parse.markdown import SourceError, decode

    try:
        text, _, _ = decode(data)
    except SourceError:
        return []
    found = chunks.split(text, workers)
    return [PartJob(path, data, i, len(found), part) for i, part in enumerate(found)]


def parse(job: PartJob, summarize: object) -> PartDone:
    """In a worker: one part parsed, encoded and summarized."""
    from ..parse import chunks
    from ..parse.markdown import decode

    text, newline, bom = decode(job.data)
    document, clean = chunks.parse_part(job.path, text, newline, bom, job.part)
    summary = summarize.part(document) if clean and isinstance(summarize, PartSummarize) else None
    outline = dataclasses.replace(
        document, text="", line_starts=(), links=(), definitions=(), code_spans=(),
        blocks=(), paragraphs=(), math_spans=(), used_labels=frozenset(),
    )
    # The text and line starts travel once, with the first part (chunks.merge).
    kept = document if job.index == 0 else dataclasses.replace(document, text="", line_starts=())
    blob = document_json.encode_document(kept) if clean else b""
    return PartDone(job, blob, summary, outline, clean)


Joined = tuple[str, bytes | None, object]
"""A file whose parts are all in: path, the cache entry of its document (None
when a part was not clean) and its summary."""


def join(done: Sequence[PartDone], summarize: object) -> Joined:
    """One file's parts, in any order, as one entry."""
    ordered = sorted(done, key=lambda part: part.job.index)
    path = ordered[0].job.path
    if not all(part.clean for part in ordered):
        return path, None, None
    blob = document_json.encode_parts([part.blob for part in ordered])
    summary = None
    if isinstance(summarize, PartSummarize):
        from ..parse import chunks

        outline = chunks.merge([part.outline for part in ordered])
        summary = summarize.join([part.summary for part in ordered], outline)
    return path, blob, summary


Collect = Callable[[PartDone], Joined | None]


def collector(summarize: object) -> Collect:
    """Takes parts as they come; returns a file's entry once its last part is in."""
    waiting: dict[str, list[PartDone]] = {}

    def collect(done: PartDone) -> Joined | None:
        have = waiting.setdefault(done.job.path, [])
        have.append(done)
        if len(have) < done.job.count:
            return None
        del waiting[done.job.path]
        return join(have, summarize)

    return collect
