"""The same plan applied twice, links in another letter case, srcset (issue 37, classes 10, 12, 8).

Real repositories, migrated through the command line as a user would:

* ``migrate --apply --commit --plan P`` a second time is a no-op: exit 0, it
  says nothing is left to do, makes no commit and changes no byte, as the
  run without ``--plan`` does. Generated over layouts and whether ``P`` was
  edited between ``--write-plan`` and the apply. A plan whose sources are
  still there but changed stays an error (exit 2).
* A link whose letter case differs from the record's file name (it opens on
  macOS and Windows) is rewritten to the moved record in the record's own
  case: the dry run counts it neither among the links the migration breaks
  nor among those broken before, and ``check`` is clean after the apply.
  Every ``srcset`` candidate of a moved record follows it as its ``src`` does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from tests.gitutil import GitRepo, isolate_git_environ
from tests.test_migrate_idempotent import LAYOUTS, _snapshot

runner = CliRunner()


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git_environ(monkeypatch)


def _adopted(root: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    repo = GitRepo.init(root)
    for path, text in files.items():
        repo.write(path, text)
    repo.commit("records", when="2021-03-04 10:00")
    monkeypatch.chdir(root)
    adopted = runner.invoke(app, ["init"])
    assert adopted.exit_code == 0, adopted.output
    repo.commit("adopt docsync", when="2021-03-05 10:00")
    return repo


@pytest.mark.parametrize("edited", [False, True], ids=["as-written", "edited"])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_the_same_plan_applied_twice_is_a_no_op(
    layout: str, edited: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _adopted(tmp_path / "repo", LAYOUTS[layout], monkeypatch)
    plan = tmp_path / "plan.toml"
    written = runner.invoke(app, ["migrate", "--write-plan", str(plan)])
    assert written.exit_code == 0, written.output
    if edited:
        plan.write_text(plan.read_text() + "\n# reviewed by hand\n")
    command = ["migrate", "--apply", "--commit", "--plan", str(plan)]
    first = runner.invoke(app, command)
    assert first.exit_code == 0, first.output
    head, before, plan_text = repo.head(), _snapshot(repo.root), plan.read_text()
    again = runner.invoke(app, command)
    assert again.exit_code == 0, again.output
    assert "Nothing to migrate" in again.stdout and "no legacy records are left" in again.stdout
    assert repo.head() == head
    assert _snapshot(repo.root) == before
    assert plan.read_text() == plan_text


def test_a_plan_whose_sources_changed_is_still_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = LAYOUTS["two trees into one of them"]
    repo = _adopted(tmp_path / "repo", files, monkeypatch)
    plan = tmp_path / "plan.toml"
    assert runner.invoke(app, ["migrate", "--write-plan", str(plan)]).exit_code == 0
    repo.write("docs/adr/0001-use-git.md", files["docs/adr/0001-use-git.md"] + "\nOne more line.\n")
    repo.commit("edit", when="2021-03-06 10:00")
    stale = runner.invoke(app, ["migrate", "--apply", "--commit", "--plan", str(plan)])
    assert stale.exit_code == 2, stale.output
    assert "stale" in stale.output


_RECORD = "# {title}\n\nStatus: Accepted\n\n## Decision\n\nWe decide {title}.\n"

CASED = {
    "docs/adr/README.md": "# Decisions\n\n- [Use git](0001-Use-Git.md)\n- [Make](0002-USE-MAKE.md#decision)\n",
    "docs/adr/0001-use-git.md": _RECORD.format(title="Use git"),
    "docs/adr/0002-use-make.md": _RECORD.format(title="Use make") + "\nAs [before](0001-USE-GIT.MD).\n",
    "docs/guide.md": "# Guide\n\nSee [the git decision](adr/0001-use-GIT.md).\n",
    # class 8: every srcset candidate of a moved record follows it, and check reads each
    "docs/adr/0003-use-images.md": _RECORD.format(title="Use images")
    + '\n<img src="0003/a.png" srcset="0003/a.png 1x, 0003/a@2x.png 2x" alt="a">\n\n'
    + '<picture>\n<source srcset="0003/d.png 480w,0003/a.png" media="(prefers-color-scheme: dark)">\n'
    + '<img src="0003/a.png" alt="b">\n</picture>\n',
    "docs/adr/0003/a.png": "png",
    "docs/adr/0003/a@2x.png": "png",
    "docs/adr/0003/d.png": "png",
}


def test_a_link_in_another_letter_case_follows_the_moved_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _adopted(tmp_path / "repo", CASED, monkeypatch)
    dry = runner.invoke(app, ["migrate", "--verbose"])
    assert dry.exit_code == 0, dry.output
    assert "broken" not in dry.stdout  # neither by the migration nor "broken before"
    assert "Rewritten: 10 links" in dry.stdout
    applied = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert applied.exit_code == 0, applied.output
    root = tmp_path / "repo"
    moved = {p.name: p for p in root.rglob("2021-03-04-*.md")}
    assert set(moved) == {"2021-03-04-use-git.md", "2021-03-04-use-make.md", "2021-03-04-use-images.md"}
    guide = (root / "docs/guide.md").read_text()
    git_record = moved["2021-03-04-use-git.md"].relative_to(root).as_posix()
    assert f"({git_record.removeprefix('docs/')})" in guide, guide
    make = moved["2021-03-04-use-make.md"].read_text()
    assert "(2021-03-04-use-git.md)" in make, make
    images = moved["2021-03-04-use-images.md"].read_text()
    assert 'srcset="../0003/a.png 1x, ../0003/a@2x.png 2x"' in images, images
    assert 'srcset="../0003/d.png 480w,../0003/a.png"' in images, images
    checked = runner.invoke(app, ["check"])
    assert "L003" not in checked.stdout and "L001" not in checked.stdout, checked.stdout
