"""The hooks in .pre-commit-hooks.yaml, run through the real pre-commit framework."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.gitutil import git

ROOT = Path(__file__).resolve().parents[1]


def _try_repo(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(
        PRE_COMMIT_HOME=str(home),
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.invalid",
    )
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_hooks_fail_on_findings_then_pass(tmp_path: Path) -> None:
    repo = tmp_path / "user"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "target.md").write_text("# Target\n")
    (repo / "doc.md").write_text("# Doc\n\nA hard-wrapped\nparagraph with [a link](nope.md).\n")
    git(repo, "add", "-A")

    first = _try_repo(repo, tmp_path / "pre-commit-home")
    assert first.returncode == 1, first.stdout + first.stderr
    assert "docsync check" in first.stdout and "Failed" in first.stdout
    assert "L001" in first.stdout and "W001" in first.stdout
    assert "files were modified by this hook" in first.stdout
    # docsync-fix joined the paragraph; the broken link is left for a person.
    assert (repo / "doc.md").read_text() == "# Doc\n\nA hard-wrapped paragraph with [a link](nope.md).\n"

    (repo / "doc.md").write_text("# Doc\n\nA paragraph with [a link](target.md).\n")
    git(repo, "add", "-A")
    second = _try_repo(repo, tmp_path / "pre-commit-home")
    assert second.returncode == 0, second.stdout + second.stderr
    assert second.stdout.count("Passed") == 2
