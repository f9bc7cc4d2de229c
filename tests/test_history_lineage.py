"""Lineage follows content (issue 37, classes 3 and 4), on generated real repositories.

Class 3: a draft moved to a record's path while a "moved to" stub is written at
its old path, in one commit: git sees an add and a modification, not a rename.
The record keeps the draft's date; the stub is dated by that commit.

Class 4: in a tree whose drafts all start from one template, a new draft is
65% to 70% like any other draft by git's measure, from the boilerplate alone.
A deleted draft is the new one's source only if it was deleted before the add
on the add's line of history (or copied on that line and deleted after), and
is still alike with the template's text set aside, or shares a title or a
number. The stories are generated: how much of each draft is template text,
how many other drafts there are, and where and when they are deleted. The
cases docsync was right on stay right, generated the same way.

Every story is also dated by the independent oracle of ``scripts/realworld.py``
(its own replay, none of docsync's code), which must give each record the
same day: where the two disagree on a real tree, one of them is wrong.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
import textwrap
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from docsync.config import load as load_config
from docsync.migrate import run as migration
from docsync.migrate.read.dating import EarlyDates
from docsync.records.templates import is_template_path
from docsync.repository.git_history import CatFile, read_history
from docsync.repository.history import first_proposed
from docsync.repository.kinship import number, title
from docsync.repository.similarity import similarity
from tests.gitutil import GitRepo

BOILER = [f"Boilerplate line {i:02d} that every draft of this tree keeps.\n" for i in range(20)]
TEMPLATE = "# RFC: <title>\n\n" + "".join(BOILER)
OWN_LINES = (6, 12, 18)  # 81%, 68% and 59% like another draft by git's measure
OTHERS = (1, 3)


def draft(name: str, own: int, *, seed: str = "") -> str:
    """A draft written from the template: its title, the boilerplate, ``own`` lines of its own."""
    words = seed or name
    mine = "".join(f"{words} says, in its own words, point {i}.\n" for i in range(own))
    return f"# {name}\n\n" + "".join(BOILER) + mine


@cache
def oracle() -> ModuleType:
    """``scripts/realworld.py``, whose date oracle shares no code with docsync."""
    path = Path(__file__).resolve().parents[1] / "scripts" / "realworld.py"
    spec = importlib.util.spec_from_file_location("realworld", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["realworld"] = module
    spec.loader.exec_module(module)
    return module


def dates(repo: GitRepo, records: Sequence[str] = ()) -> dict[str, tuple[str, str]]:
    """(day, first path) of each of ``records`` (default: every tracked file), the files
    migrate dates; the oracle must give each the same day."""
    asked = list(records) or [p for p in repo.git("ls-files", "-z").split("\0") if p]
    kept = frozenset(asked)
    with CatFile(repo.root) as read_blob:
        origins = first_proposed(
            read_history(repo.root), asked, read_blob, template=is_template_path, record=kept.__contains__
        )
    found = {path: (str(o.date), o.original_path) for path, o in origins.items()}
    born = oracle().oracle_dates(repo.root, asked)
    assert {p: b.day for p, b in born.items()} == {p: day for p, (day, _) in found.items()}
    return found


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The start of every story, built once: the template and a README, committed in 2014."""
    repo = GitRepo.init(tmp_path_factory.mktemp("seeded") / "repo")
    repo.write("text/0000-template.md", TEMPLATE)
    repo.write("README.md", "# RFCs\n")
    repo.commit(when="2014-01-01 10:00")
    return repo.root


@pytest.fixture
def repo(seeded: Path, tmp_path: Path) -> GitRepo:
    """A copy of the seeded repository of the test's own (the stories change it)."""
    return GitRepo(Path(shutil.copytree(seeded, tmp_path / "repo", symlinks=True)))


NEW = "text/0000-new-idea.md"


def test_the_generated_drafts_are_alike_by_gits_measure_alone() -> None:
    """The premise: without the template set aside, any two drafts pass git's 50%."""
    for own in OWN_LINES:
        score = similarity(draft("Other 0", own).encode(), draft("New idea", own).encode())
        assert 0.55 < score < 0.85


# Class 4: unrelated adds, generated. Each story returns the date the new draft must keep.


