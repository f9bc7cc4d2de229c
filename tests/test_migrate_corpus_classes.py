"""The record-finding and status classes the 22-repository corpus showed (issue 37), each on
small real repositories built here: ids of a category letter and a number (gRPC's ``A1-``),
records that are folders (``CIP-0001/README.md``, a KEP's ``README.md`` and ``kep.yaml``),
date-named notes beside records, a source's status reaching its subfolders, status phrases
of several words, and templates told from more than their name. Shapes are generated where
the class allows it.
"""

from __future__ import annotations

import itertools
import re
import tomllib

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from docsync.migrate.read.discover import find_trees, record_paths
from docsync.migrate.run import Options, run
from tests.gitutil import GitRepo
from tests.test_migrate_read_classes import _write

runner = CliRunner()


def _record(title: str, status: str = "Implemented", body: str = "Text.") -> str:
    return f"{title}\n----\n* Author(s): someone\n* Status: {status}\n\n## Abstract\n\n{body}\n"


def _apply_and_check(repo: GitRepo) -> None:
    applied = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert applied.exit_code == 0, applied.output
    checked = runner.invoke(app, ["check"])
    assert checked.exit_code == 0, checked.output


# --------------------------------------------------------------------------- letter ids


LETTER_SETS = (("A", "G"), ("A", "G", "L", "P"), ("L",))


@pytest.mark.parametrize(("letters", "folder"), list(itertools.product(LETTER_SETS, ("", "proposals"))))
def test_ids_of_a_category_letter_and_a_number_are_records(
    migration_repo: GitRepo, letters: tuple[str, ...], folder: str
) -> None:
    """``A1-x.md``, ``G1-y.md``: every letter starts its own series at 1, so numbers repeat
    across letters. Each file is a record whose id is its letter and number (A1 and G1 are
    two), init finds the tree without a config, and check is green after the apply."""
    where = f"{folder}/" if folder else ""
    names = [(letter, n) for letter in letters for n in (1, 2, 12)]
    files = {
        f"{where}{letter}{n}-{letter.lower()}-topic-{n}.md": _record(
            f"Topic {letter} {n}", body=f"Follows {letters[0]}1, see [it]({letters[0]}1-{letters[0].lower()}-topic-1.md)."
        )
        for letter, n in names
    }
    if not folder:  # the graphics of A1, with a note of its own: a companion, also once A1 moved
        files[f"{letters[0]}1_graphics/README.md"] = "The diagrams open in draw.io.\n"
    _write(migration_repo, files)
    init = runner.invoke(app, ["init"])
    assert init.exit_code == 0, init.output
    migration_repo.commit("adopt docsync")
    _, outcome = run(migration_repo.root, Options())
    assert outcome.plan.problems == ()
    ids = sorted(str(i) for t in outcome.plan.topics for i in t.ids)
    assert ids == sorted(f"{letter}{n}" for letter, n in names)
    _apply_and_check(migration_repo)
    assert not [p for p in migration_repo.root.glob(f"{where}*.md") if p.name[0] in letters]
    moved = [p.read_text() for p in migration_repo.root.glob("**/implemented/2020-*.md")]
    # A bare one-letter id is prose (``L7`` is a network layer too): only links are rewritten.
    assert len(moved) == len(names) and all(f"Follows {letters[0]}1, see [it](" in text for text in moved)
    again = runner.invoke(app, ["migrate"])
    assert again.exit_code == 0 and "nothing" in again.output.lower(), again.output


# --------------------------------------------------------------------------- status phrases


PHRASES = ("To be reviewed", "on hold", "Needs More Work", "waiting for a sponsor")
TAILS = ("", ".", " (since May)", ", see #12", " - 2021-01-01")
FORMS = {
    "line": lambda k, v: f"# Decision {k}\n\nStatus: {v}\n\nText.\n",
    "front matter": lambda k, v: f"---\nstatus: {v}\n---\n\n# Decision {k}\n\nText.\n",
    "table": lambda k, v: f"# Decision {k}\n\n| Status | {v} |\n| --- | --- |\n\nText.\n",
    "bold": lambda k, v: f"# Decision {k}\n\n**Status:** {v}\n\nText.\n",
}


