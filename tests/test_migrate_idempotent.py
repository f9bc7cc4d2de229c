"""A second ``migrate --apply --commit`` is a no-op, for every layout ``init`` writes.

Each layout is a small real repository: ``docsync init`` writes its config,
``migrate --apply --commit`` migrates it, and then every further run (also
after ``docsync new`` and ``docsync move``) must say there is nothing to do,
exit 0, make no commit and leave every byte of the working tree as it was.
The layouts cover the case that used to grow the index by one generated
block per run: a target tree that is also a legacy tree (what ``init``
writes for a single-tree repository), with and without an index of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from tests.gitutil import GitRepo, isolate_git_environ

runner = CliRunner()

_RECORD = "# {title}\n\nStatus: {status}\n\n## Decision\n\nWe decide {title}. See ADR 0001.\n"

LAYOUTS: dict[str, dict[str, str]] = {
    # init: target = the one legacy tree, which has an index of its own
    "single tree with an index": {
        "doc/adr/README.md": "# Decisions\n\nHow we decide.\n\n- [ADR 1](0001-use-git.md)\n",
        "doc/adr/0001-use-git.md": _RECORD.format(title="Use git", status="Accepted"),
        "doc/adr/0002-use-make.md": _RECORD.format(title="Use make", status="Proposed"),
    },
    # init: target = the one legacy tree, no index yet
    "single tree without an index": {
        "docs/decisions/0001-use-git.md": _RECORD.format(title="Use git", status="Accepted"),
        "docs/decisions/0002-use-make.md": _RECORD.format(title="Use make", status="Rejected"),
    },
    # init: two legacy trees, target docs/rfc, which is one of them
    "two trees into one of them": {
        "docs/adr/index.md": "# ADRs\n\n- [one](0001-use-git.md)\n",
        "docs/adr/0001-use-git.md": _RECORD.format(title="Use git", status="Accepted"),
        "docs/rfc/README.md": "# RFCs\n\nProposals start here.\n",
        "docs/rfc/001-plugin-api.md": _RECORD.format(title="Plugin API", status="Draft"),
    },
}


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


def _assert_no_op(repo: GitRepo) -> None:
    head, before = repo.head(), _snapshot(repo.root)
    again = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert again.exit_code == 0, again.output
    assert "Nothing to migrate" in again.stdout
    assert repo.head() == head
    assert _snapshot(repo.root) == before


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git_environ(monkeypatch)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_apply_twice_changes_nothing(
    layout: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = GitRepo.init(tmp_path)
    for path, text in LAYOUTS[layout].items():
        repo.write(path, text)
    repo.commit("records")
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["init"]).exit_code == 0
    repo.commit("adopt docsync")
    first = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert first.exit_code == 0, first.output
    index = next(p for p in _snapshot(tmp_path) if p.endswith("README.md") and "/" in p)
    text = (tmp_path / index).read_text()
    assert text.count("<!-- docsync:index:begin -->") == 1, text
    _assert_no_op(repo)

    created = runner.invoke(app, ["new", "Use tabs"])
    assert created.exit_code == 0, created.output
    repo.commit("new record")
    _assert_no_op(repo)

    moved = runner.invoke(app, ["move", "use-tabs", "implemented"])
    assert moved.exit_code == 0, moved.output
    repo.commit("move record")
    _assert_no_op(repo)
    assert (tmp_path / index).read_text().count("<!-- docsync:index:begin -->") == 1
