"""Header-field lines keep their lines: the wrap gate never reports them, ``fix`` never moves them.

A record's ``Date:`` / ``Status:`` / ``Supersedes:`` header is a paragraph of
one field a line (see docs/rfc/implemented/2026-12-01-header-fields-keep-their-lines.md).
The rules one by one are golden cases (tests/golden/wrap/cases/76-header-fields.md,
every mode); here: generated documents (fix never changes a field block and
never moves a field line, and stays idempotent and render-preserving under
markdown-it and cmark-gfm), and real git repositories: a legacy tree fixed
and checked, read by docsync's status and relation readers before and after,
and the headers ``migrate``, ``new`` and ``move`` write.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from docsync.check.check import run_check
from docsync.cli import app
from docsync.config import Config, WrapMode
from docsync.gates.wrap import check as wrap
from docsync.gates.wrap.fields import header_lines, is_field_line
from docsync.gates.wrap.fix import fix_document
from docsync.lifecycle import move as lifecycle_move
from docsync.parse.native import parse
from docsync.records.relations import read_mentions
from docsync.records.status_lines import status_lines
from tests.gitutil import GitRepo, isolate_git_environ
from tests.test_wrap_properties import (
    INLINE_CODE,
    SETTINGS,
    WORDS,
    _assert_fix_properties,
    blocks,
)
from tests.test_wrap_scan import _same

runner = CliRunner()
MODES: list[WrapMode] = ["none", 60, "sentence"]


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git_environ(monkeypatch)


# --------------------------------------------------------------------------- the grammar


@pytest.mark.parametrize(
    "line",
    [
        "Status: Accepted",
        "Date: 2020-01-01",
        "Supersedes: [ADR 2](0002-b.md)",
        "Superseded by: [ADR 3](0003-c.md)",
        "Deciders: Alice, Bob",
        "Tags:",
        "Tags:\\",
        "Technical Story: a story",
        "Decision-makers: Alice",
        "Owner's Name: Carol",
        "**Status:** Accepted",
        "**Status**: Accepted",
        "__Date__: 2020-01-01",
        "Status:\tAccepted",
        "Über: ja",
    ],
)
def test_a_field_line(line: str) -> None:
    assert is_field_line(line, 0, len(line))


@pytest.mark.parametrize(
    "line",
    [
        "status: lower-case keys are prose",
        "Status:Accepted",
        "One two three four five: five words are too many",
        "A" + "b" * 40 + ": a key of 41 characters",
        "https://example.com",
        "`Status: Accepted`",
        "[Status](x.md): a link",
        "- Status: a list item",
        "1: a number",
        "Status : a space before the colon",
        "Status",
    ],
)
def test_not_a_field_line(line: str) -> None:
    assert not is_field_line(line, 0, len(line))


@pytest.mark.parametrize(
    ("keys", "header"),
    [
        (["Status"], (0,)),
        (["Date", "Status", "Supersedes"], (0, 1, 2)),
        (["Superseded by", None], (0,)),
        (["Q", "A"], (0, 1)),
        (["Example answer"], ()),  # one field of a key docsync does not know: a sentence
        (["Chosen option", None], ()),
        ([None, "Status"], ()),  # a field line after a sentence is prose
        (["Status", None, "Date"], (0, 2)),
        ([], ()),
    ],
)
def test_which_lines_are_a_header(keys: list[str | None], header: tuple[int, ...]) -> None:
    assert header_lines(keys) == header


# --------------------------------------------------------------------------- generated documents

KEYS = st.sampled_from(
    ["Status", "Date", "Supersedes", "Superseded by", "Deciders", "Tags", "**Status:**",
     "**Date**", "Technical Story", "Q"]
)
VALUE_TOKENS = st.one_of(
    WORDS,
    INLINE_CODE.filter(lambda t: "\n" not in t),
    st.sampled_from(["[ADR 2](0002-b.md)", "2020-01-01", "(superseded by [B](b.md) on 2026-01-01)"]),
)
ENDS = st.sampled_from(["\n", "\n", "\n", "  \n", "\\\n"])


@st.composite
def field_line(draw: st.DrawFn) -> str:
    key = draw(KEYS)
    colon = "" if key.endswith("**") and key.endswith(":**") else ":"
    values = draw(st.lists(VALUE_TOKENS, min_size=0, max_size=12))
    return (key + colon + " " + " ".join(values)).rstrip(" ").rstrip("\\")


@st.composite
def header(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A field block, or fields with prose lines after them; and its field lines
    (none when it is one field of an unknown key: that is a sentence)."""
    lines = draw(st.lists(field_line(), min_size=1, max_size=5))
    text = lines[0]
    for line in lines[1:]:
        text += draw(ENDS) + line
    prose = draw(st.lists(st.lists(WORDS, min_size=1, max_size=8), max_size=2))
    for words in prose:
        text += "\n" + " ".join(words)
    return text, lines if len(lines) > 1 or not lines[0].startswith("Q:") else []


