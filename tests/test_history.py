"""First-proposed dates and rename maps, read from real git repositories."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from docsync.errors import GitError
from docsync.records.templates import is_template_path
from docsync.repository.commits import CommitChanges, FileChange
from docsync.repository.git_history import CatFile, is_shallow, read_blobs, read_history
from docsync.repository.history import first_proposed, rename_map
from tests.gitutil import GitRepo, dated

Story = Callable[[GitRepo], None]


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo.init(tmp_path / "repo")


def dates(repo: GitRepo) -> dict[str, tuple[str, str]]:
    """Every file at HEAD → (first-proposed date, path it was first added at)."""
    tracked = repo.git("ls-files", "-z").split("\0")
    with CatFile(repo.root) as read_blob:
        origins = first_proposed(
            read_history(repo.root), [p for p in tracked if p], read_blob, template=is_template_path
        )
    return {path: (str(o.date), o.original_path) for path, o in origins.items()}


# Stories: each builds a history; the table below says what the dates must be.


def rename(repo: GitRepo) -> None:
    repo.write("a.md")
    repo.commit(when="2020-01-01 10:00")
    repo.move("a.md", "b.md")
    repo.commit(when="2021-01-01 10:00")


def move_across_folders(repo: GitRepo) -> None:
    repo.write("docs/adr/0007-cache.md", "# ADR 7: cache\n\nWe cache parses.\n")
    repo.commit(when="2020-02-03 10:00")
    repo.write("docs/other.md")
    repo.commit(when="2020-05-05 10:00")
    repo.move("docs/adr/0007-cache.md", "docs/rfc/implemented/2020-02-03-cache.md")
    repo.commit(when="2022-01-01 10:00")


def rename_chain_with_edits(repo: GitRepo) -> None:
    body = "".join(f"line {i} of a long enough record body\n" for i in range(30))
    repo.write("docs/rfc/003-plan.md", "# RFC 3\n\n" + body)
    repo.commit(when="2019-07-08 10:00")
    repo.move("docs/rfc/003-plan.md", "docs/adr/0003-plan.md")
    repo.commit(when="2020-01-01 10:00")
    repo.write("docs/adr/0003-plan.md", "# ADR 3\n\nStatus: accepted\n\n" + body)
    repo.commit(when="2020-02-01 10:00")
    repo.move("docs/adr/0003-plan.md", "docs/rfc/implemented/plan.md")
    repo.write("docs/rfc/implemented/plan.md", "# RFC: Plan\n\nStatus: implemented\n\n" + body)
    repo.commit(when="2021-03-01 10:00")


def side_branch_merge_commit(repo: GitRepo) -> None:
    repo.write("README.md")
    repo.commit(when="2020-01-01 10:00")
    repo.branch("side")
    repo.write("docs/rfc/side.md")
    repo.commit(when="2020-03-01 10:00")
    repo.switch("main")
    repo.write("docs/main.md")
    repo.commit(when="2020-06-01 10:00")
    repo.merge("side", when="2020-07-01 10:00")


def side_branch_fast_forward(repo: GitRepo) -> None:
    repo.write("README.md")
    repo.commit(when="2020-05-01 10:00")
    repo.branch("side")
    repo.write("docs/rfc/side.md")
    repo.commit(when="2020-02-01 10:00")  # rebased work keeps its older author date
    repo.switch("main")
    repo.merge("side", fast_forward=True)


def renamed_on_side_branch_edited_on_main(repo: GitRepo) -> None:
    body = "".join(f"line {i}\n" for i in range(40))
    repo.write("docs/adr/0001-x.md", body)
    repo.commit(when="2018-04-04 10:00")
    repo.branch("side")
    repo.move("docs/adr/0001-x.md", "docs/rfc/proposed/x.md")
    repo.commit(when="2020-01-01 10:00")
    repo.switch("main")
    repo.write("docs/adr/0001-x.md", body + "one more line\n")
    repo.commit(when="2020-02-01 10:00")
    repo.merge("side", when="2020-03-01 10:00")


def added_by_merge_commit(repo: GitRepo) -> None:
    repo.write("README.md")
    repo.commit(when="2020-01-01 10:00")
    repo.branch("side")
    repo.write("side.md")
    repo.commit(when="2020-02-01 10:00")
    repo.switch("main")
    repo.merge("side", commit=False)
    repo.write("docs/rfc/resolution.md")
    repo.commit("merge side", when="2020-04-04 10:00")


def renamed_by_merge_commit(repo: GitRepo) -> None:
    repo.write("README.md")
    repo.commit(when="2020-01-01 10:00")
    repo.branch("side")
    repo.write("docs/adr/side.md")
    repo.commit(when="2020-02-02 10:00")
    repo.switch("main")
    repo.write("main.md")
    repo.commit(when="2020-03-01 10:00")
    repo.merge("side", commit=False)
    repo.move("docs/adr/side.md", "docs/rfc/side.md")
    repo.commit("merge side, moving its record", when="2020-04-04 10:00")


def added_on_both_branches(repo: GitRepo) -> None:
    repo.write("README.md")
    repo.commit(when="2020-01-01 10:00")
    repo.branch("side")
    repo.write("docs/rfc/idea.md", "# Idea\n\nAs first written on the side branch.\n")
    repo.commit(when="2020-02-01 10:00")
    repo.switch("main")
    repo.write("docs/rfc/idea.md", "# Idea\n\nWritten again on main.\n")
    repo.commit(when="2020-05-01 10:00")
    repo.git("merge", "-q", "--no-ff", "-X", "theirs", "side", env=dated("2020-06-01 10:00"))


def time_zone(when: str, tz: str) -> Story:
    def story(repo: GitRepo) -> None:
        repo.write("docs/rfc/zone.md")
        repo.commit(when=when, tz=tz)

    return story


def delete_and_restore(repo: GitRepo) -> None:
    repo.write("docs/adr/0002-keep.md", "# Keep\n\nThe record.\n")
    repo.commit(when="2019-01-01 10:00")
    repo.remove("docs/adr/0002-keep.md")
    repo.commit(when="2019-06-01 10:00")
    repo.git("revert", "--no-edit", "HEAD", env={"GIT_AUTHOR_DATE": "2020-01-01 10:00 +0000"})


def restore_older_version_after_edits(repo: GitRepo) -> None:
    repo.write("rec.md", "# Record\n\nFirst version.\n")
    first = repo.commit(when="2019-01-01 10:00")
    repo.write("rec.md", "# Record\n\nSecond version.\n")
    repo.commit(when="2019-02-01 10:00")
    repo.remove("rec.md")
    repo.commit(when="2019-03-01 10:00")
    repo.git("checkout", first, "--", "rec.md")
    repo.commit(when="2020-01-01 10:00")


def delete_and_reuse_path(repo: GitRepo) -> None:
    repo.write("docs/adr/0002-x.md", "# Cache\n\nOne topic.\n")
    repo.commit(when="2019-01-01 10:00")
    repo.remove("docs/adr/0002-x.md")
    repo.commit(when="2019-06-01 10:00")
    repo.write("docs/adr/0002-x.md", "# Logging\n\nAnother topic entirely.\n")
    repo.commit(when="2020-01-01 10:00")


def delete_and_restore_empty_file(repo: GitRepo) -> None:
    (repo.root / "stub.md").write_text("")
    repo.commit(when="2019-01-01 10:00")
    repo.remove("stub.md")
    repo.commit(when="2019-06-01 10:00")
    (repo.root / "stub.md").write_text("")
    repo.commit(when="2020-01-01 10:00")


RECORD = "# Queue\n\nStatus: accepted\n\n" + "".join(
    f"Reason {i} for the queue.\n" for i in range(12)
)


def delete_edit_and_restore(repo: GitRepo) -> None:
    repo.write("docs/adr/0003-queue.md", RECORD)
    repo.commit(when="2017-03-01 10:00", tz="+0100")
    repo.remove("docs/adr/0003-queue.md")
    repo.commit(when="2018-06-01 10:00")
    repo.write("docs/adr/0003-queue.md", RECORD.replace("Reason 4", "Reason four"))
    repo.commit(when="2021-01-01 10:00")


def delete_and_restore_elsewhere_edited(repo: GitRepo) -> None:
    repo.write("docs/adr/0003-queue.md", RECORD)
    repo.commit(when="2017-03-01 10:00")
    repo.remove("docs/adr/0003-queue.md")
    repo.commit(when="2018-06-01 10:00")
    repo.write("docs/decisions/queue.md", RECORD + "One more line.\n")
    repo.commit(when="2021-01-01 10:00")


def squash_then_merge_of_the_same_branch(repo: GitRepo) -> None:
    repo.write("README.md")
    repo.commit(when="2020-01-01 10:00")
    repo.branch("side")
    repo.write("docs/rfc/queue.md", RECORD)
    repo.commit(when="2020-02-01 10:00")
    repo.switch("main")
    repo.write("docs/rfc/queue.md", RECORD)  # the side branch, squashed onto main
    repo.commit(when="2020-02-03 10:00")
    repo.merge("side", when="2020-02-05 10:00")


def restore_on_a_backport_branch(repo: GitRepo) -> None:
    repo.write("docs/adr/0003-queue.md", RECORD)
    repo.commit(when="2017-03-01 10:00")
    repo.branch("backport")
    repo.switch("main")
    repo.remove("docs/adr/0003-queue.md")
    repo.commit(when="2018-06-01 10:00")
    repo.switch("backport")
    repo.write("docs/adr/0003-queue.md", RECORD.replace("Reason 7", "Reason seven"))
    repo.commit(when="2018-07-01 10:00")
    repo.switch("main")
    repo.write("docs/adr/0003-queue.md", RECORD.replace("Reason 7", "Reason seven"))
    repo.commit(when="2021-01-01 10:00")  # restored on main from the backport's text
    repo.merge("backport", when="2021-01-02 10:00")


def copy_of_a_live_record(repo: GitRepo) -> None:
    repo.write("docs/adr/0003-queue.md", RECORD)
    repo.commit(when="2017-03-01 10:00")
    repo.write("docs/adr/0009-queue-again.md", RECORD)
    repo.commit(when="2021-01-01 10:00")


def copy_from_template(repo: GitRepo) -> None:
    repo.write("docs/rfc/template.md", "# RFC: <title>\n\nStatus: proposed\n\n## Context\n")
    repo.commit(when="2018-01-01 10:00")
    repo.write("docs/rfc/proposed/new.md", "# RFC: <title>\n\nStatus: proposed\n\n## Context\n")
    repo.commit(when="2021-05-05 10:00")


OTHER = "# Cache\n\nStatus: accepted\n\n" + "".join(f"Cause {i} for the cache.\n" for i in range(12))


def deleted_template_copied_into_a_record(repo: GitRepo) -> None:
    """rust-lang/rfcs: the template is deleted (and put back later); a new RFC's first
    commit is the template's text. The RFC begins with that commit, not with the template."""
    repo.write("0000-template.md", RECORD)
    repo.commit(when="2014-03-10 10:00")
    repo.remove("0000-template.md")
    repo.commit(when="2015-01-01 10:00")
    repo.write("0000-template.md", RECORD + "A new section.\n")
    repo.commit(when="2016-04-21 10:00")
    repo.write("text/0000-discriminant.md", RECORD)
    repo.commit(when="2016-08-01 10:00")