@pytest.mark.parametrize("form", list(FORMS))
def test_an_unknown_status_of_several_words_is_asked_by_the_whole_phrase(migration_repo: GitRepo, form: str) -> None:
    """``Status: To be reviewed.`` is asked as ``'to be reviewed'`` with the value as written,
    init writes ``# "to be reviewed" = "?"``, and that line, answered, maps every record."""
    values = [p + t for p, t in itertools.product(PHRASES, TAILS)]
    files = {f"docs/adr/{k + 1:04d}-decision-{k}.md": FORMS[form](k, v) for k, v in enumerate(values)}
    _write(migration_repo, files)
    asked = runner.invoke(app, ["migrate"])
    assert asked.exit_code == 1
    questions = [" ".join(q.split()) for q in asked.output.split("\n  ? ")]
    for phrase in PHRASES:
        key = phrase.lower()
        quoted = f'"{key}"' if " " in key else key
        assert any(f"unknown status '{key}'" in q and f'{quoted} = "proposed"' in q for q in questions), phrase
    init = runner.invoke(app, ["init"])
    assert init.exit_code == 0, init.output
    config = (migration_repo.root / ".docsync.toml").read_text()
    for phrase in PHRASES:
        assert f'# "{phrase.lower()}" = "?"' in config
    answered = config.replace('# "to be reviewed" = "?"', '"to be reviewed" = "proposed"')
    for phrase in PHRASES[1:]:
        answered = answered.replace(f'# "{phrase.lower()}" = "?"', f'"{phrase.lower()}" = "rejected"')
    migration_repo.write(".docsync.toml", answered)
    migration_repo.commit("config")
    _, outcome = run(migration_repo.root, Options())
    assert outcome.plan.problems == ()
    assert {t.state for t in outcome.plan.topics} == {"proposed", "rejected"}


# --------------------------------------------------------------------------- date-named notes


DAYS = ("2020-07-{d:02d}", "2020_07_{d:02d}", "202007{d:02d}", "20-07-{d:02d}")


@pytest.mark.parametrize(("day", "folder"), list(zip(DAYS, itertools.cycle(("BiweeklyMeetings", "docs/meetings")))))
def test_notes_named_by_a_date_alone_are_not_records(migration_repo: GitRepo, day: str, folder: str) -> None:
    """A meeting's notes named by its day (``2020-07-01.md``), in a folder of their own:
    init takes only the records for the tree, and the dry run asks nothing of the notes
    (no status, no date) and leaves them where they are. Beside the records, they are not
    the tree's records either."""
    beside = [f"docs/adr/{day.format(d=d)}.md" for d in range(1, 8)]
    (tree,) = find_trees([*beside, "docs/adr/0001-a.md"], ())
    assert [p for p, _, _ in record_paths(tree, [*beside, "docs/adr/0001-a.md"])] == ["docs/adr/0001-a.md"]
    files = {f"docs/adr/{k:04d}-choice-{k}.md": f"# {k}. Choice {k}\n\nStatus: Accepted\n\nText.\n" for k in (1, 2, 3)}
    notes = {f"{folder}/{day.format(d=d)}.md": f"**Table of contents:**\n\n- Triage {d}\n" for d in range(1, 8)}
    _write(migration_repo, {**files, **notes})
    init = runner.invoke(app, ["init"])
    assert init.exit_code == 0, init.output
    config = tomllib.loads((migration_repo.root / ".docsync.toml").read_text())
    assert config.get("target", "docs/adr") == "docs/adr"
    assert [s["path"] for s in config.get("sources", [{"path": "docs/adr"}])] == ["docs/adr"]
    migration_repo.commit("adopt docsync")
    _, outcome = run(migration_repo.root, Options())
    assert outcome.plan.problems == ()
    assert sorted(str(t.parts[0]) for t in outcome.plan.topics) == sorted(files)
    _apply_and_check(migration_repo)
    assert all((migration_repo.root / path).exists() for path in notes)


# --------------------------------------------------------------------------- folder records


