"""A merge's diffs against each parent, from the one ``git log -m`` pass over history.

git prints no block for a parent whose diff is empty, so the blocks are placed by
tree ids: in order, on the parents whose tree differs from the merge's. The oracle
is what the reader did before, one ``git diff-tree --stdin`` for every merge.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from docsync.repository.commits import CommitChanges, FileChange
from docsync.repository.git_history import _with_diff_tree, read_history
from docsync.repository.git_output import Log, resolve_merges
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
    assert history == _with_diff_tree(repo.root, history, set(merges))
    assert merges[shapes["ours"]].changes == ()
    assert merges[shapes["ours"]].merge_changes != ((),)
    assert merges[shapes["side tree"]].merge_changes == ((),)
    assert merges[shapes["side tree"]].changes != ()
    assert (merges[shapes["no change"]].changes, merges[shapes["no change"]].merge_changes) == ((), ((),))
    assert len(merges[shapes["octopus"]].merge_changes) == 2
    assert ("R", "docs/again.md") in {(c.status, c.path) for c in merges[shapes["renamed in the merge"]].changes}


def _commit(sha: str, parents: tuple[str, ...]) -> CommitChanges:
    return CommitChanges(sha, date(2020, 1, 1), "+0000", parents, ())


BLOCK = (FileChange("A", "a.md", None, "1" * 40),)
OTHER = (FileChange("M", "b.md", None, "2" * 40, "3" * 40),)


@pytest.mark.parametrize(
    ("parent_trees", "blocks", "placed"),
    [
        (["t1", "t2"], [BLOCK, OTHER], (BLOCK, OTHER)),
        (["tm", "t2"], [OTHER], ((), OTHER)),  # the first diff empty
        (["t1", "tm"], [BLOCK], (BLOCK, ())),  # the side diff empty
        (["tm", "tm"], [()], ((), ())),  # every diff empty: one empty block
        (["t1", "t2", "tm"], [BLOCK, OTHER], (BLOCK, OTHER, ())),
        (["t1", "t2"], [BLOCK], None),  # a block missing: read again
        (["tm", "t2"], [BLOCK, OTHER], None),  # a block too many
        (["t1", "t2"], [BLOCK, ()], None),  # an empty block where trees differ
        (["tm", "tm"], [BLOCK], None),
        (["t1", None], [BLOCK, OTHER], None),  # a parent's tree unknown
    ],
)
def test_blocks_are_placed_on_the_parents_whose_tree_differs(
    parent_trees: list[str | None], blocks: list[tuple[FileChange, ...]], placed: tuple[tuple[FileChange, ...], ...] | None
) -> None:
    parents = tuple(f"p{i}" for i in range(len(parent_trees)))
    merge = _commit("m", parents)
    trees = {"m": "tm", **{p: t for p, t in zip(parents, parent_trees, strict=True) if t is not None}}
    history, unplaced = resolve_merges(Log([merge, *(_commit(p, ()) for p in parents)], trees, {"m": blocks}))
    if placed is None:
        assert (unplaced, history[0]) == (["m"], merge)
    else:
        assert unplaced == []
        assert (history[0].changes, *history[0].merge_changes) == placed