def others_deleted_on_the_line(repo: GitRepo, others: int, own: int) -> str:
    """Other drafts deleted on main; a new draft added on main months later."""
    for k in range(others):
        repo.write(f"text/0000-other-{k}.md", draft(f"Other {k}", own))
        repo.commit(when=f"2014-02-0{k + 1} 10:00")
    for k in range(others):
        repo.remove(f"text/0000-other-{k}.md")
    repo.commit(when="2014-06-01 10:00")
    repo.write(NEW, draft("New idea", own))
    repo.commit(when="2015-03-01 10:00")
    return "2015-03-01"


def others_deleted_before_on_another_branch(
    repo: GitRepo, others: int, own: int, same_words: bool
) -> str:
    """Another author's drafts, added and deleted on their branch; the new draft on its own.
    With ``same_words`` the new draft even says what the other drafts said."""
    repo.branch("alice")
    for k in range(others):
        repo.write(
            f"text/0000-other-{k}.md", draft(f"Other {k}", own, seed="shared" if same_words else "")
        )
    repo.commit(when="2014-02-01 10:00")
    for k in range(others):
        repo.remove(f"text/0000-other-{k}.md")
    repo.commit(when="2014-03-01 10:00")
    repo.switch("main")
    repo.branch("bob")
    repo.write(NEW, draft("New idea", own, seed="shared" if same_words else ""))
    repo.commit(when="2014-05-01 10:00")
    repo.switch("main")
    repo.merge("alice", when="2014-06-01 10:00")
    repo.merge("bob", when="2014-07-01 10:00")
    return "2014-05-01"


def others_deleted_after_on_another_branch(
    repo: GitRepo, others: int, own: int, same_words: bool
) -> str:
    """The other drafts are deleted only after the new draft was added and merged (their
    branch merged main first, so the add is an ancestor of the delete)."""
    repo.branch("alice")
    for k in range(others):
        repo.write(
            f"text/0000-other-{k}.md", draft(f"Other {k}", own, seed="shared" if same_words else "")
        )
    repo.commit(when="2014-02-01 10:00")
    repo.switch("main")
    repo.branch("bob")
    repo.write(NEW, draft("New idea", own, seed="shared" if same_words else ""))
    repo.commit(when="2014-05-01 10:00")
    repo.switch("main")
    repo.merge("bob", when="2014-05-02 10:00")
    repo.switch("alice")
    repo.merge("main", when="2014-06-01 10:00")
    for k in range(others):
        repo.remove(f"text/0000-other-{k}.md")
    repo.commit(when="2014-06-02 10:00")
    repo.switch("main")
    repo.merge("alice", when="2014-06-03 10:00")
    return "2014-05-01"


UNRELATED: list[object] = [
    pytest.param(lambda r, n, own: others_deleted_on_the_line(r, n, own), id="deleted-on-the-line"),
    *(
        pytest.param(
            lambda r, n, own, same=same, story=story: story(r, n, own, same),
            id=f"{story.__name__.replace('_', '-')}{'-same-words' if same else ''}",
        )
        for story in (
            others_deleted_before_on_another_branch,
            others_deleted_after_on_another_branch,
        )
        for same in (False, True)
    ),
]


@pytest.mark.parametrize("own", OWN_LINES)
@pytest.mark.parametrize("others", OTHERS)
@pytest.mark.parametrize("story", UNRELATED)
def test_an_unrelated_add_is_no_restore(
    repo: GitRepo, story: Callable[[GitRepo, int, int], str], others: int, own: int
) -> None:
    expected = story(repo, others, own)
    assert dates(repo)[NEW] == (expected, NEW)


# Class 4: the cases docsync was right on, generated with the same template shares.


def copied_then_original_deleted(repo: GitRepo, own: int) -> tuple[str, str, str]:
    """A move in two commits: ``0000-restrict.md`` copied to ``1445-restrict.md``, the
    original deleted weeks later."""
    repo.write("text/0000-restrict.md", draft("Restrict", own))
    repo.write("text/0000-other.md", draft("Other", own))
    repo.commit(when="2016-01-06 10:00")
    repo.write("text/1445-restrict.md", draft("Restrict", own).replace("point 1.", "point one."))
    repo.commit(when="2016-02-05 10:00")
    repo.remove("text/0000-restrict.md")
    repo.commit(when="2016-02-18 10:00")
    return "text/1445-restrict.md", "2016-01-06", "text/0000-restrict.md"