def merge_leaves_a_side_file_out_then_added_by_hand(repo: GitRepo) -> None:
    """rust-lang/rfcs: the merge of a proposal's branch drops its ``0000-x.md``; the next
    commit ("Actually add RFC 532") adds it under its number. The proposal's date stays."""
    repo.write("README.md")
    repo.commit(when="2014-12-01 10:00")
    repo.branch("proposal")
    repo.write("text/0000-self-in-use.md", RECORD)
    repo.commit(when="2014-12-19 10:00")
    repo.switch("main")
    repo.merge("proposal", when="2014-12-31 10:00", commit=False)
    repo.git("rm", "-q", "-f", "text/0000-self-in-use.md")
    repo.commit(when="2014-12-31 10:00")
    repo.write("text/0532-self-in-use.md", RECORD.replace("Reason 3", "Reason three"))
    repo.commit(when="2014-12-31 11:00")


def merge_takes_a_stub_from_the_side_branch(repo: GitRepo) -> None:
    """rust-lang/rfcs: a side branch renames a record and writes a link to the new name at
    the old path; the merge takes that stub as the side branch wrote it. The stub is new."""
    repo.write("text/2071-alias.md", RECORD)
    repo.commit(when="2017-07-20 10:00")
    repo.branch("rename")
    repo.move("text/2071-alias.md", "text/2071-existential.md")
    repo.commit(when="2018-07-02 09:00")
    repo.write("text/2071-alias.md", "Moved to [2071-existential.md](2071-existential.md).\n")
    repo.commit(when="2018-07-02 11:00")
    repo.switch("main")
    repo.write("README.md")
    repo.commit(when="2018-07-02 12:00")
    repo.merge("rename", when="2018-07-03 10:00")


