"""A link to a tracked symlink: L005 says why the symlink leads the reader nowhere.

Every kind of symlink target is laid out at every depth of the repository, and a
page at the root links to each: a tracked file or folder (no finding), nothing,
a loop, a place out of the repository by ``..`` or by an absolute path, ``.git``,
and a file git does not track. The message names the kind, not "does not exist"
for all of them.
"""

from __future__ import annotations

import json
import os
import posixpath
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from tests.gitutil import GitRepo

runner = CliRunner()
FOLDERS = ("", "docs", "docs/deep/er")
# kind -> (where the symlink points, from the repository root; the finding's wording or None)
KINDS: dict[str, tuple[str, str | None]] = {
    "file": ("pages/real.md", None),
    "folder": ("pages", None),
    "missing": ("pages/gone.md", "whose target does not exist"),
    "out": ("../outside.md", "leads out of the repository"),
    "absolute": ("/etc/hostname", "leads out of the repository"),
    "git": (".git/HEAD", "into .git"),
    "untracked": ("pages/untracked.md", "which git does not track"),
}


def _target(folder: str, points: str) -> str:
    """The symlink's text, relative to ``folder`` unless absolute."""
    return points if points.startswith("/") else posixpath.relpath(points, folder or ".")


@pytest.fixture(scope="module")
def findings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    repo = GitRepo.init(tmp_path_factory.mktemp("symlinks") / "repo")
    repo.write("pages/real.md", "# Real\n")
    (repo.root.parent / "outside.md").write_text("# Outside the repository\n")
    links = []
    for folder in FOLDERS:
        for kind, (points, _) in KINDS.items():
            link = posixpath.join(folder, f"to-{kind}.md")
            (repo.root / link).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(_target(folder, points), repo.root / link)
            links.append(f"- [{kind}]({link})\n")
    for folder in FOLDERS:  # a loop: two symlinks pointing at each other
        base = repo.root / folder
        os.symlink("loop-b.md", base / "loop-a.md")
        os.symlink("loop-a.md", base / "loop-b.md")
        links.append(f"- [loop]({posixpath.join(folder, 'loop-a.md')})\n")
    repo.write("index.md", "# Index\n\n" + "".join(links))
    repo.commit("symlinks")
    repo.write("pages/untracked.md", "# Not tracked\n")
    found = links_findings(repo.root)
    return {f["message"].split("'")[1]: f["message"] for f in found if f["rule"] == "L005"}


def links_findings(root: Path) -> list[dict[str, Any]]:
    """The links gate's findings on the repository at ``root`` (a module fixture's: no
    monkeypatch there), run from its root; there must be some."""
    cwd = Path.cwd()
    os.chdir(root)
    try:
        result = runner.invoke(app, ["check", "--gate", "links", "--format", "json"])
    finally:
        os.chdir(cwd)
    assert result.exit_code == 1, result.output
    found: list[dict[str, Any]] = json.loads(result.stdout)["findings"]
    return found


@pytest.mark.parametrize("folder", FOLDERS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_message_names_the_kind_of_target(findings: dict[str, str], folder: str, kind: str) -> None:
    link = posixpath.join(folder, f"to-{kind}.md")
    wording = KINDS[kind][1]
    if wording is None:
        assert link not in findings
    else:
        assert wording in findings[link], findings[link]


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_loop_is_named_a_loop(findings: dict[str, str], folder: str) -> None:
    assert "loops" in findings[posixpath.join(folder, "loop-a.md")]
