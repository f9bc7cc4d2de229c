"""A content-keyed cache of parsed documents under ``<git dir>/docsync/``.

The key is a hash of docsync's version, the file's path and its bytes, so
an edited file, a renamed file or a new docsync version misses the cache.

The cache is one file (:mod:`.indexed`): a magic line, a JSON index (key →
where the entry's bytes are) and, after it, each document as JSON on its own
(:func:`~.document_json.encode_document`: what a parse worker sends back anyway, so a
cold run stores its results without encoding them again). A run reads the
index and each entry only when its document is read, so a run answered by
the gates' result caches reads almost nothing of it.

The cache is never trusted (:mod:`.plain`). Every entry's place is checked
against the file's size, each document is decoded field by field with its
positions checked against its text, and a document is believed only when it
is the parse of the bytes on disk (:func:`verified`): its text, written back
with its line ends and byte-order mark, has the content key the file's bytes
have (or, for a file whose lines end in more than one way, is the file's
bytes decoded). A file that fails to load for any reason (corrupt,
truncated, written by another docsync version or model layout, or planted)
is ignored and rebuilt; an entry that fails is parsed again.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
from pathlib import Path

from .. import __version__, model
from . import document_json, indexed, plain
from .collector import collector_off
from .indexed import Blob
from .stat_index import Source, source_bytes

_MAGIC = b"docsync-parse-cache 5\n"
# An entry no run has used for this many saves (an old version of an edited
# file, a deleted file) is dropped, so the file does not grow without bound.
_KEEP_UNUSED_SAVES = 3
# The sources whose code decides what a parsed document holds.
_PARSER_SOURCES = (
    "parse/native.py",
    "parse/pieces.py",
    "parse/walk.py",
    "parse/collected.py",
    "parse/site_lines.py",
    "parse/constructors.py",
    "parse/scanned.py",
    "parse/slugs.py",
    "parse/source.py",
    "model.py",
)


_LIBRARIES = ("pyromark",)


@functools.cache
def parser_versions() -> str:
    """``PARSER_VERSIONS``, read from the name of the library's installed metadata
    folder (``pyromark-0.10.3.dist-info``) without importing it or
    ``importlib.metadata``: a warm run that parses nothing imports no parser."""
    names: list[str] = []
    for name in _LIBRARIES:
        spec = importlib.util.find_spec(name)
        origin = Path(str(spec.origin)) if spec is not None and spec.origin else None
        found = sorted(origin.parents[1].glob(f"{name}-*.dist-info")) if origin is not None else []
        if len(found) != 1:
            from ..parse.native import PARSER_VERSIONS

            return PARSER_VERSIONS
        names.append(f"{name} {found[0].name[len(name) + 1 : -len('.dist-info')]}")
    return ", ".join(names)


@functools.cache
def fingerprint() -> str:
    """docsync's version, the model's layout, the parser's source and the
    versions of the Markdown library under it.

    The source is there for development: an edited parser in an editable
    install must not be served documents its old self parsed. The library
    version because upgrading pyromark alone can change a parse.
    """
    digest = hashlib.blake2b(digest_size=16)
    digest.update(parser_versions().encode())
    for name in _PARSER_SOURCES:
        try:
            digest.update((Path(__file__).parents[1] / name).read_bytes())
        except OSError:
            digest.update(name.encode())
    return f"{__version__}|{document_json.layout()}|{digest.hexdigest()}"



_LARGE = 1 << 20  # bytes: a document this large is decoded with the collector off


def loads(blob: Blob) -> model.Document | None:
    """A document from :func:`~.document_json.encode_document`'s bytes; None for anything else.

    A large one is a million objects that the cyclic collector would walk
    again and again as they are made; they hold no cycles, so it is off
    meanwhile (as :func:`~.collector.collector_paused` has it for many)."""
    if len(blob) < _LARGE:
        return document_json.decode_document(indexed.data(blob))
    with collector_off():
        return document_json.decode_document(indexed.data(blob))


def verified(document: model.Document, path: str, key: str, source: Source | None) -> bool:
    """Whether ``document`` is the parse of the file at ``path`` whose bytes have ``key``:
    its path is that one, and its text written back has that key, or (lines ending in
    more than one way) is those bytes, ``source``, decoded. A document planted under
    another file's key, or holding another text, is not."""
    if document.path != path:
        return False
    if _key(path, document_json.text_bytes(document)) == key:
        return True
    if source is None:
        return False
    data = source_bytes(source)
    if _key(path, data) != key:
        return False
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return False
    return text.replace("\r\n", "\n").replace("\r", "\n") == document.text


