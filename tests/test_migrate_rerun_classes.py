"""What the corpus showed after a first apply (issue 37): a record's folder read as a folder
record on the next run (go-proposal's ``design/44167/README.md``), pages left in a legacy
folder that became the target tree, symlinks in a record tree, a link in another letter case,
and the program lines a migration changes. Each class on a small real repository."""

from __future__ import annotations

import itertools
import re

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from docsync.migrate.read.folders import folder_records, moved_companions
from tests.gitutil import GitRepo
from tests.test_migrate_read_classes import _write

runner = CliRunner()


def _record(title: str, status: str = "Accepted", body: str = "Text.") -> str:
    return f"# {title}\n\nStatus: {status}\n\n{body}\n"


def _apply(repo: GitRepo) -> str:
    applied = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert applied.exit_code == 0, applied.output
    return applied.output


def _check_green() -> None:
    checked = runner.invoke(app, ["check"])
    assert checked.exit_code == 0, checked.output


# --------------------------------------------------------------------------- a moved record's folder

PREFIXES = ("", "adr-", "eip-", "CIP-")
# How a record's own folder is named, from its prefix, number and slug.
FOLDER_SHAPES = ("{n}", "{prefix}{n}", "{prefix}{n}-{slug}", "{prefix}{n}-plots")


def _shapes() -> list[tuple[str, str]]:
    return list(itertools.product(PREFIXES, FOLDER_SHAPES))


@pytest.mark.parametrize(("prefix", "shape"), _shapes())
def test_a_folder_carrying_a_moved_records_id_stays_that_records(prefix: str, shape: str) -> None:
    """Once ``design/{prefix}44167-gc.md`` has moved, a folder named by its number (or its
    whole name) holding a README is its folder, not a record; a folder record of another
    number, or in another folder, is still a record."""
    gone = [f"design/{prefix}44167-gc.md", f"design/{prefix}48409-memory.md"]
    own = shape.format(prefix=prefix, n=44167, slug="gc")
    pages = [f"design/{own}/README.md", f"design/{shape.format(prefix=prefix, n=48409, slug='memory')}/README.md"]
    others = [f"design/{prefix}50000-real/README.md", f"notes/{prefix}44167-gc/README.md"]
    paths = [*pages, *others, "design/44167/plot.png"]
    found = {page for page, _ in folder_records(paths)}
    assert set(pages) <= found  # read alone, each is a folder record
    assert moved_companions(paths, gone) == frozenset(pages)


@pytest.mark.parametrize("prefix", ["", "adr-"])
def test_a_second_apply_leaves_a_moved_records_image_folder_alone(migration_repo: GitRepo, prefix: str) -> None:
    """go-proposal: ``design/44167-x.md`` and its images in ``design/44167/`` (with a README
    that says how they are made). The first apply moves the record and leaves the folder;
    the second is a no-op, and check is green."""
    files = {
        f"docs/adr/{prefix}0007-use-plots.md": _record("Use plots", body="![p](0007/plot.svg)"),
        f"docs/adr/{prefix}0008-use-tables.md": _record("Use tables"),
        "docs/adr/0007/README.md": "# Design document\n\nThe plots are made by plot.sh.\n",
        "docs/adr/0007/plot.svg": "<svg/>\n",
        f"docs/adr/{prefix}0008-use-tables/README.md": "# Design document\n\nThe tables.\n",
    }
    _write(migration_repo, files)
    assert runner.invoke(app, ["init"]).exit_code == 0
    migration_repo.commit("adopt docsync")
    _apply(migration_repo)
    head = migration_repo.git("rev-parse", "HEAD")
    again = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert again.exit_code == 0, again.output
    assert "nothing" in again.output.lower(), again.output
    assert migration_repo.git("rev-parse", "HEAD") == head
    assert (migration_repo.root / "docs/adr/0007/README.md").is_file()


# --------------------------------------------------------------------------- a list of ids

SEPARATORS = ("/", ", ", " and ", " & ")
_LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")


def _list_cases() -> list[tuple[str, tuple[int, ...]]]:
    """Lists of ids of one kind: every separator, records and numbers that name none
    (a year, a count) at each place after the first."""
    cases = []
    for separator, numbers in itertools.product(SEPARATORS, ((25, 26, 27, 68), (25, 2019, 26), (25, 26, 3))):
        cases.append((separator, numbers))
    return cases


