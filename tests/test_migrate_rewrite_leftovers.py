"""Rewriting leftovers found on public repositories (scripts/realworld.py), each on a small
real repository: a plain link broken before the migration, links in YAML front matter,
record titles that hold ids (a stale index right after the apply), and kept pages."""

from __future__ import annotations

import pytest
import yaml
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
def repo(migration_repo: GitRepo) -> GitRepo:
    return migration_repo


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


# --------------------------------------------------------------------------- titles with ids


def test_titles_that_hold_ids_leave_the_index_up_to_date_right_after_the_apply(
    repo: GitRepo,
) -> None:
    """ethereum/EIPs: a title naming another record (``Simplify EIP-161``) has its id linked
    in the new header, and a stub without a title (its title is its id) linked its own id
    to itself; the index, written from the titles before that, was stale (Y009) for
    ``check`` right after the apply."""
    repo.write(".docsync.toml", DECISIONS)
    base = "docs/architecture/decisions"
    repo.write(f"{base}/0001-cache-layer.md", "# Cache layer\n\nStatus: Accepted\n\nText.\n")
    repo.write(f"{base}/0002-simplify.md", "# Simplify ADR 1\n\nStatus: Accepted\n\nText.\n")
    repo.write(f"{base}/adr-3.md", "---\nstatus: Moved\n---\n\nThis record moved elsewhere.\n")
    repo.commit("records")
    _apply(repo)
    simplify = (repo.root / f"{base}/implemented/2020-01-01-simplify.md").read_text()
    assert simplify.startswith("# Simplify [ADR 1](2020-01-01-cache-layer.md)\n")
    stub = (repo.root / f"{base}/rejected/2020-01-01-adr-0003.md").read_text()
    assert stub.startswith("# ADR 0003\n")  # its own id, not a link to itself
    index = (repo.root / f"{base}/README.md").read_text()
    assert "| [Simplify ADR 1](implemented/2020-01-01-simplify.md) |" in index
    assert "| `ADR 0003` | [ADR 0003](rejected/2020-01-01-adr-0003.md) |" in index
    assert "no findings" in _check(repo)


# --------------------------------------------------------------------------- front matter

PROPOSALS = 'target = "proposals"\nsources = [{ path = "proposals", kind = "PIP" }]\n'


def test_paths_in_front_matter_values_follow_the_moves_and_the_yaml_is_unchanged_elsewhere(
    repo: GitRepo,
) -> None:
    """ethereum/EIPs: ``withdrawal-reason: … [EIP-2200](./eip-2200.md)`` in a record's front
    matter still named the old file after the move (lychee counted 3 broken links)."""
    repo.write(".docsync.toml", PROPOSALS)
    front = (
        "---\n"
        "pip: 1\n"
        "title: Cheaper storage writes\n"
        "status: Withdrawn\n"
        'withdrawal-reason: "Superseded by [PIP-2](./pip-2.md#spec), see also [the list](https://example.org)"\n'
        "see-also: ./pip-2.md\n"
        "notes:\n"
        "  - '../tools/lint.py'\n"
        "  - pip-2.md\n"
        "---\n"
    )
    repo.write("tools/lint.py", "print('lint')\n")
    repo.write("proposals/pip-1.md", front + "\n## Abstract\n\nText.\n")
    repo.write("proposals/pip-2.md", "---\npip: 2\ntitle: Net storage metering\nstatus: Final\n---\n\n## Spec\n\nText.\n")
    repo.commit("proposals")
    _apply(repo)
    moved = (repo.root / "proposals/rejected/2020-01-01-cheaper-storage-writes.md").read_text()
    new_front = moved[: moved.index("\n---\n") + 5]
    target = "../implemented/2020-01-01-net-storage-metering.md"
    assert new_front == (
        front.replace("status: Withdrawn\n", "")
        .replace("./pip-2.md#spec", target + "#spec")
        .replace("see-also: ./pip-2.md", f"see-also: {target}")
        .replace("'../tools/lint.py'", "'../../tools/lint.py'")
    )
    before, after = (yaml.safe_load(t.split("---\n")[1]) for t in (front, new_front))
    assert after == {
        **{k: v for k, v in before.items() if k != "status"},
        "withdrawal-reason": before["withdrawal-reason"].replace("./pip-2.md", target),
        "see-also": target,
        "notes": ["../../tools/lint.py", "pip-2.md"],  # a name without ./ is no path: kept
    }
    assert "no findings" in _check(repo)
