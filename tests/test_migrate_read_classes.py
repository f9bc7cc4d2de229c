"""Issue 37's reading and planning classes, each on small real repositories built here.

Templates against records (1), date-named files against numbers (2), records at the
repository root (5), the status under another front-matter key (6), the kind read from
the repository's prose (7), superseded records (13) and the program lines the dry run
names (14). Where a class allows it, its shapes are generated, not listed.
"""

from __future__ import annotations

import itertools
import json

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from docsync.migrate.read.discover import find_trees, record_paths
from docsync.migrate.run import Options, run
from tests.gitutil import GitRepo

runner = CliRunner()


def _write(repo: GitRepo, files: dict[str, str], config: str = "") -> None:
    for path, text in files.items():
        repo.write(path, text)
    if config:
        repo.write(".docsync.toml", config)
    repo.commit("records", when="2020-09-24 10:00:00", tz="+0200")


def _record(title: str, status: str = "Accepted", body: str = "Text.") -> str:
    return f"# {title}\n\nStatus: {status}\n\n{body}\n"


def _apply_and_check(repo: GitRepo) -> tuple[str, str]:
    """``migrate --apply --commit``, then ``check``: both must exit 0."""
    applied = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert applied.exit_code == 0, applied.output
    checked = runner.invoke(app, ["check"])
    assert checked.exit_code == 0, checked.output
    return applied.output, checked.output


# --------------------------------------------------------------------------- 1. templates


RECORD_WORDS = ("add-template-lint", "template-compiler", "drop-templates-template", "use-template")
TEMPLATE_NAMES = ("template.md", "adr-template.md", "RFC_TEMPLATE.md", "0000-template.md", "template-adr.md")


@pytest.mark.parametrize(("slug", "template"), list(itertools.product(RECORD_WORDS, TEMPLATE_NAMES)))
def test_a_record_named_for_templates_migrates_and_the_template_stays_out_of_the_way(
    migration_repo: GitRepo, slug: str, template: str
) -> None:
    """A numbered record whose slug holds "template" is a record: it moves, with its id in
    the index. The tree's real template stays, and `check` right after is green."""
    files = {
        "docs/adr/0001-use-markdown.md": _record("1. Use Markdown"),
        f"docs/adr/0002-{slug}.md": _record(f"2. {slug.replace('-', ' ').capitalize()}"),
        f"docs/adr/{template}": _record("NNNN. Title of the decision", "proposed | accepted"),
    }
    _write(migration_repo, files, 'target = "docs/adr"\n')
    _, outcome = run(migration_repo.root, Options())
    moved = {str(t.parts[0]): t.path for t in outcome.plan.topics}
    assert f"docs/adr/0002-{slug}.md" in moved
    assert f"docs/adr/{template}" not in moved
    assert outcome.plan.problems == ()
    _apply_and_check(migration_repo)
    assert (migration_repo.root / "docs" / "adr" / template).exists()
    index = (migration_repo.root / "docs" / "adr" / "README.md").read_text()
    assert "ADR 0002" in index or "ADR-0002" in index or "0002" in index


TEMPLATE_PLACES = (
    "templates/adr-template.md",  # a folder of templates inside the tree
    "0000-template/README.md",  # a template that is a folder, as records may be
    "NNNN-adr-template/index.md",
    "template/README.md",
)


@pytest.mark.parametrize(
    ("slug", "place"), list(itertools.product(("template-compiler", "use-templates"), TEMPLATE_PLACES))
)
def test_a_template_below_the_tree_or_a_template_folder_is_no_record(
    migration_repo: GitRepo, slug: str, place: str
) -> None:
    """The template is told by its path, not only its file name: a template folder's page or
    a template in a subfolder is not a record (it stays, `check` is green), while a numbered
    record folder whose slug holds "template" is a record and moves."""
    files = {
        "docs/adr/0001-use-markdown.md": _record("1. Use Markdown"),
        f"docs/adr/0002-{slug}/README.md": _record(f"2. {slug.replace('-', ' ').capitalize()}"),
        f"docs/adr/{place}": _record("NNNN. Title of the decision", "proposed | accepted"),
    }
    _write(migration_repo, files, 'target = "docs/adr"\n')
    _, outcome = run(migration_repo.root, Options())
    moved = {str(t.parts[0]) for t in outcome.plan.topics}
    assert moved == {"docs/adr/0001-use-markdown.md", f"docs/adr/0002-{slug}/README.md"}
    assert outcome.plan.problems == ()
    _apply_and_check(migration_repo)
    assert (migration_repo.root / "docs" / "adr" / place).exists()