@st.composite
def documents_with_headers(draw: st.DrawFn) -> tuple[str, list[tuple[str, list[str], bool]]]:
    headers = draw(st.lists(header(), min_size=1, max_size=3))
    others = draw(st.lists(blocks(), max_size=3))
    quoted = draw(st.lists(st.booleans(), min_size=len(headers), max_size=len(headers)))
    parts: list[str] = []
    kept: list[tuple[str, list[str], bool]] = []
    for (text, lines), quote in zip(headers, quoted, strict=True):
        if quote:
            text = "\n".join("> " + line for line in text.split("\n"))
        parts.append(text)
        kept.append((text, lines, quote))
        if others:
            parts.append(others.pop())
    body = "\n\n".join([*parts, *others])
    return "# A record\n\n" + body + "\n\n[r]: https://example.com\n\n[^1]: A note.\n", kept


def _assert_fields_kept(text: str, mode: WrapMode, kept: list[tuple[str, list[str], bool]]) -> None:
    _assert_fix_properties(text, mode)
    fixed = fix_document(parse("gen.md", text), Config(wrap=mode)).text
    lines = fixed.split("\n")
    for block, fields, quote in kept:
        if fields and block.count("\n") == len(fields) - 1:
            assert block in fixed, "a field block changed"
        for field in fields:
            start = ("> " + field) if quote else field
            assert any(line.startswith(start) for line in lines), f"field line moved: {field!r}"
            if isinstance(mode, int):  # a re-fill pulls nothing up onto a field's line
                whole = start.rstrip(" \\")
                assert any(line.rstrip(" \\") == whole for line in lines), f"field line filled: {field!r}"


@SETTINGS
@given(documents_with_headers(), st.sampled_from(["none", "sentence", 80, 30, 12]))
def test_fix_never_moves_a_field_line(
    generated: tuple[str, list[tuple[str, list[str], bool]]], mode: WrapMode
) -> None:
    text, kept = generated
    _assert_fields_kept(text, mode, kept)


# --------------------------------------------------------------------------- a legacy tree

LEGACY = {
    "doc/adr/0001-record-architecture-decisions.md": (
        "# 1. Record architecture decisions\n\nDate: 2016-02-12\nStatus: Accepted\n\n"
        "## Context\n\nWe need to record the architectural decisions made on this project, all\nof them.\n"
    ),
    "doc/adr/0002-use-postgres.md": (
        "# 2. Use Postgres\n\nDate: 2016-03-01\nStatus: Superseded\n"
        "Superseded by: [3. Use SQLite](0003-use-sqlite.md)\n\n"
        "## Context\n\nA database server is a lot more to run than a file, and we have few\nusers.\n"
    ),
    "doc/adr/0003-use-sqlite.md": (
        "# 3. Use SQLite\n\n**Date:** 2016-04-01\nStatus: Accepted\n"
        "Supersedes: [2. Use Postgres](0002-use-postgres.md)\nDeciders: Alice, Bob, Carol, "
        "Dan, Erin, Frank, Grace, Heidi, Ivan, Judy and Mallory\n\n"
        "## Decision\n\nWe use SQLite. It is a file. It needs no server at all, which we like\na lot.\n"
    ),
}


def _reading(root: Path) -> dict[str, tuple[list[str], list[tuple[str, bool, str]]]]:
    """What docsync's readers see in each record: its status values and its relations."""
    config = Config()
    seen: dict[str, tuple[list[str], list[tuple[str, bool, str]]]] = {}
    for path in LEGACY:
        doc = parse(path, (root / path).read_text(encoding="utf-8"))
        statuses = [s.value for s in status_lines(doc)]
        mentions = [(m.kind, m.forward, m.target) for m in read_mentions(doc, config.relations)]
        seen[path] = statuses, mentions
    return seen


def _header(text: str) -> str:
    return text.split("\n\n")[1]


@pytest.fixture
def legacy(tmp_path: Path) -> Iterator[GitRepo]:
    repo = GitRepo.init(tmp_path / "repo")
    for path, text in LEGACY.items():
        repo.write(path, text)
    repo.commit("adr-tools records", when="2016-04-01 10:00:00", tz="+0100")
    yield repo


