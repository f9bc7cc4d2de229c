"""Rewriting leftovers found on public repositories (scripts/realworld.py), each on a small
real repository: a plain link broken before the migration, links in YAML front matter,
record titles that hold ids (a stale index right after the apply), and kept pages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from tests.gitutil import GitRepo

runner = CliRunner()

# init's choice for a repository with one legacy tree: the tree is its own target.
DECISIONS = (
    'target = "docs/architecture/decisions"\n'
    'sources = [{ path = "docs/architecture/decisions", kind = "ADR" }]\n'
)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GitRepo]:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("README.md", "# Project\n")
    repo.commit("start", when="2019-01-01 10:00:00")
    monkeypatch.chdir(repo.root)
    yield repo


def _apply(repo: GitRepo) -> str:
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output
    return result.stdout + result.stderr


def _check(repo: GitRepo, *args: str) -> str:
    result = runner.invoke(app, ["check", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


# --------------------------------------------------------------------------- broken before


def test_a_plain_link_broken_before_keeps_naming_the_file_its_author_meant(repo: GitRepo) -> None:
    """alphagov/govuk-aws: a record links a Terraform file deleted long before. Left as
    written, from the record's new folder one level down it named another missing path."""
    repo.write(".docsync.toml", DECISIONS)
    repo.write("infra/projects/edge/variables.tf", "# variables\n")
    repo.write(
        "docs/architecture/decisions/0001-edge-balancer.md",
        "# Edge balancer\n\nStatus: Proposed\n\n"
        "See [the plan](../../../infra/projects/edge/main.tf#L4) and [vars](../../../infra/projects/edge/variables.tf).\n",
    )
    repo.commit("a record whose link was broken already")
    dry = runner.invoke(app, ["migrate"])
    assert dry.exit_code == 0, dry.output
    assert "1 link was broken before the migration already and stay so" in dry.stdout
    assert "broken link after migration" not in dry.stdout
    out = _apply(repo)
    assert "no finding caused by the migration" in out
    moved = (repo.root / "docs/architecture/decisions/proposed/2020-01-01-edge-balancer.md").read_text()
    assert "[the plan](../../../../infra/projects/edge/main.tf#L4)" in moved
    assert "[vars](../../../../infra/projects/edge/variables.tf)" in moved
