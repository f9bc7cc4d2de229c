"""Inline suppressions, per-file-ignores and rule selection, end to end on real repositories.

Each case is a document, the options, and the findings left as RULE@LINE.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from docsync.check.findings import filter_findings, findings_for
from docsync.check.fix import _kept_lines
from docsync.cli import app
from docsync.gates.links import check as links
from docsync.gates.rules import by_code
from docsync.parse.native import parse
from docsync.report.selection import Selection
from docsync.report.suppressions import FileSuppressions
from docsync.workspace.documents import Documents
from docsync.workspace.load import Workspace, load_workspace
from tests.gitutil import GitRepo

runner = CliRunner()

HARD = "A hard-wrapped\nparagraph.\n"
BROKEN = "[x](nope.md)\n"

CASES: list[tuple[str, str, list[str], str]] = [
    ("nothing suppressed", f"# T\n\n{HARD}\n{BROKEN}", [], "W001@3 L001@6"),
    (
        "next line, one code",
        f"# T\n\n{HARD}\n<!-- docsync-disable-next-line L001 -->\n{BROKEN}",
        [],
        "W001@3",
    ),
    (
        "next line, another code",
        f"# T\n\n{HARD}\n<!-- docsync-disable-next-line W001 -->\n{BROKEN}",
        [],
        "W001@3 L001@7",
    ),
    (
        "next line covers the paragraph starting there",
        f"# T\n\n<!-- docsync-disable-next-line W001 -->\n{HARD}\n{BROKEN}",
        [],
        "L001@7",
    ),
    (
        "next line, no codes: every rule",
        f"# T\n\n{HARD}\n<!-- docsync-disable-next-line -->\n[x](nope.md) [y](gone.md)\n",
        [],
        "W001@3",
    ),
    ("same line", "# T\n\n[x](nope.md) <!-- docsync-disable-line L001 -->\n", [], "ok"),
    (
        "range by code",
        f"# T\n\n<!-- docsync-disable L001 -->\n{BROKEN}\n<!-- docsync-enable L001 -->\n{BROKEN}",
        [],
        "L001@7",
    ),
    (
        "range of every rule, one turned back on",
        f"# T\n\n<!-- docsync-disable -->\n{BROKEN}\n<!-- docsync-enable L001 -->\n{BROKEN}\n{HARD}",
        [],
        "L001@7",
    ),
    (
        "range without an end runs to the end of the file",
        f"# T\n\n<!-- docsync-disable links -->\n{BROKEN}\n{BROKEN}\n{HARD}",
        [],
        "W001@8",
    ),
    (
        "a prefix names a family",
        f"<!-- docsync-disable-file L -->\n# T\n\n{HARD}\n{BROKEN}",
        [],
        "W001@4",
    ),
    ("file, no codes", f"<!-- docsync-disable-file -->\n# T\n\n{HARD}\n{BROKEN}", [], "ok"),
    (
        "a comment in code is text",
        f"# T\n\n```\n<!-- docsync-disable-file -->\n```\n\n{BROKEN}",
        [],
        "L001@7",
    ),
    (
        "a comment in a code span is text",
        f"# T\n\n`<!-- docsync-disable-file -->`\n\n{BROKEN}",
        [],
        "L001@5",
    ),
    ("--ignore a code", f"# T\n\n{HARD}\n{BROKEN}", ["--ignore", "L001"], "W001@3"),
    ("--ignore a gate", f"# T\n\n{HARD}\n{BROKEN}", ["--ignore", "wrap"], "L001@6"),
    ("--select a prefix", f"# T\n\n{HARD}\n{BROKEN}", ["--select", "W"], "W001@3"),
    (
        "--select, comma-separated",
        f"# T\n\n{HARD}\n{BROKEN}",
        ["--select", "W001,links"],
        "W001@3 L001@6",
    ),
    (
        "the more specific selector wins",
        f"# T\n\n{HARD}\n{BROKEN}",
        ["--ignore", "W", "--select", "W001"],
        "W001@3",
    ),
    (
        "unused suppressions reported",
        f"# T\n\n<!-- docsync-disable-next-line L001 W002 -->\n{BROKEN}",
        ["--report-unused-suppressions"],
        "S001@3",
    ),
    (
        "a used suppression is not reported",
        f"# T\n\n<!-- docsync-disable-next-line L001 -->\n{BROKEN}",
        ["--report-unused-suppressions"],
        "ok",
    ),
    (
        "a suppression of a gate that did not run is not called unused",
        f"# T\n\n<!-- docsync-disable-next-line W001 -->\n{BROKEN}",
        ["--report-unused-suppressions", "--gate", "links"],
        "L001@4",
    ),
]


def _repo(root: Path, text: str, config: str = "") -> GitRepo:
    repo = GitRepo.init(root)
    repo.write("doc.md", text)
    if config:
        repo.write(".docsync.toml", config)
    repo.commit("init")
    return repo


def _found(options: list[str]) -> str:
    result = runner.invoke(app, ["check", "--output-format", "json", *options])
    assert result.exit_code in (0, 1), result.output
    found = json.loads(result.stdout)["findings"]
    return " ".join(f"{f['rule']}@{f['line']}" for f in found) or "ok"


@pytest.mark.parametrize(("text", "options", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_case(
    text: str, options: list[str], expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _repo(tmp_path / "repo", text)
    monkeypatch.chdir(tmp_path / "repo")
    assert _found(options) == expected


def test_unused_message_names_the_idle_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _repo(tmp_path / "repo", f"# T\n\n<!-- docsync-disable-next-line L001 W002 -->\n{BROKEN}")
    monkeypatch.chdir(tmp_path / "repo")
    result = runner.invoke(app, ["check", "--report-unused-suppressions", "--output-format", "concise"])
    assert result.stdout.splitlines()[0] == (
        "doc.md:3:1: S001 'docsync-disable-next-line L001 W002' silences no finding for W002; remove it"
    )


CONFIGS: list[tuple[str, str, list[str], str]] = [
    ("per-file-ignores by name", '[per-file-ignores]\n"doc.md" = ["W001"]\n', [], "L001@6 L001@1"),
    ("per-file-ignores by glob and prefix", '[per-file-ignores]\n"vendor/**" = ["L"]\n', [], "W001@3 L001@6"),
    ("select in config", 'select = ["links"]\n', [], "L001@6 L001@1"),
    ("ignore in config", 'ignore = ["L001"]\n', [], "W001@3"),
    ("--select replaces config's", 'select = ["W"]\n', ["--select", "L"], "L001@6 L001@1"),
    ("--ignore adds to config's", 'ignore = ["W"]\n', ["--ignore", "L001"], "ok"),
]


@pytest.mark.parametrize(("config", "options", "expected"), [c[1:] for c in CONFIGS], ids=[c[0] for c in CONFIGS])
def test_config(
    config: str, options: list[str], expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path / "repo", f"# T\n\n{HARD}\n{BROKEN}", config)
    repo.write("vendor/lib.md", "[x](nope.md)\n")
    repo.commit("vendor")
    monkeypatch.chdir(repo.root)
    assert sorted(_found(options).split()) == sorted(expected.split())


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ('selct = ["L"]\n', "unknown key 'selct' (did you mean 'select'?)"),
        ('ignore = ["L0O1"]\n', "'L0O1' names no rule code, prefix or gate (did you mean 'L001'?)"),
        ('gates = ["lnks"]\n', "(did you mean 'links'?)"),
        ('[per-file-ignores]\n"x.md" = "W001"\n', "key 'per-file-ignores' must be"),
    ],
)
def test_config_errors_say_what_was_meant(
    config: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _repo(tmp_path / "repo", "# T\n", config)
    monkeypatch.chdir(tmp_path / "repo")
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 2
    assert message in result.stderr


FIX_CASES: list[tuple[str, str, str]] = [
    (
        "a suppressed paragraph is not re-wrapped",
        f"# T\n\n<!-- docsync-disable-next-line W001 -->\n{HARD}\n{HARD}",
        f"# T\n\n<!-- docsync-disable-next-line W001 -->\n{HARD}\nA hard-wrapped paragraph.\n",
    ),
    (
        "a file-wide suppression keeps the whole file",
        f"<!-- docsync-disable-file wrap -->\n# T\n\n{HARD}\n{HARD}",
        f"<!-- docsync-disable-file wrap -->\n# T\n\n{HARD}\n{HARD}",
    ),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in FIX_CASES], ids=[c[0] for c in FIX_CASES])
def test_fix_leaves_suppressed_findings(
    text: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path / "repo", text)
    monkeypatch.chdir(repo.root)
    runner.invoke(app, ["fix"])
    assert (repo.root / "doc.md").read_text() == expected


def test_fix_honours_ignore_and_per_file_ignores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path / "repo", f"# T\n\n{HARD}", '[per-file-ignores]\n"keep.md" = ["W001"]\n')
    repo.write("keep.md", f"# K\n\n{HARD}")
    repo.commit("keep")
    monkeypatch.chdir(repo.root)
    runner.invoke(app, ["fix", "--ignore", "L"])
    assert (repo.root / "keep.md").read_text() == f"# K\n\n{HARD}"
    assert (repo.root / "doc.md").read_text() == "# T\n\nA hard-wrapped paragraph.\n"
    runner.invoke(app, ["fix", "--ignore", "W001"])
    assert (repo.root / "keep.md").read_text() == f"# K\n\n{HARD}"


# --------------------------------------------------------------------------- properties

_lines = st.lists(st.sampled_from(["a\n", "b\n", "c d\n", "\n", "<!-- docsync-disable -->\n"]), max_size=12)


@settings(max_examples=200, deadline=None)
@given(_lines, _lines, st.sets(st.integers(1, 14)))
def test_kept_lines_keeps_or_takes_each_change(before: list[str], after: list[str], lines: set[int]) -> None:
    old, new = "".join(before), "".join(after)
    assert _kept_lines(old, new, set()) == new
    assert _kept_lines(old, new, set(range(1, len(before) + 2))) == old
    kept = _kept_lines(old, new, lines)
    assert _kept_lines(kept, kept, lines) == kept
    for line in kept.splitlines(keepends=True):
        assert line in before or line in after


_directive = st.sampled_from(
    [
        "<!-- docsync-disable -->",
        "<!-- docsync-enable -->",
        "<!-- docsync-disable L001 -->",
        "<!-- docsync-enable L001 -->",
        "<!-- docsync-enable L -->",
        "<!-- docsync-disable-next-line W001 -->",
        "<!-- docsync-disable-line -->",
        "<!-- docsync-disable-file links -->",
        "[x](nope.md)",
        "text",
        "",
        "```",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_directive, max_size=15))
def test_suppressions_never_raise_and_unused_only_names_idle_directives(lines: list[str]) -> None:
    doc = parse("doc.md", "\n".join(lines) + "\n")
    found = FileSuppressions.of(doc)
    rules = by_code()
    for line in range(1, doc.line_count + 2):
        for code in ("L001", "W001", "Y001"):
            found.silences(rules[code], line)
    unused = list(found.unused("doc.md", ["links", "wrap", "layout", "refs"], True))
    directive_lines = {d.line for d in found.found}
    assert all(f.line in directive_lines and f.rule == "S001" for f in unused)


def test_fix_leaves_a_suppressed_broken_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("old.md", "# Old\n")
    repo.write(
        "doc.md",
        "# T\n\n<!-- docsync-disable-next-line L001 -->\n[kept](old.md)\n\n[fixed](old.md)\n",
    )
    repo.commit("init")
    repo.move("old.md", "new.md")
    repo.commit("rename")
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, ["fix", "--gate", "links"])
    assert result.exit_code == 0, result.output
    assert (repo.root / "doc.md").read_text() == (
        "# T\n\n<!-- docsync-disable-next-line L001 -->\n[kept](old.md)\n\n[fixed](new.md)\n"
    )


def _parsed_in_workers(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Workspace, Documents]:
    from docsync.workspace import parsing

    monkeypatch.setattr(parsing, "_workers", lambda config, pending: 2)
    workspace = load_workspace(root, summarizers={links.GATE: links.Summarizer})
    assert isinstance(workspace.documents, Documents)
    return workspace, workspace.documents


def test_suppressions_answered_from_the_bytes_equal_those_of_the_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files whose bytes hold no ``docsync-`` are answered without unpickling their
    documents, and the findings kept and silenced are those of the unpickled path."""
    repo = GitRepo.init(tmp_path / "repo")
    for n in range(12):
        quiet = "<!-- docsync-disable-next-line L001 -->\n" if n % 3 == 0 else ""
        mention = "The text says docsync- in prose.\n\n" if n % 4 == 1 else ""
        repo.write(f"d{n}.md", f"# T{n}\n\n{mention}{quiet}[x](nope-{n}.md)\n\n[y](gone.md)\n")
    repo.write("big.md", "# Big\n\n" + "".join(f"[z](missing-{k}.md)\n\n" for k in range(300)))
    repo.commit("init")
    selection = Selection()
    ran = ("links",)

    workspace, documents = _parsed_in_workers(repo.root, monkeypatch)
    fast = filter_findings(workspace, findings_for(workspace, ran), selection, ran, report_unused=True)
    without_marker = [f"d{n}.md" for n in range(12) if n % 3 and n % 4 != 1] + ["big.md"]
    assert all(documents.packed_source(p) is not None for p in without_marker), "unpickled to find no marker"

    workspace, documents = _parsed_in_workers(repo.root, monkeypatch)
    found = findings_for(workspace, ran)
    assert len(documents) == 13  # iterating unpickles every document: the plain path
    plain = filter_findings(workspace, found, selection, ran, report_unused=True)
    assert fast == plain
    assert len(plain.silenced) == 4 and len(plain.kept) == 2 * 12 - 4 + 300