def copy_then_delete_the_original(repo: GitRepo) -> None:
    """rust-lang/rfcs: "Merge RFC #1445" copies ``0000-x.md`` to ``1445-x.md``; the
    duplicate is removed two weeks later. A move in two commits: the proposal's date stays."""
    repo.write("text/0000-restrict.md", RECORD)
    repo.write("text/0000-other.md", OTHER)
    repo.commit(when="2016-01-06 10:00")
    repo.write("text/1445-restrict.md", RECORD)
    repo.commit(when="2016-02-05 10:00")
    repo.remove("text/0000-restrict.md")
    repo.commit(when="2016-02-18 10:00")


def template_skeleton_at_a_reused_path(repo: GitRepo) -> None:
    """rust-lang/rfcs: two RFCs begin as ``0000-cargo-script.md`` holding the template's
    text, months apart; the second is no restore of the first (the same bytes prove nothing)."""
    repo.write("0000-template.md", RECORD)
    repo.commit(when="2014-03-10 10:00")
    repo.write("text/0000-cargo-script.md", RECORD)
    repo.commit(when="2023-04-26 10:00")
    repo.move("text/0000-cargo-script.md", "text/3424-cargo-script.md")
    repo.commit(when="2023-04-27 10:00")
    repo.write("text/0000-cargo-script.md", RECORD)
    repo.commit(when="2023-09-26 10:00")