# --------------------------------------------------------------------------- the cache


def _key(path: str, data: bytes) -> str:
    digest = hashlib.blake2b(digest_size=20)
    digest.update(__version__.encode())
    digest.update(b"\0" + path.encode() + b"\0")
    digest.update(data)
    return digest.hexdigest()


class ParseCache:
    """Documents by key; ``put`` what was parsed, ``save`` once at the end.

    ``entries`` holds, per key, the save that last used it and its bytes (a
    view of the mapped file for what was read from the disk).
    """

    def __init__(self, file: Path | None, entries: dict[str, tuple[int, Blob]], saves: int) -> None:
        self._file = file
        self._entries = entries
        self._saves = saves
        self._used: dict[str, Blob | model.Document] = {}
        self._dirty = False

    key = staticmethod(_key)

    @staticmethod
    def summaries_key(key: str, context: str) -> str:
        """Where the summaries of the content ``key`` made under ``context`` are kept
        (:mod:`docsync.workspace.summaries`): beside its document, or instead of it."""
        return f"{key}/summaries/{context}"

    def keys(self) -> frozenset[str]:
        """Every key the cache holds an entry under (documents' and summaries')."""
        return frozenset(self._entries)

    def get(self, key: str, path: str, source: Source | None = None) -> model.Document | None:
        """The document of ``path`` whose bytes (``source``) have ``key``, when the entry
        is verifiably its parse (:func:`verified`)."""
        blob = self.get_blob(key)
        document = loads(blob) if blob is not None else None
        return document if document is not None and verified(document, path, key, source) else None

    def get_blob(self, key: str) -> Blob | None:
        """The entry, not yet decoded nor read from the disk: :func:`loads` it when needed."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._used[key] = entry[1]
        return entry[1]

    def put(self, key: str, document: model.Document, blob: bytes | None = None) -> None:
        """Remember a parsed document; ``blob`` is its encoding when already made."""
        if self._file is None:
            return
        self._used[key] = document if blob is None else blob
        self._dirty = True

    def put_blob(self, key: str, blob: bytes) -> None:
        """Remember a document by its encoding alone (a parse worker's)."""
        if self._file is None:
            return
        self._used[key] = blob
        self._dirty = True

    def save(self) -> None:
        """Write the cache if anything was added: what this run used, and what recent
        runs used (an entry unused for ``_KEEP_UNUSED_SAVES`` saves is dropped)."""
        if self._file is None or not self._dirty:
            return
        saves = self._saves + 1
        entries: dict[str, tuple[int, Blob]] = {
            key: entry
            for key, entry in self._entries.items()
            if saves - entry[0] <= _KEEP_UNUSED_SAVES and key not in self._used
        }
        for key, value in self._used.items():
            entries[key] = (saves, value if not isinstance(value, model.Document) else document_json.encode_document(value))
        header = {"fingerprint": fingerprint(), "saves": saves, "used": {k: e[0] for k, e in entries.items()}}
        indexed.write(self._file, _MAGIC, header, {key: entry[1] for key, entry in entries.items()})


def disabled() -> ParseCache:
    return ParseCache(None, {}, 0)


def cache_file(git_dir: Path) -> Path:
    return git_dir / "docsync" / "parse-cache"


def open_cache(git_dir: Path) -> ParseCache:
    file = cache_file(git_dir)
    entries, saves = _load(file)
    return ParseCache(file, entries, saves)


def _load(file: Path) -> tuple[dict[str, tuple[int, Blob]], int]:
    """Each entry with the save that last used it, not yet read; nothing for a file
    that is not a cache this docsync wrote."""
    found = indexed.read(file, _MAGIC)
    if found is None:
        return {}, 0
    header, stored = found
    used = header.get("used")
    if header.get("fingerprint") != fingerprint():
        return {}, 0  # another docsync version's or parser's: of no use, not damaged
    if (
        not isinstance(header.get("saves"), int)
        or not isinstance(used, dict)
        or used.keys() != stored.keys()
        or not all(type(n) is int for n in used.values())
    ):
        plain.ignored(file, "not a parse cache docsync wrote")
        return {}, 0
    return {key: (used[key], blob) for key, blob in stored.items()}, header["saves"]
