"""What a migration does while its files parse: the command line's ``meanwhile`` runs
once, whether the files are parsed (here or in workers) or served by the caches, and the
plan is the same as a run without it."""

from __future__ import annotations

import pytest

from docsync.migrate.run import Options, run
from tests.gitutil import GitRepo

# 70 files: over the threshold at which the parse goes to worker processes.
RECORDS = {
    f"docs/adr/{n:04d}-record-{n}.md": f"# {n}. Record {n}\n\nStatus: Accepted\n\nSee ADR-{max(1, n - 1)}.\n"
    for n in range(1, 71)
}


@pytest.mark.parametrize("cache", ["true", "false"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_meanwhile_runs_once_per_run_and_changes_nothing(
    migration_repo: GitRepo, jobs: int, cache: str
) -> None:
    for path, text in RECORDS.items():
        migration_repo.write(path, text)
    migration_repo.write(".docsync.toml", f"jobs = {jobs}\ncache = {cache}\n")
    migration_repo.commit("records", when="2020-01-02 10:00:00")
    calls: list[str] = []
    _, plain = run(migration_repo.root, Options())
    for _ in range(2):  # with the cache on, the second run is served by it
        _, heard = run(migration_repo.root, Options(meanwhile=lambda: calls.append("called")))
        assert heard.plan == plain.plan
        assert heard.changes.writes == plain.changes.writes
    assert calls == ["called", "called"]
