"""The journal's pack file and the guard's remembered base: what each saves must not weaken a guarantee.

The journal saves every touched file's bytes in one pack file per ``cover``
(``state.json`` names each file's digest and place in it), not one file each;
``--abort`` reads the pack, refuses damaged bytes, and still reads the older
one-blob-per-file journals. The guard remembers the real path of a base only
while it is the same folder, and checks every folder below it on every call.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docsync.errors import DocsyncError
from docsync.write import transaction, writer
from tests.gitutil import GitRepo
from tests.untrusted import Entry, picture


def _repo(root: Path) -> GitRepo:
    repo = GitRepo.init(root)
    repo.write("a.md", "# A\n")
    repo.write("b.md", "# A\n")  # the same bytes as a.md: saved once
    repo.write("docs/c.md", "# C\n")
    (repo.root / "docs/c.md").chmod(0o600)
    (repo.root / "link.md").symlink_to("a.md")
    repo.commit("files")
    return repo


def _tree(root: Path) -> dict[str, Entry]:
    return picture(root, git=())


PATHS = ["a.md", "b.md", "docs/c.md", "link.md", "new/d.md"]


def _change_everything(repo: GitRepo, txn: transaction.Transaction) -> None:
    txn.write(writer.FileWrite("a.md", "# changed\n"))
    txn.write(writer.FileWrite("docs/c.md", "# changed\n"))
    txn.write(writer.FileWrite("new/d.md", "# new\n"))
    txn.remove(["link.md", "b.md"])  # a rollback puts back only what the run itself removed


def test_the_journal_holds_one_pack_and_abort_restores_every_byte_and_mode(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    before = _tree(repo.root)
    txn = transaction.Transaction.begin(repo.root, "fix", {}, PATHS)
    journal = repo.root / ".git" / transaction.JOURNAL
    assert sorted(p.name for p in journal.iterdir()) == ["index", "pack-0", "seal", "state.json"]
    assert (journal / "pack-0").read_bytes() == b"# A\n# C\n"  # a.md and b.md share their bytes
    _change_everything(repo, txn)  # ...and the process dies here
    txn.release()  # as the kernel does for a process that died
    transaction.abort(repo.root, "fix")
    assert _tree(repo.root) == before
    assert not journal.exists()


def test_a_second_cover_adds_a_second_pack(tmp_path: Path) -> None:
    """``fix`` covers its files batch by batch: each batch is one more pack."""
    repo = _repo(tmp_path / "repo")
    before = _tree(repo.root)
    txn = transaction.Transaction.begin(repo.root, "fix", {}, ["a.md"])
    txn.cover(["a.md", "b.md", "docs/c.md"])  # a.md is there already; b.md's bytes too
    txn.cover(PATHS)
    journal = repo.root / ".git" / transaction.JOURNAL
    assert sorted(p.name for p in journal.iterdir()) == ["index", "pack-0", "pack-1", "seal", "state.json"]
    assert (journal / "pack-1").read_bytes() == b"# C\n"
    _change_everything(repo, txn)
    txn.release()  # the process dies
    transaction.abort(repo.root, "fix")
    assert _tree(repo.root) == before


def test_damaged_saved_bytes_are_refused_in_one_message(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    transaction.Transaction.begin(repo.root, "fix", {}, PATHS)
    pack = repo.root / ".git" / transaction.JOURNAL / "pack-0"
    pack.write_bytes(b"# B\n# C\n")
    with pytest.raises(DocsyncError, match=r"cannot be read .*a\.md in docsync/journal/pack-0 are damaged"):
        transaction.abort(repo.root, "fix")
    pack.unlink()
    with pytest.raises(DocsyncError, match="cannot be read"):
        transaction.pending(repo.root / ".git")


def test_a_journal_from_a_newer_docsync_is_refused(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    transaction.Transaction.begin(repo.root, "fix", {}, PATHS)
    state = repo.root / ".git" / transaction.STATE
    state.write_text(json.dumps({**json.loads(state.read_text()), "format": transaction.FORMAT + 1}))
    with pytest.raises(DocsyncError, match="written by a newer docsync"):
        transaction.refuse_pending(repo.root / ".git")


@pytest.mark.parametrize("version", range(1, transaction.FORMAT))
def test_a_journal_of_an_older_format_is_refused_and_changes_nothing(tmp_path: Path, version: int) -> None:
    """Formats 1 and 2 had no seal: nothing proves this docsync wrote them here; format 3
    did not log the run's own removals, so its rollback could not tell them from the
    user's. ``--abort`` refuses each in one line and puts nothing back."""
    repo = _repo(tmp_path / "repo")
    txn = transaction.Transaction.begin(repo.root, "fix", {}, PATHS)
    _change_everything(repo, txn)
    txn.release()  # the process dies
    changed = _tree(repo.root)
    state = repo.root / ".git" / transaction.STATE
    raw = json.loads(state.read_text())
    if version < 3:
        del raw["seal"]
    state.write_text(json.dumps({**raw, "format": version}))
    with pytest.raises(DocsyncError, match=f"format {version}, written by an older docsync"):
        transaction.abort(repo.root, "fix")
    assert _tree(repo.root) == changed


def test_every_folder_is_checked_on_every_call(tmp_path: Path) -> None:
    """Nothing below the base is remembered: a folder that became a symlink since the
    last call is refused on the next."""
    repo = _repo(tmp_path / "repo")
    outside = tmp_path / "outside"
    outside.mkdir()
    assert writer.guarded(repo.root, "docs/c.md") == repo.root.resolve() / "docs" / "c.md"
    (repo.root / "docs" / "c.md").unlink()
    (repo.root / "docs").rmdir()
    (repo.root / "docs").symlink_to(outside)
    with pytest.raises(writer.Refused, match="docs is a symlink"):
        writer.guarded(repo.root, "docs/c.md")
    with pytest.raises(writer.Refused, match="docs is a symlink"):
        writer.write_atomic(repo.root, writer.FileWrite("docs/c.md", "x\n"))
    assert list(outside.iterdir()) == []


def test_a_base_that_now_names_another_folder_is_resolved_again(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    base = tmp_path / "base"
    base.symlink_to(first)
    assert writer.guarded(base, "x.md") == first / "x.md"
    base.unlink()
    base.symlink_to(second)
    assert writer.guarded(base, "x.md") == second / "x.md"
    base.unlink()
    first.rename(base)  # the remembered real path is gone; the base is a folder now
    assert writer.guarded(base, "x.md") == base / "x.md"


def test_the_guard_still_refuses_what_leaves_the_base(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    for path in ["../x.md", "docs/../../x.md", "/etc/x.md", "", "a\0b.md"]:
        with pytest.raises(writer.Refused):
            writer.guarded(repo.root, path)
    with pytest.raises(writer.Refused, match=r"link\.md is a symlink"):
        writer.guarded(repo.root, "link.md")
    assert writer.guarded(repo.root, "link.md", final_link=True) == repo.root.resolve() / "link.md"
