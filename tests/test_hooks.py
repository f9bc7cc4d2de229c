"""The pre-commit hook catches what breaks links: ``docsync check --staged``, and
the hook ``docsync init --hooks`` writes, run by the real pre-commit.

The hook form init writes by default is ``repo: local`` with ``language:
python`` and ``additional_dependencies: ["docsync-records==<version>"]``.
pre-commit builds its environment with pip; here pip finds that requirement in
a wheel built from this checkout (``PIP_FIND_LINKS``) and the dependencies
where pip is configured to find them, so the test proves the config pre-commit
accepts, the requirement it installs and the installed wheel's behaviour (the
rule pages included); it does not prove the distribution is on the package
index, which only a release can.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from docsync import DISTRIBUTION, __version__
from docsync.cli import app
from tests.gitutil import GitRepo, git_environ

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _linked(root: Path) -> GitRepo:
    repo = GitRepo.init(root)
    repo.write("docs/guide.md", "# Guide\n\nSee [the plan](plan.md#steps).\n")
    repo.write("docs/plan.md", "# Plan\n\n## Steps\n\nOne.\n")
    repo.write("docs/other.md", "# Other\n\nNothing links here.\n")
    repo.write("README.md", "# Project\n\nRead [the guide](docs/guide.md).\n")
    repo.commit("init")
    return repo


def _staged(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[tuple[str, str]]]:
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, ["check", "--staged", "--output-format", "json"])
    assert result.exit_code in (0, 1), result.output
    found = json.loads(result.stdout)["findings"]
    return result.exit_code, [(f["path"], f["rule"]) for f in found]


def test_staged_rename_breaks_the_file_linking_into_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _linked(tmp_path / "repo")
    repo.move("docs/plan.md", "docs/roadmap.md")
    assert _staged(repo, monkeypatch) == (1, [("docs/guide.md", "L001")])


def test_staged_delete_breaks_the_file_linking_into_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _linked(tmp_path / "repo")
    repo.remove("docs/guide.md")
    assert _staged(repo, monkeypatch) == (1, [("README.md", "L001")])


def test_staged_only_reports_the_staged_change_and_its_linkers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _linked(tmp_path / "repo")
    # a broken file nobody staged is not this commit's business
    (repo.root / "docs" / "other.md").write_text("# Other\n\n[gone](gone.md)\n")
    repo.write("docs/new.md", "# New\n\n[broken](nope.md)\n")
    repo.git("add", "docs/new.md")
    assert _staged(repo, monkeypatch) == (1, [("docs/new.md", "L001")])


def test_nothing_staged_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _linked(tmp_path / "repo")
    assert _staged(repo, monkeypatch) == (0, [])


def test_init_writes_a_hook_that_needs_no_hooks_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _linked(tmp_path / "repo")
    monkeypatch.chdir(repo.root)
    assert runner.invoke(app, ["init", "--hooks"]).exit_code == 0
    (entry,) = yaml.safe_load((repo.root / ".pre-commit-config.yaml").read_text())["repos"]
    assert entry == {
        "repo": "local",
        "hooks": [
            {
                "id": "docsync-check",
                "name": "docsync check",
                "entry": "docsync check --staged",
                "language": "python",
                "additional_dependencies": [f"{DISTRIBUTION}=={__version__}"],
                "pass_filenames": False,
                "always_run": True,
                "require_serial": True,
            }
        ],
    }
    workflow = yaml.safe_load((repo.root / ".github/workflows/docsync.yml").read_text())
    runs = [step.get("run") for step in workflow["jobs"]["docsync"]["steps"]]
    assert f'pip install "{DISTRIBUTION}=={__version__}"' in runs


def test_the_shipped_hooks_match_what_init_writes() -> None:
    shipped = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    check = shipped["docsync-check"]
    assert (check["entry"], check["pass_filenames"], check["always_run"]) == (
        "docsync check --staged",
        False,
        True,
    )


def test_every_documented_install_line_names_the_distribution() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "pip install docsync\n" not in readme and "pip install docsync " not in readme
    assert f'pip install "{DISTRIBUTION}=={__version__}"' in readme
    assert f'additional_dependencies: ["{DISTRIBUTION}=={__version__}"]' in readme
    assert "rev: v" not in readme


def _wheel(target: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(target), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = target.glob("docsync_records-*.whl")
    return wheel


def _pre_commit(root: Path, home: Path, wheels: Path) -> subprocess.CompletedProcess[str]:
    env = git_environ()
    env = {k: v for k, v in env.items() if not k.startswith(("PRE_COMMIT", "VIRTUAL_ENV"))}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["PRE_COMMIT_HOME"] = str(home)
    env["PIP_FIND_LINKS"] = " ".join([str(wheels), *os.environ.get("PIP_FIND_LINKS", "").split()])
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_pre_commit_installs_the_distribution_and_fails_a_breaking_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wheels = tmp_path / "wheels"
    _wheel(wheels)
    repo = _linked(tmp_path / "repo")
    monkeypatch.chdir(repo.root)
    assert runner.invoke(app, ["init", "--hooks"]).exit_code == 0
    repo.commit("adopt docsync")
    home = tmp_path / "pre-commit-home"

    repo.move("docs/plan.md", "docs/roadmap.md")  # no Markdown file staged but the rename
    broken = _pre_commit(repo.root, home, wheels)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "docsync check" in broken.stdout and "Failed" in broken.stdout
    assert "docs/guide.md" in broken.stdout and "L001" in broken.stdout

    repo.write("docs/guide.md", "# Guide\n\nSee [the plan](roadmap.md#steps).\n")
    repo.git("add", "-A")
    fixed = _pre_commit(repo.root, home, wheels)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "Passed" in fixed.stdout

    # the environment pre-commit made runs the installed wheel: its rule pages are there
    (installed,) = home.glob("repo*/py_env-*/bin/docsync")
    page = subprocess.run(
        [str(installed), "rules", "L001"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    assert page.startswith("## L001")
    assert "See https://" not in page
    version = subprocess.run(
        [str(installed), "--version"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert version.stdout.strip() == f"docsync {__version__}"


@pytest.mark.parametrize("form", ["package", "local", "https://example.invalid/hooks"])
def test_pre_commit_accepts_every_form_init_writes(form: str, tmp_path: Path) -> None:
    from docsync.adopt.hooks import with_hook

    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(with_hook(None, form) or "")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env["PRE_COMMIT_HOME"] = str(tmp_path / "home")
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-config", str(config)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_fix_hook_says_what_it_does() -> None:
    """More than re-wrapping: links, former ids, the index, relations, and that it fails the commit."""
    shipped = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    description = shipped["docsync-fix"]["description"]
    for what in ("re-wrap", "links broken by renames", "former record ids", "index", "relations"):
        assert what in description, what
    assert "fails the commit" in description


def test_the_hooks_repository_form_is_documented_beside_the_local_one() -> None:
    page = (ROOT / "docs" / "hooks-and-ci.md").read_text()
    blocks = [yaml.safe_load(b.split("```", 1)[0]) for b in page.split("```yaml\n")[1:]]
    forms = [b["repos"][0] for b in blocks if isinstance(b, dict) and "repos" in b]
    assert [f["repo"] for f in forms] == ["local", "<url>"]
    shipped = {h["id"] for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert forms[1]["rev"] == f"v{__version__}"
    assert {h["id"] for h in forms[1]["hooks"]} == shipped