def deleted_and_readded_a_minute_later(repo: GitRepo, own: int) -> tuple[str, str, str]:
    """Deleted in one commit, re-added as a record (renumbered, title kept) a minute later."""
    repo.write("text/0000-queue.md", draft("Queue", own))
    repo.commit(when="2019-01-01 10:00")
    repo.remove("text/0000-queue.md")
    repo.commit(when="2020-05-01 10:00")
    repo.write("text/0042-queue.md", draft("Queue", own).replace("point 0.", "point zero."))
    repo.commit(when="2020-05-01 10:01")
    return "text/0042-queue.md", "2019-01-01", "text/0000-queue.md"


def merged_from_another_repository(repo: GitRepo, own: int) -> tuple[str, str, str]:
    """A record brought in from another repository by a merge, deleted and re-added days later."""
    other = GitRepo.init(repo.root.parent / "other")
    other.write("decisions/0007-cache.md", draft("Cache", own))
    other.commit(when="2018-01-01 10:00")
    repo.git("fetch", "-q", str(other.root), "main:other")
    repo.git("merge", "-q", "--allow-unrelated-histories", "--no-ff", "-m", "merge other", "other")
    repo.commit(when="2019-01-02 10:00")
    repo.remove("decisions/0007-cache.md")
    repo.commit(when="2019-01-05 10:00")
    repo.write("text/0050-cache.md", draft("Cache", own).replace("point 2.", "point two."))
    repo.commit(when="2019-01-08 10:00")
    return "text/0050-cache.md", "2018-01-01", "decisions/0007-cache.md"


@pytest.mark.parametrize("own", (1, *OWN_LINES))
@pytest.mark.parametrize(
    "story",
    [
        copied_then_original_deleted,
        deleted_and_readded_a_minute_later,
        merged_from_another_repository,
    ],
)
def test_a_move_or_restore_keeps_its_date(
    repo: GitRepo, story: Callable[[GitRepo, int], tuple[str, str, str]], own: int
) -> None:
    path, day, original = story(repo, own)
    assert dates(repo)[path] == (day, original)


# Class 3: content moved out of a file that stays behind as a stub.

STUB = "# Moved\n\nThis draft now lives at [0042](../text/0042-big-idea.md).\n"


def big_draft(paragraphs: int) -> str:
    return "# Big idea\n\n" + "".join(
        f"Paragraph {i} of the draft, long enough to be its own line of text.\n\n"
        for i in range(paragraphs)
    )


def moved_out_leaving_a_stub(repo: GitRepo, paragraphs: int, edited: bool, beside: bool) -> None:
    repo.write("drafts/big-idea.md", big_draft(paragraphs))
    repo.commit(when="2019-03-01 10:00")
    repo.write("drafts/big-idea.md", big_draft(paragraphs) + "A late addition.\n")
    repo.commit(when="2019-05-01 10:00")
    repo.move("drafts/big-idea.md", "text/0042-big-idea.md")
    if edited:
        text = big_draft(paragraphs).replace("Paragraph 0 ", "The first paragraph ")
        repo.write("text/0042-big-idea.md", "Status: accepted\n\n" + text)
    repo.write("drafts/big-idea.md", STUB)
    if beside:
        repo.write("README.md", "# RFCs\n\n- [Big idea](text/0042-big-idea.md)\n")
        repo.write("text/0000-template.md", TEMPLATE + "One more template line.\n")
    repo.commit(when="2020-04-01 10:00")


@pytest.mark.parametrize("beside", [False, True], ids=["alone", "index-edited-beside"])
@pytest.mark.parametrize("edited", [False, True], ids=["as-is", "edited"])
@pytest.mark.parametrize("paragraphs", [5, 40])
def test_content_moved_out_of_a_stub_keeps_its_date(
    repo: GitRepo, paragraphs: int, edited: bool, beside: bool
) -> None:
    moved_out_leaving_a_stub(repo, paragraphs, edited, beside)
    found = dates(repo)
    moved = repo.git("show", "--format=", "--name-status", "-M", "HEAD").split()
    assert "R100" not in moved and not any(status.startswith("R") for status in moved[::2])
    assert found["text/0042-big-idea.md"] == ("2019-03-01", "drafts/big-idea.md")
    assert found["drafts/big-idea.md"] == ("2020-04-01", "drafts/big-idea.md")