# --------------------------------------------------------------------------- 2. dates are not ids


DATE_SHAPES = {
    "yy-mm-dd": lambda k: f"2{k % 5}-0{1 + k % 9}-1{k % 10}",
    "yyyy-mm": lambda k: f"20{10 + k % 10}-0{1 + k % 9}",
    "yyyy-mm-dd": lambda k: f"20{10 + k % 10}-1{k % 3}-2{k % 8}",
    "yyyymmdd": lambda k: f"20{10 + k % 10}0{1 + k % 9}1{k % 10}",
}


@pytest.mark.parametrize(("shape", "size"), list(itertools.product(DATE_SHAPES, (3, 7, 24))))
def test_a_date_prefix_is_never_an_id(migration_repo: GitRepo, shape: str, size: int) -> None:
    """Every date shape, across tree sizes: no record gets an id, no duplicate-id question
    is asked, and no new name keeps a piece of the date in its slug."""
    prefix = DATE_SHAPES[shape]
    files = {
        f"docs/adr/{prefix(k)}-topic-{k}-notes.md": _record(f"Topic {k} notes") for k in range(size)
    }
    _write(migration_repo, files)
    paths = sorted(files)
    (tree,) = find_trees(paths, ())
    assert [rid for _, rid, _ in record_paths(tree, paths)] == [None] * size
    _, outcome = run(migration_repo.root, Options())
    assert outcome.plan.problems == ()
    names = sorted(t.path.rsplit("/", 1)[1] for t in outcome.plan.topics)
    assert names == sorted(f"2020-09-24-topic-{k}-notes.md" for k in range(size))


@pytest.mark.parametrize(("code", "size"), list(itertools.product(("PROJ-001", "001", "ab-07"), (3, 5, 12))))
def test_a_number_every_record_carries_is_no_id(migration_repo: GitRepo, code: str, size: int) -> None:
    """``PROJ-001-…`` in every file names the project, not the record: no duplicate-id
    questions, each record keeps its own slug."""
    files = {f"docs/adr/{code}-decision-{k}.md": _record(f"Decision {k}") for k in range(size)}
    _write(migration_repo, files)
    _, outcome = run(migration_repo.root, Options())
    assert outcome.plan.problems == ()
    assert all(t.ids == () for t in outcome.plan.topics)
    assert len(outcome.plan.topics) == size


def test_two_records_with_one_number_are_still_a_duplicate_question(migration_repo: GitRepo) -> None:
    """The shared-number rule needs a whole tree: two records numbered 0005 stay a question."""
    files = {
        "docs/adr/0001-first.md": _record("First"),
        "docs/adr/0005-one.md": _record("One"),
        "docs/adr/0005-two.md": _record("Two"),
    }
    _write(migration_repo, files)
    paths = sorted(files)
    (tree,) = find_trees(paths, ())
    assert [str(rid) for _, rid, _ in record_paths(tree, paths)] == ["ADR 0001", "ADR 0005", "ADR 0005"]


def test_the_dry_run_json_of_date_named_records(migration_repo: GitRepo) -> None:
    """The shape the issue saw: yy-mm-dd with a project code, read through the CLI."""
    files = {
        f"docs/design/24-05-1{k}-PROJ-001-part-{k}.md": _record(f"Part {k}") for k in range(4)
    }
    _write(migration_repo, files)
    done = runner.invoke(app, ["migrate", "--format", "json"])
    assert done.exit_code == 0, done.output
    plan = json.loads(done.output)
    paths = sorted(t["path"] for t in plan["topics"])
    assert paths == [f"docs/rfc/implemented/2020-09-24-proj-001-part-{k}.md" for k in range(4)]


# --------------------------------------------------------------------------- 14. program lines