def converted_on_main_renamed_against_a_side_branch(repo: GitRepo) -> None:
    """ethereum/EIPs: ``eip-3.mediawiki`` (2015) is rewritten as ``eip-3.md`` and deleted in
    two commits on main; merging an older branch, git sees the rename against that parent."""
    repo.write("EIPS/eip-3.mediawiki", RECORD)
    repo.commit(when="2015-11-19 10:00")
    repo.branch("older")
    repo.write("notes.txt", "x\n")
    repo.commit(when="2018-03-01 10:00")
    repo.switch("main")
    repo.write("EIPS/eip-3.md", RECORD + "Converted to Markdown.\n")
    repo.commit(when="2018-03-08 10:00")
    repo.remove("EIPS/eip-3.mediawiki")
    repo.commit(when="2018-03-08 11:00")
    repo.merge("older", when="2018-03-09 10:00")


def a_path_freed_on_one_branch_held_on_another(repo: GitRepo) -> None:
    """ethereum/EIPs: two drafts are both ``eip-3.mediawiki``; a side branch renumbers its own
    to ``eip-4``. The merge keeps main's EIP 3, dated by its own first commit, on its author's
    clock (the next day in UTC): the side branch's rename frees no path on main."""
    repo.write("README.md")
    repo.commit(when="2015-11-01 10:00")
    repo.branch("renumber")
    repo.write("EIPS/eip-3.mediawiki", OTHER)
    repo.commit(when="2015-11-17 20:59", tz="+0100")
    repo.switch("main")
    repo.write("EIPS/eip-3.mediawiki", RECORD)
    repo.commit(when="2015-11-19 21:01", tz="-0800")
    repo.switch("renumber")
    repo.move("EIPS/eip-3.mediawiki", "EIPS/eip-4.mediawiki")
    repo.commit(when="2015-11-22 00:50", tz="+0100")
    repo.switch("main")
    repo.merge("renumber", when="2015-11-22 13:56", tz="+0000")


def renamed_onto_a_path_a_parallel_branch_holds(repo: GitRepo) -> None:
    """ethereum/EIPs: a draft is renamed to ``eip-XXX.md``, a name another branch's older
    draft also has, then numbered. It keeps its own first commit's date (the day before in UTC)."""
    repo.write("README.md")
    repo.commit(when="2016-03-01 10:00")
    repo.branch("ens")
    repo.write("EIPS/eip-XXX.md", OTHER)
    repo.commit(when="2016-04-05 08:13", tz="+0100")
    repo.switch("main")
    repo.branch("popup")
    repo.write("EIPS/draft-popup.md", RECORD)
    repo.commit(when="2016-05-07 00:30", tz="+0100")
    repo.move("EIPS/draft-popup.md", "EIPS/eip-XXX.md")
    repo.commit(when="2016-05-11 22:42", tz="+0100")
    repo.switch("main")
    repo.merge("ens", when="2016-07-22 10:00")
    repo.switch("popup")
    repo.move("EIPS/eip-XXX.md", "EIPS/eip-107.md")
    repo.commit(when="2017-04-17 22:30", tz="+0530")
    repo.switch("main")
    repo.merge("popup", when="2017-04-19 12:27", tz="+0100")


def awkward_names(repo: GitRepo) -> None:
    repo.write('docs/with space/ünïcödé "q".md')
    repo.commit(when="2020-01-01 10:00")
    repo.move('docs/with space/ünïcödé "q".md', "docs/tab\there.md")
    repo.commit(when="2021-01-01 10:00")


