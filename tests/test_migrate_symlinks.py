"""Issue 37: tracked symlinks that point at records the migration moves are retargeted.

The links are generated: at every depth from the repository root to below the
tree, pointing at a file record, a folder record's README and a folder record
itself; one sits inside a folder record (it moves with it, and so does its
target). Links out of the repository or into ``.git`` are left alone and named.
"""

from __future__ import annotations

import json
import os
import posixpath

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from docsync.errors import DocsyncError
from docsync.migrate.apply.apply import apply
from docsync.migrate.model import Relink
from docsync.migrate.rewrite.relinks import relinks
from docsync.migrate.run import Options, run
from docsync.write import transaction, writer
from tests.gitutil import GitRepo

runner = CliRunner()
RECORDS = {
    "docs/adr/0001-alpha.md": "# 1. Alpha\n\nStatus: Accepted\n\nText.\n",
    "docs/adr/0002-beta/README.md": "# 2. Beta\n\nStatus: Accepted\n\nText.\n",
    "docs/adr/0002-beta/notes.txt": "beta notes\n",
    "docs/adr/0003-gamma/README.md": "# 3. Gamma\n\nStatus: Accepted\n\nText.\n",
}
TARGETS = {
    "file": "docs/adr/0001-alpha.md",
    "readme": "docs/adr/0002-beta/README.md",
    "folder": "docs/adr/0003-gamma",
}
FOLDERS = ("", "docs", "docs/adr", "other", "other/deep/er")
OUTSIDE = {
    "other/out": "../../outside.md",
    "other/git": "../.git/HEAD",
    "other/abs": "/etc/hostname",
}
INSIDE = "docs/adr/0002-beta/alpha.md"  # moves with its folder record; so does its target


def _links() -> dict[str, str]:
    """Every (folder, target kind) pair: the link's path and its relative target."""
    links = {
        posixpath.join(folder, f"to-{kind}"): posixpath.relpath(target, folder or ".")
        for folder in FOLDERS
        for kind, target in TARGETS.items()
    }
    return {**links, INSIDE: "../0001-alpha.md"}


def _build(repo: GitRepo) -> dict[str, str]:
    for path, text in RECORDS.items():
        repo.write(path, text)
    links = {**_links(), **OUTSIDE}
    for path, target in links.items():
        (repo.root / path).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, repo.root / path)
    repo.commit("records and links", when="2020-09-24 10:00:00", tz="+0200")
    return links


def test_every_symlink_to_a_moved_record_follows_it(migration_repo: GitRepo) -> None:
    _build(migration_repo)
    root = migration_repo.root
    _, outcome = run(root, Options())
    moves = dict(outcome.changes.moves)
    assert set(TARGETS.values()) - {"docs/adr/0003-gamma"} <= set(moves)
    shown = runner.invoke(app, ["migrate"])
    for relink in outcome.changes.relinks:
        assert f"symlink retargeted: {relink.path} -> {relink.new}" in shown.output
    for path in OUTSIDE:
        assert f"symlink left alone: {path}:" in shown.output
    as_json = json.loads(runner.invoke(app, ["migrate", "--format", "json"]).output)
    assert {r["path"] for r in as_json["relinks"]} == {r.path for r in outcome.changes.relinks}
    assert {k["path"] for k in as_json["symlinks_kept"]} == set(OUTSIDE)
    apply(root, outcome, commit=True)
    moved = {**moves, "docs/adr/0003-gamma": moves["docs/adr/0003-gamma/README.md"]}
    for path, target in _links().items():
        link = moves.get(path, path)
        now = os.readlink(root / link)
        assert not os.path.isabs(now)
        kind = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        assert os.path.realpath(root / link) == os.path.realpath(root / moved[kind]), (path, now)
    for path, target in OUTSIDE.items():
        assert os.readlink(root / path) == target
    assert migration_repo.git("status", "--porcelain") == ""
    changed = migration_repo.git("diff", "--name-status", "HEAD~1", "HEAD").splitlines()
    for path in _links():
        if path not in moves:
            assert f"M\t{path}" in changed
            assert migration_repo.git("ls-files", "-s", path).startswith("120000 ")


def test_a_failure_after_the_relinks_puts_every_old_link_back(migration_repo: GitRepo) -> None:
    """The last commit fails, after every link was pointed elsewhere: the rollback puts back
    each link's target byte for byte; with the journal kept, so does ``--abort``."""
    links = _build(migration_repo)
    root = migration_repo.root
    _, outcome = run(root, Options())
    assert outcome.changes.relinks
    before = {path: os.readlink(root / path) for path in links}
    for persistent in (False, True):
        fault = _AfterRelinks(persistent)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(writer, "mutation_point", fault.point)
            with pytest.raises(DocsyncError):
                apply(root, outcome, commit=True)
        assert fault.failed
        if persistent:
            assert transaction.pending(root / ".git") is not None
            transaction.abort(root, "migrate")
        assert {path: os.readlink(root / path) for path in links} == before
        assert migration_repo.git("status", "--porcelain") == ""


class _AfterRelinks:
    """The first git command after a link was replaced fails (with ``persistent``, every
    mutation from then on does too: the rollback fails, the journal stays)."""

    def __init__(self, persistent: bool) -> None:
        self.persistent = persistent
        self.relinked = False
        self.failed = False

    def point(self, kind: str, path: object) -> None:
        self.relinked = self.relinked or kind == "symlink"
        if (self.relinked and kind == "git" and not self.failed) or (
            self.persistent and self.failed
        ):
            self.failed = True
            raise OSError(28, "No space left on device")


FOLDER_CASES = [  # (moves, tracked, where a link to the folder "a/f" points after them)
    ({"a/f/x.md": "b/g/x.md", "a/f/y.png": "b/g/y.png"}, ("a/f/x.md", "a/f/y.png"), "b/g"),
    ({"a/f/README.md": "b/f.md"}, ("a/f/README.md",), "b/f.md"),
    ({"a/f/README.md": "b/f.md"}, ("a/f/README.md", "a/f/kep.yaml"), None),  # the folder stays
    ({"a/f/x.md": "b/g/x.md", "a/f/y.png": "c/y.png"}, ("a/f/x.md", "a/f/y.png"), None),
    ({"a/other.md": "b/other.md"}, ("a/other.md", "a/f/z.md"), None),
]


@pytest.mark.parametrize(("moves", "tracked", "place"), FOLDER_CASES)
@pytest.mark.parametrize("link", ["a/to-f", "to-f", "c/d/to-f", "a/f2/to-f"])
def test_a_link_to_a_folder_follows_it_only_when_all_of_it_moved(
    moves: dict[str, str], tracked: tuple[str, ...], place: str | None, link: str
) -> None:
    target = posixpath.relpath("a/f", posixpath.dirname(link) or ".")
    changed, kept = relinks({link: target}, moves.items(), tracked)
    assert kept == ()
    if place is None:
        assert changed == ()
    else:
        assert changed == (Relink(link, target, posixpath.relpath(place, posixpath.dirname(link) or ".")),)
