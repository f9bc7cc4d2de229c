"""The links gate decides common links without the whole check, with the same answer.

:func:`docsync.gates.links.check._check_link` settles a plain path to a tracked
file or folder (with no fragment, or one that waits for another document's
anchors) itself, and hands everything else to ``_check_target``, the reference.
On generated destinations built from the pieces that take each branch (escapes,
queries, spaces around, schemes, ``..``, symlinks live and dangling, folders,
untracked and case-only names, fragments into this file, ``top``, line anchors),
both give the same findings and pending checks, item for item.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.gates.links import check
from docsync.gates.links.fragments import Target
from docsync.gates.links.index import RepoIndex
from docsync.model import Document
from docsync.workspace.load import load_workspace
from tests.gitutil import git, isolate_git_environ

_FILES = {
    "README.md": "# Top\n",
    "docs/src.md": "# Source\n\n## Beta\n\n[x](a.md)\n",
    "docs/a.md": "# Alpha\n\n## Beta\n",
    "docs/B.md": "# B\n",
    "docs/sub/c.md": "# C\n",
    "docs/folder/README.md": "# Folder\n\n## Beta\n",
    "docs/plainfolder/x.txt": "x\n",
    "docs/image.png": "png\n",
    "docs/q?x.md": "# A name with a question mark\n",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Document, RepoIndex]]:
    root = tmp_path_factory.mktemp("fast-path")
    for path, text in _FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    (root / "docs/link.md").symlink_to("a.md")
    (root / "docs/dangling.md").symlink_to("gone.md")
    (root / "docs/dirlink").symlink_to("sub")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "files")
    (root / "docs/new.md").write_text("# New\n")  # untracked
    with pytest.MonkeyPatch.context() as patch:
        isolate_git_environ(patch)
        workspace = load_workspace(root)
        doc = workspace.documents.get("docs/src.md")
        assert doc is not None
        yield doc, RepoIndex.build(workspace)


_SEGMENTS = [
    "", ".", "..", "docs", "a.md", "A.md", "b.md", "B.md", "sub", "c.md", "src.md", "image.png",
    "link.md", "dangling.md", "dirlink", "new.md", "folder", "plainfolder", "x.txt", "README.md",
    "missing.md", "a%2Emd", "a%zz", "a b.md", "a.MD", "q?x.md", "q",
]
_FOLDERS = ["", ".", "..", "sub", "folder", "dirlink", "docs", "plainfolder"]
_LEADS = ["", "/", "./", " ", "\u00a0", "http://x.org/", "//", "mailto:", "HTTPS:"]
_QUERIES = ["", "?plain=1", "?x=1", "?"]
_FRAGMENTS = ["", "#", "#beta", "#Beta", "#top", "#TOP", "#L1", "#L2-L3", "#nothing", "#%42eta", "#user-content-beta", "#b%zz"]
_TRAILS = ["", " ", "\t", "\u2003"]

_urls = st.builds(
    lambda lead, parts, query, fragment, trail: lead + "/".join(parts) + query + fragment + trail,
    st.sampled_from(_LEADS),
    st.lists(st.sampled_from(_SEGMENTS), max_size=4),
    st.sampled_from(_QUERIES),
    st.sampled_from(_FRAGMENTS),
    st.sampled_from(_TRAILS),
)


def _paths() -> list[str]:
    """Every segment alone and after each folder, from the root and from the document's folder."""
    pairs = [f"{a}/{b}" for a in _FOLDERS for b in _SEGMENTS]
    return _SEGMENTS + pairs + [f"/{p}" for p in ["docs/a.md", "docs/sub", "docs/link.md", "docs/dangling.md", "README.md", "docs"]]


def test_every_path_and_fragment_equals_the_whole_check(repo: tuple[Document, RepoIndex]) -> None:
    doc, index = repo
    answered = 0
    for path in _paths():
        for fragment in _FRAGMENTS:
            for image in (False, True):
                url = path + fragment
                fast = list(check._check_link(doc, url, url, 2, 5, image, index))
                assert fast == list(check._check_target(doc, Target(url, url, 2, 5, image), index)), (url, image)
                answered += not fast or type(fast[0]) is tuple
    assert answered > 1000  # most pass or wait: the fast path's cases are among them


@settings(max_examples=150, deadline=None)
@given(url=_urls, image=st.booleans())
def test_the_fast_path_equals_the_whole_check(repo: tuple[Document, RepoIndex], url: str, image: bool) -> None:
    doc, index = repo
    raw = f"<{url}>"  # the raw form is quoted in messages: it must be threaded through as given
    fast = check._check_link(doc, raw, url, 7, 3, image, index)
    whole = check._check_target(doc, Target(raw, url, 7, 3, image), index)
    assert list(fast) == list(whole)


@pytest.mark.parametrize(
    ("url", "pending"),
    [("a.md", None), ("sub/", None), ("../README.md", None), ("sub/c.md#top", None),
     ("a.md#beta", "docs/a.md"), ("folder#beta", "docs/folder"), ("/docs/sub/c.md#x", "docs/sub/c.md")],
)
def test_common_links_take_the_fast_path(
    repo: tuple[Document, RepoIndex], monkeypatch: pytest.MonkeyPatch, url: str, pending: str | None
) -> None:
    doc, index = repo

    def whole(*_: object) -> None:
        raise AssertionError("the whole check ran")

    monkeypatch.setattr(check, "_check_target", whole)
    found = list(check._check_link(doc, url, url, 1, 1, False, index))
    assert found == ([] if pending is None else [(url, 1, 1, pending, url.partition("#")[2])])