STORIES = [
    pytest.param(
        delete_edit_and_restore,
        {"docs/adr/0003-queue.md": ("2017-03-01", "docs/adr/0003-queue.md")},
        id="delete-edit-restore",
    ),
    pytest.param(
        delete_and_restore_elsewhere_edited,
        {"docs/decisions/queue.md": ("2017-03-01", "docs/adr/0003-queue.md")},
        id="delete-restore-elsewhere-edited",
    ),
    pytest.param(
        squash_then_merge_of_the_same_branch,
        {
            "README.md": ("2020-01-01", "README.md"),
            "docs/rfc/queue.md": ("2020-02-01", "docs/rfc/queue.md"),
        },
        id="squash-then-merge",
    ),
    pytest.param(
        restore_on_a_backport_branch,
        {"docs/adr/0003-queue.md": ("2017-03-01", "docs/adr/0003-queue.md")},
        id="restore-on-backport",
    ),
    pytest.param(
        copy_of_a_live_record,
        {
            "docs/adr/0003-queue.md": ("2017-03-01", "docs/adr/0003-queue.md"),
            "docs/adr/0009-queue-again.md": ("2021-01-01", "docs/adr/0009-queue-again.md"),
        },
        id="copy-is-a-new-lineage",
    ),
    pytest.param(rename, {"b.md": ("2020-01-01", "a.md")}, id="rename"),
    pytest.param(
        move_across_folders,
        {
            "docs/rfc/implemented/2020-02-03-cache.md": ("2020-02-03", "docs/adr/0007-cache.md"),
            "docs/other.md": ("2020-05-05", "docs/other.md"),
        },
        id="move-across-folders",
    ),
    pytest.param(
        rename_chain_with_edits,
        {"docs/rfc/implemented/plan.md": ("2019-07-08", "docs/rfc/003-plan.md")},
        id="rename-chain-with-edits",
    ),
    pytest.param(
        side_branch_merge_commit,
        {
            "README.md": ("2020-01-01", "README.md"),
            "docs/rfc/side.md": ("2020-03-01", "docs/rfc/side.md"),
            "docs/main.md": ("2020-06-01", "docs/main.md"),
        },
        id="side-branch-merge-commit",
    ),
    pytest.param(
        side_branch_fast_forward,
        {
            "README.md": ("2020-05-01", "README.md"),
            "docs/rfc/side.md": ("2020-02-01", "docs/rfc/side.md"),
        },
        id="side-branch-fast-forward",
    ),
    pytest.param(
        renamed_on_side_branch_edited_on_main,
        {"docs/rfc/proposed/x.md": ("2018-04-04", "docs/adr/0001-x.md")},
        id="renamed-on-side-edited-on-main",
    ),
    pytest.param(
        added_by_merge_commit,
        {
            "README.md": ("2020-01-01", "README.md"),
            "side.md": ("2020-02-01", "side.md"),
            "docs/rfc/resolution.md": ("2020-04-04", "docs/rfc/resolution.md"),
        },
        id="added-by-merge-commit",
    ),
    pytest.param(
        renamed_by_merge_commit,
        {
            "README.md": ("2020-01-01", "README.md"),
            "main.md": ("2020-03-01", "main.md"),
            "docs/rfc/side.md": ("2020-02-02", "docs/adr/side.md"),
        },
        id="renamed-by-merge-commit",
    ),
    pytest.param(
        added_on_both_branches,
        {
            "README.md": ("2020-01-01", "README.md"),
            "docs/rfc/idea.md": ("2020-02-01", "docs/rfc/idea.md"),
        },
        id="added-on-both-branches-earliest-wins",
    ),
    # The author's local day, not the UTC day (given in the comments).
    pytest.param(
        time_zone("2021-03-04 23:30", "-0800"),
        {"docs/rfc/zone.md": ("2021-03-04", "docs/rfc/zone.md")},  # UTC: 03-05
        id="tz-west-0800",
    ),
    pytest.param(
        time_zone("2021-03-05 08:00", "+1400"),
        {"docs/rfc/zone.md": ("2021-03-05", "docs/rfc/zone.md")},  # UTC: 03-04
        id="tz-east-1400",
    ),
    pytest.param(
        time_zone("2021-03-05 02:00", "+0530"),
        {"docs/rfc/zone.md": ("2021-03-05", "docs/rfc/zone.md")},  # UTC: 03-04
        id="tz-east-0530",
    ),
    pytest.param(
        delete_and_restore,
        {"docs/adr/0002-keep.md": ("2019-01-01", "docs/adr/0002-keep.md")},
        id="delete-and-restore",
    ),
    pytest.param(
        restore_older_version_after_edits,
        {"rec.md": ("2019-01-01", "rec.md")},
        id="restore-older-version",
    ),
    pytest.param(
        delete_and_reuse_path,
        {"docs/adr/0002-x.md": ("2020-01-01", "docs/adr/0002-x.md")},
        id="delete-and-reuse-path-new-content",
    ),
    pytest.param(
        delete_and_restore_empty_file,
        {"stub.md": ("2020-01-01", "stub.md")},
        id="empty-file-is-not-a-restore",
    ),
    pytest.param(
        copy_from_template,
        {
            "docs/rfc/template.md": ("2018-01-01", "docs/rfc/template.md"),
            "docs/rfc/proposed/new.md": ("2021-05-05", "docs/rfc/proposed/new.md"),
        },
        id="copy-from-template",
    ),
    pytest.param(
        deleted_template_copied_into_a_record,
        {
            "0000-template.md": ("2016-04-21", "0000-template.md"),
            "text/0000-discriminant.md": ("2016-08-01", "text/0000-discriminant.md"),
        },
        id="deleted-template-starts-no-lineage",
    ),
    pytest.param(
        merge_leaves_a_side_file_out_then_added_by_hand,
        {
            "README.md": ("2014-12-01", "README.md"),
            "text/0532-self-in-use.md": ("2014-12-19", "text/0000-self-in-use.md"),
        },
        id="merge-left-out-then-added",
    ),
    pytest.param(
        merge_takes_a_stub_from_the_side_branch,
        {
            "README.md": ("2018-07-02", "README.md"),
            "text/2071-alias.md": ("2018-07-02", "text/2071-alias.md"),
            "text/2071-existential.md": ("2017-07-20", "text/2071-alias.md"),
        },
        id="merge-takes-side-stub",
    ),
    pytest.param(
        copy_then_delete_the_original,
        {
            "text/0000-other.md": ("2016-01-06", "text/0000-other.md"),
            "text/1445-restrict.md": ("2016-01-06", "text/0000-restrict.md"),
        },
        id="copy-then-delete-original",
    ),
    pytest.param(
        template_skeleton_at_a_reused_path,
        {
            "0000-template.md": ("2014-03-10", "0000-template.md"),
            "text/3424-cargo-script.md": ("2023-04-26", "text/0000-cargo-script.md"),
            "text/0000-cargo-script.md": ("2023-09-26", "text/0000-cargo-script.md"),
        },
        id="template-skeleton-is-no-restore",
    ),
    pytest.param(
        converted_on_main_renamed_against_a_side_branch,
        {
            "EIPS/eip-3.md": ("2015-11-19", "EIPS/eip-3.mediawiki"),
            "notes.txt": ("2018-03-01", "notes.txt"),
        },
        id="rename-against-a-side-parent",
    ),
    pytest.param(
        a_path_freed_on_one_branch_held_on_another,
        {
            "README.md": ("2015-11-01", "README.md"),
            "EIPS/eip-3.mediawiki": ("2015-11-19", "EIPS/eip-3.mediawiki"),
            "EIPS/eip-4.mediawiki": ("2015-11-17", "EIPS/eip-3.mediawiki"),
        },
        id="path-freed-on-one-branch-held-on-another",
    ),
    pytest.param(
        renamed_onto_a_path_a_parallel_branch_holds,
        {
            "README.md": ("2016-03-01", "README.md"),
            "EIPS/eip-XXX.md": ("2016-04-05", "EIPS/eip-XXX.md"),
            "EIPS/eip-107.md": ("2016-05-07", "EIPS/draft-popup.md"),
        },
        id="renamed-onto-a-path-a-parallel-branch-holds",
    ),
    pytest.param(
        awkward_names,
        {"docs/tab\there.md": ("2020-01-01", 'docs/with space/ünïcödé "q".md')},
        id="awkward-names",
    ),
]