def _program(kind: str, where: int, what: str, length: int) -> str:
    """A program file of ``length`` lines whose line ``where`` names ``what`` in a comment."""
    comment = {"sh": "## ", "py": "# ", "yml": "# "}[kind]
    lines = [f"echo step {k}" if kind == "sh" else f"x{k} = {k}" for k in range(length)]
    if kind == "sh":
        lines[0] = "#!/bin/sh"
    lines[where - 1] = f"{comment}Usage: see {what}"
    return "\n".join(lines) + "\n"


# An id, a repository path, and a Markdown link in a comment (its destination follows the record).
PROGRAMS = list(itertools.product(
    ("sh", "py", "yml"), (2, 5), ("ADR 0002", "docs/adr/0002-use-yarn.md", "[ADR 0002](../docs/adr/0002-use-yarn.md)")
))  # fmt: skip


def test_the_verbose_dry_run_names_every_program_line_it_changes(migration_repo: GitRepo) -> None:
    """Every file and line the apply changes outside Markdown is named by the dry run
    (``src/adr-new:2``), in text and JSON; the apply's own diff is the oracle."""
    files = {
        "docs/adr/0001-use-markdown.md": _record("1. Use Markdown"),
        "docs/adr/0002-use-yarn.md": _record("2. Use Yarn"),
    }
    programs = {
        f"src/tool-{k}.{kind}" if kind != "sh" else f"src/adr-new-{k}": _program(kind, where, what, 8)
        for k, (kind, where, what) in enumerate(PROGRAMS)
    }
    _write(migration_repo, {**files, **programs})
    dry = runner.invoke(app, ["migrate", "--verbose"])
    assert dry.exit_code == 0, dry.output
    named = {line.split(": ")[1] for line in dry.output.splitlines() if line.startswith("program line: ")}
    as_json = json.loads(runner.invoke(app, ["migrate", "--format", "json"]).output)
    assert {entry["at"] for entry in as_json["program_lines"]} == named
    _apply_and_check(migration_repo)
    changed = set()
    for path, before in programs.items():
        after = (migration_repo.root / path).read_text()
        pairs = zip(before.split("\n"), after.split("\n"), strict=True)  # ids change within lines
        changed |= {f"{path}:{n}" for n, (a, b) in enumerate(pairs, 1) if a != b}
    assert changed and named == changed
    assert "src/adr-new-0:2" in named


# --------------------------------------------------------------------------- 13. superseded


SUPERSEDING = {
    "newer links": ("", "Supersedes [1. Use MySQL](0001-use-mysql.md)\n\n"),
    "older links": ("Superseded by [3. Use Postgres](0003-use-postgres.md)\n\n", ""),
    "newer names the id": ("", "Supersedes: ADR-0001\n\n"),
    "bold, older": ("**Superseded by:** [3. Use Postgres](0003-use-postgres.md)\n\n", ""),
    "front matter, older": ("FRONT superseded_by: ADR-0003", ""),
    "front matter, newer": ("", "FRONT supersedes: [ADR-0001]"),
}


def _superseding_text(title: str, status: str, line: str, body: str) -> str:
    """A record with ``line`` under its status, or (``FRONT key: value``) in its front matter."""
    if line.startswith("FRONT "):
        return f"---\n{line.removeprefix('FRONT ')}\n---\n\n# {title}\n\nStatus: {status}\n\n{body}\n"
    return f"# {title}\n\nStatus: {status}\n\n{line}{body}\n"


@pytest.mark.parametrize("shape", list(SUPERSEDING))
@pytest.mark.parametrize("status", ["Accepted", "Proposed"])
def test_a_record_another_supersedes_lands_in_the_superseded_state(
    migration_repo: GitRepo, shape: str, status: str
) -> None:
    """Whichever side writes the relation, and whatever the older record's status line says,
    it lands where superseded records go, and ``check`` is green right after the apply."""
    older_line, newer_line = SUPERSEDING[shape]
    files = {
        "docs/adr/0001-use-mysql.md": _superseding_text("1. Use MySQL", status, older_line, "We use MySQL."),
        "docs/adr/0002-use-markdown.md": _record("2. Use Markdown"),
        "docs/adr/0003-use-postgres.md": _superseding_text("3. Use Postgres", "Accepted", newer_line, "We use Postgres."),
    }
    _write(migration_repo, files)
    _, outcome = run(migration_repo.root, Options())
    states = {str(t.parts[0]): t.state for t in outcome.plan.topics}
    assert states == {
        "docs/adr/0001-use-mysql.md": "rejected",
        "docs/adr/0002-use-markdown.md": "implemented",
        "docs/adr/0003-use-postgres.md": "implemented",
    }
    _apply_and_check(migration_repo)
    assert (migration_repo.root / "docs/rfc/rejected/2020-09-24-use-mysql.md").exists()


