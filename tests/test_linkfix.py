"""``docsync fix --gate links`` on real repositories: renames, moves, letter case, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsync.check.check import run_check
from docsync.check.fix import run_fix
from tests.gitutil import GitRepo


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo.init(tmp_path)
    repo.write("docs/guide.md", "# Guide\n\n## Install\n")
    repo.write("docs/notes.md", "# Notes\n")
    repo.write(
        "README.md",
        "# Project\n\nSee [the guide](docs/guide.md#install), [notes][n] and [case](docs/GUIDE.md).\n\n[n]: docs/notes.md\n",
    )
    repo.commit("init")
    return repo


def test_moved_files_are_followed_through_history(repo: GitRepo) -> None:
    repo.move("docs/guide.md", "handbook/install-guide.md")
    repo.commit("move guide")
    repo.move("docs/notes.md", "docs/archive/notes.md")
    repo.commit("archive notes")
    before = run_check(repo.root, gates=["links"])
    assert [f.rule for f in before.findings] == ["L001", "L001", "L001"]

    result = run_fix(repo.root, gates=["links"])
    assert [f.path for f in result.fixes] == ["README.md"]
    assert (repo.root / "README.md").read_text() == (
        "# Project\n\nSee [the guide](handbook/install-guide.md#install), [notes][n] and "
        "[case](handbook/install-guide.md).\n\n[n]: docs/archive/notes.md\n"
    )
    # docs/GUIDE.md matched docs/guide.md only in case (it opened on macOS and Windows), and
    # no other moved file folds to it: the link follows that file, as migrate's links do.
    assert result.remaining == ()


def test_wrong_case_is_corrected_when_one_file_matches(repo: GitRepo) -> None:
    result = run_fix(repo.root, gates=["links"])
    assert "[case](docs/guide.md)" in (repo.root / "README.md").read_text()
    assert result.remaining == ()


def test_path_reused_by_another_file_is_not_guessed(repo: GitRepo) -> None:
    repo.move("docs/notes.md", "docs/old-notes.md")
    repo.commit("rename")
    repo.write("docs/other.md", "# Other\n")
    repo.commit("other")
    repo.move("docs/other.md", "docs/notes-2.md")
    repo.remove("docs/old-notes.md")
    repo.commit("drop")
    result = run_fix(repo.root, gates=["links"])
    assert "[n]: docs/notes.md" in (repo.root / "README.md").read_text()
    assert any(f.rule == "L001" for f in result.remaining)


def test_dry_run_writes_nothing(repo: GitRepo) -> None:
    repo.move("docs/guide.md", "docs/manual.md")
    repo.commit("rename")
    before = (repo.root / "README.md").read_text()
    result = run_fix(repo.root, gates=["links"], write=False)
    assert [f.path for f in result.fixes] == ["README.md"]
    assert "docs/manual.md#install" in result.fixes[0].after
    assert (repo.root / "README.md").read_text() == before


def test_fragment_follows_a_heading_renamed_in_history(repo: GitRepo) -> None:
    repo.write("docs/guide.md", "# Guide\n\n## Install\n\nRun pip install docsync.\n")
    repo.commit("body")
    repo.write("docs/guide.md", "# Guide\n\n## Installing docsync\n\nRun pip install docsync.\n\n## Usage\n")
    repo.commit("rename heading")
    repo.write("docs/guide.md", "# Guide\n\n## Setup\n\nRun `pip install docsync`.\n\n## Usage\n")
    repo.commit("rename it again")
    result = run_fix(repo.root, gates=["links"])
    assert "[the guide](docs/guide.md#setup)" in (repo.root / "README.md").read_text()
    assert [f.rule for f in result.remaining] == []


def test_fragment_repairs_read_all_targets_histories_at_once(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One read of git's objects for every target, none of a target with one version
    (no older heading to follow): a file linking into many files' missing fragments."""
    from docsync.gates.links import fix as link_fix

    repo.write("docs/guide.md", "# Guide\n\n## Setup\n")
    repo.commit("rename heading")
    repo.write("many.md", "".join(f"[{n}](docs/guide.md#install) [o{n}](docs/notes.md#gone-{n})\n\n" for n in range(5)))
    repo.commit("many")
    reads: list[list[str]] = []
    real = link_fix.read_blobs
    monkeypatch.setattr(link_fix, "read_blobs", lambda root, shas: reads.append(list(shas)) or real(root, shas))
    run_fix(repo.root, gates=["links"])
    assert len(reads) == 1 and len(reads[0]) == 2  # docs/guide.md's two versions; docs/notes.md has one
    text = (repo.root / "many.md").read_text()
    assert text.count("docs/guide.md#setup") == 5 and text.count("#gone-") == 5


def test_fragment_of_a_deleted_heading_is_not_guessed(repo: GitRepo) -> None:
    repo.write("docs/guide.md", "# Guide\n\n## Install\n\nRun pip install docsync.\n")
    repo.commit("body")
    repo.write("docs/guide.md", "# Guide\n\n## Usage\n\nCall docsync check in CI.\n")
    repo.commit("replace install section")
    result = run_fix(repo.root, gates=["links"])
    assert "docs/guide.md#install" in (repo.root / "README.md").read_text()
    assert [(f.rule, f.line) for f in result.remaining if f.rule == "L006"] == [("L006", 3)]


@pytest.mark.parametrize(
    ("history", "fragment", "expected"),
    [
        ([["A", "B"], ["A", "B"]], "b", None),  # still there: not broken
        ([["A", "C"], ["A", "B"]], "b", "c"),  # renamed in place
        ([["X", "A", "C"], ["A", "B"]], "b", "c"),  # renamed while another was added before
        ([["A"], ["A", "B"]], "b", None),  # deleted
        ([["A", "B1", "B2"], ["A", "B"]], "b", None),  # split in two: no single answer
        ([["A", "D"], ["A", "C"], ["A", "B"]], "b", "d"),  # renamed twice
    ],
)
def test_follow_heading(history: list[list[str]], fragment: str, expected: str | None) -> None:
    from docsync.gates.links.fix import follow_heading, sections
    from docsync.parse.native import parse

    versions = [sections(parse("x.md", "".join(f"## {h}\n\n" for h in heads))) for heads in history]
    assert follow_heading(fragment, versions) == expected


def test_a_repair_github_would_render_differently_is_reported_not_written(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GitHub's page made to change with every byte, so that the cmark-gfm
    # comparison refuses the repair the markdown-it checks accept
    from docsync.rewrite import references as rewrite

    monkeypatch.setattr(rewrite, "github_structure", lambda text: text)
    before = (repo.root / "README.md").read_text()
    result = run_fix(repo.root, gates=["links"])
    assert result.fixes == ()
    assert (repo.root / "README.md").read_text() == before
    (finding,) = result.skipped
    assert finding.rule == "L900"
    assert finding.path == "README.md"
    assert "GitHub would render the document differently" in finding.message


def test_a_link_to_a_docs_site_heading_id_is_reported_not_rewritten(repo: GitRepo) -> None:
    # GitHub slugs "{ #install }" as text, so #install is broken there; the
    # docs site gives the heading that id, so rewriting the link would break it
    # where the docs are read
    repo.write("docs/guide.md", "# Guide\n\n## Install { #install }\n\nRun pip install docsync.\n")
    repo.commit("site id")
    result = run_fix(repo.root, gates=["links"])
    assert "docs/guide.md#install" in (repo.root / "README.md").read_text()
    assert [(f.rule, f.line) for f in result.remaining] == [("L006", 3)]
