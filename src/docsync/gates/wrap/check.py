"""Gate ``wrap``: prose paragraphs follow the repository's wrap convention.

``wrap = "none"`` wants one physical line per paragraph, a width wants lines
no wider than that, ``"sentence"`` wants one sentence per line, ``"off"``
checks nothing. Only paragraph text is checked: headings, tables, code,
HTML blocks, front matter and definitions are never reported. The analysis
lives in :mod:`docsync.gates.wrap.reading`, shared with the fixer, so that this gate
passes exactly when ``docsync fix`` would change nothing.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping, Sequence
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING

from ...config import Config
from ...model import Document, Finding, Severity, constructor
from ...workspace.cache import fingerprint
from ...workspace.documents import Documents
from ...workspace.load import MARKDOWN_SUFFIXES, Workspace
from ...workspace.results import ResultCache, source_digest

if TYPE_CHECKING:
    from ...write.writer import FileWrite

__all__ = ["GATE", "Summarizer", "check", "check_workspace", "keep_wrapped"]

GATE = "wrap"
"""The gate's name (``violations.GATE`` too; this module imports the analysis only when it runs)."""

_FIX = "run `docsync fix`"
# The modules a document's findings depend on, besides this one (for the cache key),
# named by file: a warm run, whose findings all come from the cache, imports none of them.
_READING = (
    "boundaries", "display", "fields", "joined", "plans", "prose", "reading", "rooms", "scan",
    "sentences", "violations", "width",
)


Row = tuple[str, int, int, int]
"""One finding as the parse workers send it back: rule, line, column and the
number its message quotes. Small tuples of strings and numbers pickle several
times faster than findings, and the main process words each message once."""


_row_order = itemgetter(1, 2, 0)
"""The findings' order of rows: line, column, rule."""


@functools.lru_cache(maxsize=4096)
def _worded(rule: str, measured: int, wrap: int | str) -> str:
    """The message, one string object per wording: a repository's many findings share a
    few, and a shared string is pickled into the result cache once, read back once."""
    if rule == "W001":
        return (
            f"paragraph is hard-wrapped over {measured} lines; "
            f'wrap = "none" wants one line per paragraph: join the lines ({_FIX})'
        )
    if rule == "W002":
        return (
            f"line is {measured} columns wide, over the limit of {wrap}; "
            f"re-wrap the paragraph ({_FIX})"
        )
    if rule == "W003":
        return f"a second sentence starts on this line; start it on a new line ({_FIX})"
    if rule == "W004":
        return f"sentence continues on the next line; join the lines ({_FIX})"
    return (
        f"line is {measured} columns wide, over the limit of {wrap}, "
        "with no place to break it (long URL, code span or word); shorten it or use a "
        "reference link"
    )


def rows(doc: Document, config: Config) -> list[Row]:
    """What :func:`check` reports for ``doc``, as rows in the findings' order. The last
    document's are kept: in a parse worker of a run without config, the convention hint
    counts the rows the gate's own summarizer has just made of the same document."""
    for last, same_config, made in _last_rows:
        if last is doc and same_config is config:
            return list(made)
    found = _rows(doc, config)
    _last_rows[:] = [(doc, config, tuple(found))]
    return found


_last_rows: list[tuple[Document, Config, tuple[Row, ...]]] = []
"""The last document and config :func:`rows` read, and the rows it made of them."""


def _rows(doc: Document, config: Config) -> list[Row]:
    if config.wrap == "off":
        return []
    if config.wrap == "none":
        from .violations import joined_rows

        return joined_rows(doc, config)
    if isinstance(config.wrap, int):
        from .width import width_rows

        return width_rows(doc, config)
    from .violations import document_violations

    found: list[Row] = []
    for violation in document_violations(doc, config):
        line, column = doc.position(violation.offset)
        found.append((violation.rule, line, column, violation.measured))
    return sorted(found, key=_row_order)


_new_finding = constructor(Finding)  # a frozen dataclass's own __init__ takes three times as long


def _worded_rows(path: str, found: Sequence[Row], config: Config) -> list[Finding]:
    wrap = config.wrap
    new, worded, error = _new_finding, _worded, Severity.ERROR
    return [
        new(GATE, rule, path, line, column, worded(rule, measured, wrap), None if rule == "W005" else "docsync fix", error)
        for rule, line, column, measured in found
    ]


def check(doc: Document, config: Config) -> list[Finding]:
    """Findings for every paragraph of ``doc`` that breaks ``config.wrap``."""
    return _worded_rows(doc.path, rows(doc, config), config)


