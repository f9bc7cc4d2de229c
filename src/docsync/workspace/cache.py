"""A content-keyed cache of parsed documents under ``<git dir>/docsync/``.

The key is a hash of docsync's version, the file's path and its bytes, so
an edited file, a renamed file or a new docsync version misses the cache.

The cache is one pickle file: a header and, per key, the document pickled
on its own (what a parse worker sends back anyway, so a cold run stores its
results without pickling them again, and a run unpickles only the documents
it asks for).

The cache is never trusted. The file is read with an unpickler that
constructs nothing at all (the header and entries are plain strings, ints,
bytes, tuples and dicts), and each document with one that only constructs
docsync's frozen model classes. A file that fails to load for any reason
(corrupt, truncated, written by another docsync version or model layout, or
holding anything else) is ignored and rebuilt; an entry that fails to load
is parsed again.
"""

from __future__ import annotations

import copyreg
import dataclasses
import functools
import hashlib
import importlib.util
import io
import pickle
import re
from collections.abc import Callable
from operator import attrgetter
from pathlib import Path
from typing import Any

from .. import __version__, model

_MAGIC = "docsync-parse-cache"
_FORMAT = 2
# An entry no run has used for this many saves (an old version of an edited
# file, a deleted file) is dropped, so the file does not grow without bound.
_KEEP_UNUSED_SAVES = 3
# The sources whose code decides what a parsed document holds.
_PARSER_SOURCES = (
    "parse/markdown.py",
    "parse/inline_rules.py",
    "parse/block_rules.py",
    "parse/build.py",
    "parse/chunks.py",
    "parse/positions.py",
    "parse/scanned.py",
    "parse/slugs.py",
    "model.py",
)
_MODEL_CLASSES = (
    model.Span,
    model.LineSpan,
    model.Link,
    model.Definition,
    model.Heading,
    model.Anchor,
    model.Block,
    model.Paragraph,
    model.Document,
    model.Finding,
)
_ALLOWED = {
    ("docsync.model", "LinkKind"),
    ("docsync.model", "BlockKind"),
    ("docsync.model", "Severity"),
    ("builtins", "frozenset"),
    ("builtins", "set"),
}


def _layout() -> str:
    """The model's field layout: a document pickled under another layout is not loaded."""
    return ";".join(
        f"{cls.__name__}({','.join(f.name for f in dataclasses.fields(cls))})"
        for cls in _MODEL_CLASSES
    )


# The libraries under the parser, by distribution and module name: a document
# records their parsing decisions, so a cached one is only as good as the
# versions that made it (``parse.markdown.PARSER_VERSIONS`` names them too).
_LIBRARIES = (("markdown-it-py", "markdown_it"), ("mdit-py-plugins", "mdit_py_plugins"))
_VERSION = re.compile(rb"""^__version__\s*=\s*["']([^"']+)["']""", re.MULTILINE)


@functools.cache
def parser_versions() -> str:
    """``PARSER_VERSIONS``, read from the libraries' ``__init__`` sources without
    importing them: a warm run that parses nothing imports no parser. When a
    source does not spell its version so, the parser module is imported to ask."""
    names: list[str] = []
    for distribution, module in _LIBRARIES:
        spec = importlib.util.find_spec(module)
        try:
            source = Path(str(spec.origin)).read_bytes() if spec is not None else b""
        except OSError:
            source = b""
        found = _VERSION.search(source)
        if found is None:
            from ..parse.markdown import PARSER_VERSIONS

            return PARSER_VERSIONS
        names.append(f"{distribution} {found.group(1).decode()}")
    return ", ".join(names)


@functools.cache
def fingerprint() -> str:
    """docsync's version, the model's layout, the parser's source and the
    versions of the Markdown libraries under it.

    The source is there for development: an edited parser in an editable
    install must not be served documents its old self parsed. The library
    versions because upgrading markdown-it-py alone can change a parse.
    """
    digest = hashlib.blake2b(digest_size=16)
    digest.update(parser_versions().encode())
    for name in _PARSER_SOURCES:
        try:
            digest.update((Path(__file__).parents[1] / name).read_bytes())
        except OSError:
            digest.update(name.encode())
    return f"{__version__}|{_layout()}|{digest.hexdigest()}"


