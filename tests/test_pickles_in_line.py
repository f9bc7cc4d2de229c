"""The model's pickles with spans in line load as the documents they were made of.

A document's links, headings, definitions, blocks and paragraphs are pickled
with their spans' numbers in line (:mod:`docsync.workspace.pickles`). Held to
the plain pickle of the same objects: generated documents (every optional
span set or not, empty and long runs of spans) and parsed ones, each loaded
back equal, field for field and type for type, through the cache's loader
and inside another pickle (as the summaries and the gates' results are).
"""

from __future__ import annotations

import io
import pickle
import pickletools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync import model
from docsync.parse.native import parse
from docsync.workspace import cache, pickles

_ints = st.integers(min_value=-(2**40), max_value=2**40)
_texts = st.text(max_size=12)
_spans = st.builds(model.Span, _ints, _ints)
_maybe_spans = st.none() | _spans
_line_spans = st.builds(model.LineSpan, _ints, _ints)
_runs = st.lists(_spans, max_size=5).map(tuple)

_links = st.builds(
    model.Link,
    st.sampled_from(model.LinkKind),
    _texts,
    _ints,
    _ints,
    _spans,
    _maybe_spans,
    st.none() | _texts,
    _texts,
    _maybe_spans,
)
_headings = st.builds(model.Heading, _ints, _texts, _texts, _ints, _spans)
_definitions = st.builds(model.Definition, _texts, _texts, _texts, _ints, _ints, _spans, _spans)
_blocks = st.builds(model.Block, st.sampled_from(model.BlockKind), _line_spans)
_paragraphs = st.builds(
    model.Paragraph, _line_spans, _runs, _texts, st.lists(_texts, max_size=3).map(tuple), _runs
)
_documents = st.builds(
    model.Document,
    _texts,
    st.text(max_size=40),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
    st.lists(_ints, max_size=4).map(tuple),
    st.lists(_headings, max_size=3).map(tuple),
    st.lists(st.builds(model.Anchor, _texts, _ints), max_size=2).map(tuple),
    st.lists(_links, max_size=4).map(tuple),
    st.lists(_definitions, max_size=2).map(tuple),
    _runs,
    st.lists(_blocks, max_size=3).map(tuple),
    st.lists(_paragraphs, max_size=3).map(tuple),
    st.frozensets(_texts, max_size=3),
    st.lists(_texts, max_size=2).map(tuple),
    _runs,
)


def _same(made: object, expected: object) -> bool:
    """Equal and of the same types all the way down (== alone takes 1 for True)."""
    if type(made) is not type(expected):
        return False
    if isinstance(expected, frozenset | list | dict):
        return made == expected and all(map(_same, _items(made), _items(expected)))
    if isinstance(expected, tuple):
        assert isinstance(made, tuple)
        return len(made) == len(expected) and all(map(_same, made, expected))
    slots = getattr(type(expected), "__slots__", None)
    if slots and not isinstance(expected, str):
        return all(_same(getattr(made, name), getattr(expected, name)) for name in slots)
    return made == expected


def _items(data: object) -> list[object]:
    if isinstance(data, dict):
        return [*data.items()]
    assert isinstance(data, frozenset | list)
    return sorted(data, key=repr) if isinstance(data, frozenset) else list(data)


@settings(max_examples=150, deadline=None)
@given(_documents)
def test_a_document_loads_back_as_it_was(document: model.Document) -> None:
    blob = pickles.dumps(document)
    assert _same(cache.loads(blob), document)
    assert _same(cache.loads(blob), pickle.loads(pickle.dumps(document)))


@settings(max_examples=60, deadline=None)
@given(st.lists(_links | _paragraphs | _headings | _blocks | _definitions | _spans, max_size=6))
def test_model_objects_inside_other_data_load_back(objects: list[object]) -> None:
    """As the summaries and the gates' result caches pickle them."""
    buffer = io.BytesIO()
    pickles.ModelPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump({"made": objects})
    loaded = pickles.ModelUnpickler(io.BytesIO(buffer.getvalue())).load()
    assert _same(loaded, {"made": objects})


_SOURCES = {
    "links": "# Title\n\nSee [a](b.md#x 'title'), ![img](i.png), <https://x.org> and [ref][r].\n\n[r]: <c.md>\n",
    "html": '<a name="top"></a>\n\nText <a href="d.md">d</a> <img src="e.png">.\n',
    "containers": "> quoted [q](q.md)\n>\n> - item `code` and $x$\n\n1. one\n   two lines\n",
    "table": "| a | [b](b.md) |\n|---|---|\n| `c` | d |\n",
    "blocks": "---\ntitle: x\n---\n\n```py\ncode\n```\n\n$$\nmath\n$$\n\n    indented\n",
    "footnotes": "Text[^1] and [^n].\n\n[^1]: A note with [link](f.md).\n[^n]: Another.\n",
    "crlf": "# Head\r\n\r\nLine one\r\nline two [x](y.md)\r\n",
    "empty": "",
}


@pytest.mark.parametrize("name", sorted(_SOURCES))
def test_a_parsed_document_loads_back_as_it_was(name: str) -> None:
    text = _SOURCES[name]
    newline = "\r\n" if "\r\n" in text else "\n"
    document = parse(f"{name}.md", text.replace("\r\n", "\n"), newline, False)
    assert _same(cache.loads(pickles.dumps(document)), document)


def test_spans_in_line_are_no_reductions_of_their_own() -> None:
    """Its spans and line spans are numbers in its parts' reductions: no span builder is named."""
    document = parse("x.md", "# Head\n\nA [link](l.md) here `code`.\n\n[d]: e.md\n")
    named = {arg for op, arg, _ in pickletools.genops(pickles.dumps(document)) if op.name == "SHORT_BINUNICODE"}
    assert {"_build_Link_in_line", "_build_Paragraph_in_line", "_build_Block_in_line"} <= named
    assert not named & {"_build_Span", "_build_LineSpan"}
    assert document.links[0].dest_span and document.code_spans and document.definitions


@pytest.mark.parametrize("flat", [(1, 2, 3), [1, 2], "12"])
def test_a_run_of_spans_that_is_not_one_does_not_load(flat: object) -> None:
    with pytest.raises(pickle.UnpicklingError):
        pickles.spans_of(flat)  # type: ignore[arg-type]
    document = parse("x.md", "Text `code`.\n")
    fields = [getattr(document, f) for f in model.Document.__slots__]
    fields[9] = flat  # the code spans, flat
    assert cache.loads(_reduce_blob(fields)) is None


def _reduce_blob(fields: list[object]) -> bytes:
    """A pickle that calls the document's in-line builder with ``fields``."""

    class Call:
        def __reduce__(self) -> tuple[object, tuple[object, ...]]:
            return pickles._build_Document_in_line, tuple(fields)  # type: ignore[attr-defined]

    return pickle.dumps(Call(), protocol=pickle.HIGHEST_PROTOCOL)


def test_the_layout_names_the_fields_in_line() -> None:
    """So a cache of pickles made another way is not read (the fingerprint holds it)."""
    assert "Link(span=span,dest_span=span or None,text_span=span or None)" in pickles.layout()
    assert pickles.layout() in cache.fingerprint()
