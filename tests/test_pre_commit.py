"""The hooks in .pre-commit-hooks.yaml, run through the real pre-commit framework."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gitutil import GitRepo, git

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A hooks repository holding this checkout as ``pre-commit try-repo`` would run it:
    every tracked file as it is in the work tree (uncommitted changes and staged new files
    included, files deleted from the work tree left out), in one commit. One commit rather
    than a clone of the project's history: pre-commit fetches only the commit it runs, and
    the autoupdate test's clone and fetch would otherwise pack a thousand commits twice."""
    hooks = tmp_path_factory.mktemp("hooks") / "hooks"
    hooks.mkdir()
    git(hooks, "init", "-q")
    tracked = set(git(ROOT, "ls-files", "-z").split("\0")) - set(git(ROOT, "ls-files", "-d", "-z").split("\0"))
    listed = hooks.parent / "tracked"
    listed.write_text("\0".join(sorted(p for p in tracked if p)))
    into = {"GIT_DIR": str(hooks / ".git"), "GIT_WORK_TREE": str(ROOT)}
    git(ROOT, "add", f"--pathspec-from-file={listed}", "--pathspec-file-nul", env=into)
    git(hooks, "commit", "-q", "-m", "this checkout, as its work tree holds it")
    git(hooks, "reset", "-q", "--hard")
    return hooks


def test_hooks_fail_on_findings_then_pass(hooks: Path, tmp_path: Path) -> None:
    """Both hooks of .pre-commit-hooks.yaml, as ``try-repo`` runs them (a config naming the
    hooks repository at its newest commit, outside the user's repository), installed once
    and run twice: the second run reuses the environment the first built."""
    repo = tmp_path / "user"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "target.md").write_text("# Target\n")
    (repo / "doc.md").write_text("# Doc\n\nA hard-wrapped\nparagraph with [a link](nope.md).\n")
    git(repo, "add", "-A")
    config = tmp_path / "pre-commit-config.yaml"
    rev = git(hooks, "rev-parse", "HEAD").strip()
    ids = "".join(f"  - id: {h['id']}\n" for h in _shipped())
    config.write_text(f"repos:\n- repo: {hooks}\n  rev: {rev}\n  hooks:\n{ids}")
    home = tmp_path / "pre-commit-home"

    first = _pre_commit(repo, home, "run", "--all-files", "--config", str(config))
    assert first.returncode == 1, first.stdout + first.stderr
    assert "docsync check" in first.stdout and "Failed" in first.stdout
    assert "L001" in first.stdout and "W001" in first.stdout
    assert "files were modified by this hook" in first.stdout
    # docsync-fix joined the paragraph; the broken link is left for a person.
    assert (repo / "doc.md").read_text() == "# Doc\n\nA hard-wrapped paragraph with [a link](nope.md).\n"

    (repo / "doc.md").write_text("# Doc\n\nA paragraph with [a link](target.md).\n")
    git(repo, "add", "-A")
    second = _pre_commit(repo, home, "run", "--all-files", "--config", str(config))
    assert second.returncode == 0, second.stdout + second.stderr
    assert second.stdout.count("Passed") == 2
    assert len(list(home.glob("repo*/py_env-*"))) == 1  # one environment, built once


def _shipped() -> list[dict[str, object]]:
    import yaml

    hooks: list[dict[str, object]] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["docsync-check", "docsync-fix"]
    return hooks


def _pre_commit(repo: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(PRE_COMMIT_HOME=str(home), GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_hooks_repository_form_is_kept_current_by_autoupdate(hooks: Path, tmp_path: Path) -> None:
    """``repo: <url>`` with ``rev:``, as ``init --hooks --hook-repo URL`` writes it and
    docs/hooks-and-ci.md shows it: pre-commit accepts it, and ``pre-commit autoupdate``
    moves ``rev`` to the newest tag of the hooks repository (here a tagged copy of this one)."""
    import yaml

    from docsync import __version__
    from docsync.adopt.hooks import with_hook

    hooks = GitRepo(hooks).clone(tmp_path / "hooks").root
    git(hooks, "tag", f"v{__version__}")
    git(hooks, "commit", "-q", "--allow-empty", "-m", "next release")
    git(hooks, "tag", "v99.0.0")

    user = tmp_path / "user"
    user.mkdir()
    git(user, "init", "-q")
    config = with_hook(None, f"file://{hooks}")
    assert config is not None
    (user / ".pre-commit-config.yaml").write_text(config)
    (entry,) = yaml.safe_load(config)["repos"]
    assert (entry["rev"], entry["hooks"]) == (f"v{__version__}", [{"id": "docsync-check"}])

    home = tmp_path / "pre-commit-home"
    valid = _pre_commit(user, home, "validate-config", ".pre-commit-config.yaml")
    assert valid.returncode == 0, valid.stdout + valid.stderr
    updated = _pre_commit(user, home, "autoupdate")
    assert updated.returncode == 0, updated.stdout + updated.stderr
    (entry,) = yaml.safe_load((user / ".pre-commit-config.yaml").read_text())["repos"]
    assert entry["rev"] == "v99.0.0"
    manifest = _pre_commit(hooks, home, "validate-manifest", ".pre-commit-hooks.yaml")
    assert manifest.returncode == 0, manifest.stdout + manifest.stderr