def test_a_record_edited_beside_a_new_one_is_no_move(repo: GitRepo) -> None:
    """The commit adds a record and edits another: lightly (no stub), or into other text."""
    repo.write("text/0001-a.md", big_draft(20))
    repo.write("text/0002-b.md", big_draft(20).replace("Big idea", "Other idea"))
    repo.commit(when="2019-03-01 10:00")
    repo.write("text/0001-a.md", big_draft(20) + "One more line.\n")
    repo.write("text/0002-b.md", "# Other idea\n\nRewritten from scratch, shorter.\n")
    repo.write("text/0003-c.md", draft("C", 12))
    repo.commit(when="2020-04-01 10:00")
    found = dates(repo)
    assert found["text/0003-c.md"] == ("2020-04-01", "text/0003-c.md")
    assert found["text/0001-a.md"] == ("2019-03-01", "text/0001-a.md")
    assert found["text/0002-b.md"] == ("2019-03-01", "text/0002-b.md")


# The pieces the checks use.


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("text/0042-x.md", 42),
        ("text/0000-x.md", None),
        ("adr-0007-cache.md", 7),
        ("EIPS/eip-3.md", 3),
        ("2016-03-31-x.md", None),
        ("24-05-16-x.md", None),
        ("notes.md", None),
    ],
)
def test_number(path: str, expected: int | None) -> None:
    assert number(path) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (b"# RFC: Queue \n\nbody\n", "rfc: queue"),
        (b"---\ntitle: 'Queue'\n---\n\nbody\n", "queue"),
        (b"no heading\n", None),
        (b"## Section\n", None),
    ],
)
def test_title(text: bytes, expected: str | None) -> None:
    assert title(text) == expected


# Class 3, the other way: the record's own text moved out to a draft, a stub left at its path.

FUZZING = "text/0040-fuzzing.md"


def moved_out_of_the_record(repo: GitRepo, paragraphs: int, to_record: bool) -> str:
    """The record is written at its path (07-20), edited, then its text moves out (07-22),
    to a draft that is no record (``draft-fuzzing.md``) or to another record; a stub stays."""
    text = big_draft(paragraphs).replace("Big idea", "Fuzzing")
    repo.write(FUZZING, text)
    repo.commit(when="2020-07-20 10:00")
    repo.write(FUZZING, text + "Feedback taken in.\n")
    repo.commit(when="2020-07-21 10:00")
    moved_to = "text/0041-fuzzing-v2.md" if to_record else "drafts/draft-fuzzing.md"
    repo.write(moved_to, text + "Feedback taken in.\nAnd a clarified request.\n")
    repo.write(FUZZING, "Moved to [the draft](https://example.org/s/draft-fuzzing-design).\n")
    repo.commit(when="2020-07-22 10:00")
    return moved_to


@pytest.mark.parametrize("to_record", [False, True], ids=["to-a-draft", "to-a-record"])
@pytest.mark.parametrize("paragraphs", [5, 40])
def test_a_record_left_as_a_stub_restarts_only_when_its_text_went_to_a_record(
    repo: GitRepo, paragraphs: int, to_record: bool
) -> None:
    """golang/proposal ``40307-fuzzing.md``: its text moved to ``draft-fuzzing.md``, no
    record; the proposal still began at its own path, the day it was written there."""
    moved_to = moved_out_of_the_record(repo, paragraphs, to_record)
    records = [FUZZING, *([moved_to] if to_record else [])]
    found = dates(repo, records)
    if to_record:
        assert found[FUZZING] == ("2020-07-22", FUZZING)
        assert found[moved_to] == ("2020-07-20", FUZZING)
    else:
        assert found == {FUZZING: ("2020-07-20", FUZZING)}


# A pull request merged by squash: the record is dated by the squash commit, unless the
# branch it came from is on HEAD's history (merged as it was, or fast-forwarded).

VARIABLES = "rfcs/20180817-variables-20.md"