@pytest.mark.parametrize("mode", MODES, ids=str)
def test_fix_then_check_keeps_every_header_and_what_the_readers_see(
    legacy: GitRepo, mode: WrapMode, monkeypatch: pytest.MonkeyPatch
) -> None:
    setting = f'"{mode}"' if isinstance(mode, str) else str(mode)
    legacy.write(".docsync.toml", f"wrap = {setting}\n")
    legacy.commit("config")
    before = _reading(legacy.root)
    assert before["doc/adr/0003-use-sqlite.md"] == (
        ["Accepted"], [("supersedes", True, "doc/adr/0002-use-postgres.md")]
    )
    assert before["doc/adr/0002-use-postgres.md"][1] == [
        ("supersedes", False, "doc/adr/0003-use-sqlite.md")
    ]
    found = run_check(legacy.root, gates=["wrap"]).findings
    header_lines = {(p, n) for p, t in LEGACY.items() for n in range(3, 3 + _header(t).count("\n") + 1)}
    assert found and not {(f.path, f.line) for f in found} & header_lines

    monkeypatch.chdir(legacy.root)
    fixed = runner.invoke(app, ["fix", "--gate", "wrap"])
    assert fixed.exit_code == 0, fixed.output
    checked = runner.invoke(app, ["check", "--gate", "wrap"])
    assert checked.exit_code == 0, checked.output

    assert _reading(legacy.root) == before
    changed = 0
    for path, text in LEGACY.items():
        now = (legacy.root / path).read_text(encoding="utf-8")
        assert _header(now) == _header(text), path
        changed += now != text
    assert changed == len(LEGACY)  # the prose below each header was fixed
    once = {path: (legacy.root / path).read_text(encoding="utf-8") for path in LEGACY}
    again = runner.invoke(app, ["fix", "--gate", "wrap"])
    assert again.exit_code == 0, again.output
    assert {path: (legacy.root / path).read_text(encoding="utf-8") for path in LEGACY} == once


# --------------------------------------------------------------------------- headers docsync writes


@pytest.mark.parametrize("mode", ["none", 60, "sentence"], ids=str)
def test_migrated_new_and_moved_headers_pass_the_gate_and_survive_fix(
    legacy: GitRepo, mode: WrapMode, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(legacy.root)
    setting = f'"{mode}"' if isinstance(mode, str) else str(mode)
    init = runner.invoke(app, ["init"])
    assert init.exit_code == 0, init.output
    config = legacy.root / ".docsync.toml"
    config.write_text(
        "\n".join(
            f"wrap = {setting}" if line.startswith("wrap =") else line
            for line in config.read_text(encoding="utf-8").split("\n")
        ),
        encoding="utf-8",
    )
    fix = runner.invoke(app, ["fix", "--gate", "wrap"])
    assert fix.exit_code == 0, fix.output
    legacy.commit("adopt the convention")
    migrated = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert migrated.exit_code == 0, migrated.output
    new = runner.invoke(app, ["new", "Use DuckDB for the cache", "--supersedes", "use-sqlite"])
    assert new.exit_code == 0, new.output
    lifecycle_move.move(
        legacy.root, "use-duckdb-for-the-cache", "implemented", "agreed in the review " * 3,
        date(2026, 12, 1),
    )
    legacy.commit("new and move")

    checked = run_check(legacy.root)
    assert [f"{f.path}:{f.line} {f.rule} {f.message}" for f in checked.findings] == []
    records = sorted(legacy.root.glob("docs/rfc/*/*.md")) or sorted(legacy.root.glob("doc/*/*/*.md"))
    texts = {p: p.read_text(encoding="utf-8") for p in records}
    statuses = {p: [s.value for s in status_lines(parse(str(p), t))] for p, t in texts.items()}
    assert all(len(found) == 1 for found in statuses.values()), statuses
    assert any("superseded by" in v[0] for v in statuses.values()), statuses
    kept = "\n".join(texts.values())
    # the legacy header paragraphs, less the Status: line the uniform header replaced
    assert "\n\nDate: 2016-03-01\nSuperseded by: [3. Use SQLite](" in kept
    assert "\n\n**Date:** 2016-04-01\nSupersedes: [2. Use Postgres](" in kept
    assert "\nDeciders: Alice, Bob, Carol, Dan, Erin, Frank, Grace, Heidi, Ivan, Judy and Mallory\n" in kept
    fix = runner.invoke(app, ["fix"])
    assert fix.exit_code == 0, fix.output
    assert {p: p.read_text(encoding="utf-8") for p in records} == texts
    assert run_check(legacy.root).findings == ()


def test_a_long_status_line_stays_one_line_under_a_width() -> None:
    text = (
        "# B\n\nStatus: rejected (superseded by [A record with a long title](a.md) on 2026-12-01; "
        "agreed in the review)\nSupersedes: [C](c.md)\n\n## Why\n\nBecause.\n"
    )
    doc = parse("b.md", text)
    assert wrap.check(doc, Config(wrap=40)) == []
    assert wrap.check(doc, Config(wrap=40, wrap_strict=True)) == []
    assert fix_document(doc, Config(wrap=40)).text == text


@SETTINGS
@given(
    documents_with_headers(),
    st.sampled_from(["none", "sentence", 80, 30, 12]),
    st.booleans(),
)
def test_the_quick_reading_agrees_on_headers(
    generated: tuple[str, list[tuple[str, list[str], bool]]], mode: WrapMode, strict: bool
) -> None:
    # the gate's quick path sends a paragraph that may be a header to the full reading
    doc = parse("gen.md", generated[0])
    assert _same(doc, Config(wrap=mode, wrap_strict=strict))