# --------------------------------------------------------------------------- one document


def _builder(cls: type) -> Callable[..., Any]:
    """A function that makes an instance of a frozen slots dataclass from its field values.

    Unpickling half a million small model objects is most of a warm run, and
    the dataclass's own ``__init__`` (``object.__setattr__`` per field,
    because the class is frozen) is most of that. Writing the slots through
    their descriptors does the same thing in half the time. Generated like
    dataclasses generates ``__init__``, one straight-line function per class.
    """
    names = [f.name for f in dataclasses.fields(cls)]
    if hasattr(cls, "__post_init__"):
        return cls  # it has work of its own to do: let the constructor do it
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = ["    self = _new(_cls)"]
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = cls.__dict__[name].__set__
        lines.append(f"    _set{i}(self, a{i})")
    name = f"_build_{cls.__name__}"
    params = ", ".join(f"a{i}" for i in range(len(names)))
    exec(f"def {name}({params}):\n" + "\n".join(lines) + "\n    return self\n", namespace)
    built: Callable[..., Any] = namespace[name]
    built.__module__ = __name__
    globals()[name] = built  # pickle names it by module and qualified name
    return built


_BUILDERS: dict[type, Callable[..., Any]] = {cls: _builder(cls) for cls in _MODEL_CLASSES}
_ALLOWED |= {(build.__module__, build.__qualname__) for build in _BUILDERS.values()}


def _by_constructor(cls: type) -> Callable[[Any], tuple[Any, tuple[Any, ...]]]:
    """Pickle a frozen dataclass as its builder called with its field values.

    The dataclass default goes through ``__getstate__``/``__setstate__``,
    which call ``dataclasses.fields`` per object: several times slower both
    ways. What loading may call is still only a builder of a model class.
    """
    build = _BUILDERS[cls]
    values = attrgetter(*[f.name for f in dataclasses.fields(cls)])
    if len(dataclasses.fields(cls)) == 1:
        return lambda obj: (build, (values(obj),))
    return lambda obj: (build, values(obj))


_DISPATCH: dict[type, Callable[[Any], Any]] = {
    **copyreg.dispatch_table,
    **{cls: _by_constructor(cls) for cls in _MODEL_CLASSES},
}


class ModelPickler(pickle.Pickler):
    dispatch_table = _DISPATCH


def dumps(document: model.Document) -> bytes:
    """One document as bytes, for the cache and for sending between processes."""
    buffer = io.BytesIO()
    ModelPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(document)
    return buffer.getvalue()


class ModelUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"refusing {module}.{name}")
        return super().find_class(module, name)