def _folder_record(k: int, status_in: str, page: str, prefix: str) -> dict[str, str]:
    """A record that is a folder: its page, an image the page shows, and (``yaml``) its
    status in the folder's metadata YAML instead of the page."""
    folder = f"{prefix}{k:04d}" if prefix else f"{k:04d}-feature-{k}"
    status = "Status: Accepted\n\n" if status_in == "page" else ""
    n = k % 4 + 1
    other = f"[the next one](../{prefix}{n:04d}/)" if prefix else f"[the next one](../{n:04d}-feature-{n})"
    files = {
        f"{folder}/{page}": f"# Feature {k}\n\n{status}![diagram](diagram.png)\n\nSee {other}.\n",
        f"{folder}/diagram.png": "png",
    }
    if status_in == "yaml":  # and a Status section of the design, in prose: the API's, not the KEP's
        files[f"{folder}/kep.yaml"] = f"title: Feature {k}\nkep-number: {k}\nstatus: implemented\n"
        files[f"{folder}/{page}"] += "\n## Status\n\nThe status field reports the observed state of the feature.\n"
    return files


FOLDER_CASES = list(itertools.product(("page", "yaml"), ("README.md", "index.md"), ("CIP-", "")))


@pytest.mark.parametrize(("status_in", "page", "prefix"), FOLDER_CASES)
def test_a_record_that_is_a_folder_is_found_and_moved_with_its_links_working(
    migration_repo: GitRepo, status_in: str, page: str, prefix: str
) -> None:
    """``CIP-0001/README.md`` at the root, ``keps/sig-x/0001-feature/README.md`` with its
    status in ``kep.yaml``: init finds the tree, each folder is one record (its status read
    from the page or the YAML), the page moves to the record's new path, the image and the
    YAML stay, and every link (to the image, to a folder record) works: check is green."""
    where = "" if prefix else "keps/sig-x/"
    files: dict[str, str] = {}
    for k in (1, 2, 3, 4):
        files.update({where + path: text for path, text in _folder_record(k, status_in, page, prefix).items()})
    files["README.md"] = f"# Project\n\nThe first: [one]({where}{prefix or ''}{'0001' if prefix else '0001-feature-1'}).\n"
    if prefix:  # what a folder record holds is its content, even records' pages (CIP-0088/CIPs/0025/)
        files.update({f"CIP-0001/CIPs/{n:04d}/{page}": f"# Register of CIP {n}\n\nText.\n" for n in (25, 26, 27)})
    if not prefix:  # an old name kept as a symlink to the folder's page: no record of its own
        (migration_repo.root / where).mkdir(parents=True)
        (migration_repo.root / where / "20190121-feature-1.md").symlink_to(f"0001-feature-1/{page}")
    _write(migration_repo, files)
    init = runner.invoke(app, ["init"])
    assert init.exit_code == 0, init.output
    config = tomllib.loads((migration_repo.root / ".docsync.toml").read_text())
    assert [s["path"] for s in config["sources"]] == [where.rstrip("/")]
    migration_repo.commit("adopt docsync")
    _, outcome = run(migration_repo.root, Options())
    assert outcome.plan.problems == ()
    sources = sorted(str(t.parts[0]) for t in outcome.plan.topics)
    pages = sorted(p for p in files if p.endswith("/" + page) and "/CIPs/" not in p)
    assert sources == pages
    assert {t.state for t in outcome.plan.topics} == {"implemented"}
    _apply_and_check(migration_repo)
    assert not [p for p in pages if (migration_repo.root / p).exists()]
    assert all((migration_repo.root / p).exists() for p in files if not p.endswith(".md"))


# --------------------------------------------------------------------------- nested trees


@pytest.mark.parametrize("areas", [("logs",), ("logs", "metrics", "trace")])
def test_a_sources_status_reaches_the_trees_below_it(migration_repo: GitRepo, areas: tuple[str, ...]) -> None:
    """``text/`` and its area folders ``text/logs/`` … hold records without a status: init
    writes one source, and its one default status (the user's one key) reaches every area."""
    files = {f"text/{k:04d}-idea-{k}.md": f"# Idea {k}\n\nOTEP {k} text.\n" for k in (1, 2, 3)}
    for a, area in enumerate(areas):
        files.update({f"text/{area}/{k:04d}-{area}-{k}.md": f"# {area} {k}\n\nText.\n" for k in range(10 * a + 10, 10 * a + 13)})
    _write(migration_repo, files)
    init = runner.invoke(app, ["init"])
    assert init.exit_code == 0, init.output
    path = migration_repo.root / ".docsync.toml"
    config = tomllib.loads(path.read_text())
    assert [s["path"] for s in config["sources"]] == ["text"]
    text = path.read_text().replace('{ path = "text"', '{ path = "text", status = "implemented"')
    path.write_text(text)
    migration_repo.commit("adopt docsync")
    _, outcome = run(migration_repo.root, Options())
    assert outcome.plan.problems == ()
    assert sorted(str(t.parts[0]) for t in outcome.plan.topics) == sorted(files)
    assert {t.state for t in outcome.plan.topics} == {"implemented"}


