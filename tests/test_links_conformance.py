"""Link and anchor conformance: the GitHub-verdict cases (``c*``) and docsync's own (``d*``).

Both case sets live in ``tests/cases/links`` and are laid out as one real git
repository: everything is committed except ``targets/untracked.md``, and the
two symlink cases are made real symlinks inside the test repository (the
checkout holds plain placeholder files, so a clone on any filesystem works),
as ``tests/cases/links/README.md`` asks.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from docsync.gates.links import check as links
from docsync.model import Finding
from docsync.workspace.load import load_workspace
from tests.gitutil import git

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases" / "links"
SYMLINKS = (("link-to-target.md", "target.md"), ("dangling.md", "nonexistent.md"))


def _shared_verdicts() -> dict[str, str]:
    rows = (CASES / "verdicts.txt").read_text().split("\n")
    return dict(row.split() for row in rows if row.strip())


def _own_verdicts() -> dict[str, str]:
    rows = (CASES / "expected.txt").read_text().split("\n")
    return dict(row.split() for row in rows if row.strip() and not row.startswith("#"))


def build_cases_repo(repo: Path) -> Path:
    """Both case sets as one committed repository (also used by other tests)."""
    # symlinks=True: a checkout that already holds the symlinks copies them as
    # symlinks (following the dangling one would fail the copy)
    shutil.copytree(CASES, repo, symlinks=True, dirs_exist_ok=True)
    for path in repo.rglob("*"):
        if not path.is_symlink():
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
    targets = repo / "targets"
    for name, points_to in SYMLINKS:
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
    on_disk = {p.stem for p in [*CASES.glob("c*.md"), *CASES.glob("d*.md")]}
    assert on_disk == named
    assert len(_shared_verdicts()) >= 30


def test_the_cases_repository_has_real_symlinks(tmp_path: Path) -> None:
    repo = build_cases_repo(tmp_path / "cases")
    assert os.readlink(repo / "targets" / "link-to-target.md") == "target.md"
    assert os.readlink(repo / "targets" / "dangling.md") == "nonexistent.md"
    assert not (repo / "targets" / "dangling.md").exists()
    tracked = git(repo, "ls-files", "-s", "targets/dangling.md").split()
    assert tracked[0] == "120000"  # committed as a symlink, as GitHub would see it
    assert git(repo, "ls-files", "targets/untracked.md") == ""


def test_a_checkout_holding_real_symlinks_copies(tmp_path: Path) -> None:
    # a clone on a filesystem with symlinks, after someone made them real
    source = tmp_path / "source"
    shutil.copytree(CASES, source)
    for name, points_to in SYMLINKS:
        (source / "targets" / name).unlink()
        (source / "targets" / name).symlink_to(points_to)
    repo = tmp_path / "repo"
    repo.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys.modules[__name__], "CASES", source)
        build_cases_repo(repo)
    assert os.readlink(repo / "targets" / "dangling.md") == "nonexistent.md"


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
