"""A link into a submodule's files is L001 and says why: GitHub shows a submodule as a link
to its own repository at the pinned commit, never its files under the parent's tree.

Generated over where the submodule sits (at the root, one and two folders down), where
the link points inside it (a page, a page in a folder, with a fragment) and from where it
links (the root, and a folder, so the target is written with ``..``). The submodules are
real gitlinks in the index (mode 160000), with a checkout of the files on disk, as a
cloned submodule leaves them. A path that only starts with the submodule's name
(``lib-notes/`` beside ``lib``) is no part of it.
"""

from __future__ import annotations

import posixpath

import pytest

from tests.gitutil import GitRepo
from tests.test_links_symlink_targets import links_findings

SUBMODULES = ("lib", "vendor/lib", "third/party/lib")
INSIDE = ("README.md", "docs/guide.md", "README.md#install")
PAGES = ("index.md", "notes/page.md")


def _written(page: str, target: str) -> str:
    path, _, fragment = target.partition("#")
    relative = posixpath.relpath(path, posixpath.dirname(page) or ".")
    return f"{relative}#{fragment}" if fragment else relative


@pytest.fixture(scope="module")
def found(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[dict[tuple[str, int], str], list[tuple[str, str]]]:
    repo = GitRepo.init(tmp_path_factory.mktemp("submodules") / "repo")
    repo.write("lib-notes/README.md", "# Notes beside the submodule\n")
    head = repo.commit("a page beside where the submodules go")
    for sub in SUBMODULES:
        for inside in INSIDE:
            repo.write(posixpath.join(sub, inside.partition("#")[0]), "# Install\n")  # the checkout
        repo.git("update-index", "--add", "--cacheinfo", f"160000,{head},{sub}")
    links = [
        (page, posixpath.join(sub, inside))
        for page in PAGES
        for sub in SUBMODULES
        for inside in INSIDE
    ]
    for page in PAGES:
        lines = [f"[{n}]({_written(page, t)})" for n, (p, t) in enumerate(links) if p == page]
        repo.write(
            page,
            "# Page\n\n"
            + "\n\n".join(lines)
            + "\n\n[beside]("
            + _written(page, "lib-notes/README.md")
            + ")\n",
        )
    repo.git("add", *PAGES)
    repo.git("commit", "-q", "-m", "pages and submodules")
    findings = links_findings(repo.root)
    return {(f["path"], f["line"]): f"{f['rule']} {f['message']}" for f in findings}, links


def test_a_link_into_a_submodule_names_the_submodule(
    found: tuple[dict[tuple[str, int], str], list[tuple[str, str]]],
) -> None:
    by_line, links = found
    for page in PAGES:
        mine = [t for p, t in links if p == page]
        for n, target in enumerate(mine):
            line = 3 + 2 * n
            sub = next(
                s for s in sorted(SUBMODULES, key=len, reverse=True) if target.startswith(s + "/")
            )
            said = by_line.get((page, line))
            assert said is not None and said.startswith("L001 "), (page, target, said)
            assert f"inside the submodule '{sub}'" in said, (page, target, said)
        beside = 3 + 2 * len(mine)
        assert (page, beside) not in by_line, by_line.get((page, beside))
    assert len(by_line) == len(links)