def pull_request(repo: GitRepo, landing: str) -> None:
    """The draft is written on a branch (08-17) and lands on 09-19: ``merge`` keeps the
    branch; ``squash`` keeps one commit; ``squash-then-rebased-copy`` also merges, in 2020,
    an unrelated branch rebased onto main whose first two commits, authored on 08-17,
    add the same draft at its old path and delete it (tensorflow/community #11 and #185)."""
    text = big_draft(12).replace("Big idea", "Variables in 2.0")
    repo.branch("variables")
    repo.write("rfcs/variables-20.md", text)
    repo.commit(when="2018-08-17 10:38", tz="-0700")
    repo.move("rfcs/variables-20.md", VARIABLES)
    repo.commit(when="2018-08-22 09:00", tz="-0700")
    repo.switch("main")
    if landing == "merge":
        repo.merge("variables", when="2018-09-19 14:28", tz="-0700")
        return
    repo.write(VARIABLES, text)
    repo.commit(when="2018-09-19 14:28", tz="-0700")
    if landing == "squash-then-rebased-copy":
        repo.write("README.md", "# RFCs\n\nTwo years on.\n")
        repo.commit(when="2020-03-06 11:13", tz="-0800")
        repo.branch("api-reviews")
        repo.write("rfcs/variables-20.md", text)
        repo.commit(when="2018-08-17 10:38", tz="-0700")
        repo.remove("rfcs/variables-20.md")
        repo.commit(when="2018-08-17 10:59", tz="-0700")
        repo.write("governance/api-reviews.md", "# API reviews\n")
        repo.commit(when="2020-03-16 10:00", tz="-0700")
        repo.switch("main")
        repo.merge("api-reviews", when="2020-03-16 10:06", tz="-0700")


@pytest.mark.parametrize(
    ("landing", "expected"),
    [
        ("merge", ("2018-08-17", "rfcs/variables-20.md")),
        ("squash", ("2018-09-19", VARIABLES)),
        ("squash-then-rebased-copy", ("2018-09-19", VARIABLES)),
    ],
)
def test_a_squashed_pull_request_is_dated_by_its_squash_commit(
    repo: GitRepo, landing: str, expected: tuple[str, str]
) -> None:
    """A draft that reaches HEAD's history only after the record did, on another line, is
    not its source, whatever its author date says: history decides, not the clock."""
    pull_request(repo, landing)
    assert dates(repo, [VARIABLES]) == {VARIABLES: expected}


@pytest.mark.parametrize("forked", [True, False], ids=["read-while-parsing", "read-here"])
def test_migrate_dates_a_record_whose_text_went_to_a_draft_from_its_own_path(
    repo: GitRepo, forked: bool
) -> None:
    """What migrate asks: the records are the trees' record files, found by path, whether a
    forked child reads the dates or this process does (with a progress bar)."""
    moved_out_of_the_record(repo, 5, to_record=False)
    config = migration.configured(load_config(repo.root), migration.Options())
    with EarlyDates(repo.root, config, None if forked else lambda *_: None) as early:
        got = early.origins([FUZZING])
    assert early.forked == forked
    assert got[FUZZING].date.isoformat() == "2020-07-20"


# A rename git misses: renumbered and rewritten in one commit (cometbft's ADR 010 "Monitoring"
# became ADR 011 with a column added to its tables, 47% by git's measure).

TITLES = ("ADR {n}: Monitoring", "{n}. Monitoring", "ADR-{n} - Monitoring")


def renumbered_and_rewritten(repo: GitRepo, kept: int, form: str, same: tuple[bool, bool]) -> str:
    """``adr-010-monitoring.md`` (06-08) becomes ``adr-011-…`` (06-13) keeping ``kept`` of 20
    lines; ``same`` says whether the slug and the title (apart from the number) stay."""
    lines = [f"Line {i} of the monitoring decision, as first written.\n" for i in range(20)]
    repo.write("adr/adr-010-monitoring.md", f"# {form.format(n='010')}\n\n" + "".join(lines))
    repo.commit(when="2018-06-08 15:17", tz="+0400")
    rewritten = lines[:kept] + [f"Line {i} rewritten, with a labels column.\n" for i in range(kept, 20)]
    title = form.format(n="011") if same[1] else "ADR 011: Tracing"
    new = "adr/adr-011-monitoring.md" if same[0] else "adr/adr-011-tracing.md"
    repo.remove("adr/adr-010-monitoring.md")
    repo.write(new, f"# {title}\n\n" + "".join(rewritten))
    repo.commit(when="2018-06-13 14:47", tz="+0400")
    return new


RENUMBERINGS = [
    *((form, kept, (True, True)) for form, kept in zip(TITLES, (9, 4, 6), strict=True)),
    (TITLES[0], 9, (False, True)),  # another slug: another record
    (TITLES[1], 4, (True, False)),  # another title: another record
]


