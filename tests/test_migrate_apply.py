"""``--apply`` on real repositories: refusals, staging, commits, rollback, stale plans, dates."""

from __future__ import annotations

import errno
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from docsync.errors import DocsyncError, GitError, PlanError
from docsync.migrate.apply import verdict
from docsync.migrate.apply.apply import apply
from docsync.migrate.run import Options, run
from docsync.parse.native import parse_bytes
from docsync.repository import gitrepo
from docsync.workspace import cache as parse_cache
from tests.gitutil import GitRepo

runner = CliRunner()

RECORDS = {
    "docs/adr/0001-use-postgres.md": "# ADR 0001: Use Postgres\n\nStatus: accepted\n\nSee ADR 0002.\n",
    "docs/adr/0002-use-redis.md": "# ADR 0002: Use Redis\n\nStatus: proposed\n\nAfter ADR 0001.\n",
    "README.md": "# Project\n\nRead [the first decision](docs/adr/0001-use-postgres.md).\n",
}



@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GitRepo]:
    repo = GitRepo.holding(tmp_path / "repo", RECORDS, "records", when="2022-02-02 10:00:00", tz="+0100")
    monkeypatch.chdir(repo.root)
    yield repo


def _state(repo: GitRepo) -> tuple[str, bytes, str, dict[str, bytes]]:
    """HEAD, the index bytes, the status, and every file's bytes."""
    files = {
        str(p.relative_to(repo.root)): p.read_bytes()
        for p in sorted(repo.root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(repo.root).parts
    }
    index = (repo.root / ".git" / "index").read_bytes()
    return repo.head(), index, repo.git("status", "--porcelain"), files


def test_apply_without_commit_stages_everything(repo: GitRepo) -> None:
    head = repo.head()
    result = runner.invoke(app, ["migrate", "--apply"])
    assert result.exit_code == 0, result.output
    assert repo.head() == head
    status = repo.git("status", "--porcelain").splitlines()
    assert all(line[1] == " " for line in status), status  # staged, nothing left unstaged
    # Small records change too much for git to pair them up in one diff; --commit makes two.
    assert "D  docs/adr/0001-use-postgres.md" in status
    assert "A  docs/rfc/implemented/2022-02-02-use-postgres.md" in status
    readme = (repo.root / "README.md").read_text()
    assert "(docs/rfc/implemented/2022-02-02-use-postgres.md)" in readme


def test_untracked_files_get_their_links_fixed_but_stay_untracked(repo: GitRepo) -> None:
    repo.write("docs/adr/README.md", "# Decisions\n\nAll of them.\n")
    repo.commit("an index")
    (repo.root / "draft.md").write_text(
        "# Draft\n\nSee [the decisions](docs/adr/) and [the index](docs/adr/README.md#decisions).\n"
    )
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output
    assert (repo.root / "draft.md").read_text() == (
        "# Draft\n\nSee [the decisions](docs/rfc/) and [the index](docs/rfc/README.md#decisions).\n"
    )
    assert repo.git("status", "--porcelain") == "?? draft.md\n"
    assert "## Decisions\n\nAll of them.\n" in (repo.root / "docs/rfc/README.md").read_text()


def test_excluded_files_get_their_links_fixed_and_nothing_else(repo: GitRepo) -> None:
    repo.write(".docsync.toml", 'exclude = ["vendor/**"]\n')
    notes = "# Notes\n\nHard\nwrapped. ADR 0002 stays as written; [this](../docs/adr/0001-use-postgres.md) moves.\n"
    repo.write("vendor/notes.md", notes)
    repo.commit("vendored notes")
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output
    assert (repo.root / "vendor/notes.md").read_text() == notes.replace(
        "docs/adr/0001-use-postgres.md", "docs/rfc/implemented/2022-02-02-use-postgres.md"
    )
    assert runner.invoke(app, ["check"]).exit_code == 0


def test_unresolved_plan_refuses_to_apply_and_changes_nothing(repo: GitRepo) -> None:
    repo.write("docs/adr/0003-maybe.md", "# Maybe\n\nStatus: pondering\n")
    repo.commit("undecided")
    before = _state(repo)
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 1
    assert "unknown status 'pondering'" in result.stdout
    assert "refusing to apply" in result.stderr
    assert _state(repo) == before


def test_dirty_tree_is_refused_unless_allowed(repo: GitRepo) -> None:
    repo.write("README.md", RECORDS["README.md"] + "\nMore.\n")
    before = _state(repo)
    refused = runner.invoke(app, ["migrate", "--apply"])
    assert refused.exit_code == 2
    assert "uncommitted changes to tracked files: README.md" in refused.stderr
    assert _state(repo) == before
    allowed = runner.invoke(app, ["migrate", "--apply", "--allow-dirty"])
    assert allowed.exit_code == 0, allowed.output
    assert (repo.root / "README.md").read_text().endswith("\nMore.\n")


def test_commit_refuses_when_something_else_is_staged(repo: GitRepo) -> None:
    repo.write("notes.txt", "staged\n")
    repo.git("add", "notes.txt")
    result = runner.invoke(app, ["migrate", "--apply", "--commit", "--allow-dirty"])
    assert result.exit_code == 2
    assert "already staged (notes.txt)" in result.stderr


def test_failure_midway_restores_head_index_and_files(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _state(repo)
    real_commit = gitrepo.commit_index
    calls: list[str] = []

    def failing_second_commit(root: Path, message: str) -> str:
        calls.append(message)
        if len(calls) == 2:
            raise GitError("simulated failure")
        return real_commit(root, message)

    monkeypatch.setattr(gitrepo, "commit_index", failing_second_commit)
    _, outcome = run(repo.root, Options())
    with pytest.raises(GitError, match="simulated failure"):
        apply(repo.root, outcome, commit=True)
    assert len(calls) == 2  # the move commit was made, then undone
    assert _state(repo) == before
    assert not (repo.root / "docs" / "rfc").exists()


def test_failure_while_writing_restores_everything(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _state(repo)

    failed = []

    def broken_write(kind: str, path: Path) -> None:
        if kind == "replace" and ".git" not in path.parts and not failed:
            failed.append(path)
            raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr("docsync.write.writer.mutation_point", broken_write)
    _, outcome = run(repo.root, Options())
    with pytest.raises(DocsyncError, match=r"the disk is full.*every change was undone"):
        apply(repo.root, outcome)
    assert _state(repo) == before


def test_stale_plan_is_refused(repo: GitRepo, tmp_path: Path) -> None:
    plan = tmp_path / "plan.toml"
    assert runner.invoke(app, ["migrate", "--write-plan", str(plan)]).exit_code == 0
    repo.write("docs/adr/0002-use-redis.md", RECORDS["docs/adr/0002-use-redis.md"] + "\nChanged.\n")
    repo.commit("edit a record")
    result = runner.invoke(app, ["migrate", "--apply", "--plan", str(plan)])
    assert result.exit_code == 2
    assert "is stale: docs/adr/0002-use-redis.md changed" in result.stderr


def test_plan_from_a_commit_head_does_not_contain_is_refused(repo: GitRepo, tmp_path: Path) -> None:
    plan = tmp_path / "plan.toml"
    assert runner.invoke(app, ["migrate", "--write-plan", str(plan)]).exit_code == 0
    repo.git("commit", "-q", "--amend", "-m", "rewritten history")
    result = runner.invoke(app, ["migrate", "--apply", "--plan", str(plan)])
    assert result.exit_code == 2
    assert "which HEAD does not contain" in result.stderr


def test_plan_survives_unrelated_commits(repo: GitRepo, tmp_path: Path) -> None:
    plan = tmp_path / "plan.toml"
    assert runner.invoke(app, ["migrate", "--write-plan", str(plan)]).exit_code == 0
    repo.write("src/main.py", "print('unrelated')\n")
    repo.commit("unrelated")
    result = runner.invoke(app, ["migrate", "--apply", "--plan", str(plan)])
    assert result.exit_code == 0, result.output


def test_shallow_clone_is_an_error_with_the_fix(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("docs/adr/0003-later.md", "# Later\n\nStatus: draft\n")
    repo.commit("later")
    shallow = repo.clone(tmp_path / "shallow", "--depth", "1")
    monkeypatch.chdir(shallow.root)
    result = runner.invoke(app, ["migrate"])
    assert result.exit_code == 2
    assert "git fetch --unshallow" in result.stderr and "fetch-depth: 0" in result.stderr


def test_record_from_a_merged_side_branch_is_dated_by_its_branch_commit(repo: GitRepo) -> None:
    repo.branch("idea")
    repo.write("docs/adr/0003-branch-idea.md", "# Branch idea\n\nStatus: draft\n")
    repo.commit("idea", when="2022-03-01 09:00:00", tz="-0500")
    repo.switch("main")
    repo.write("other.txt", "x\n")
    repo.commit("main moves on", when="2022-04-01 09:00:00")
    repo.merge("idea", when="2022-05-01 09:00:00")
    _, outcome = run(repo.root, Options())
    topic = outcome.plan.topic("branch-idea")
    assert topic is not None and topic.path == "docs/rfc/proposed/2022-03-01-branch-idea.md"


def test_configured_source_and_target(repo: GitRepo) -> None:
    repo.write("design/0001-first.md", "# First\n\nStatus: accepted\n")
    repo.commit("design tree")
    _, outcome = run(repo.root, Options(sources=("design",), target="records"))
    (topic,) = outcome.plan.topics
    assert topic.path == "records/implemented/2020-01-01-first.md"
    assert [str(i) for i in topic.ids] == ["DESIGN 001"]


def test_later_migration_keeps_the_index_prose_and_former_ids(repo: GitRepo) -> None:
    assert runner.invoke(app, ["migrate", "--apply", "--commit"]).exit_code == 0
    index = repo.root / "docs/rfc/README.md"
    index.write_text(index.read_text().replace("# RFCs\n", "# RFCs\n\nOur own words.\n"))
    repo.write("docs/decisions/0001-late.md", "# Late\n\nStatus: accepted\n\nUnlike ADR 0002.\n")
    repo.commit("a late tree", when="2023-01-01 10:00:00")
    clash = runner.invoke(app, ["migrate", "--source", "docs/decisions"])
    assert clash.exit_code == 1
    assert (
        "ADR 0001: is already the former id of docs/rfc/implemented/2022-02-02-use-postgres.md"
        in clash.stdout
    )
    repo.write(".docsync.toml", 'sources = [{ path = "docs/decisions", kind = "DEC" }]\n')
    repo.commit("config")
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output
    text = index.read_text()
    assert "Our own words." in text
    assert "| `ADR 0002` |" in text and "| `DEC 001` |" in text
    late = (repo.root / "docs/rfc/implemented/2023-01-01-late.md").read_text()
    assert "Unlike [Use Redis](../proposed/2022-02-02-use-redis.md)." in late
    assert runner.invoke(app, ["check"]).exit_code == 0


def test_cli_usage_errors(repo: GitRepo) -> None:
    assert runner.invoke(app, ["migrate", "--commit"]).exit_code == 2
    assert runner.invoke(app, ["migrate", "--format", "sarif"]).exit_code == 2


def test_plan_error_is_a_docsync_error() -> None:
    assert PlanError("x").exit_code == 2


def test_hand_written_plan_without_hashes_is_accepted_with_one_warning(
    repo: GitRepo, tmp_path: Path
) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(
        'target = "docs/rfc"\n\n[[topic]]\nsources = ["docs/adr/0001-use-postgres.md"]\n\n'
        '[[topic]]\nsources = ["docs/adr/0002-use-redis.md"]\n'
    )
    result = runner.invoke(app, ["migrate", "--apply", "--plan", str(plan)])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("warning") == 1, result.stderr
    assert "no [hashes] and no commit: the staleness check is off" in result.stderr
    assert (repo.root / "docs/rfc/implemented/2022-02-02-use-postgres.md").exists()


def test_answered_problem_loses_its_comment_and_nothing_else_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("docs/adr/0001-use-postgres.md", "# ADR 0001: Use Postgres\n\nNo status.\n")
    repo.write("docs/adr/0002-use-redis.md", "# ADR 0002: Use Redis\n\nAlso none.\n")
    repo.commit("records")
    monkeypatch.chdir(repo.root)
    plan = tmp_path / "plan.toml"
    assert runner.invoke(app, ["migrate", "--write-plan", str(plan)]).exit_code == 1
    written = plan.read_text()
    assert written.count("# PROBLEM:") == 2, written
    answered = written.replace('status = ""', 'status = "implemented"', 1)
    plan.write_text(answered)
    result = runner.invoke(app, ["migrate", "--plan", str(plan)])
    assert result.exit_code == 1, result.output  # the second record is still undecided
    assert "removed the comments of answered problems" in result.stderr
    left = [line for line in answered.splitlines(keepends=True) if "0001-use-postgres.md: no status" not in line]
    assert plan.read_text() == "".join(left)
    assert plan.read_text().count("# PROBLEM:") == 1


def test_plan_header_explains_the_format_without_naming_a_file_the_user_lacks(
    repo: GitRepo, tmp_path: Path
) -> None:
    plan = tmp_path / "plan.toml"
    assert runner.invoke(app, ["migrate", "--write-plan", str(plan)]).exit_code == 0
    header = plan.read_text().split("\nversion")[0]
    assert "docs/rfc/implemented" not in header
    assert "[[topic]]" in header and "[[retire]]" in header and "[hashes]" in header
    assert "Migrating a record tree" in header


def test_only_paragraphs_the_migration_changed_are_re_wrapped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    long_line = "An unrelated paragraph " + "that already runs far past the width " * 4
    guide = (
        "# Guide\n\n"
        f"{long_line.strip()}\n"
        "and it stays exactly as it was.\n\n"
        "The decision to use Postgres is written down in ADR 0001, which every new\n"
        "service reads first.\n\n"
        "* a list item that is also far too long for the width, and has been for ages now\n"
    )
    repo = GitRepo.init(tmp_path / "repo")
    repo.write(".docsync.toml", "wrap = 80\n")
    repo.write("docs/adr/0001-use-postgres.md", "# ADR 0001: Use Postgres\n\nStatus: accepted\n\nWe use it.\n")
    repo.write("guide.md", guide)
    repo.commit("records")
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, ["migrate", "--apply", "--commit", "--no-adoption-record"])
    assert result.exit_code == 0, result.output
    after = (repo.root / "guide.md").read_text()
    before_lines = guide.splitlines()
    # Every line of the untouched paragraphs is byte for byte what it was.
    for line in (before_lines[2], before_lines[3], before_lines[8]):
        assert line in after.splitlines()
    changed = after.split("\n\n")[2]
    assert "[Use Postgres](docs/rfc/implemented/" in changed
    assert all(len(line) <= 80 for line in changed.splitlines()), changed


def test_apply_says_which_findings_it_caused_and_counts_older_ones_apart(
    repo: GitRepo,
) -> None:
    repo.write("docs/adr/0002-use-redis.md", RECORDS["docs/adr/0002-use-redis.md"] + "\nSee [gone](gone.md).\n")
    repo.commit("a link broken before the migration")
    result = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert result.exit_code == 0, result.output
    assert (
        "docsync check: no finding caused by the migration in the files it wrote; "
        "1 findings there before stay"
    ) in result.stderr
    assert "1 link was broken before the migration already and stay so" in result.stdout


def test_a_break_counts_as_older_only_when_that_same_break_was_there(repo: GitRepo) -> None:
    """Before: README links to a record's new path (broken until the migration) and to a
    missing record. The apply repairs the first; a rewrite defect (written by hand here)
    breaks the link to the first decision. Two L001 before and two after in one file:
    counted per file and rule they all looked older; per break, only the missing record's is."""
    repo.write(
        "README.md",
        RECORDS["README.md"]
        + "\nSee [ahead](docs/rfc/proposed/2022-02-02-use-redis.md) and [x](docs/adr/0003-nope.md).\n",
    )
    repo.commit("two links broken before the migration")
    _, outcome = run(repo.root, Options())
    earlier = verdict.before(repo.root, outcome.changes)
    apply(repo.root, outcome, commit=True)
    readme = (repo.root / "README.md").read_text()
    assert "[ahead](docs/rfc/proposed/2022-02-02-use-redis.md)" in readme  # resolves now
    defect = readme.replace("2022-02-02-use-postgres.md)", "2022-02-02-use-postgre.md)")
    assert defect != readme
    (repo.root / "README.md").write_text(defect)
    judged = verdict.after(repo.root, outcome.changes, earlier)
    assert [(f.path, f.line, f.rule) for f in judged.caused] == [("README.md", 3, "L001")]
    assert judged.already == 1


def test_the_dry_run_counts_a_dangling_link_as_broken_before_only_for_its_own_break() -> None:
    """A rewritten record's dangling links: the one whose target the record already
    linked to (and that did not exist) was broken before; another that the rewrite
    produced to a path that never existed is the migration's, not "broken before"."""
    from docsync.migrate.rewrite.stats import Tally
    from docsync.parse.native import parse
    from docsync.rewrite.references import RewriteStats

    old = parse("docs/adr/0002-use-redis.md", "# Redis\n\nSee [gone](gone.md).\n")
    tally = Tally()
    dangling = ("../../adr/gone.md", "../../adr/also-gone.md")
    before = frozenset({"docs/adr/0002-use-redis.md", "docs/adr"})
    tally.add("docs/rfc/proposed/2022-02-02-use-redis.md", RewriteStats(0, 0, (), dangling), before, old)
    assert tally.already_broken == 1
    assert tally.dangling == [("docs/rfc/proposed/2022-02-02-use-redis.md", "../../adr/also-gone.md")]


def test_the_closing_check_reads_the_rewrite_s_own_parse_of_each_written_file(
    repo: GitRepo,
) -> None:
    """The rewrite parsed every new text to verify it; those documents go into the
    parse cache under the bytes on disk, and they are exactly what a parse makes."""
    session, outcome = run(repo.root, Options())
    assert apply(repo.root, outcome, commit=True).applied
    parsed = outcome.changes.parsed
    written = {w.path for w in outcome.changes.writes}
    assert {"README.md", "docs/rfc/implemented/2022-02-02-use-postgres.md"} <= set(parsed)
    assert set(parsed) <= written
    verdict.remember_parsed(repo.root, outcome.changes)
    store = parse_cache.open_cache(repo.root / ".git")
    for path, doc in parsed.items():
        data = (repo.root / path).read_bytes()
        assert store.get(store.key(path, data), path) == parse_bytes(path, data)
        assert doc == parse_bytes(path, data)
    # A written file whose bytes no longer decode to the parsed text is not remembered.
    (repo.root / "README.md").write_text("# Changed meanwhile\n")
    store_file = parse_cache.cache_file(repo.root / ".git")
    store_file.unlink()
    verdict.remember_parsed(repo.root, outcome.changes)
    store = parse_cache.open_cache(repo.root / ".git")
    data = (repo.root / "README.md").read_bytes()
    assert store.get(store.key("README.md", data), "README.md") is None
    assert session.root == repo.root


@pytest.mark.parametrize("name", ["x[1].md", "x*.md", "x?.md", ":(glob)x.md"])
def test_staging_reads_a_file_name_as_a_name_not_a_pattern(tmp_path: Path, name: str) -> None:
    """``git add -- x[1].md`` would also stage ``x1.md``: docsync's git writes take
    every path literally, so only the file it wrote is staged."""
    repo = GitRepo.init(tmp_path / "repo")
    for path in (f"docs/{name}", "docs/x1.md", "docs/x.md"):
        repo.write(path, "# Old\n")
    repo.commit("start")
    for path in (f"docs/{name}", "docs/x1.md", "docs/x.md"):
        repo.write(path, "# New\n")
    gitrepo.stage(gitrepo.worktree(repo.root), [f"docs/{name}"])
    staged = repo.git("diff", "--cached", "--name-only", "-z").split("\0")
    assert [p for p in staged if p] == [f"docs/{name}"]
