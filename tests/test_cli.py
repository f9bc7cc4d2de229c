"""The command line end to end, through typer's runner, on real git repositories."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from tests.gitutil import git

runner = CliRunner()


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\n## Install\n\nSee [the readme](../README.md).\n")
    (tmp_path / "README.md").write_text(
        "# Project\n\nRead [the guide](docs/guide.md#install) and [nothing](docs/nope.md).\n"
    )
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "init")
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


def test_check_text_reports_and_exits_1(repo: Path) -> None:
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 1
    assert "README.md" in result.stdout
    assert "3:45  L001  'docs/nope.md' does not exist" in result.stdout
    assert "1 finding in 1 file (links: 1); 2 Markdown files checked." in result.stdout


def test_check_json_shape(repo: Path) -> None:
    result = runner.invoke(app, ["check", "--format", "json"])
    assert result.exit_code == 1
    payload = json.loads(result.stdout)
    assert payload["files"] == 2
    (finding,) = payload["findings"]
    assert {k: finding[k] for k in ("gate", "rule", "path", "line", "column")} == {
        "gate": "links",
        "rule": "L001",
        "path": "README.md",
        "line": 3,
        "column": 45,
    }


def test_check_github_annotations_byte_for_byte(repo: Path) -> None:
    result = runner.invoke(app, ["check", "--format", "github"])
    assert result.stdout == (
        "::error file=README.md,line=3,col=45,title=docsync L001 (missing-target)::"
        "'docs/nope.md' does not exist\n"
    )


def test_github_escaping() -> None:
    from docsync.model import Finding
    from docsync.report.formats import as_github

    finding = Finding("links", "L001", "a,b:c%.md", 2, 3, "50% broken\nreally")
    assert as_github([finding]) == (
        "::error file=a%2Cb%3Ac%25.md,line=2,col=3,title=docsync L001 (missing-target)::"
        "50%25 broken%0Areally\n"
    )


def test_clean_after_fixing_the_link(repo: Path) -> None:
    (repo / "README.md").write_text("# Project\n\nRead [the guide](docs/guide.md#install).\n")
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 0, result.stdout
    assert "All clear: 2 Markdown files checked, no findings." in result.stdout


def test_named_files_only_but_fragments_resolve(repo: Path) -> None:
    result = runner.invoke(app, ["check", "docs/guide.md", "--format", "json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"version": 1, "files": 1, "findings": []}


def test_gate_selection(repo: Path) -> None:
    (repo / "wrapped.md").write_text("one\ntwo\n")
    git(repo, "add", "wrapped.md")
    links_only = runner.invoke(app, ["check", "--gate", "links", "--format", "json"])
    wrap_only = runner.invoke(app, ["check", "--gate", "wrap", "--format", "json"])
    assert {f["gate"] for f in json.loads(links_only.stdout)["findings"]} == {"links"}
    assert {f["gate"] for f in json.loads(wrap_only.stdout)["findings"]} == {"wrap"}


def test_unknown_gate_is_usage_error(repo: Path) -> None:
    result = runner.invoke(app, ["check", "--gate", "spelling"])
    assert result.exit_code == 2
    assert "unknown gate 'spelling'" in result.stderr


def test_outside_git_is_exit_2(tmp_path: Path) -> None:
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        result = runner.invoke(app, ["check"])
    finally:
        os.chdir(old)
    assert result.exit_code == 2
    assert result.stderr.startswith("docsync: error: not inside a git repository")
    assert "Traceback" not in result.output


def test_path_outside_repository_is_exit_2(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    outside = tmp_path_factory.mktemp("elsewhere") / "x.md"
    outside.write_text("# x\n")
    result = runner.invoke(app, ["check", str(outside)])
    assert result.exit_code == 2
    assert "outside the repository" in result.stderr


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ('[tool.docsync]\nwrapp = "none"\n', "pyproject.toml [tool.docsync]: unknown key 'wrapp'"),
        ('[tool.docsync]\nwrap = "sometimes"\n', "key 'wrap' must be"),
        ("[tool.docsync\n", "pyproject.toml: not valid TOML"),
    ],
)
def test_bad_config_is_exit_2(repo: Path, config: str, message: str) -> None:
    (repo / "pyproject.toml").write_text(config)
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 2
    assert message in result.stderr


def test_docsync_toml_wins_over_pyproject(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.docsync]\nbogus = 1\n')
    (repo / ".docsync.toml").write_text('exclude = ["README.md"]\n')
    result = runner.invoke(app, ["check", "--format", "json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["files"] == 1


def test_invalid_utf8_is_one_finding(repo: Path) -> None:
    (repo / "latin1.md").write_bytes("caf\xe9\n".encode("latin-1"))
    git(repo, "add", "latin1.md")
    result = runner.invoke(app, ["check", "--format", "json"])
    findings = [f for f in json.loads(result.stdout)["findings"] if f["path"] == "latin1.md"]
    assert [(f["rule"], f["line"], f["column"]) for f in findings] == [("F001", 1, 4)]


def test_nul_byte_is_one_finding(repo: Path) -> None:
    (repo / "binary.md").write_bytes(b"# x\n\x00\x01")
    git(repo, "add", "binary.md")
    result = runner.invoke(app, ["check", "--format", "json"])
    rules = [f["rule"] for f in json.loads(result.stdout)["findings"] if f["path"] == "binary.md"]
    assert rules == ["F002"]


def test_too_large_is_one_finding(repo: Path) -> None:
    (repo / ".docsync.toml").write_text("max_file_size = 100\n")
    (repo / "big.md").write_text("word " * 100 + "\n")
    git(repo, "add", "big.md")
    result = runner.invoke(app, ["check", "--format", "json"])
    rules = [f["rule"] for f in json.loads(result.stdout)["findings"] if f["path"] == "big.md"]
    assert rules == ["F003"]


def test_version() -> None:
    from docsync import __version__

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"docsync {__version__}"


def test_rules_lists_and_explains() -> None:
    listing = runner.invoke(app, ["rules"])
    assert listing.exit_code == 0
    assert "L001  links   missing-target" in listing.stdout
    explained = runner.invoke(app, ["rules", "L006"])
    assert explained.exit_code == 0
    assert explained.stdout.startswith("## L006 missing-fragment")
    assert "Fix:" in explained.stdout
    unknown = runner.invoke(app, ["rules", "Z999"])
    assert unknown.exit_code == 2


def test_every_rule_is_documented() -> None:
    from docsync.gates.rules import DOCS, all_rules, section

    for rule in all_rules():
        page = DOCS / f"{rule.gate}.md"
        assert page.is_file(), f"no rule page for gate {rule.gate}"
        text = section(page.read_text(encoding="utf-8"), rule.code)
        assert text is not None, f"{rule.code} is not documented in {page.name}"
        assert text.splitlines()[0] == f"## {rule.code} {rule.name}"
        for part in ("What:", "Why:", "Example:", "Fix:"):
            assert part in text, f"{rule.code} lacks {part}"


def test_changed_checks_changed_files_and_their_linkers(repo: Path) -> None:
    (repo / "README.md").write_text("# Project\n\nRead [the guide](docs/guide.md#install).\n")
    (repo / "other.md").write_text("# Other\n\n[bad](missing.md)\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    (repo / "docs" / "guide.md").write_text("# Guide\n\n## Setup\n")
    result = runner.invoke(app, ["check", "--changed", "--since", "HEAD", "--format", "json"])
    payload = json.loads(result.stdout)
    # guide.md changed; README.md links into it and now has a broken fragment;
    # other.md is broken too but untouched, so a pull-request run does not see it.
    assert payload["files"] == 2
    assert [(f["path"], f["rule"]) for f in payload["findings"]] == [("README.md", "L006")]


def test_fix_check_and_diff_write_nothing(repo: Path) -> None:
    (repo / "wrapped.md").write_text("# W\n\none\ntwo\n")
    git(repo, "add", "wrapped.md")
    checked = runner.invoke(app, ["fix", "--check", "wrapped.md"])
    assert checked.exit_code == 1
    assert "would fix wrapped.md" in checked.stdout
    diffed = runner.invoke(app, ["fix", "--diff", "wrapped.md"])
    assert diffed.exit_code == 1
    assert "-one\n-two\n+one two\n" in diffed.stdout
    assert (repo / "wrapped.md").read_text() == "# W\n\none\ntwo\n"
    fixed = runner.invoke(app, ["fix", "wrapped.md"])
    assert fixed.exit_code == 0, fixed.stdout
    assert (repo / "wrapped.md").read_text() == "# W\n\none two\n"
    again = runner.invoke(app, ["fix", "--check", "wrapped.md"])
    assert again.exit_code == 0


def test_fix_keeps_crlf_and_bom(repo: Path) -> None:
    (repo / "crlf.md").write_bytes(b"\xef\xbb\xbf# C\r\n\r\none\r\ntwo\r\n")
    git(repo, "add", "crlf.md")
    assert runner.invoke(app, ["fix", "crlf.md"]).exit_code == 0
    assert (repo / "crlf.md").read_bytes() == b"\xef\xbb\xbf# C\r\n\r\none two\r\n"


def test_fix_leaves_undecodable_files_alone(repo: Path) -> None:
    data = b"# L\n\ncaf\xe9\nau lait\n"
    (repo / "latin1.md").write_bytes(data)
    git(repo, "add", "latin1.md")
    result = runner.invoke(app, ["fix", "latin1.md"])
    assert result.exit_code == 1
    assert "F001" in result.stdout
    assert (repo / "latin1.md").read_bytes() == data


def test_symlink_loop_on_the_command_line_is_exit_2(repo: Path) -> None:
    (repo / "loop.md").symlink_to("loop.md")
    result = runner.invoke(app, ["fix", "loop.md"])
    assert result.exit_code == 2
    assert "symlink loop" in result.stderr


def test_fix_outside_git_is_exit_2(tmp_path: Path) -> None:
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        result = runner.invoke(app, ["fix"])
    finally:
        os.chdir(old)
    assert result.exit_code == 2
    assert "not inside a git repository" in result.stderr


def test_gate_scripts_run_one_gate_each(repo: Path) -> None:
    import subprocess
    import sys

    (repo / "wrapped.md").write_text("# W\n\none\ntwo\n")
    git(repo, "add", "wrapped.md")
    scripts = Path(__file__).resolve().parents[1] / "scripts"
    links = subprocess.run([sys.executable, scripts / "verify-md-links"], cwd=repo, capture_output=True, text=True)
    wrap = subprocess.run([sys.executable, scripts / "verify-md-wrap"], cwd=repo, capture_output=True, text=True)
    assert links.returncode == 1 and "L001" in links.stdout and "W001" not in links.stdout
    assert wrap.returncode == 1 and "W001" in wrap.stdout and "L001" not in wrap.stdout


# --------------------------------------------------------------------------- one command's app

_COMMANDS = ["check", "fix", "rules", "migrate", "new", "move", "graph", "init"]


def test_every_command_is_one_of_the_app_s() -> None:
    from docsync.commandline.arguments import command_name

    assert sorted(command_name(info) for info in app.registered_commands) == sorted(_COMMANDS)


@pytest.mark.parametrize("command", _COMMANDS)
def test_a_command_s_own_app_holds_it_alone_and_helps_as_the_whole_app(command: str) -> None:
    """main() builds the options of the one command the arguments name; what the command
    line shows is the whole app's (its help here; tests/test_cli_conventions.py: the rest)."""
    from docsync.cli import _app_for
    from docsync.commandline.arguments import command_name

    one = _app_for([command, "--help"])
    assert [command_name(info) for info in one.registered_commands] == [command]
    alone = runner.invoke(one, [command, "--help"], prog_name="docsync")
    whole = runner.invoke(app, [command, "--help"], prog_name="docsync")
    assert (alone.exit_code, alone.output) == (whole.exit_code, whole.output)
    assert alone.exit_code == 0 and f"docsync {command}" in alone.output


@pytest.mark.parametrize(
    "args", [[], ["--help"], ["--version"], ["migrat"], ["-h", "check"], ["Check"], ["rules", "--nope"]]
)
def test_anything_but_a_command_first_gets_the_whole_app(args: list[str]) -> None:
    from docsync.cli import _app_for

    chosen = _app_for(args)
    if args and args[0] in _COMMANDS:
        assert chosen is not app
    else:
        assert chosen is app
    alone = runner.invoke(chosen, args, prog_name="docsync")
    whole = runner.invoke(app, args, prog_name="docsync")
    assert (alone.exit_code, alone.output) == (whole.exit_code, whole.output)
