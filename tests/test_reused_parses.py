"""A parse handed on instead of repeated gives what parsing again would give.

``migrate`` hands ``keep_wrapped`` the rewrite's own parse of each new text
(``ChangeSet.parsed``); ``keep_wrapped`` uses it only when it is that exact
text, path, line ending and byte-order mark, and parses otherwise.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from docsync.config import Config
from docsync.gates.wrap import check as wrap
from docsync.parse.native import parse
from docsync.write.writer import FileWrite

BEFORE = (
    "# Notes\n\nA hard wrapped paragraph that names\nADR 0001 in the middle of it.\n\n"
    "An unrelated paragraph whose first line is already far too long for forty columns.\n"
    "It stays as it is.\n"
)
AFTER = BEFORE.replace("ADR 0001", "[ADR 0001](rfc/implemented/2020-01-01-use-postgres.md)")


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("bom", [False, True])
def test_a_handed_parse_gives_the_write_a_fresh_parse_gives(newline: str, bom: bool) -> None:
    config = Config(wrap=40)
    before = parse("docs/notes.md", BEFORE, newline, bom)
    write = FileWrite("docs/notes.md", AFTER, newline, bom)
    fresh = wrap.keep_wrapped(before, write, config)
    assert fresh.text != AFTER  # the edited paragraph is re-wrapped: the test sees the parse used
    assert "already far too long for forty columns.\n" in fresh.text  # the other keeps its bytes
    handed = wrap.keep_wrapped(before, write, config, parse(write.path, AFTER, newline, bom))
    assert handed == fresh


def test_a_parse_of_anything_else_is_not_used() -> None:
    config = Config(wrap=40)
    before = parse("docs/notes.md", BEFORE)
    write = FileWrite("docs/notes.md", AFTER)
    fresh = wrap.keep_wrapped(before, write, config)
    unchanged = parse("docs/notes.md", BEFORE)  # would say nothing needs re-wrapping
    assert wrap.keep_wrapped(before, write, config, unchanged) == fresh
    elsewhere = replace(parse("docs/notes.md", AFTER), path="docs/other.md")
    assert wrap.keep_wrapped(before, write, config, elsewhere) == fresh
    crlf = parse("docs/notes.md", AFTER, "\r\n")
    assert wrap.keep_wrapped(before, write, config, crlf) == fresh
