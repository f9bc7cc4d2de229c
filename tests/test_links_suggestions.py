"""The links gate's "did you mean" answers equal a plain computation of them.

:meth:`RepoIndex.closest_path` (renames, then the same name elsewhere, then a
near name in the same folder through :class:`docsync.nearest.CloseIndex`) and
:meth:`RepoIndex.closest_anchor` are compared with the same rules written
plainly: ``posixpath`` for the parts of a path, every file scanned, difflib
over every name (:func:`docsync.nearest.reference_closest`). Generated file
sets use a small alphabet, so that near names, equal names in other folders
and ties are common.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from docsync import nearest
from docsync.config import Config
from docsync.gates.links import index as links_index
from docsync.gates.links.index import RepoIndex
from docsync.repository.plumbing import Listing
from docsync.workspace.load import Workspace

_FOLDERS = ["", "docs", "docs/sub", "a", "a/docs"]
_NAMES = st.builds(str.__add__, st.text(alphabet="abc-", min_size=1, max_size=5), st.sampled_from([".md", ".MD", ".txt"]))

_PATHS = st.builds(lambda folder, name: f"{folder}/{name}" if folder else name, st.sampled_from(_FOLDERS), _NAMES)


def _index(files: list[str], renames: dict[str, str]) -> RepoIndex:
    listing = Listing({path: "100644" for path in files}, frozenset())
    workspace = Workspace(Path("."), Path(".git"), Config(), listing, {}, (), ())
    index = RepoIndex.build(workspace)
    index._staged_renames = renames
    return index


def _plain_closest_path(files: list[str], renames: dict[str, str], wanted: str) -> str | None:
    moved = renames.get(wanted)
    if moved is not None and moved in files:
        return moved
    base = posixpath.basename(wanted).lower()
    same_name = [p for p in files if posixpath.basename(p).lower() == base]
    if same_name:
        return min(same_name, key=lambda p: (links_index._distance(p, wanted), p))
    siblings = {posixpath.basename(p): p for p in files if posixpath.dirname(p) == posixpath.dirname(wanted)}
    match = nearest.reference_closest(posixpath.basename(wanted), siblings, links_index._PATH_CUTOFF)
    return siblings[match] if match is not None else None


@settings(max_examples=80, deadline=None)
@given(
    files=st.lists(_PATHS, max_size=30, unique=True),
    wanted=st.lists(_PATHS, min_size=1, max_size=6),
    moves=st.lists(st.tuples(_PATHS, _PATHS), max_size=3),
)
def test_closest_path_equals_the_plain_rules(files: list[str], wanted: list[str], moves: list[tuple[str, str]]) -> None:
    renames = dict(moves)
    index = _index(files, renames)
    for path in wanted + wanted[:2]:  # asked twice: the memoised answer is the same
        assert index.closest_path(path) == _plain_closest_path(files, renames, path), path


_ANCHORS = st.text(alphabet="ab-1", min_size=1, max_size=7)


@settings(max_examples=50, deadline=None)
@given(
    targets=st.lists(st.dictionaries(_ANCHORS, _ANCHORS, max_size=12), min_size=1, max_size=3),
    fragments=st.lists(_ANCHORS, min_size=1, max_size=6),
)
def test_closest_anchor_equals_difflib_over_every_anchor(targets: list[dict[str, str]], fragments: list[str]) -> None:
    index = _index([], {})
    for number, anchors in enumerate(targets):
        path = f"doc-{number}.md"
        for fragment in fragments:
            expected = nearest.reference_closest(fragment, anchors, links_index._ANCHOR_CUTOFF)
            assert index.closest_anchor(path, anchors, fragment) == expected