def test_a_plan_that_says_the_status_keeps_it(migration_repo: GitRepo) -> None:
    """The superseded state is derived; a status the plan sets wins (the gate then reports it)."""
    files = {
        "docs/adr/0001-use-mysql.md": _record("1. Use MySQL"),
        "docs/adr/0003-use-postgres.md": _record("3. Use Postgres", body="Supersedes [1. Use MySQL](0001-use-mysql.md)"),
    }
    _write(migration_repo, files)
    assert runner.invoke(app, ["migrate", "--write-plan", "plan.toml"]).exit_code == 0
    plan = (migration_repo.root / "plan.toml").read_text()
    assert 'status = "rejected"' in plan
    from docsync.migrate.plan import planfile

    spec = planfile.read(migration_repo.root / "plan.toml")
    first = next(t for t in spec.topics if t.sources == ("docs/adr/0001-use-mysql.md",))
    assert first.status == "rejected"


# --------------------------------------------------------------------------- 6. the status key


STAGES = {"accepted": "implemented", "released": None, "exploring": None, "rejected": "rejected"}


@pytest.mark.parametrize("key", ["stage", "state", "phase", "lifecycle"])
def test_init_finds_the_front_matter_key_the_status_is_under(migration_repo: GitRepo, key: str) -> None:
    """``stage: accepted`` in every record's front matter: init writes ``status_key`` for the
    tree, its unknown words as ``[statuses]`` questions; answered, the dry run asks nothing."""
    files = {
        f"proposals/{k:04d}-proposal-{k}.md": (
            f"---\ntitle: Proposal {k}\nauthor: someone\n{key}: {word}\n---\n\n# Proposal {k}\n\nText.\n"
        )
        for k, word in enumerate(itertools.islice(itertools.cycle(STAGES), 8), start=1)
    }
    _write(migration_repo, files)
    done = runner.invoke(app, ["init"])
    assert done.exit_code == 0, done.output
    config = (migration_repo.root / ".docsync.toml").read_text()
    assert f'status_key = "{key}"' in config
    for word, state in STAGES.items():
        line = f'{word} = "{state}"' if state else f'# {word} = "?"'
        assert line in config, word
    asked = runner.invoke(app, ["migrate"])
    assert asked.exit_code == 1
    assert "no status found" not in asked.output
    assert "unknown status 'released'" in asked.output and "[statuses]" in asked.output
    answered = config.replace('# released = "?"', 'released = "implemented"').replace(
        '# exploring = "?"', 'exploring = "proposed"'
    )
    migration_repo.write(".docsync.toml", answered)
    migration_repo.commit("config")
    _, outcome = run(migration_repo.root, Options())
    assert outcome.plan.problems == ()
    states = {str(t.parts[0]).split("/")[1][:4]: t.state for t in outcome.plan.topics}
    assert states == {"0001": "implemented", "0002": "implemented", "0003": "proposed", "0004": "rejected",
                      "0005": "implemented", "0006": "implemented", "0007": "proposed", "0008": "rejected"}


def test_every_no_status_question_names_the_keys_that_answer_it(migration_repo: GitRepo) -> None:
    """The dry run's question names the config keys (a source's status or status_key) and the
    plan's; init's report names them too."""
    files = {f"docs/adr/000{k}-decision-{k}.md": f"# Decision {k}\n\nText.\n" for k in range(1, 4)}
    _write(migration_repo, files)
    asked = runner.invoke(app, ["migrate"])
    assert asked.exit_code == 1
    question = next(line for line in asked.output.splitlines() if "no status found" in line)
    assert all(word in question for word in ("sources", "status_key", "in the plan", 'status = "implemented"'))
    init = runner.invoke(app, ["init"])
    assert "status_key" in init.output and "in the plan" in init.output


# --------------------------------------------------------------------------- 5. records at the root


