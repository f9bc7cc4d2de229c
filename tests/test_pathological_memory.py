"""Pathological Markdown parses in memory that grows linearly, with a small constant
(issue #35, class 5, the memory side; the time side is in test_pathological_parse.py).

pulldown-cmark builds a tree of the whole document before its first event: a
node of about 50 bytes for every ``[``, ``*`` or backtick that may open
something. A large text is therefore parsed in pieces that end where the whole
document's parse has nothing open (:mod:`docsync.parse.pieces`). Two things are
checked:

* parsed in pieces, a generated document is the document parsed whole, with
  reference definitions, footnotes, fences, raw HTML and lists across the cuts;
* the peak memory of a parse, measured in a process of its own at two sizes,
  grows about eight times for eight times the input, and stays under a few
  bytes per input byte where the parser's tree alone was fifty.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.parse.native import parse
from docsync.parse.pieces import piece_bounds
from docsync.workspace.document_json import decode_document, encode_document

# Lines a document is made of: every kind of block that can cross a blank line
# (fences, raw HTML kinds 1 to 5, lists, block quotes, footnotes), references and
# definitions in any order, and plain text that a cut may follow. No ``---`` line:
# pulldown-cmark reads ``---`` … ``---`` in the middle of a text as a metadata
# block depending on text far away (see the threat model record, class 5).
LINES = [
    "Text with a [link](a.md) and [ref] and [Ref][] and [x][ref].",
    "[ref]: b.md",
    "[other]: <c.md> 'title'",
    "A use of [other] and of a note[^n] and [^m].",
    "[^n]: the note",
    "[^m]: another",
    "    [^m]: indented, code",
    "```",
    "~~~~",
    "``` text ```",
    "<!-- comment",
    "-->",
    "<pre>",
    "</pre>",
    "<div>",
    "- item [link](d.md)",
    "  - nested *emphasis",
    "1. ordered",
    "> quoted [ref]",
    "> ```",
    "# Heading [ref]",
    "Heading",
    "===",
    "| a | b |",
    "| - | - |",
    "$$",
    "Words *open **strong `code",
    "é ü 字 [ünï](ü.md)",
    "",
    "",
    "",
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(LINES), min_size=20, max_size=120), st.integers(8, 120))
def test_a_text_parsed_in_pieces_is_the_text_parsed_whole(lines: list[str], piece: int) -> None:
    text = "\n".join(lines) + "\n"
    assert parse("doc.md", text, piece=piece) == parse("doc.md", text, piece=len(text) + 1)


def test_pieces_are_cut_only_outside_fences_html_and_metadata() -> None:
    unit = "Text [a](b.md)\n\n```\n[\n\nInside the fence\n```\n\n<!--\n\nInside a comment\n-->\n\n"
    text = unit * 200
    bounds = piece_bounds(text, 100)
    assert len(bounds) > 50
    for at in bounds[1:-1]:
        assert text.startswith("Text", at), text[at - 20 : at + 20]
    assert parse("doc.md", text, piece=100) == parse("doc.md", text, piece=len(text) + 1)


_MEASURE = """
import json, sys
from docsync.parse.native import parse

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024

def peak(text, piece):
    with open("/proc/self/clear_refs", "w") as reset:
        reset.write("5")  # the peak (VmHWM) starts again from here (Linux)
    before = status("VmRSS:")
    parse("doc.md", text, piece=piece)
    return status("VmHWM:") - before

unit, piece = sys.argv[1], int(sys.argv[2])
texts = [unit * (int(size) // len(unit)) for size in sys.argv[3:]]
# warm up as a run is after its first file: one text of the smallest size, parsed the same
# way (a warm-up of a few units took the whole-text path, whose list of events once left
# the heap 2 MB larger, and so hid the heap's growth from the measure)
parse("warm.md", texts[0], piece=piece)
print(json.dumps([peak(text, piece) for text in texts]))
"""

SMALL = 128 * 1024
LARGE = 8 * SMALL
PIECE = 8 * 1024

# Shapes where the parser's tree was the cost (about 48 bytes of peak memory per
# input byte when parsed whole, 1 to 2 in pieces), each paragraph closed by a blank line.
SOUPS: dict[str, str] = {
    "link openers": "[" * 2000 + "\n\nText ",
    "emphasis runs": "*a" * 1000 + "\n\nText ",
    "unclosed destinations": "[a](" * 500 + "\n\nText ",
}


def _peaks(unit: str, *sizes: int) -> list[int]:
    """The peak memory of parsing ``unit`` repeated to each size, above what the process
    held before, in one process of its own."""
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, unit, str(PIECE), *map(str, sizes)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return [int(peak) for peak in json.loads(out.stdout)]


@pytest.mark.parametrize("shape", list(SOUPS), ids=str)
def test_memory_grows_linearly_with_a_small_constant(shape: str) -> None:
    unit = SOUPS[shape]
    small, large = _peaks(unit, SMALL, LARGE)
    # linear: eight times the input, at most about eight times the memory (the
    # allocator's rounding, a megabyte, on the small one)
    assert large <= 8 * max(small, 1 << 20) * 1.5, f"{shape}: {small} then {large} bytes"
    # a small constant: the model's few objects per paragraph, not a node per bracket
    assert large / LARGE < 8, f"{shape}: {large / LARGE:.1f} bytes of memory per input byte"




ENCODED: dict[str, Callable[[int], str]] = {
    "sections": lambda n: "".join(
        f"## Section {i}\n\nText with a [link](o.md#x) and [another](#section-{i}).\nA second line.\n\n"
        for i in range(n // 90)
    ),
    "nested lists": lambda n: "".join("  " * (i % 20) + f"- item [x](y{i}.md)\n" for i in range(n // 40)),
    "prose and code": lambda n: ("Some prose, `code` and *emphasis*.\n\n```\ncode line\n```\n\n" * (n // 55)),
}


@pytest.mark.parametrize("shape", list(ENCODED), ids=str)
def test_encoding_a_document_for_the_cache_holds_few_copies(shape: str) -> None:
    """The cache's encoding of a large document is made a column and a batch of rows at
    a time and joined once: its peak is a few times its result (all of it at once, as
    rows, then as columns, then joined, was 8 to 11 times; this measures Python's
    own allocations, the same on every machine)."""
    doc = parse("doc.md", ENCODED[shape](100_000))
    tracemalloc.start()
    try:
        blob = encode_document(doc)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert decode_document(blob) == doc
    assert peak <= 3 * len(blob), f"{shape}: peak {peak / len(blob):.2f} times the encoding"
