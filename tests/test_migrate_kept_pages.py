"""Another tool's page in a legacy tree (log4brains' ``index.md``, a docs site's section page):
the dry run lists it with why it is kept, and the plan's ``[pages] remove`` removes it."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from docsync.errors import PlanError
from docsync.migrate.plan import planfile
from tests.gitutil import GitRepo

runner = CliRunner()

RECORD = "# Use X\n\n- Status: accepted\n\nText.\n"
PAGE = "# Knowledge base\n\nSee [the record](20200924-use-x.md).\n"
LOG4BRAINS = {
    ".log4brains.yml": "project:\n  adr:\n    path: docs/adr\n",
    "docs/adr/20200924-use-x.md": RECORD,
    "docs/adr/index.md": PAGE,
    "docs/guide.md": "# Guide\n\nSee [the knowledge base](adr/index.md).\n",
}
DOCS_SITE = {
    "docs/adr/0001-use-x.md": RECORD,
    "docs/adr/README.md": "# ADRs\n\nOur decisions.\n",
    "docs/adr/index.md": "# Decisions\n\nThe site's section page.\n",
}


@pytest.fixture
def repo(migration_repo: GitRepo) -> GitRepo:
    return migration_repo


def _commit(repo: GitRepo, files: dict[str, str]) -> None:
    for path, text in files.items():
        repo.write(path, text)
    repo.commit("legacy tree", when="2020-09-24 10:00:00")


@pytest.mark.parametrize(
    ("files", "line", "reason"),
    [
        (
            LOG4BRAINS,
            "keep docs/adr/index.md: log4brains' home page (.log4brains.yml is in the "
            "repository); to remove it, list it in the plan's [pages] remove",
            "log4brains' home page (.log4brains.yml is in the repository)",
        ),
        (
            DOCS_SITE,
            "keep docs/adr/index.md: another tool's page (a docs site's section page?) beside "
            "the tree's index docs/adr/README.md; to remove it, list it in the plan's "
            "[pages] remove",
            "another tool's page (a docs site's section page?) beside the tree's index "
            "docs/adr/README.md",
        ),
    ],
    ids=["log4brains", "docs-site"],
)
def test_the_dry_run_lists_each_kept_page_and_why(
    repo: GitRepo, files: dict[str, str], line: str, reason: str
) -> None:
    _commit(repo, files)
    text = runner.invoke(app, ["migrate"], terminal_width=240)
    assert text.exit_code == 0, text.output
    assert line in text.output.splitlines()
    shown = runner.invoke(app, ["migrate", "--format", "json"])
    pages = json.loads(shown.output)["pages"]
    assert pages == [{"path": "docs/adr/index.md", "reason": reason, "action": "keep"}]
    assert runner.invoke(app, ["migrate", "--write-plan", "plan.toml"]).exit_code == 0
    plan = (repo.root / "plan.toml").read_text()
    assert f"#   docs/adr/index.md: {reason}\n[pages]\nremove = []\n" in plan
    assert "# [pages] remove lists kept pages" in plan


def test_a_tree_without_kept_pages_writes_no_pages_table(repo: GitRepo) -> None:
    _commit(repo, {"docs/adr/0001-use-x.md": RECORD})
    assert runner.invoke(app, ["migrate", "--write-plan", "plan.toml"]).exit_code == 0
    assert "\n[pages]" not in (repo.root / "plan.toml").read_text()
    assert json.loads(runner.invoke(app, ["migrate", "--format", "json"]).output)["pages"] == []


def _plan_removing(repo: GitRepo, removed: str | None) -> str:
    assert runner.invoke(app, ["migrate", "--write-plan", "plan.toml"]).exit_code == 0
    plan = repo.root / "plan.toml"
    if removed is not None:
        plan.write_text(plan.read_text().replace("remove = []", f'remove = ["{removed}"]'))
    repo.git("add", "plan.toml")
    repo.commit("the plan")
    return str(plan)


def test_apply_removes_a_listed_page_and_links_to_it_lead_to_the_new_index(
    repo: GitRepo,
) -> None:
    _commit(repo, LOG4BRAINS)
    plan = _plan_removing(repo, "docs/adr/index.md")
    dry = runner.invoke(app, ["migrate", "--plan", plan], terminal_width=240)
    assert "remove kept page docs/adr/index.md: log4brains' home page" in dry.output
    shown = json.loads(runner.invoke(app, ["migrate", "--plan", plan, "--format", "json"]).output)
    assert shown["pages"][0]["action"] == "remove"
    assert "docs/adr/index.md" in shown["removals"]
    result = runner.invoke(app, ["migrate", "--apply", "--commit", "--plan", plan])
    assert result.exit_code == 0, result.output
    assert not (repo.root / "docs/adr/index.md").exists()
    assert repo.git("status", "--porcelain") == ""
    guide = (repo.root / "docs/guide.md").read_text()
    assert guide == "# Guide\n\nSee [the knowledge base](rfc/README.md).\n"
    assert runner.invoke(app, ["check"]).exit_code == 0
    # Run again: nothing is left to migrate, and nothing changes.
    head = repo.head()
    again = runner.invoke(app, ["migrate"])
    assert again.exit_code == 0, again.output
    assert again.output.startswith("Nothing to migrate: no legacy records are left")
    assert runner.invoke(app, ["migrate", "--apply"]).exit_code == 0
    assert (repo.head(), repo.git("status", "--porcelain")) == (head, "")


def test_an_unlisted_page_stays_with_its_links_rewritten(repo: GitRepo) -> None:
    _commit(repo, DOCS_SITE)
    plan = _plan_removing(repo, None)
    result = runner.invoke(app, ["migrate", "--apply", "--commit", "--plan", plan])
    assert result.exit_code == 0, result.output
    assert (repo.root / "docs/adr/index.md").read_text() == DOCS_SITE["docs/adr/index.md"]
    assert not (repo.root / "docs/adr/README.md").exists()  # the tree's index, carried over


@pytest.mark.parametrize(
    ("removed", "hint"),
    [
        ("docs/adr/indx.md", " (did you mean 'docs/adr/index.md'?)"),
        ("README.md", " (kept pages: docs/adr/index.md)"),
    ],
)
def test_removing_what_is_not_a_kept_page_is_refused(
    repo: GitRepo, removed: str, hint: str
) -> None:
    _commit(repo, LOG4BRAINS)
    plan = _plan_removing(repo, removed)
    head = repo.head()
    result = runner.invoke(app, ["migrate", "--apply", "--plan", plan])
    assert result.exit_code == 2, result.output
    message = result.stderr.strip()
    assert message == (
        f"docsync: error: {plan}: [pages] remove: '{removed}' is not a kept page{hint}"
    )
    assert (repo.head(), repo.git("status", "--porcelain")) == (head, "")


def test_a_kept_page_edited_after_the_plan_makes_it_stale(repo: GitRepo) -> None:
    _commit(repo, LOG4BRAINS)
    plan = _plan_removing(repo, "docs/adr/index.md")
    repo.write("docs/adr/index.md", PAGE + "\nA line added after the review.\n")
    repo.commit("edit the page")
    result = runner.invoke(app, ["migrate", "--apply", "--plan", plan])
    assert result.exit_code == 2, result.output
    assert "docs/adr/index.md changed since it was computed" in result.stderr
    assert (repo.root / "docs/adr/index.md").exists()


def test_the_pages_table_takes_only_remove() -> None:
    text = 'version = 1\ntarget = "docs/rfc"\n[pages]\ndelete = ["docs/adr/index.md"]\n'
    with pytest.raises(PlanError, match=r"plan: pages: unknown key 'delete' \(known: remove\)"):
        planfile.loads(text, "plan")
    spec = planfile.loads(text.replace("delete", "remove"), "plan")
    assert spec.remove_pages == ("docs/adr/index.md",)


def test_a_fragment_link_into_a_removed_page_leads_to_the_new_index_s_title(
    repo: GitRepo,
) -> None:
    """The removed page's sections are gone with it; a link to one of them would name a
    section the new index does not have. It leads to the new index's title instead, as a
    link into a dropped record's section leads to its topic's title, and ``check`` is green."""
    files = {
        **LOG4BRAINS,
        "docs/adr/index.md": PAGE + "\n## Principles\n\nKeep it short.\n",
        "docs/guide.md": "# Guide\n\nSee [the principles](adr/index.md#principles).\n",
    }
    _commit(repo, files)
    plan = _plan_removing(repo, "docs/adr/index.md")
    dry = runner.invoke(app, ["migrate", "--plan", plan], terminal_width=240)
    assert "remove kept page docs/adr/index.md: log4brains' home page" in dry.output
    result = runner.invoke(app, ["migrate", "--apply", "--commit", "--plan", plan])
    assert result.exit_code == 0, result.output
    guide = (repo.root / "docs/guide.md").read_text()
    assert guide == "# Guide\n\nSee [the principles](rfc/README.md#rfcs).\n"
    found = runner.invoke(app, ["check"])
    assert found.exit_code == 0, found.output


@pytest.mark.parametrize("files", [LOG4BRAINS, DOCS_SITE], ids=["log4brains", "docs-site"])
def test_init_names_the_pages_migrate_will_keep(repo: GitRepo, files: dict[str, str]) -> None:
    _commit(repo, files)
    result = runner.invoke(app, ["init"], terminal_width=240)
    assert result.exit_code == 0, result.output
    lines = result.stdout.split("Record trees\n", 1)[1].split("\n\n", 1)[0].splitlines()
    reason = (
        "log4brains' home page (.log4brains.yml is in the repository)"
        if ".log4brains.yml" in files
        else "another tool's page (a docs site's section page?) beside the tree's index docs/adr/README.md"
    )
    assert lines[1] == (
        f"  keeps   docs/adr/index.md: {reason}; to remove it, list it in the plan's "
        "[pages] remove"
    )
    assert lines[0].startswith("  legacy  docs/adr/") and lines[2].startswith("  target  ")
