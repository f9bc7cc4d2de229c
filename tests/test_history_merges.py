"""A merge's diffs against each parent, from the ``git diff-tree --stdin`` that runs beside
the history's ``git log``. The oracle is ``git diff`` of each parent and the merge, one
command each.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docsync.errors import GitError
from docsync.repository.commits import CommitChanges, FileChange
from docsync.repository.git_history import read_history
from docsync.repository.git_output import RAW_DIFF, merge_diffs, parse_raw
from tests.gitutil import GitRepo


def _merges_of_every_shape(repo: GitRepo) -> dict[str, str]:
    """One repository holding each kind of merge; its name → the merge commit."""
    body = "".join(f"line {i} of a record long enough to be renamed\n" for i in range(20))
    repo.write("docs/a.md", body)
    repo.write("src/x.py", "x = 1\n")
    repo.commit(when="2020-01-01 10:00")
    shapes: dict[str, str] = {}
    repo.branch("both")  # both diffs hold changes
    repo.write("docs/side.md")
    repo.commit(when="2020-01-02 10:00")
    repo.switch("master")
    repo.write("docs/main.md")
    repo.commit(when="2020-01-03 10:00")
    shapes["both"] = repo.merge("both", when="2020-01-04 10:00")
    repo.branch("ours")  # the merge keeps the first parent's tree: its first diff is empty
    repo.write("docs/dropped.md")
    repo.commit(when="2020-01-05 10:00")
    repo.switch("master")
    repo.git("merge", "-q", "-s", "ours", "-m", "ours", "ours")
    shapes["ours"] = repo.head()
    repo.branch("ahead")  # the branch is ahead only: the merge's tree is the side's
    repo.move("docs/a.md", "docs/renamed.md")
    repo.commit(when="2020-01-06 10:00")
    repo.switch("master")
    shapes["side tree"] = repo.merge("ahead", when="2020-01-07 10:00")
    repo.branch("same")  # nothing changed anywhere: every diff empty
    repo.commit(when="2020-01-08 10:00")
    repo.switch("master")
    shapes["no change"] = repo.merge("same", when="2020-01-09 10:00")
    for name in ("o1", "o2"):  # an octopus: three parents
        repo.branch(name, "master" if name == "o1" else "o1~1")
        repo.write(f"docs/{name}.md")
        repo.commit(when="2020-01-10 10:00")
    repo.switch("master")
    repo.git("merge", "-q", "--no-ff", "-m", "octopus", "o1", "o2")
    shapes["octopus"] = repo.head()
    repo.branch("renames")  # the merge commit itself renames and edits
    repo.write("src/x.py", "x = 2\n")
    repo.commit(when="2020-01-11 10:00")
    repo.switch("master")
    repo.merge("renames", when="2020-01-12 10:00", commit=False)
    repo.move("docs/renamed.md", "docs/again.md")
    shapes["renamed in the merge"] = repo.commit(when="2020-01-12 10:00")
    return shapes


def test_every_merge_gets_the_diffs_diff_tree_gives(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "repo")
    repo.git("checkout", "-q", "-b", "master")
    shapes = _merges_of_every_shape(repo)
    history = read_history(repo.root)
    merges = {c.sha: c for c in history if len(c.parents) > 1}
    assert set(shapes.values()) <= set(merges)
    assert [_diffed(repo, c) for c in merges.values()] == list(merges.values())
    assert merges[shapes["ours"]].changes == ()
    assert merges[shapes["ours"]].merge_changes != ((),)
    assert merges[shapes["side tree"]].merge_changes == ((),)
    assert merges[shapes["side tree"]].changes != ()
    assert (merges[shapes["no change"]].changes, merges[shapes["no change"]].merge_changes) == ((), ((),))
    assert len(merges[shapes["octopus"]].merge_changes) == 2
    assert ("R", "docs/again.md") in {(c.status, c.path) for c in merges[shapes["renamed in the merge"]].changes}


def _diffed(repo: GitRepo, merge: CommitChanges) -> CommitChanges:
    """``merge`` with its diffs as ``git diff <parent> <merge>`` prints them, one command each."""
    diffs = []
    for parent in merge.parents:
        tokens = iter(repo.git("diff", *RAW_DIFF, parent, merge.sha).split("\0"))
        changes, rest = parse_raw(tokens)
        assert rest in (None, "")
        diffs.append(changes)
    return CommitChanges(
        merge.sha, merge.author_date, merge.author_tz, merge.parents, diffs[0], tuple(diffs[1:])
    )


def _renamed_in_a_merge_only(repo: GitRepo, files: int) -> list[str]:
    """Records renamed and edited by a merge commit itself, so that only the merge's diffs (not
    the log's) detect the renames; the blobs they were renamed from."""
    body = "".join(f"line {n} of a record long enough to be renamed\n" for n in range(20))
    for i in range(files):
        repo.write(f"docs/{i}.md", f"# {i}\n{body}")
    repo.commit(when="2020-01-01 10:00")
    blobs = [repo.git("rev-parse", f"HEAD:docs/{i}.md").strip() for i in range(files)]
    repo.branch("side")
    repo.write("src/x.py", "x = 1\n")
    repo.commit(when="2020-01-02 10:00")
    repo.switch("master")
    repo.merge("side", when="2020-01-03 10:00", commit=False)
    for i in range(files):
        repo.move(f"docs/{i}.md", f"docs/moved-{i}.md")
        repo.write(f"docs/moved-{i}.md", f"# {i}\n{body}one more line\n")
    repo.commit(when="2020-01-03 10:00")
    return blobs


@pytest.mark.parametrize("fault", ["rename limit", "missing object"])
def test_what_git_refuses_in_a_merge_diff_is_an_error(tmp_path: Path, fault: str) -> None:
    repo = GitRepo.init(tmp_path / "repo")
    repo.git("checkout", "-q", "-b", "master")
    blobs = _renamed_in_a_merge_only(repo, 3)
    if fault == "rename limit":
        repo.git("config", "diff.renameLimit", "1")
        expected = r"diff\.renameLimit"
    else:
        (repo.root / ".git" / "objects" / blobs[0][:2] / blobs[0][2:]).unlink()
        expected = f"git object {blobs[0]} is missing"
    with pytest.raises(GitError, match=expected):
        read_history(repo.root)


_A = (FileChange("A", "a.md", None, "1" * 40),)


@pytest.mark.parametrize(
    ("printed", "fits"),
    [
        (["m1", "m1", "m2"], True),
        (["m1", "m2"], False),  # a block missing
        (["m1", "m1", "m2", "m2"], False),  # a block too many
        (["m1", "m2", "m1"], False),  # out of input order
        ([], False),
    ],
)
def test_merge_diffs_fit_the_lines_given_or_are_an_error(printed: list[str], fits: bool) -> None:
    asked = [("m1", "p1"), ("m1", "p2"), ("m2", "p1")]
    blocks = [(sha, _A if i == 1 else ()) for i, sha in enumerate(printed)]
    if not fits:
        with pytest.raises(GitError, match="unexpected output"):
            merge_diffs(blocks, asked)
        return
    assert merge_diffs(blocks, asked) == {"m1": ((), _A), "m2": ((),)}
