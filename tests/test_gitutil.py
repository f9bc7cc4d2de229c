"""The test helpers' own shortcut: :meth:`GitRepo.commit` returns the commit it made
without asking git, where the branch's ref file holds it; wherever it cannot (a packed
ref, a detached HEAD), it asks, so the answer is ``git rev-parse HEAD``'s either way."""

from __future__ import annotations

from pathlib import Path

from tests.gitutil import GitRepo


def test_commit_returns_what_rev_parse_names(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("a.md", "# A\n")
    first = repo.commit("first")
    assert first == repo.git("rev-parse", "HEAD").strip()
    repo.branch("side")
    assert repo.commit("on a branch") == repo.git("rev-parse", "HEAD").strip() != first
    repo.git("pack-refs", "--all")  # the ref file is gone: read from packed-refs by git
    assert not (repo.root / ".git" / "refs" / "heads" / "side").exists()
    assert repo._committed() is None
    assert repo.commit("packed") == repo.git("rev-parse", "HEAD").strip()
    repo.git("switch", "-q", "--detach", first)
    assert repo._committed() is None
    assert repo.commit("detached") == repo.git("rev-parse", "HEAD").strip()
