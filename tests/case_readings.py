"""The case files (every Markdown file of the tests, the docs and the README), parsed once
per test process, and the wrap gate's full reading of their paragraphs, made once.

The wrap tests compare the gate with a reference (the full reading, ``analyse``, of
every paragraph that may break a convention) on the case files under each width,
strictness and scope. The full reading of a paragraph depends on none of those, so
:func:`reference_reading` lets a reference read each paragraph once and reuse it under
every other configuration. Only references read through it: the gate under test reads
each paragraph itself, as it always does.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from docsync.config import Config
from docsync.gates.wrap import violations as gate
from docsync.gates.wrap.count import Breaks, document_breaks
from docsync.gates.wrap.prose import DocumentIndex, Prose
from docsync.gates.wrap.reading import analyse
from docsync.model import Document, Paragraph
from docsync.parse.native import parse

ROOT = Path(__file__).resolve().parent.parent
CASE_FILES = sorted(
    p
    for p in [*(ROOT / "tests").rglob("*.md"), *(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]
    if p.is_file()
)


@functools.cache
def case_documents() -> tuple[Document, ...]:
    """Every case file, parsed, named by its path from the repository's root."""
    return tuple(
        parse(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")) for path in CASE_FILES
    )


_READINGS: dict[tuple[str, Paragraph, bool], Prose | None] = {}


def _read_once(
    doc: Document, para: Paragraph, index: DocumentIndex | None = None, *, sentences: bool = True
) -> Prose | None:
    key = (doc.path, para, sentences)
    if key not in _READINGS:
        _READINGS[key] = analyse(doc, para, index, sentences=sentences)
    return _READINGS[key]


@contextmanager
def reference_reading() -> Iterator[None]:
    """Within: ``prose_of`` reads each case-file paragraph in full once per process.
    Use it around a reference's call on :func:`case_documents` only (the memo is keyed
    by the document's path, which only the case files keep unique)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gate, "analyse", _read_once)
        yield


_BREAKS: dict[tuple[str, str], Breaks] = {}


def case_breaks(doc: Document, config: Config) -> Breaks:
    """:func:`~docsync.gates.wrap.count.document_breaks` of a case file, computed once per
    process for each configuration: init's count is the property under test in
    ``test_wrapcount`` and the exact count the hint is held to in ``test_wrap_hint``, on the
    same documents and scopes. It is a function of the document and the configuration, so
    either module's call answers the other's (keyed by the case file's path, unique among
    the case files, and the configuration's fields)."""
    key = (doc.path, repr(config))
    if key not in _BREAKS:
        _BREAKS[key] = document_breaks(doc, config)
    return _BREAKS[key]