@pytest.mark.parametrize(("form", "kept", "same"), RENUMBERINGS)
def test_a_record_renumbered_and_rewritten_in_one_commit_keeps_its_date(
    repo: GitRepo, kept: int, form: str, same: tuple[bool, bool]
) -> None:
    new = renumbered_and_rewritten(repo, kept, form, same)
    moved = repo.git("show", "--format=", "--name-status", "-M", "HEAD").split()
    assert not any(status.startswith("R") for status in moved[::2])  # git sees no rename
    expected = ("2018-06-08", "adr/adr-010-monitoring.md") if all(same) else ("2018-06-13", new)
    assert dates(repo, [new]) == {new: expected}


# A draft renumbered in the merge that lands it, rewrapped on the way (rust-lang/rfcs
# 0534-deriving2derive: the merge deletes the branch's ``0000-…`` and adds ``0534-…``,
# 41% by git's measure, so git sees no rename).

LONG = [
    f"Paragraph {i} of the draft says its piece on one long line, the way it was first "
    f"typed, with no wrapping at all, so that rewrapping it changes every one of its lines.\n\n"
    for i in range(6)
]


def landed_renumbered_by_the_merge(repo: GitRepo, slug: str) -> str:
    """The branch adds ``text/0000-deriving.md`` (12-19); main moves on; the merge (12-31)
    deletes it and adds ``text/0534-<slug>.md``, its text rewrapped at 72 columns."""
    head = "- Start Date: 2014-12-19\n- RFC PR: (leave this empty)\n\n# Summary\n\nRename it.\n\n"
    repo.branch("deriving")
    repo.write("text/0000-deriving.md", head + "".join(LONG))
    repo.commit(when="2014-12-19 16:22", tz="-0500")
    repo.switch("main")
    repo.write("README.md", "# RFCs\n\nAnother RFC was accepted.\n")
    repo.commit(when="2014-12-31 16:03", tz="+1300")
    repo.merge("deriving", when="2014-12-31 16:14", tz="+1300", commit=False)
    repo.git("rm", "-q", "--cached", "text/0000-deriving.md")
    (repo.root / "text/0000-deriving.md").unlink()
    wrapped = "".join(textwrap.fill(p.strip(), 72) + "\n\n" for p in LONG)
    new = f"text/0534-{slug}.md"
    repo.write(new, head.replace("(leave this empty)", "[534](#534)") + wrapped)
    repo.commit(when="2014-12-31 16:14", tz="+1300")
    return new


@pytest.mark.parametrize(
    ("slug", "expected"),
    [("deriving", ("2014-12-19", "text/0000-deriving.md")), ("derive", ("2014-12-31", None))],
    ids=["same-slug", "another-slug"],
)
def test_a_draft_renumbered_by_the_merge_that_lands_it_keeps_its_date(
    repo: GitRepo, slug: str, expected: tuple[str, str | None]
) -> None:
    new = landed_renumbered_by_the_merge(repo, slug)
    merged = repo.git("show", "-m", "--format=", "--name-status", "-M", "HEAD").split()
    assert not any(status.startswith("R") for status in merged[::2])  # git sees no rename
    day, original = expected
    assert dates(repo, [new]) == {new: (day, original or new)}


# A template that is a folder (kubernetes/enhancements: every KEP starts as a copy of
# ``keps/NNNN-kep-template/``, whose page is a README.md of 700 lines). Told by its file name
# alone, the page is no template, so any new KEP is alike to any deleted draft of another:
# both docsync and the oracle dated 26 KEPs of 2024 and 2025 from drafts of 2021 and 2022.

KEP_BOILER = [f"KEP template line {i:02d}: describe this part of your enhancement.\n" for i in range(30)]


def kep(name: str, own: int) -> str:
    mine = "".join(f"{name} explains, in its own words, point {i}.\n" for i in range(own))
    return f"# KEP: {name}\n\n" + "".join(KEP_BOILER) + mine