@pytest.mark.parametrize(("story", "expected"), STORIES)
def test_first_proposed(repo: GitRepo, story: Story, expected: dict[str, tuple[str, str]]) -> None:
    story(repo)
    assert dates(repo) == expected


@pytest.mark.parametrize(
    ("when", "tz"),
    [("2021-03-04 23:30", "-0800"), ("2021-03-05 08:00", "+1400"), ("2021-03-05 02:00", "+0530")],
)
def test_date_and_zone_match_git_log_date_short(repo: GitRepo, when: str, tz: str) -> None:
    time_zone(when, tz)(repo)
    (commit,) = read_history(repo.root)
    assert str(commit.author_date) == repo.git("log", "-1", "--date=short", "--format=%ad").strip()
    assert commit.author_tz == tz


def test_origin_names_the_introducing_commit(repo: GitRepo) -> None:
    repo.write("a.md")
    introduced = repo.commit(when="2020-01-01 10:00")
    repo.move("a.md", "b.md")
    repo.commit(when="2021-01-01 10:00")
    origin = first_proposed(read_history(repo.root), ["b.md", "not-tracked.md"])
    assert list(origin) == ["b.md"]
    assert origin["b.md"].commit == introduced
    assert origin["b.md"].date == date(2020, 1, 1)


def test_read_history_shape(repo: GitRepo) -> None:
    added_by_merge_commit(repo)
    history = read_history(repo.root)
    assert history[0].sha == repo.head()
    merge = history[0]
    assert len(merge.parents) == 2
    assert merge.changes == (
        FileChange("A", "docs/rfc/resolution.md", None, merge.changes[0].blob),
        FileChange("A", "side.md", None, merge.changes[1].blob),
    )
    (vs_side,) = merge.merge_changes
    assert [(c.status, c.path) for c in vs_side] == [("A", "docs/rfc/resolution.md")]
    positions = {c.sha: i for i, c in enumerate(history)}
    assert all(positions[p] > positions[c.sha] for c in history for p in c.parents)