@pytest.mark.parametrize(("separator", "numbers"), _list_cases())
def test_a_list_of_ids_keeps_every_id(separator: str, numbers: tuple[int, ...]) -> None:
    """``CIP-25, 26, 27, 68``: each number after the first that names a record becomes a
    link to that record, the first one's link holds the first id's place, and a number
    that names none ends the list as text. No number and no word is lost."""
    from docsync.model import apply_edits
    from docsync.parse.native import parse
    from docsync.records.model import IdTarget
    from docsync.rewrite.prose_ids import every_id_edit

    records = {n: IdTarget(f"docs/cip/accepted/2021-01-{n % 28 + 1:02d}-cip-{n}.md", f"Standard {n}") for n in (25, 26, 27, 68, 3)}
    ids = {("CIP", n, None): target for n, target in records.items()}
    written = separator.join(str(n) for n in numbers)
    text = f"# Title\n\nCompatible with all standards (CIP-{written}, etc) while also new.\n"
    doc = parse("docs/cip/accepted/2022-01-01-x.md", text)
    edits, _, _ = every_id_edit(doc, doc.path, ids, lambda url: None)
    new = apply_edits(text, edits)
    line = new.split("\n")[2]
    links = [(m.group(1), m.group(2)) for m in _LINK.finditer(line)]
    named = []
    for n in numbers:
        if n not in records or (named and named[-1] is None):
            named.append(None)
            continue
        named.append(n)
    linked = [n for n in named if n is not None]
    assert [title for title, _ in links] == [f"Standard {n}" for n in linked], new
    assert [dest.rsplit("/", 1)[-1] for _, dest in links] == [records[n].path.rsplit("/", 1)[-1] for n in linked]
    rest = _LINK.sub("L", line)
    assert rest.startswith("Compatible with all standards (L") and rest.endswith(", etc) while also new.")
    left = [str(n) for n, link in zip(numbers, named, strict=True) if link is None]
    assert re.findall(r"\d+", rest) == left, new


# --------------------------------------------------------------------------- a link in a code comment

COMMENTS = {"mempool/nop.go": "// {}", "tools/gen.py": "# {}", "src/lib.rs": "/// {}"}
LINK_TEXTS = ("ADR-0007", "ADR 7", "the plots ADR", "ADR-0007 plots")


def test_a_markdown_link_in_a_code_comment_is_rewritten_whole_or_left_whole(migration_repo: GitRepo) -> None:
    """cometbft's ``// See [ADR-111](../docs/architecture/adr-111-nop-mempool.md).``: a link
    in a comment is no link for GitHub, but a doc tool may render it. When it leads to a
    moved record, its destination follows the record and an id-only text becomes the title;
    when it leads nowhere (broken before), text and destination stay as written. Never an
    id turned into a path inside a link's text."""
    files = {
        "docs/adr/0007-use-plots.md": _record("Use plots"),
        "docs/adr/0008-use-tables.md": _record("Use tables"),
    }
    lines: dict[str, list[str]] = {}
    for (path, comment), text in itertools.product(COMMENTS.items(), LINK_TEXTS):
        up = "../" * path.count("/")
        lines.setdefault(path, []).extend(
            [comment.format(f"See [{text}]({up}docs/adr/0007-use-plots.md#context)."),
             comment.format(f"See [{text}]({up}docs/architecture/0007-use-plots.md).")]
        )  # fmt: skip
    files.update({path: "\n".join(found) + "\n" for path, found in lines.items()})
    _write(migration_repo, files)
    assert runner.invoke(app, ["init"]).exit_code == 0
    migration_repo.commit("adopt docsync")
    _apply(migration_repo)
    (record,) = [p.name for p in migration_repo.root.glob("docs/adr/implemented/*use-plots.md")]
    for path, found in lines.items():
        up = "../" * path.count("/")
        after = (migration_repo.root / path).read_text().splitlines()
        for before, now in zip(found, after, strict=True):
            text = re.search(r"\[([^\]]*)\]", before).group(1)  # type: ignore[union-attr]
            if "docs/architecture/" in before:
                assert now == before  # broken before: left whole
                continue
            sole = re.fullmatch(r"ADR[- ]0*7", text) is not None
            assert f"[{'Use plots' if sole else text}]({up}docs/adr/implemented/{record}#context)" in now, now
    _check_green()


# --------------------------------------------------------------------------- pages left in the tree

# Non-record files of a legacy folder that becomes the target tree, as the corpus keeps them.
PAGES = {
    "notes.md": "Notes\n\nSome notes about the decisions.\n",
    "diagrams/README.md": "# Diagrams\n\nThe sources of the diagrams.\n",
    "images/README.md": "The images, made with draw.io.\n",
    "guides/how-to-write.md": "---\ntitle: How to write one\n---\n\n# How to write one\n\nCopy the last one.\n",
}


