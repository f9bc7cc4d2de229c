"""A broken link's candidate can be where a staged rename took its target (git's rename
detection between HEAD and the index). HEAD and the index's blobs can change while every
tracked path, mode and work-tree file stays as it was (a commit, ``reset --soft``, a
``git add`` of another version): the warm report replay (:mod:`docsync.commandline.replay`)
and the links gate's result cache must both see it, or a run says a candidate that is no
longer so, or misses one.

The class is generated: three states of HEAD and the index over one work tree, and a walk
that takes every ordered pair of them (each transition once), checking after each step
against what git itself says the staged renames are.
"""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

from docsync.commandline import replay_key
from tests.forked import docsync
from tests.gitutil import GitRepo

PAGE = "# Old\n\nThe page that moves, with enough words that git pairs it when it moves.\n"
OTHER = "# Unrelated\n\nNothing of the old page is left here at all, no word of it.\n"
ARGV = ["check", "--format", "json", "--select", "L"]
CANDIDATE = "docs/new.md"


def _walk(states: list[str]) -> list[str]:
    """States in an order that takes every ordered pair of them as one step."""
    path = [states[0]]
    for first, second in itertools.permutations(states, 2):
        if path[-1] != first:
            path.append(first)
        path.append(second)
    return path


def test_the_walk_takes_every_transition() -> None:
    states = ["a", "b", "c", "d"]
    walked = _walk(states)
    assert set(itertools.permutations(states, 2)) <= set(itertools.pairwise(walked))


def test_a_change_of_head_or_index_alone_is_seen_by_replay_and_results_cache(tmp_path: Path) -> None:
    repo = GitRepo.holding(tmp_path / "repo", {"docs/old.md": PAGE, "README.md": "# R\n\nSee [old](docs/old.md).\n"})
    before = repo.head()
    repo.move("docs/old.md", CANDIDATE)
    after = repo.commit("moved")
    page = repo.git("hash-object", "--", CANDIDATE).strip()
    (tmp_path / "other.md").write_text(OTHER)
    other = repo.git("hash-object", "-w", "--path", CANDIDATE, "--", str(tmp_path / "other.md")).strip()
    states = {  # HEAD, and the index's blob of the new path; the work tree never changes
        "rename staged": (before, page),
        "rename committed": (after, page),
        "another page staged": (before, other),
    }
    kept = replay_key.slot_file(repo.root / ".git", ARGV, os.path.realpath(repo.root))
    for step, name in enumerate(_walk(list(states))):
        head, blob = states[name]
        repo.git("reset", "-q", "--soft", head)
        repo.git("update-index", "--cacheinfo", f"100644,{blob},{CANDIDATE}")
        staged = repo.git("diff", "--cached", "-M", "--name-status").split()
        expected = bool(staged) and staged[0].startswith("R")
        ran = docsync(repo.root, *ARGV)
        assert ran.returncode == 1, ran.stderr
        said = " ".join(f["message"] for f in json.loads(ran.stdout)["findings"])
        assert (f"'{CANDIDATE}'" in said) == expected, (step, name, said, staged)
        if kept.exists():  # the report kept is believed by the next run unless its inputs changed
            later = os.stat(kept).st_mtime_ns + 10**10
            os.utime(kept, ns=(later, later))
