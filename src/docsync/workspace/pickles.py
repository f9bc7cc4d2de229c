"""Pickling docsync's model: fast both ways, and unpickling constructs nothing else.

A document travels pickled from a parse worker and lies pickled in the parse
cache (:mod:`docsync.workspace.cache`); the gates' result caches
(:mod:`docsync.workspace.results`) pickle findings the same way. Loading may
call only a builder of one of the model classes below; the plain-data
unpickler, for the caches' outer layers, constructs nothing at all.
"""

from __future__ import annotations

import copyreg
import dataclasses
import io
import pickle
from collections.abc import Callable
from operator import attrgetter
from pathlib import Path
from typing import Any

from .. import model

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


def layout() -> str:
    """The model's field layout: a document pickled under another layout is not loaded."""
    return ";".join(
        f"{cls.__name__}({','.join(f.name for f in dataclasses.fields(cls))})"
        for cls in _MODEL_CLASSES
    )


# The libraries under the parser, by distribution and module name: a document
# records their parsing decisions, so a cached one is only as good as the
# versions that made it (``parse.markdown.PARSER_VERSIONS`` names them too).


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


PARTS = "docsync-document-parts"


def dumps_parts(blobs: list[bytes]) -> bytes:
    """One document parsed in parts (:mod:`docsync.parse.chunks`), as the parts'
    :func:`dumps`: joined only when the document is read."""
    return pickle.dumps((PARTS, *blobs), protocol=pickle.HIGHEST_PROTOCOL)


_FOUND: dict[tuple[str, str], Any] = {}
"""What :class:`ModelUnpickler` found for each allowed name: asked again for every
document (nine times each), a dictionary answers it fastest."""


class ModelUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        try:
            return _FOUND[module, name]
        except KeyError:
            if (module, name) not in _ALLOWED:
                raise pickle.UnpicklingError(f"refusing {module}.{name}") from None
        found = _FOUND[module, name] = super().find_class(module, name)
        return found


class DataUnpickler(pickle.Unpickler):
    """Builtin containers and scalars only: the cache file's outer layer."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refusing {module}.{name}")


def write_pickle(file: Path, payload: object) -> None:
    """Pickle ``payload`` to replace ``file`` atomically (through the guarded
    writer); a cache that cannot be written only costs speed. Streamed: one
    30 MB ``bytes`` first is slower."""
    from ..write.writer import write_cache

    try:
        write_cache(file, lambda handle: pickle.dump(payload, handle, protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        return
