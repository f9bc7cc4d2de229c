"""The command line's conventions (ruff's names), end to end on real repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync import __version__
from docsync.cli import app
from tests.gitutil import GitRepo

runner = CliRunner()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("README.md", "# P\n\nSee [the guide](docs/guide.md) and [x](nope.md).\n")
    repo.write("docs/guide.md", "# Guide\n\nBack [home](../README.md), [gone](gone.md).\n\nA hard\nwrap.\n")
    repo.write("docs/notes.txt", "not Markdown\n")
    repo.commit("init")
    monkeypatch.chdir(repo.root)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return repo


def _check(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["check", *args], env=env)
    return result.exit_code, result.stdout, result.stderr


def test_concise_is_one_line_per_finding(repo: GitRepo) -> None:
    code, out, _ = _check("--output-format", "concise", "-q")
    assert code == 1
    assert out.splitlines() == [
        "README.md:3:36: L001 'nope.md' does not exist",
        "docs/guide.md:3:28: L001 'gone.md' does not exist",
        "docs/guide.md:5:7: W001 paragraph is hard-wrapped over 2 lines; wrap = \"none\" wants one "
        "line per paragraph: join the lines (run `docsync fix`)",
    ]


def test_format_stays_an_alias(repo: GitRepo) -> None:
    assert _check("--format", "concise", "-q")[1] == _check("-f", "concise", "-q")[1]
    assert _check("--format", "concise", "-q")[1] == _check("--output-format", "concise", "-q")[1]


def test_quiet_prints_the_findings_and_nothing_else(repo: GitRepo) -> None:
    _, loud, _ = _check()
    _, quiet, _ = _check("-q")
    assert "findings in 2 files" in loud.splitlines()[-1]
    assert quiet.splitlines() == loud.splitlines()[:-1]
    repo.write("README.md", "# P\n")
    repo.write("docs/guide.md", "# Guide\n")
    assert _check("--quiet") == (0, "", "")


def test_exit_zero_keeps_errors_at_2(repo: GitRepo) -> None:
    assert _check("--exit-zero")[0] == 0
    assert _check("--exit-zero", "missing.md")[0] == 2


def test_statistics_counts_per_rule(repo: GitRepo) -> None:
    code, out, _ = _check("--statistics")
    assert code == 1
    assert out == "2  L001  missing-target\n1  W001  hard-wrapped\n"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("docs/typo", "no such file or folder"),
        ("docs/notes.txt", "not a Markdown file"),
        (".git", "no Markdown file in this folder"),
        ("-", "'-' reads stdin: give its path with --stdin-filename"),
    ],
)
def test_a_path_that_names_nothing_is_exit_2(repo: GitRepo, path: str, message: str) -> None:
    code, out, err = _check(path)
    assert code == 2
    assert message in err and out == ""


def test_stdin_is_checked_as_the_named_file(repo: GitRepo) -> None:
    result = runner.invoke(
        app,
        ["check", "-", "--stdin-filename", "docs/draft.md", "-f", "json"],
        input="# Draft\n\n[guide](guide.md#guide) [home](../README.md#p) [bad](../nope.md)\n",
    )
    assert result.exit_code == 1, result.output
    found = json.loads(result.stdout)
    assert found["files"] == 1
    assert [(f["path"], f["rule"], f["column"]) for f in found["findings"]] == [
        ("docs/draft.md", "L001", 48)
    ]
    # the file on disk is not what was checked
    assert not (repo.root / "docs" / "draft.md").exists()


def test_from_a_subdirectory_paths_are_relative_and_only_it_is_checked(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo.root / "docs")
    code, out, _ = _check("-f", "concise", "-q")
    assert code == 1
    assert [line.split(": ")[0] for line in out.splitlines()] == ["guide.md:3:28", "guide.md:5:7"]
    # named paths are from where the user stands, and the link context is still the repository
    _, named, _ = _check("-f", "concise", "-q", "../README.md")
    assert named.splitlines() == ["../README.md:3:36: L001 'nope.md' does not exist"]
    # machine output keeps repository paths
    assert json.loads(_check("-f", "json")[1])["findings"][0]["path"] == "docs/guide.md"


def test_nearest_config_walking_up(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    repo.write("pyproject.toml", '[tool.docsync]\nignore = ["L"]\n')
    repo.write("docs/.docsync.toml", 'ignore = ["W"]\n')
    monkeypatch.chdir(repo.root / "docs")
    code, out, err = _check("-f", "concise", "-q", "-v")
    assert code == 1
    assert out.splitlines() == ["guide.md:3:28: L001 'gone.md' does not exist"]
    assert "config: docs/.docsync.toml" in err
    monkeypatch.chdir(repo.root)
    _, out, err = _check("-f", "concise", "-q", "--verbose")
    assert [line.split(":")[0] for line in out.splitlines()] == ["docs/guide.md"]
    assert "config: pyproject.toml [tool.docsync]" in err


def test_an_invalid_config_in_a_subdirectory_is_not_ignored(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("docs/.docsync.toml", "wrapp = 80\n")
    monkeypatch.chdir(repo.root / "docs")
    code, _, err = _check()
    assert code == 2
    assert "docs/.docsync.toml: unknown key 'wrapp' (did you mean 'wrap'?)" in err


def test_config_option_names_the_file(repo: GitRepo, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere.toml"
    other.write_text('select = ["W"]\n')
    code, out, err = _check("--config", str(other), "-f", "concise", "-q", "-v")
    assert code == 1
    assert [line.split(": ")[1].split()[0] for line in out.splitlines()] == ["W001"]
    assert f"config: {other}" in err
    assert _check("--config", str(tmp_path / "missing.toml"))[0] == 2


def test_the_files_gate_is_accepted(repo: GitRepo) -> None:
    repo.root.joinpath("binary.md").write_bytes(b"\x00")
    repo.git("add", "binary.md")
    code, out, _ = _check("--gate", "files", "-f", "concise", "-q")
    assert code == 1
    assert [line.split(": ")[1].split()[0] for line in out.splitlines()] == ["F002"]


def test_an_unknown_gate_or_code_says_what_was_meant(repo: GitRepo) -> None:
    assert "unknown gate 'lnks' (did you mean 'links'?)" in _check("--gate", "lnks")[2]
    assert "(did you mean 'W001'?)" in _check("--select", "W01")[2]


def test_help_and_version_short_forms() -> None:
    assert runner.invoke(app, ["-V"]).stdout.strip() == f"docsync {__version__}"
    assert "--output-format" in runner.invoke(app, ["check", "-h"]).stdout
    assert "check" in runner.invoke(app, ["-h"]).stdout


def test_no_color_removes_all_styling(repo: GitRepo) -> None:
    styled = _check(env={"FORCE_COLOR": "1"})[1]
    assert "\x1b[1m" in styled  # bold file names on a terminal
    plain = _check(env={"FORCE_COLOR": "1", "NO_COLOR": "1"})[1]
    assert "\x1b[" not in plain
    assert plain == _check()[1]
    assert "\x1b[" not in _check("--color", "never", env={"FORCE_COLOR": "1"})[1]
    assert "\x1b[" in _check("--color", "always", env={"NO_COLOR": "1"})[1]


def test_many_wrap_findings_without_config_suggest_init(repo: GitRepo) -> None:
    body = " ".join(["word"] * 14)
    paragraphs = "\n\n".join(f"{body}\n{body}\n{body}" for _ in range(25))
    repo.write("docs/wrapped.md", f"# Wrapped\n\n{paragraphs}\n")
    code, out, err = _check("--gate", "wrap")
    # 26 paragraphs break "none", none breaks 72: the gate stays off and one line says why
    assert code == 0 and "W001" not in out
    assert err.splitlines()[-1].startswith(
        'wrap gate off: there is no docsync config and the prose follows wrap = 72 (0 paragraphs break it, 26 break the default "none")'
    )
    assert "run `docsync init`" in err
    assert _check("--gate", "wrap", "-q")[2] == ""
    repo.write(".docsync.toml", 'wrap = "none"\n')
    code, out, err = _check("--gate", "wrap")
    assert code == 1 and "W001" in out and "docsync init" not in err


def test_fix_from_a_subdirectory_fixes_only_it(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    repo.write("top.md", "# Top\n\nA hard\nwrap.\n")
    repo.commit("top")
    monkeypatch.chdir(repo.root / "docs")
    result = runner.invoke(app, ["fix", "--gate", "wrap"])
    assert result.stdout.splitlines()[0] == "fixed guide.md"
    assert (repo.root / "docs" / "guide.md").read_text().endswith("A hard wrap.\n")
    assert (repo.root / "top.md").read_text() == "# Top\n\nA hard\nwrap.\n"