@pytest.mark.parametrize(("prefix", "size"), list(itertools.product(("adr-", "rfc-", "ADR_", ""), (3, 6))))
def test_records_at_the_root_get_a_target_folder_and_move_there(
    migration_repo: GitRepo, prefix: str, size: int
) -> None:
    """init proposes ``docs/<kind>`` for a tree at the repository's root and exits 0; migrate
    moves every record there and keeps the project's README (its links rewritten)."""
    files = {
        f"{prefix}{k:03d}-choice-{k}.md": _record(f"Choice {k}", body=f"After [the first]({prefix}001-choice-1.md).")
        for k in range(1, size + 1)
    }
    files["README.md"] = f"# Project\n\nSee [the first choice]({prefix}001-choice-1.md).\n"
    if not prefix:  # no kind in the names: the prose tells it
        files["README.md"] += "\nRFC 1 and RFC 2 came first.\n"
    _write(migration_repo, files)
    init = runner.invoke(app, ["init"])
    assert init.exit_code == 0, init.output
    kind = "adr" if prefix.lower().startswith("adr") else "rfc"
    assert f'target = "docs/{kind}"' in (migration_repo.root / ".docsync.toml").read_text()
    migration_repo.commit("adopt docsync")
    _apply_and_check(migration_repo)
    left = sorted(p.name for p in migration_repo.root.glob("*.md"))
    assert left == ["README.md"]
    moved = sorted((migration_repo.root / "docs" / kind / "implemented").glob("*-choice-*.md"))
    assert len(moved) == size
    readme = (migration_repo.root / "README.md").read_text()
    assert f"(docs/{kind}/implemented/2020-09-24-choice-1.md)" in readme


# --------------------------------------------------------------------------- 7. the kind


MENTIONS = {"RFC": "RFC {n}", "PROPOSAL": "proposal {n}", "KEP": "KEP-{n:04d}", "DESIGN": "Design #{n}"}


@pytest.mark.parametrize(
    ("folder", "word"), list(itertools.product(("text", "design", "docs/notes"), MENTIONS))
)
def test_the_kind_is_read_from_how_the_prose_names_the_records(
    migration_repo: GitRepo, folder: str, word: str
) -> None:
    """Names without a kind prefix in a folder whose word is no kind: the word the prose writes
    before the records' numbers is the kind, in the plan and in init's config. Other words
    before the same numbers (``issue 42``) are passed over."""
    numbers = (1, 42, 315)
    mention = MENTIONS[word]
    files = {f"{folder}/{n:04d}-idea-{n}.md": _record(f"Idea {n}") for n in numbers}
    files["README.md"] = "# Project\n\n" + "".join(
        f"- {mention.format(n=n)} (issue {n}, issue #{n}) is about idea {n}.\n" for n in numbers
    )
    _write(migration_repo, files, f'[[sources]]\npath = "{folder}"\n' if folder == "docs/notes" else "")
    _, outcome = run(migration_repo.root, Options(sources=(folder,)))
    assert outcome.plan.problems == ()
    assert {i.kind for t in outcome.plan.topics for i in t.ids} == {word}
    (migration_repo.root / ".docsync.toml").unlink(missing_ok=True)
    migration_repo.commit("no config")
    assert runner.invoke(app, ["init"]).exit_code == 0
    assert f'kind = "{word}"' in (migration_repo.root / ".docsync.toml").read_text()


@pytest.mark.parametrize("folder", ["text", "design"])
def test_a_kind_nothing_tells_is_asked_once(migration_repo: GitRepo, folder: str) -> None:
    """No prefix, no kind folder, no prose: one question for the tree, naming the key."""
    files = {f"{folder}/{n:04d}-idea-{n}.md": _record(f"Idea {n}") for n in (1, 2, 3, 4)}
    _write(migration_repo, files)
    _, outcome = run(migration_repo.root, Options(sources=(folder,)))
    asked = [str(p) for p in outcome.plan.problems]
    assert len(asked) == 1 and asked[0].startswith(f"{folder}: the kind of its ids")
    assert f'sources = [{{ path = "{folder}", kind = "RFC" }}]' in asked[0]
    assert runner.invoke(app, ["init"]).exit_code == 0
    config = (migration_repo.root / ".docsync.toml").read_text()
    assert f'{{ path = "{folder}" }}' in config and "kind: untold" in config
