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
from itertools import chain
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
    """The model's field layout and which fields are pickled in line (:data:`_IN_LINE`):
    a document pickled under another layout is not loaded."""
    fields = ";".join(
        f"{cls.__name__}({','.join(f.name for f in dataclasses.fields(cls))})"
        for cls in _MODEL_CLASSES
    )
    in_line = ";".join(
        f"{cls.__name__}({','.join(f'{name}={shape}' for name, shape in shapes.items())})"
        for cls, shapes in _IN_LINE.items()
    )
    return f"{fields}|in line: {in_line}"


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


# --------------------------------------------------------------------------- spans in line
#
# A document holds tens of thousands of spans and line spans, most of them in
# its links, headings, definitions, blocks and paragraphs. Pickled each on
# its own, as its builder called with (start, end), every one costs a
# reduction both ways: a reducer call, a tuple and a memo entry to pickle it,
# a builder call to load it. So the classes that hold them are pickled with
# their numbers in line, and their builders make them again in their own
# straight-line code: a span or line span field as its two numbers (a
# ``None`` as two ``None``), a tuple of spans as one flat tuple of numbers.

SPAN, MAYBE_SPAN, LINES, SPANS = "span", "span or None", "lines", "spans"
_IN_LINE: dict[type, dict[str, str]] = {
    model.Heading: {"span": SPAN},
    model.Definition: {"span": SPAN, "dest_span": SPAN},
    model.Link: {"span": SPAN, "dest_span": MAYBE_SPAN, "text_span": MAYBE_SPAN},
    model.Block: {"lines": LINES},
    model.Paragraph: {"lines": LINES, "line_spans": SPANS, "protected": SPANS},
    model.Document: {"code_spans": SPANS, "math_spans": SPANS},
}
"""Per class, the fields pickled in line and how (the others are pickled as they are)."""

_new_span = _BUILDERS[model.Span]
_span_ends = attrgetter("start", "end")


def flat_spans(spans: tuple[model.Span, ...]) -> tuple[int, ...]:
    """(start, end, start, end, ...) of ``spans``."""
    return tuple(chain.from_iterable(map(_span_ends, spans)))


def spans_of(flat: tuple[int, ...]) -> tuple[model.Span, ...]:
    """:func:`flat_spans`'s spans back."""
    if type(flat) is not tuple or len(flat) % 2:
        raise pickle.UnpicklingError("not a run of spans")
    ends = iter(flat)
    return tuple(map(_new_span, ends, ends))


_SETTERS: dict[str, Any] = {
    "_new": object.__new__, "_Span": model.Span, "_LineSpan": model.LineSpan,
    "_spans_of": spans_of, "_flat_spans": flat_spans,
    **{f"_{name}": cls.__dict__[name].__set__ for cls in (model.Span, model.LineSpan) for name in cls.__slots__},
}  # fmt: skip
"""What the generated builders and reducers call: the spans' classes and their slots' setters."""


def _field_code(i: int, name: str, shape: str | None) -> tuple[list[str], list[str], list[str]]:
    """For field ``i`` (``name``) pickled as ``shape``: the builder's parameters and
    lines (which set the field through ``_set{i}``), and the reducer's values."""
    if shape is None:
        return [f"a{i}"], [f"_set{i}(self, a{i})"], [f"o.{name}"]
    if shape == SPANS:
        return [f"a{i}"], [f"_set{i}(self, _spans_of(a{i}))"], [f"_flat_spans(o.{name})"]
    kind, one, two = ("LineSpan", "first", "last") if shape == LINES else ("Span", "start", "end")
    make = [f"v = _new(_{kind})", f"_{one}(v, a{i})", f"_{two}(v, b{i})", f"_set{i}(self, v)"]
    if shape == MAYBE_SPAN:
        build = [f"if a{i} is None:", f"    _set{i}(self, None)", "else:", *[f"    {line}" for line in make]]
        return [f"a{i}", f"b{i}"], build, [f"None if o.{name} is None else o.{name}.{end}" for end in (one, two)]
    return [f"a{i}", f"b{i}"], make, [f"o.{name}.{end}" for end in (one, two)]


def _in_line(cls: type, shapes: dict[str, str]) -> tuple[Callable[..., Any], Callable[[Any], Any]]:
    """The builder and the reducer of ``cls`` with ``shapes``'s fields in line (see above),
    generated as :func:`_builder` is: one straight-line function each."""
    namespace: dict[str, Any] = {**_SETTERS, "_cls": cls}
    params: list[str] = []
    build: list[str] = ["self = _new(_cls)"]
    values: list[str] = []
    for i, f in enumerate(dataclasses.fields(cls)):
        namespace[f"_set{i}"] = cls.__dict__[f.name].__set__
        more_params, more_build, more_values = _field_code(i, f.name, shapes.get(f.name))
        params, build, values = params + more_params, build + more_build, values + more_values
    name = f"_build_{cls.__name__}_in_line"
    body = "".join(f"    {line}\n" for line in [*build, "return self"])
    exec(f"def {name}({', '.join(params)}):\n{body}", namespace)
    builder: Callable[..., Any] = namespace[name]
    builder.__module__ = __name__
    globals()[name] = builder  # pickle names it by module and qualified name
    exec(f"def reduce(o):\n    return {name}, ({', '.join(values)},)\n", namespace)
    reduce: Callable[[Any], Any] = namespace["reduce"]
    return builder, reduce


_IN_LINE_PAIRS = {cls: _in_line(cls, shapes) for cls, shapes in _IN_LINE.items()}
_ALLOWED |= {(__name__, build.__qualname__) for build, _ in _IN_LINE_PAIRS.values()}

_DISPATCH: dict[type, Callable[[Any], Any]] = {
    **copyreg.dispatch_table,
    **{cls: _by_constructor(cls) for cls in _MODEL_CLASSES},
    **{cls: reduce for cls, (_, reduce) in _IN_LINE_PAIRS.items()},
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
