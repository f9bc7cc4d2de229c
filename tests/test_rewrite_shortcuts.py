"""The rewriters' shortcuts give what the long way gives.

- ``destinations._relpath`` computes ``posixpath.relpath`` from the paths' parts
  (the library asks the disk for the working directory on every call);
- ``prose_id_edits`` reads nothing of a document that holds none of the id
  table's kinds, in its text or its link texts.
"""

from __future__ import annotations

import posixpath

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.parse.native import parse
from docsync.rewrite.destinations import Moves, _relpath
from docsync.rewrite.prose_ids import every_id_edit, prose_id_edits
from tests.test_rewrite_properties import IDS, MOVES, documents

LEADS = Moves("docs/adr/0001-x.md", "docs/rfc/a.md", MOVES, {}).led_to

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

segments = st.sampled_from(["a", "b", "docs", "rfc", "x.md", ".", "..", "My File.md"])
paths = st.one_of(
    st.just("."), st.lists(segments, min_size=1, max_size=5).map("/".join)
)


@PROPERTY
@given(paths, paths)
def test_relpath_by_parts_is_the_librarys(target: str, folder: str) -> None:
    _relpath.cache_clear()
    assert _relpath(target, folder) == posixpath.relpath(target, folder)


def test_relpath_by_parts_examples() -> None:
    assert _relpath("docs/rfc/a.md", "docs/adr") == "../rfc/a.md"
    assert _relpath("docs", "docs") == "."
    assert _relpath("a.md", ".") == "a.md"
    assert _relpath(".", "docs/adr") == "../.."


# Texts with and without the table's kinds: bare, in link texts, behind entities and escapes.
pieces = st.sampled_from(
    [
        "ADR 7", "RFC 1", "RFC 5 pt 2", "&#65;DR 7", "[&#65;DR 7](x.md)", "[ADR 7](x.md)",
        "[RFC\\ 1](y.md)", "AD", "R 7", "adr 7", "plain words", "`ADR 7`", "<b>RFC 1</b>",
        "| a | b |\n| --- | --- |\n| ADR 7 | x |", "# Heading RFC 12", "\n\n", " ", "\n",
    ]
)
texts = st.lists(pieces, min_size=1, max_size=10).map("".join)


@PROPERTY
@given(st.one_of(texts, documents))
def test_prose_id_edits_shortcut_is_the_long_way(text: str) -> None:
    doc = parse("docs/adr/0001-x.md", text)
    assert prose_id_edits(doc, "docs/rfc/a.md", IDS, LEADS) == every_id_edit(doc, "docs/rfc/a.md", IDS, LEADS)


def test_a_text_without_the_kinds_has_no_id_either_way() -> None:
    """An id spelt with an entity is no id (GitHub shows ``ADR 7``, the rewriter reads the
    source): neither way finds one; with the kind written, both find it."""
    doc = parse("docs/adr/0001-x.md", "See [&#65;DR 7](x.md) and &#65;DR 7.\n")
    assert prose_id_edits(doc, "docs/rfc/a.md", IDS, LEADS) == every_id_edit(doc, "docs/rfc/a.md", IDS, LEADS)
    assert prose_id_edits(doc, "docs/rfc/a.md", IDS, LEADS) == ([], [], [])
    doc = parse("docs/adr/0001-x.md", "See ADR 7.\n")
    assert prose_id_edits(doc, "docs/rfc/a.md", IDS, LEADS)[0]