class Summarizer:
    """:func:`rows` in the parse workers, on the selected documents, under the
    workspace's config: what :func:`check_workspace` then reads instead of the
    documents (:mod:`docsync.workspace.summaries`)."""

    def __init__(self, workspace: Workspace) -> None:
        self._config = workspace.config
        self._selected = frozenset(workspace.selected)
        self.context = _run_key(workspace.config)
        """The rows depend on the document, the config and this gate's code alone, so the
        parse cache may keep them in place of the document (:class:`~docsync.workspace.summaries.Kept`)."""

    def __call__(self, doc: Document) -> tuple[Row, ...] | None:
        if doc.path not in self._selected or self._config.wrap == "off":
            return None
        return tuple(rows(doc, self._config))

    def pack(self, result: object) -> object:
        assert isinstance(result, tuple)
        return result

    def unpack(self, data: object) -> tuple[Row, ...] | None:
        """:meth:`pack`'s rows back, checked row by row."""
        if type(data) is not tuple:
            return None
        if not all(_is_row(row) for row in data):
            return None
        return data


_RULES = frozenset({"W001", "W002", "W003", "W004", "W005"})


def _is_row(row: object) -> bool:
    return (
        type(row) is tuple
        and len(row) == 4
        and type(row[0]) is str
        and row[0] in _RULES
        and all(type(n) is int and n >= 0 for n in row[1:])
        and row[1] >= 1
        and row[2] >= 1
    )



def _findings(workspace: Workspace, path: str, made: Mapping[str, object]) -> tuple[Finding, ...]:
    """A selected document's findings: the parse worker's, or checked here."""
    kept = made.get(path)
    if isinstance(kept, tuple):
        return tuple(_worded_rows(path, kept, workspace.config))
    doc = workspace.documents.get(path)
    return tuple(check(doc, workspace.config)) if doc is not None else ()


def check_workspace(workspace: Workspace) -> list[Finding]:
    """:func:`check` on every selected document, through a result cache.

    A document's wrap findings depend on its content and the config alone,
    so they are cached by the document's content key, under a key for the
    config and this gate's code: a run on an unchanged tree reads no
    document at all, and an edit re-checks only the files it touched. On a
    cold run the parse workers made the findings (:class:`Summarizer`), so
    no document is read here either.
    """
    config = workspace.config
    documents = workspace.documents
    if config.wrap == "off":
        return []
    made = documents.made(GATE) if isinstance(documents, Documents) else {}
    if not config.cache or not isinstance(documents, Documents):
        return [f for path in workspace.selected if path in documents for f in _findings(workspace, path, made)]
    store = ResultCache.open(workspace.git_dir, GATE)
    run = _run_key(config)
    known = store.get(run)
    earlier = known[1] if known is not None else {}
    keys = documents.content_keys
    found: dict[str, tuple[Finding, ...]] = {}
    for path in workspace.selected:
        key = keys.get(path)
        if key is None or path not in documents:
            continue
        cached = earlier.get(key)
        found[key] = cached if cached is not None else _findings(workspace, path, made)
    if any(key not in earlier for key in found):
        current = set(keys.values())
        kept = {key: hit for key, hit in earlier.items() if key in current}
        store.put(run, (), {**kept, **found})
    return [f for path in workspace.selected if (key := keys.get(path)) in found for f in found[key]]


def _run_key(config: Config) -> str:
    """What a document's findings depend on besides its content: config and code."""
    sources = source_digest(__file__, *(str(Path(__file__).with_name(f"{m}.py")) for m in _READING))
    key = f"{sources}\0{fingerprint()}\0{config!r}"
    return hashlib.blake2b(key.encode(), digest_size=20).hexdigest()


def keep_wrapped(
    before: Document | None, write: FileWrite, config: Config, parsed: Document | None = None
) -> FileWrite:
    """``write`` with the paragraphs its edit changed re-wrapped, where they now break the wrap.

    A bare id that became a link, or a longer relative path, can push a line
    of hard-wrapped prose past the width; such a paragraph is re-wrapped, as
    ``docsync fix`` would, so that ``docsync check`` passes right after a
    migration or a move. A paragraph the edit did not change keeps every
    byte, even when it breaks the convention already: that is the user's
    business, and re-wrapping it would bury the edit in an unreviewable diff.
    ``parsed``, when given, is ``write`` already parsed (its text, path, line
    ends and byte-order mark), so it is not parsed again.
    """
    from ...write.writer import FileWrite
    from .fix import fix_document

    if "wrap" not in config.gates or config.wrap == "off":
        return write
    if not write.path.lower().endswith(MARKDOWN_SUFFIXES):
        return write
    if before is not None and not isinstance(config.wrap, int):
        return write  # a rewritten reference adds no line end: only a width can be broken
    after = _parsed(parsed, write)
    if not check(after, config):
        return write
    unchanged = {p.content for p in before.paragraphs} if before is not None else set()
    fixed = fix_document(after, config, only=lambda p: p.content not in unchanged)
    return FileWrite(write.path, fixed.text, write.newline, write.bom)


def _parsed(doc: Document | None, write: FileWrite) -> Document:
    """``doc`` when it is what parsing ``write`` gives (same text, path, line ends, byte-order
    mark), else ``write`` parsed."""
    from ...parse.native import parse

    if doc is not None and (doc.path, doc.text, doc.newline, doc.bom) == (
        write.path, write.text, write.newline, write.bom
    ):
        return doc
    return parse(write.path, write.text, write.newline, write.bom)
