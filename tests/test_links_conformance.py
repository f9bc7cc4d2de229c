"""Link and anchor conformance: the shared cases (GitHub's verdicts) and docsync's own.

Both case sets are laid out as one real git repository: everything is
committed except ``targets/untracked.md``, and the two symlink cases are made
real symlinks, as ``shared/cases/links/README.md`` asks.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from docsync.gates import links
from docsync.model import Finding
from docsync.workspace import load_workspace
from tests.gitutil import git

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1] / "shared" / "cases" / "links"
OWN = HERE / "cases" / "links"


def _shared_verdicts() -> dict[str, str]:
    rows = (SHARED / "verdicts.txt").read_text().split("\n")
    return dict(row.split() for row in rows if row.strip())


def _own_verdicts() -> dict[str, str]:
    rows = (OWN / "expected.txt").read_text().split("\n")
    return dict(row.split() for row in rows if row.strip() and not row.startswith("#"))


def build_cases_repo(repo: Path) -> Path:
    """The shared and own cases as one committed repository (also used by other tests)."""
    assert SHARED.is_dir(), f"shared conformance cases missing at {SHARED}"
    shutil.copytree(SHARED, repo, dirs_exist_ok=True)
    shutil.copytree(OWN, repo, dirs_exist_ok=True)
    for path in repo.rglob("*"):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    targets = repo / "targets"
    for name, points_to in (("link-to-target.md", "target.md"), ("dangling.md", "nonexistent.md")):
        (targets / name).unlink()
        (targets / name).symlink_to(points_to)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "rm", "-q", "--cached", "targets/untracked.md")
    git(repo, "commit", "-q", "-m", "cases")
    return repo


@pytest.fixture(scope="module")
def findings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Finding]]:
    repo = build_cases_repo(tmp_path_factory.mktemp("links-cases"))
    workspace = load_workspace(repo)
    grouped: dict[str, list[Finding]] = {}
    for finding in links.check_workspace(workspace):
        grouped.setdefault(finding.path, []).append(finding)
    return grouped


@pytest.mark.parametrize(("case", "verdict"), sorted(_shared_verdicts().items()))
def test_shared_case(case: str, verdict: str, findings: dict[str, list[Finding]]) -> None:
    got = findings.get(f"{case}.md", [])
    assert ("B" if got else "ok") == verdict, [f.message for f in got]


@pytest.mark.parametrize(("case", "expected"), sorted(_own_verdicts().items()))
def test_own_case(case: str, expected: str, findings: dict[str, list[Finding]]) -> None:
    got = ",".join(f"{f.rule}@{f.line}:{f.column}" for f in findings.get(f"{case}.md", []))
    assert (got or "ok") == expected, [f.message for f in findings.get(f"{case}.md", [])]


def test_every_case_file_has_a_verdict() -> None:
    named = set(_shared_verdicts()) | set(_own_verdicts())
    on_disk = {p.stem for p in [*SHARED.glob("c*.md"), *OWN.glob("d*.md")]}
    assert on_disk == named


def test_missing_fragment_without_a_close_match_lists_the_anchors(
    findings: dict[str, list[Finding]],
) -> None:
    got = [f.message for f in findings["d36-self-missing.md"]]
    assert got == ["'#fake' names no heading or anchor in this file; it has #real"]


def test_missing_root_relative_target_says_what_the_slash_means(
    findings: dict[str, list[Finding]],
) -> None:
    got = [f.message for f in findings["d42-root-relative-missing.md"]]
    assert got == [
        "'/site/only/page' does not exist "
        "(a leading '/' is the repository root on GitHub: this names 'site/only/page')"
    ]
