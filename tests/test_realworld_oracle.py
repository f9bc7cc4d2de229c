"""The oracles of scripts/realworld.py: lost lines compare what a reader sees, and dates
follow every history story docsync's own reader is tested on."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.gitutil import GitRepo
from tests.test_history import STORIES, Story
from tests.test_history_lineage import oracle


@pytest.fixture(scope="module")
def realworld() -> ModuleType:
    return oracle()


OLD = """# Title

EIP-3855: Introducing `PUSH0` opcode to optimize away pushing zero.

The cost is already covered by EIP-2929/2930 access costs.

[EIP-7778](./eip-7778.md) excludes refunds, see [refunds under EIP-7778](#refunds-under-eip-7778).

Change the limit from the current [EIP-150](./eip-150.md) definition.

[`a5-eip999-poc`](https://github.com/p/compare/a5-eip999-poc)

[notes]: https://example.com/notes
"""

NEW = """# Title

[Push zero](../2021/2021-01-01-push-zero.md): Introducing `PUSH0` opcode to optimize away pushing zero.

The cost is already covered by [Gas costs](a.md)/[Access lists](b.md) access costs.

[Block gas](./b.md) excludes refunds, see [refunds under EIP-7778](#refunds-under-eip-7778).

Change the limit from the current [Gas changes](../x.md) definition.

[`a5-eip999-poc`](https://github.com/p/compare/a5-eip999-poc)

[notes]: https://example.com/notes
"""


def test_ids_rewritten_to_links_are_not_lost_lines(realworld: ModuleType) -> None:
    assert realworld.lost_lines(OLD, NEW, ["EIP"]) == []


def test_a_deleted_line_is_still_lost(realworld: ModuleType) -> None:
    new = NEW.replace("Change the limit from the current [Gas changes](../x.md) definition.\n", "")
    lost = realworld.lost_lines(OLD, new, ["EIP"])
    assert [line.split()[:3] for line in lost] == [["Change", "the", "limit"]]


def test_a_changed_word_after_an_id_is_lost(realworld: ModuleType) -> None:
    new = NEW.replace("already covered by", "already paid by")
    assert len(realworld.lost_lines(OLD, new, ["EIP"])) == 1


def test_a_link_at_a_line_start_is_not_read_as_a_definition(realworld: ModuleType) -> None:
    assert realworld.words("[Push zero](x.md): Introducing it", ["EIP"]) == [
        "push", "zero", "introducing", "it",
    ]  # fmt: skip


def test_a_link_broken_before_is_not_counted_as_broken_by_the_move(realworld: ModuleType) -> None:
    moves = {"text/0001-a.md": "text/implemented/2014-01-01-a.md", "text/0002-b.md": "text/x/b.md"}
    before = {("text/0001-a.md", "text/(https://example.com)")}
    left_as_written = {
        ("text/implemented/2014-01-01-a.md", "text/implemented/(https://example.com)")
    }
    kept_target = {("text/implemented/2014-01-01-a.md", "text/(https://example.com)")}
    assert realworld.newly_broken(before, left_as_written, moves) == []
    assert realworld.newly_broken(before, kept_target, moves) == []
    new_break = ("text/implemented/2014-01-01-a.md", "text/0002-b.md")
    assert realworld.newly_broken(before, {new_break}, moves) == [new_break]


@pytest.mark.parametrize(("story", "expected"), STORIES)
def test_oracle_dates_every_history_story(
    realworld: ModuleType, tmp_path: Path, story: Story, expected: dict[str, tuple[str, str]]
) -> None:
    """The oracle's own replay (one state per commit, so a path one branch holds is unknown
    to another) gives each story the dates docsync must give it."""
    repo = GitRepo.init(tmp_path / "repo")
    story(repo)
    tracked = [path for path in repo.git("ls-files", "-z").split("\0") if path]
    born = realworld.oracle_dates(repo.root, tracked)
    assert {path: b.day for path, b in born.items()} == {p: d for p, (d, _) in expected.items()}


def test_a_link_broken_before_that_climbs_out_of_its_folder_is_the_same_break(
    realworld: ModuleType,
) -> None:
    """cometbft: ``../../spec/abci/abci%2B%2B_app_requirements.md`` from
    ``docs/references/rfc/tendermint-core/`` named a folder that does not exist; left as
    written in the record's new folder, it climbs the same two steps from there."""
    old = "docs/references/rfc/tendermint-core/rfc-026-bad-peers.md"
    new = "docs/rfc/proposed/2023-03-30-bad-peers.md"
    target = "spec/abci/abci%2B%2B_app_requirements.md#peer-filtering"
    before = {(old, f"docs/references/{target}")}
    after = {(new, f"docs/{target}")}
    assert realworld.newly_broken(before, after, {old: new}) == []
    assert realworld.newly_broken(before, {(new, f"docs/rfc/{target}")}, {old: new}) != []


def test_a_legacy_index_maps_to_the_new_index(realworld: ModuleType) -> None:
    """Its prose, and the links in it, are carried into the new index."""
    plan = {
        "target": "docs/rfc",
        "moves": [],
        "topics": [{"path": "docs/rfc/implemented/2023-01-01-a.md", "sources": ["adr/adr-1-a.md"]}],
        "removals": ["adr/adr-1-a.md", "adr/README.md", "adr/notes.md"],
        "writes": ["docs/rfc/README.md"],
    }
    assert realworld.plan_moves(plan) == {
        "adr/adr-1-a.md": "docs/rfc/implemented/2023-01-01-a.md",
        "adr/README.md": "docs/rfc/README.md",
    }


@pytest.mark.parametrize("separator", ["/", ", ", " and ", " & ", " or "])
@pytest.mark.parametrize("kind", ["CIP-", "ADR ", "RFC"])
def test_a_list_of_ids_rewritten_to_links_is_not_lost(realworld: ModuleType, separator: str, kind: str) -> None:
    """cips: ``(CIP-25, 26, 27, 68, etc)`` became four title links: every number of the list
    went with its id, as ``EIP-2929/2930`` does; a word beside the list is still counted."""
    numbers = separator.join(["25", "26", "27", "68"])
    old = f"# T\n\nCompatible with all existing standards ({kind}{numbers}, etc) while also new.\n"
    links = separator.join(f"[Standard {n}](2021-{n}.md)" for n in ("twenty", "six", "seven", "eight"))
    new = f"# T\n\nCompatible with all existing standards ({links}, etc) while also new.\n"
    kinds = [kind.strip(" -")]
    assert realworld.lost_lines(old, new, kinds) == []
    assert len(realworld.lost_lines(old, new.replace("etc", "so on"), kinds)) == 1
def test_a_link_to_its_own_page_with_a_query_is_the_same_break(realworld: ModuleType) -> None:
    """keps: ``[Test Plan](?tab=t.0#bookmark=id.x)``, pasted from a shared document, names
    the page itself with a query; lychee reads it as ``README.md?tab=t.0``, broken before
    the move and after it, from the page's new path."""
    old = "keps/sig-x/5073-validation/README.md"
    new = "docs/rfc/implemented/2025-02-13-validation.md"
    before = {(old, f"{old}?tab=t.0#bookmark=id.x")}
    assert realworld.newly_broken(before, {(new, f"{new}?tab=t.0#bookmark=id.x")}, {old: new}) == []
    assert realworld.newly_broken(before, {(new, f"{new}?tab=t.1")}, {old: new}) != []


def test_a_dangling_symlink_is_a_broken_link_and_no_lychee_input(
    realworld: ModuleType, tmp_path: Path
) -> None:
    """keps: ``sig-release/20190331-release-notes.md`` links to ``1733-release-notes/README.md``;
    once the page moves the symlink dangles, and lychee stops on a dangling input."""
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("keps/1733-notes/README.md", "# Notes\n")
    (repo.root / "keps" / "20190331-notes.md").symlink_to("1733-notes/README.md")
    (repo.root / "keps" / "gone.md").symlink_to("1734-gone/README.md")
    repo.commit()
    files, dangling = realworld._markdown_files(repo.root)
    assert files == ["keps/1733-notes/README.md"]
    assert dangling == {("keps/gone.md", "keps/1734-gone/README.md")}