def test_read_history_of_repository_without_commits(repo: GitRepo) -> None:
    assert read_history(repo.root) == []
    assert first_proposed([], ["a.md"]) == {}
    assert rename_map([]) == {}


def test_history_is_read_with_a_constant_number_of_git_commands(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    side_branch_merge_commit(repo)
    for i in range(5):
        repo.write(f"docs/rfc/{i}.md")
        repo.commit(when=f"2021-01-{i + 1:02d} 10:00")
    trace = tmp_path / "trace.txt"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    read_history(repo.root)
    traced = [line.split("built-in: git ", 1)[1] for line in trace.read_text().splitlines()]
    commands = sorted(line.split()[0] for line in traced if not line.startswith("version"))
    # one log, and one diff-tree beside it for the merges; rev-parse: where the repository is
    assert commands == ["diff-tree", "log", "rev-parse"]


def test_cat_file_reads_blobs_and_answers_none_for_what_git_lacks(repo: GitRepo) -> None:
    repo.write("a.md", "# A\n\nfirst\r\nsecond, no newline at the end")
    (repo.root / "empty.md").write_bytes(b"")
    repo.commit()
    blobs = {path: repo.git("rev-parse", f"HEAD:{path}").strip() for path in ("a.md", "empty.md")}
    absent = "0" * 40
    with CatFile(repo.root) as read:
        assert read(blobs["a.md"]) == (repo.root / "a.md").read_bytes()
        assert read(blobs["empty.md"]) == b""
        assert read(absent) is None
        assert read("not an id\nHEAD") is None
        assert read(blobs["a.md"]) == (repo.root / "a.md").read_bytes()  # the process still answers
    assert read_blobs(repo.root, [absent, blobs["empty.md"], blobs["empty.md"]]) == {blobs["empty.md"]: b""}


@pytest.mark.parametrize("ahead", [[], ["a.md"], ["a.md", "gone", "empty.md"], ["gone", "b.md", "a.md"]])
def test_blobs_read_ahead_are_the_blobs_read_one_by_one(repo: GitRepo, ahead: list[str]) -> None:
    repo.write("a.md", "# A\n\nfirst\r\nsecond, no newline at the end")
    repo.write("b.md", "".join(f"line {i}\n" for i in range(5000)))  # more than a pipe holds
    (repo.root / "empty.md").write_bytes(b"")
    repo.commit()
    names = ["a.md", "b.md", "empty.md"]
    blobs = {path: repo.git("rev-parse", f"HEAD:{path}").strip() for path in names}
    blobs["gone"] = "0" * 40
    expected = {path: (repo.root / path).read_bytes() for path in names} | {"gone": None}
    with CatFile(repo.root) as read:
        read.read_ahead([blobs[path] for path in ahead] + ["not an id"])
        # every blob, in another order than read ahead, and each asked twice
        answers = [(path, read(blobs[path])) for path in ["empty.md", "gone", *names, "gone"]]
    assert answers == [(path, expected[path]) for path, _ in answers]


# Renames for `docsync fix`.


def test_rename_map_collapses_chains(repo: GitRepo) -> None:
    repo.write("docs/adr/a.md")
    repo.commit()
    repo.move("docs/adr/a.md", "docs/adr/b.md")
    repo.commit()
    repo.move("docs/adr/b.md", "docs/rfc/c.md")
    repo.commit()
    assert rename_map(read_history(repo.root)) == {
        "docs/adr/a.md": "docs/rfc/c.md",
        "docs/adr/b.md": "docs/rfc/c.md",
    }


def test_rename_map_leaves_out_reused_and_deleted_paths(repo: GitRepo) -> None:
    repo.write("reused.md", "# first file\n")
    repo.write("gone.md", "# will be deleted\n")
    repo.write("tmp.md", "# lived here, then elsewhere, then a new file came and went\n")
    repo.commit()
    repo.move("reused.md", "kept.md")
    repo.move("gone.md", "gone2.md")
    repo.move("tmp.md", "tmp2.md")
    repo.commit()
    repo.write("reused.md", "# a different file at the old path\n")
    repo.remove("gone2.md")
    repo.write("tmp.md", "# another file that is later deleted\n")
    repo.commit()
    repo.remove("tmp.md")
    repo.commit()
    assert rename_map(read_history(repo.root)) == {}


@pytest.mark.parametrize(
    ("story", "expected"),
    [
        (renamed_on_side_branch_edited_on_main, {"docs/adr/0001-x.md": "docs/rfc/proposed/x.md"}),
        (renamed_by_merge_commit, {"docs/adr/side.md": "docs/rfc/side.md"}),
    ],
)
def test_rename_map_follows_merges(repo: GitRepo, story: Story, expected: dict[str, str]) -> None:
    story(repo)
    assert rename_map(read_history(repo.root)) == expected


# History that does not reach back far enough.


def test_shallow_clone_is_refused_with_the_fix(repo: GitRepo, tmp_path: Path) -> None:
    rename(repo)
    assert not is_shallow(repo.root)
    clone = repo.clone(tmp_path / "shallow", "--depth", "1")
    assert is_shallow(clone.root)
    with pytest.raises(GitError) as caught:
        read_history(clone.root)
    assert "git fetch --unshallow" in str(caught.value)
    assert "fetch-depth: 0" in str(caught.value)


def _commit(sha: str, parents: tuple[str, ...], *changes: FileChange) -> CommitChanges:
    return CommitChanges(sha, date(2020, 1, 1), "+0000", parents, changes)


@pytest.mark.parametrize(
    "history",
    [
        pytest.param([_commit("b", ("a",), FileChange("A", "x.md"))], id="parent-missing"),
        pytest.param([_commit("a", (), FileChange("M", "x.md"))], id="modified-never-added"),
        pytest.param([_commit("a", (), FileChange("R", "y.md", "x.md"))], id="renamed-never-added"),
    ],
)
def test_incomplete_history_is_an_error_not_a_date(history: list[CommitChanges]) -> None:
    with pytest.raises(GitError, match="fetch-depth: 0"):
        first_proposed(history, ["x.md", "y.md"])


def test_history_out_of_order_is_a_programming_error() -> None:
    history = [_commit("a", (), FileChange("A", "x.md")), _commit("b", ("a",))]
    with pytest.raises(ValueError, match="after its children"):
        first_proposed(history, ["x.md"])


def test_skipped_rename_detection_is_an_error(repo: GitRepo) -> None:
    for i in range(3):
        repo.write(f"old{i}.md", "".join(f"record {i} line {n}\n" for n in range(20)))
    repo.commit()
    for i in range(3):
        repo.move(f"old{i}.md", f"new{i}.md")
        repo.write(f"new{i}.md", "".join(f"record {i} line {n}\n" for n in range(21)))
    repo.commit()
    repo.git("config", "diff.renameLimit", "1")
    with pytest.raises(GitError, match=r"diff\.renameLimit"):
        read_history(repo.root)


def test_a_missing_object_is_named_and_explained(repo: GitRepo) -> None:
    repo.write("docs/adr/0001-big.md", "".join(f"line {i}\n" for i in range(200)))
    repo.commit(when="2020-01-01 10:00")
    blob = repo.git("rev-parse", "HEAD:docs/adr/0001-big.md").strip()
    repo.move("docs/adr/0001-big.md", "docs/adr/0001-bigger.md")
    repo.write("docs/adr/0001-bigger.md", "".join(f"line {i}\n" for i in range(201)))
    repo.commit(when="2020-02-01 10:00")
    (repo.root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    with pytest.raises(GitError) as raised:
        read_history(repo.root)
    message = str(raised.value)
    assert f"git object {blob} is missing" in message
    assert "partial clone" in message and "fatal:" not in message