# --------------------------------------------------------------------------- rules around a section


RULED = {
    "status": "## Status\n\nAccepted\n",
    "list": "- one\n- two\n",
    "heading and prose": "## Notes\n\nkey: value\n\nMore.\n",
}


@pytest.mark.parametrize("padding", [0, 400])  # 400 paragraphs: the parse goes in pieces
@pytest.mark.parametrize("front", ["", "---\ntitle: Rules\n---\n\n"])
@pytest.mark.parametrize("inside", list(RULED))
def test_a_section_between_two_rules_is_read_as_github_renders_it(front: str, inside: str, padding: int) -> None:
    """``---`` after a blank line, a section, ``---`` (cometbft's ADR 075 around its Status):
    GitHub renders two rules and the section; pulldown-cmark took it for front matter, and
    the record's status went unread. Only a block at the start is front matter; cmark-gfm's
    HTML is the oracle for the headings and paragraphs."""
    from docsync.migrate.read.status import read_status
    from docsync.model import BlockKind
    from docsync.parse.native import parse
    from docsync.parse.render import github_html

    filler = "".join(f"Paragraph {k} of the changelog.\n\n" for k in range(padding))
    text = f"{front}# ADR 075: Rules\n\n- 2021: drafted\n\n{filler}---\n{RULED[inside]}\n---\n## Context\n\nText.\n"
    doc = parse("adr-075.md", text, piece=2000)
    body = text[len(front):]
    html = github_html(body)
    assert [h.text for h in doc.headings] == [h for h in re.findall(r"<h\d[^>]*>(.*?)</h\d>", html)]
    fronts = [b.lines for b in doc.blocks if b.kind == BlockKind.FRONT_MATTER]
    assert fronts == ([] if not front else [fronts[0]]) and all(f.first == 1 for f in fronts)
    if inside == "status":
        reading = read_status(doc)
        assert reading is not None and reading.value == "Accepted"


@pytest.mark.parametrize(
    "text",
    ["status: implemented\ncreation-date: 2019-13-01\n", "status: [a\n", "- a list\n", "status:\n  nested: x\n", "&a [*a]\n"],
)
def test_a_metadata_yaml_docsync_cannot_read_gives_no_status_and_no_traceback(text: str) -> None:
    """A KEP's ``kep.yaml`` with a date no calendar has (ruamel raises ValueError), broken
    YAML, or a status that is no scalar: no status from it, and no traceback."""
    from docsync.migrate.read.folders import metadata_status

    assert metadata_status("keps/sig-x/0001-a/kep.yaml", text) is None


# A record's assets in a folder named by its id, away from it (EIPs' ``assets/eip-7701/``).

ASSET_HOMES = ("assets", "images", "docs/assets", "media/figures")


@pytest.mark.parametrize("home", ASSET_HOMES)
@pytest.mark.parametrize("prefix", ["eip-", "CIP-", ""])
def test_a_folder_of_a_records_assets_is_no_record(home: str, prefix: str) -> None:
    """A folder under a folder of assets holds a record's assets; a folder record is still
    found elsewhere, even with the id of a file record (a translation, a draft)."""
    from docsync.migrate.read.folders import folder_records

    records = [f"EIPS/{prefix}{n}.md" for n in (7701, 7885)]
    assets = [f"{home}/{prefix}{n}/README.md" for n in (7701, 7885)]
    own = [f"{prefix}0001/README.md", f"proposals/{prefix}0002-x/README.md", f"notes/{prefix}7701/README.md"]
    found = dict(folder_records([*records, *assets, *own]))
    assert sorted(found) == sorted(own)
