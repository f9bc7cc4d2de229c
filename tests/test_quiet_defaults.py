"""A first run reports what is certain: L009/L010 are opt-in rules, and without config
the wrap gate follows the convention the prose shows, or stays off and says why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.check.check import run_check
from docsync.cli import app
from tests.gitutil import GitRepo

runner = CliRunner()

_DEFINITIONS = "# Doc\n\nSee [used].\n\n[used]: a.md\n[unused]: a.md\n[used]: b.md\n\n[broken](gone.md)\n"


def _rules(args: list[str]) -> list[str]:
    result = runner.invoke(app, ["check", "--gate", "links", "--output-format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    return sorted(f["rule"] for f in json.loads(result.stdout)["findings"])


@pytest.fixture
def definitions_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("a.md", "# A\n")
    repo.write("b.md", "# B\n")
    repo.write("doc.md", _DEFINITIONS)
    repo.commit()
    monkeypatch.chdir(repo.root)
    return repo


@pytest.mark.parametrize(
    ("args", "config", "expected"),
    [
        ([], "", ["L001"]),  # off by default, and not counted as silenced
        (["--select", "L009"], "", ["L001", "L009"]),  # naming one narrows nothing
        (["--select", "L010"], "", ["L001", "L010"]),
        (["--select", "L009", "--select", "L010"], "", ["L001", "L009", "L010"]),
        (["--select", "L"], "", ["L001"]),  # a prefix does not turn them on
        (["--select", "links"], "", ["L001"]),
        ([], 'select = ["L009", "L010"]\n', ["L001", "L009", "L010"]),
        ([], 'select = ["L001", "L010"]\n', ["L001", "L010"]),
        ([], 'select = ["L009"]\nignore = ["L009"]\n', ["L001"]),  # ignore wins, as it does for others
        (["--select", "L009"], '[per-file-ignores]\n"doc.md" = ["L009"]\n', ["L001"]),
    ],
)
def test_unused_and_duplicate_definitions_are_opt_in(
    definitions_repo: GitRepo, args: list[str], config: str, expected: list[str]
) -> None:
    if config:
        (definitions_repo.root / ".docsync.toml").write_text(config)
    assert _rules(args) == expected


def test_an_opt_in_rule_that_is_off_is_not_counted_as_silenced(definitions_repo: GitRepo) -> None:
    quiet = run_check(definitions_repo.root, gates=["links"])
    assert [f.rule for f in quiet.findings] == ["L001"] and quiet.silenced == 0
    ignored = run_check(definitions_repo.root, gates=["links"], select=["L009"], ignore=["L009"])
    assert ignored.silenced == 1  # selected, then ignored: silenced as any rule is


def test_rules_says_which_rules_are_opt_in() -> None:
    result = runner.invoke(app, ["rules"])
    lines = {line[:4]: line for line in result.output.splitlines() if line[:1].isalpha()}
    assert "opt-in" in lines["L009"] and "opt-in" in lines["L010"]
    assert all("opt-in" not in line for code, line in lines.items() if code not in ("L009", "L010"))
    explained = runner.invoke(app, ["rules", "L009"]).output
    assert "Opt-in" in explained


def _wrapped_at(width: int, n: int) -> str:
    sentence = "the quick brown fox jumps over a lazy dog while docsync keeps every link working across the tree"
    words = sentence.split(" ") * 3
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join([*lines, line]) + f" ({n})"


def _prose_repo(root: Path, wrapped: int, one_line: int) -> GitRepo:
    repo = GitRepo.init(root)
    paragraphs = [_wrapped_at(80, n) for n in range(wrapped)]
    paragraphs += [_wrapped_at(10_000, n) for n in range(one_line)]
    repo.write("docs/guide.md", "# Guide\n\n" + "\n\n".join(paragraphs) + "\n")
    repo.commit()
    return repo


@pytest.mark.parametrize(
    ("wrapped", "one_line", "left_off"),
    [
        (30, 0, True),  # an 80-column repository: nothing to join, and one line says why
        (30, 5, True),
        (25, 60, False),  # most paragraphs are one line each: "none" is its convention
        (3, 0, False),  # a handful of joins says little about a convention, and is quickly reviewed
    ],
)
def test_without_config_wrap_follows_the_prose_or_stays_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wrapped: int, one_line: int, left_off: bool
) -> None:
    repo = _prose_repo(tmp_path / "repo", wrapped, one_line)
    monkeypatch.chdir(repo.root)
    before = (repo.root / "docs/guide.md").read_bytes()
    checked = runner.invoke(app, ["check"])
    fixed = runner.invoke(app, ["fix"])
    after = (repo.root / "docs/guide.md").read_bytes()
    if left_off:
        assert checked.exit_code == 0 and "W001" not in checked.stdout
        assert checked.stderr.strip().splitlines()[-1].startswith("wrap gate off: there is no docsync config")
        assert "wrap = 80" in checked.stderr
        assert after == before and "wrap gate off" in fixed.stderr
    else:
        assert checked.exit_code == 1 and checked.stdout.count("W001") == wrapped
        assert "wrap gate off" not in checked.stderr
        assert after != before and runner.invoke(app, ["check"]).exit_code == 0


def test_with_config_wrap_none_is_what_it_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _prose_repo(tmp_path / "repo", 30, 0)
    repo.write(".docsync.toml", 'wrap = "none"\n')
    monkeypatch.chdir(repo.root)
    checked = runner.invoke(app, ["check"])
    assert checked.exit_code == 1 and checked.stdout.count("W001") == 30
    assert "wrap gate off" not in checked.stderr