def test_pages_left_in_a_legacy_folder_that_became_the_tree_are_no_findings(migration_repo: GitRepo) -> None:
    """``docs/adr/`` holds records and pages; it becomes the target. The pages stay where
    they are, check right after is green, and a file there that reads as a record (a status,
    a record's name) is still a misplaced record (Y001)."""
    files = {f"docs/adr/{n:04d}-topic-{n}.md": _record(f"Topic {n}", body="See ![d](images/d.png).") for n in (1, 2)}
    pages = list(PAGES)
    files.update({f"docs/adr/{p}": PAGES[p] for p in pages})
    files["docs/adr/images/d.png"] = "png\n"
    _write(migration_repo, files)
    assert runner.invoke(app, ["init"]).exit_code == 0
    migration_repo.commit("adopt docsync")
    dry = runner.invoke(app, ["migrate"])
    assert "docs/adr" in dry.output and "not a record" not in dry.output, dry.output
    _apply(migration_repo)
    assert all((migration_repo.root / "docs/adr" / p).is_file() for p in pages)
    _check_green()
    for stray, text in (("use-x.md", "# Use X\n\nStatus: accepted\n"), ("0009-use-y.md", "# Use Y\n\nText.\n")):
        migration_repo.write(f"docs/adr/{stray}", text)
        checked = runner.invoke(app, ["check", "--select", "Y"])
        assert checked.exit_code == 1 and checked.output.startswith(f"docs/adr/{stray}\n  1:1  Y001"), checked.output
        (migration_repo.root / "docs/adr" / stray).unlink()


# --------------------------------------------------------------------------- symlinks in a tree

# Names a symlink in a record tree may carry: plain, a terminal escape, a letter beyond ASCII (a
# name that is not UTF-8 is a question of its own, before any symlink line).
LINK_NAMES = (b"0003-linked.md", b"0004-\x1b[31mred.md", "0005-naïve.md".encode())


def test_the_dry_run_names_each_symlink_it_skips(migration_repo: GitRepo) -> None:
    """A symlink where a record would be is neither read nor moved; the dry run names each
    one on a line of its own, escaped, and the apply leaves it where it is."""
    import os

    _write(migration_repo, {f"docs/adr/000{n}-topic-{n}.md": _record(f"Topic {n}") for n in (1, 2)})
    folder = os.fsencode(migration_repo.root / "docs/adr")
    migration_repo.write("docs/notes.txt", "kept where it is\n")
    for name in LINK_NAMES:  # to a file the migration does not move: skipped, and named so
        os.symlink(b"../notes.txt", os.path.join(folder, name))
    # to a record that moves: retargeted (issue #37), named on that line and not as skipped
    os.symlink(b"0001-topic-1.md", os.path.join(folder, b"notes.md"))
    migration_repo.git("add", "-A")
    migration_repo.commit("links")
    assert runner.invoke(app, ["init"]).exit_code == 0
    migration_repo.commit("adopt docsync")
    dry = runner.invoke(app, ["migrate"])
    lines = [line for line in dry.output.splitlines() if line.startswith("symlink skipped")]
    assert len(lines) == len(LINK_NAMES), dry.output
    assert "\x1b" not in dry.output and not [line for line in lines if "notes.md" in line]
    assert "symlink retargeted: docs/adr/notes.md -> implemented/" in dry.output, dry.output
    shown = ["0003-linked.md", "0004-\\x1b[31mred.md", "0005-naïve.md"]
    assert all(any(line.endswith(f"docs/adr/{name}") for line in lines) for name in shown), lines
    _apply(migration_repo)
    assert all(os.path.islink(os.path.join(folder, name)) for name in LINK_NAMES)


# --------------------------------------------------------------------------- a link in another letter case

MOVED = {
    "docs/adr/0007-use-cache.md": "docs/adr/implemented/2020-01-01-use-cache.md",
    "docs/adr/0008-use-queue.md": "docs/adr/proposed/2020-02-02-use-queue.md",
}


@pytest.mark.parametrize("old", sorted(MOVED))
@pytest.mark.parametrize("flips", [0b1, 0b1010_1010_1010, 0b1111_0000_1111_0000_1111, (1 << 40) - 1, 0b1 << 20])
def test_a_link_in_another_letter_case_leads_to_the_moved_record(old: str, flips: int) -> None:
    """Class 12: a link that spells a moved record's path in other letters (it opens on
    macOS and Windows) leads to the moved record, in the record's own case, and a link to a
    file that exists as written is never folded (generated: letters of the path flipped by
    the bits of ``flips``)."""
    from docsync.rewrite.destinations import Moves

    spelt = "".join(c.swapcase() if flips >> i & 1 else c for i, c in enumerate(old))
    moves = Moves("docs/guide.md", "docs/guide.md", MOVED, {}, exists=lambda p: p == "docs/guide.md")
    assert moves.target(spelt) == MOVED[old]
    exact = Moves("docs/guide.md", "docs/guide.md", MOVED, {}, exists=lambda p: p == spelt)
    assert exact.target(spelt) == (MOVED[old] if spelt == old else spelt)