class DataUnpickler(pickle.Unpickler):
    """Builtin containers and scalars only: the cache file's outer layer."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refusing {module}.{name}")


_PARTS = "docsync-document-parts"


def dumps_parts(blobs: list[bytes]) -> bytes:
    """One document parsed in parts (:mod:`docsync.parse.chunks`), as the parts'
    :func:`dumps`: joined only when the document is read."""
    return pickle.dumps((_PARTS, *blobs), protocol=pickle.HIGHEST_PROTOCOL)


def loads(blob: bytes) -> model.Document | None:
    """A document from :func:`dumps`'s or :func:`dumps_parts`'s bytes; None for anything else."""
    try:
        document = ModelUnpickler(io.BytesIO(blob)).load()
    except Exception:  # corrupt or foreign: not a document
        return None
    if isinstance(document, tuple) and document[:1] == (_PARTS,) and len(document) > 1:
        parts = [loads(part) if isinstance(part, bytes) else None for part in document[1:]]
        whole = [part for part in parts if part is not None]
        if len(whole) != len(parts) or any(
            part.path != whole[0].path or part.text or part.line_starts for part in whole[1:]
        ):
            return None
        from ..parse.chunks import merge

        return merge(whole)
    return document if isinstance(document, model.Document) else None


# --------------------------------------------------------------------------- the cache


def _key(path: str, data: bytes) -> str:
    digest = hashlib.blake2b(digest_size=20)
    digest.update(__version__.encode())
    digest.update(b"\0" + path.encode() + b"\0")
    digest.update(data)
    return digest.hexdigest()


class ParseCache:
    """Documents by key; ``put`` what was parsed, ``save`` once at the end."""

    def __init__(
        self, file: Path | None, entries: dict[str, tuple[int, bytes]], saves: int
    ) -> None:
        self._file = file
        self._entries = entries
        self._saves = saves
        self._used: dict[str, bytes | model.Document] = {}
        self._dirty = False

    key = staticmethod(_key)

    def get(self, key: str, path: str) -> model.Document | None:
        blob = self.get_blob(key)
        document = loads(blob) if blob is not None else None
        return document if document is not None and document.path == path else None

    def get_blob(self, key: str) -> bytes | None:
        """The entry's bytes, not yet unpickled: :func:`loads` them when needed."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._used[key] = entry[1]
        return entry[1]

    def put(self, key: str, document: model.Document, blob: bytes | None = None) -> None:
        """Remember a parsed document; ``blob`` is its :func:`dumps` when already made."""
        if self._file is None:
            return
        self._used[key] = document if blob is None else blob
        self._dirty = True

    def put_blob(self, key: str, blob: bytes) -> None:
        """Remember a document by its :func:`dumps` alone (a parse worker's)."""
        if self._file is None:
            return
        self._used[key] = blob
        self._dirty = True

    def save(self) -> None:
        if self._file is None or not self._dirty:
            return
        saves = self._saves + 1
        entries = {
            key: entry
            for key, entry in self._entries.items()
            if saves - entry[0] <= _KEEP_UNUSED_SAVES and key not in self._used
        }
        for key, value in self._used.items():
            entries[key] = (saves, value if isinstance(value, bytes) else dumps(value))
        payload = {
            "magic": _MAGIC,
            "format": _FORMAT,
            "fingerprint": fingerprint(),
            "saves": saves,
            "entries": entries,
        }
        write_pickle(self._file, payload)


def write_pickle(file: Path, payload: object) -> None:
    """Pickle ``payload`` to replace ``file`` atomically (through the guarded
    writer); a cache that cannot be written only costs speed. Streamed: one
    30 MB ``bytes`` first is slower."""
    from ..write.writer import write_cache

    try:
        write_cache(file, lambda handle: pickle.dump(payload, handle, protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        return


def disabled() -> ParseCache:
    return ParseCache(None, {}, 0)


def cache_file(git_dir: Path) -> Path:
    return git_dir / "docsync" / "parse-cache.pickle"


def open_cache(git_dir: Path) -> ParseCache:
    file = cache_file(git_dir)
    entries, saves = _load(file)
    return ParseCache(file, entries, saves)


def _load(file: Path) -> tuple[dict[str, tuple[int, bytes]], int]:
    try:
        with open(file, "rb") as handle:
            payload = DataUnpickler(handle).load()
    except Exception:  # any failure means: not our cache, rebuild it
        return {}, 0
    if (
        not isinstance(payload, dict)
        or payload.get("magic") != _MAGIC
        or payload.get("format") != _FORMAT
        or payload.get("fingerprint") != fingerprint()
        or not isinstance(payload.get("saves"), int)
        or not isinstance(payload.get("entries"), dict)
    ):
        return {}, 0
    entries: dict[str, tuple[int, bytes]] = {
        key: entry
        for key, entry in payload["entries"].items()
        if isinstance(key, str)
        and isinstance(entry, tuple)
        and len(entry) == 2
        and isinstance(entry[0], int)
        and isinstance(entry[1], bytes)
    }
    return entries, payload["saves"]
