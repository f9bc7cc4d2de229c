"""Markdown files rewritten for a migration: records, other documents, their links and ids.

References are rewritten by :func:`docsync.rewrite.references.rewrite_document`,
which verifies each result by re-parsing it. A link into a section that
became a record of its own is first pointed at that record here, since the
rewriter's moves are per file.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import replace
from itertools import groupby
from urllib.parse import unquote

from ...gates.links.check import link_targets, resolve_url
from ...model import Document, Edit, apply_edits
from ...parse.native import parse
from ...rewrite.references import RewriteError, rewrite_parsed
from ...write.writer import FileWrite
from ..model import Problem, Topic
from .assemble import Assembled, Mispredicted, join_chunks
from .routes import Routes
from .stats import Tally


def redirect_sections(
    doc: Document, redirects: Mapping[tuple[str, str], tuple[str, str]]
) -> Document:
    """Point links into sections that became records of their own at those records."""
    if not redirects:
        return doc
    edits: list[Edit] = []
    for item, url in link_targets(doc):
        span = item.dest_span
        found = resolve_url(doc.path, url)
        if found is None or span is None or doc.text[span.start : span.end] != item.destination:
            continue  # only destinations whose position the parser knows exactly
        target = redirects.get((found[0], unquote(found[1]).lower()))
        if target is not None:
            relative = posixpath.relpath(target[0], posixpath.dirname(doc.path) or ".")
            edits.append(Edit(span, relative + (f"#{target[1]}" if target[1] else "")))
    if not edits:
        return doc
    return parse(doc.path, apply_edits(doc.text, edits), doc.newline, doc.bom)


def rewrite_markdown(doc: Document, new_path: str, routes: Routes, tally: Tally) -> Document | None:
    """``doc`` rewritten for ``new_path`` (parsed there); None (and a problem) when it cannot be
    rewritten safely."""
    try:
        after, stats = rewrite_parsed(
            redirect_sections(doc, routes.redirects),
            old_path=doc.path,
            new_path=new_path,
            moves=routes.moves,
            fragments=routes.fragments,
            ids=routes.ids,
            exists=routes.exists,
        )
    except RewriteError as exc:
        tally.problems.append(Problem(doc.path, f"cannot rewrite safely: {exc.reason}"))
        return None
    tally.add(new_path, stats, routes.before, doc)
    return after


def topic_text(
    topic: Topic, assembled: Assembled, routes: Routes, tally: Tally, source: Document | None = None
) -> tuple[str, Document | None]:
    """The topic's record text, and that text parsed at the topic's path when one rewrite
    made all of it.

    Consecutive chunks of one source (the header and the body of a record that
    is not merged) are rewritten as one document: their links are relative to
    the same file, and a reference the header uses may be defined in the body.
    """
    texts: list[str] = []
    last: Document | None = None
    known = assembled.parsed
    for old_path, group in groupby(assembled.chunks, key=lambda chunk: chunk.old_path):
        chunks = list(group)
        text = join_chunks(chunk.text for chunk in chunks)
        # A topic of one source is parsed once: the whole text, to find its headings.
        if known and known.text == text:
            doc = replace(known, path=old_path)
        else:
            doc = parse(old_path, text)
        if assembled.predicted is not None:
            _check_prediction(assembled, doc)
        last = rewrite_markdown(doc, topic.path, routes, tally)
        texts.append(text if last is None else last.text)
    whole = join_chunks(texts)
    return whole, last if len(texts) == 1 and last is not None and last.text == whole else None


def _check_prediction(assembled: Assembled, doc: Document) -> None:
    """The routes were made from :attr:`Assembled.predicted`: they hold only if the whole
    text parsed to exactly those headings."""
    if doc.text != assembled.text or tuple(h.slug for h in doc.headings) != assembled.predicted:
        raise Mispredicted(doc.path)


def other_documents(
    documents: Mapping[str, Document], skip: set[str], routes: Routes, tally: Tally
) -> Iterator[tuple[FileWrite, Document]]:
    """Each document whose references change: its write, and its new text parsed."""
    for path in sorted(documents):
        if path in skip:
            continue
        doc = documents[path]
        after = rewrite_markdown(doc, path, routes, tally)
        if after is not None and after.text != doc.text:
            yield FileWrite(path, after.text, doc.newline, doc.bom), after