def kep_after_another_draft_deleted(repo: GitRepo, folder: str, page: str, own: int) -> str:
    """The template folder (2019); a draft KEP from it (2021-06-27), deleted on the line of
    history (2021-08-01); a new KEP from the template years later (2024-05-17)."""
    repo.write(f"keps/{folder}/{page}", "# KEP: <title>\n\n" + "".join(KEP_BOILER))
    repo.write(f"keps/{folder}/kep.yaml", "title: <title>\nstatus: provisional\n")
    repo.commit(when="2019-01-10 10:00")
    repo.write(f"keps/sig-a/0000-stability-classes/{page}", kep("Stability classes", own))
    repo.commit(when="2021-06-27 10:04", tz="-0700")
    repo.remove(f"keps/sig-a/0000-stability-classes/{page}")
    repo.commit(when="2021-08-01 10:00")
    new = f"keps/sig-node/4639-oci-volume-source/{page}"
    repo.write(new, kep("OCI volume source", own))
    repo.commit(when="2024-05-17 10:17", tz="-0400")
    return new


@pytest.mark.parametrize("own", OWN_LINES)
@pytest.mark.parametrize("page", ["README.md", "index.md"])
@pytest.mark.parametrize("folder", ["NNNN-kep-template", "0000-template", "template"])
def test_a_new_record_from_a_template_folder_restores_no_other_draft(
    repo: GitRepo, folder: str, page: str, own: int
) -> None:
    new = kep_after_another_draft_deleted(repo, folder, page, own)
    assert is_template_path(f"keps/{folder}/{page}")
    assert dates(repo, [new]) == {new: ("2024-05-17", new)}


def test_a_record_folder_whose_slug_holds_template_is_a_record(repo: GitRepo) -> None:
    """``0114-template-compiler/README.md`` is numbered like the records: a record, whose
    move in two commits (copied, the original deleted later) keeps its first day."""
    old, new = "text/0114-template-compiler/README.md", "text/0115-template-compiler/README.md"
    assert not is_template_path(old)
    repo.write(old, draft("Template compiler", 12))
    repo.commit(when="2016-01-06 10:00")
    repo.write(new, draft("Template compiler", 12).replace("point 1.", "point one."))
    repo.commit(when="2016-02-05 10:00")
    repo.remove(old)
    repo.commit(when="2016-02-18 10:00")
    assert dates(repo, [new]) == {new: ("2016-01-06", old)}


# A record renamed and rewritten, the change reverted, then made again the same day
# (kubernetes/enhancements KEP 0019 "Cloud Provider Documentation", 2018-07-30: on 2019-02-12
# renamed to ``20180731-cloud-provider-documentation.md`` and rewritten, 11% alike, same title;
# reverted; then ``20180731-cloud-provider-docs.md``, 79% like the reverted rewrite).


def rewritten_reverted_and_redone(repo: GitRepo, minute: int) -> str:
    first = "---\ntitle: Cloud Provider Documentation\n---\n\n" + "".join(
        f"The first text, line {i}, as the KEP was proposed in 2018.\n" for i in range(30)
    )
    rewrite = "---\ntitle: Cloud Provider Documentation\n---\n\n" + "".join(
        f"The rewrite, line {i}, which says it differently and shorter.\n" for i in range(20)
    )
    old = "keps/0019-cloud-provider-documentation.md"
    repo.write(old, first)
    repo.commit(when="2018-07-30 23:46", tz="-0700")
    renamed = "keps/20180731-cloud-provider-documentation.md"
    repo.remove(old)
    repo.write(renamed, rewrite)
    repo.commit(when=f"2019-02-12 16:{minute:02d}", tz="-0500")
    repo.remove(renamed)
    repo.write(old, first)
    repo.commit(when=f"2019-02-12 16:{minute + 1:02d}", tz="-0500")
    new = "keps/20180731-cloud-provider-docs.md"
    repo.remove(old)
    repo.write(new, rewrite.replace("line 3,", "line three,"))
    repo.commit(when=f"2019-02-12 16:{minute + 2:02d}", tz="-0500")
    return new


@pytest.mark.parametrize("minute", range(0, 40, 5))
def test_a_source_that_began_the_same_day_is_still_followed(repo: GitRepo, minute: int) -> None:
    """The redo continues the reverted rewrite (similar, the same number and title), which
    continues the 2018 record (renumbered, the same slug and title): both began on
    2019-02-12, and which of the two commit ids sorts first decides nothing."""
    new = rewritten_reverted_and_redone(repo, minute)
    assert dates(repo, [new]) == {new: ("2018-07-30", "keps/0019-cloud-provider-documentation.md")}
