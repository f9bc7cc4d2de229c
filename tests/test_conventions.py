"""The conventions doc and the adoption record: generated, gated, regenerated."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from docsync.check.check import run_check
from docsync.check.fix import run_fix
from docsync.lifecycle import move as lifecycle_move
from docsync.migrate import run as migration
from docsync.records import conventions
from docsync.records.tree import load_tree
from docsync.workspace.load import load_workspace
from tests import adopt_repos
from tests.gitutil import GitRepo

AGENTS = "docs/AGENTS.md"
TEAM_TEXT = "# Working on the docs\n\nAsk in #docs before a large change.\n"



@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return adopt_repos.already_migrated(tmp_path / "repo")


def _generate(repo: GitRepo) -> str:
    """Write the conventions doc as the config and tree want it; return its text."""
    workspace = load_workspace(repo.root)
    tree = load_tree(workspace)
    assert tree is not None
    wanted = conventions.tree_conventions(tree)
    assert wanted is not None
    current = repo.root / wanted.path
    text = conventions.render(wanted, current.read_text() if current.exists() else None)
    current.write_text(text)
    return text


def _findings(repo: GitRepo, paths: list[str] | None = None) -> list[str]:
    result = run_check(repo.root, paths)
    return [f"{f.path}:{f.line} {f.rule}" for f in result.findings]


@pytest.mark.parametrize("wrap", ['"none"', "72", "80", '"sentence"'])
def test_generated_doc_passes_every_gate(repo: GitRepo, wrap: str) -> None:
    repo.write(".docsync.toml", f"wrap = {wrap}\n")
    repo.git("add", "-A")
    text = _generate(repo)
    assert text.startswith(TEAM_TEXT + "\n" + conventions.BEGIN + "\n")
    assert _findings(repo, [AGENTS]) == []
    if wrap.isdigit():
        assert max(len(line) for line in text.splitlines()) <= int(wrap)


def test_doc_names_the_tree_the_rule_an_example_and_the_commands(repo: GitRepo) -> None:
    text = _generate(repo)
    for part in (
        "Design records live in [docs/rfc/](rfc/README.md)",
        "- `implemented/`: decided and in effect.",
        "`docs/rfc/<state folder>/yyyy-mm-dd-topic-title.md`",
        "The date is the day the topic was first proposed",
        "never with a bare number such as `ADR 0007`",
        "For example: [Plugin API](rfc/implemented/2021-01-10-plugin-api.md).",
        "- `layout`: every record sits directly in a lifecycle folder",
        "- `docsync check`:",
        "- `docsync fix`:",
        '- `docsync new "Title"`:',
        "- `docsync move <record> <state>`:",
        'one physical line per paragraph (`wrap = "none"`)',
    ):
        assert part in text, part


def test_changed_wrap_is_a_finding_and_fix_regenerates_only_the_generated_part(
    repo: GitRepo,
) -> None:
    _generate(repo)
    with (repo.root / AGENTS).open("a") as handle:
        handle.write("\n## Our own notes\n\nKept as they are.\n")
    repo.git("add", "-A")
    assert _findings(repo) == []
    repo.write(".docsync.toml", "wrap = 120\n")
    assert any(f.endswith("Y011") for f in _findings(repo, [AGENTS]))
    assert not any(f.endswith("Y011") for f in _findings(repo, ["README.md"]))  # not named
    fixed = run_fix(repo.root)
    assert AGENTS in [f.path for f in fixed.fixes]
    text = (repo.root / AGENTS).read_text()
    assert text.startswith(TEAM_TEXT) and text.endswith("\n## Our own notes\n\nKept as they are.\n")
    assert "Prose is wrapped at 120 columns (`wrap = 120`)." in text
    assert _findings(repo) == []


def test_no_finding_without_the_markers_or_the_doc(repo: GitRepo) -> None:
    assert _findings(repo) == []  # docs/AGENTS.md exists, without markers
    (repo.root / AGENTS).unlink()
    repo.git("add", "-A")
    assert _findings(repo) == []
    assert run_fix(repo.root).fixes == ()  # fix never creates it


def test_broken_markers_are_reported(repo: GitRepo) -> None:
    text = _generate(repo).replace(conventions.END, "")
    (repo.root / AGENTS).write_text(text)
    assert _findings(repo, [AGENTS]) == [f"{AGENTS}:1 Y011"]
    assert run_fix(repo.root).fixes == ()


def test_turned_off_doc_is_not_checked(repo: GitRepo) -> None:
    _generate(repo)
    repo.write(".docsync.toml", "conventions = false\nwrap = 80\n")
    repo.git("add", "-A")
    assert not any(f.endswith("Y011") for f in _findings(repo))


def test_moving_the_example_record_keeps_the_doc_current(repo: GitRepo) -> None:
    _generate(repo)
    repo.commit("conventions")
    lifecycle_move.move(repo.root, "plugin-api", "rejected", "", date(2022, 1, 1))
    text = (repo.root / AGENTS).read_text()
    assert "For example: [Plugin API](rfc/rejected/2021-01-10-plugin-api.md)." in text
    assert _findings(repo) == []


# --------------------------------------------------------------------------- the adoption record


def _migrate(root: Path, adoption_record: bool = True) -> migration.Outcome:
    options = migration.Options(today=date(2030, 1, 2), adoption_record=adoption_record)
    return migration.run(root, options)[1]


def test_adoption_record_is_dated_the_migration_day_and_indexed(tmp_path: Path) -> None:
    repo = adopt_repos.two_trees_unwrapped(tmp_path / "repo")
    outcome = _migrate(repo.root)
    path = "docs/rfc/implemented/2030-01-02-adopting-docsync.md"
    assert outcome.changes.adoption_record == path
    assert outcome.changes.conventions == AGENTS
    writes = {w.path: w.text for w in outcome.changes.writes}
    assert writes[path].startswith("# Adopting docsync\n\nStatus: implemented\n\n## Context\n")
    assert "`docs/rfc/` (2 records, ids such as `RFC 001`)" in writes[path]
    assert (
        "- References: 0 links and 4 bare ids in Markdown, and 1 id in other files," in writes[path]
    )
    assert (
        "| [Adopting docsync](implemented/2030-01-02-adopting-docsync.md) | 2030-01-02 |"
        in (writes["docs/rfc/README.md"])
    )
    assert path in outcome.changes.to_stage and AGENTS in outcome.changes.to_stage


def test_no_adoption_record_keeps_the_conventions_doc(tmp_path: Path) -> None:
    repo = adopt_repos.two_trees_unwrapped(tmp_path / "repo")
    outcome = _migrate(repo.root, adoption_record=False)
    assert outcome.changes.adoption_record is None
    assert outcome.changes.conventions == AGENTS
    assert not [w for w in outcome.changes.writes if "adopting" in w.path]


def test_a_later_migration_adds_no_second_adoption_record(tmp_path: Path) -> None:
    repo = adopt_repos.two_trees_unwrapped(tmp_path / "repo")
    earlier = "docs/rfc/implemented/2029-05-05-adopting-docsync.md"
    repo.write(earlier, "# Adopting docsync\n\nStatus: implemented\n")
    repo.commit("adopted earlier")
    outcome = _migrate(repo.root)
    assert outcome.complete and outcome.changes.adoption_record is None


def test_nothing_to_migrate_writes_nothing(repo: GitRepo) -> None:
    outcome = _migrate(repo.root)
    assert outcome.changes.empty and outcome.changes.conventions is None
