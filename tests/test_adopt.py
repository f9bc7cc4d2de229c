"""``docsync init``: what it finds, the config it writes, the hooks, and when it refuses."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from docsync import __version__
from docsync.adopt import config_text as adopt_config
from docsync.adopt import hooks as adopt_hooks
from docsync.adopt import inspection
from docsync.adopt import plan as adopt
from docsync.cli import app
from docsync.config import load
from docsync.errors import DocsyncError
from docsync.parse.native import parse
from docsync.repository.plumbing import default_branch
from docsync.workspace.load import load_workspace
from tests.gitutil import GitRepo

runner = CliRunner()

WRAPPED_72 = (
    "# Notes\n\nThis paragraph is wrapped at seventy-two columns, as git commit\n"
    "messages are, so every line of it stays at or under that width, which\n"
    "also fits eighty, a hundred and a hundred and twenty columns.\n"
)



@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("docs/adr/0001-use-x.md", "# 1. Use X\n\nStatus: Accepted\n\nWe use X.\n")
    repo.write("docs/adr/0002-use-y.md", "# 2. Use Y\n\nStatus: pondering\n\nMaybe Y.\n")
    repo.commit("records")
    monkeypatch.chdir(repo.root)
    return repo


def _init(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["init", *args])
    return result.exit_code, result.stdout


# --------------------------------------------------------------------------- the wrap convention


def _counts(texts: list[str]) -> dict[str | int, int]:
    docs = [parse(f"f{i}.md", text) for i, text in enumerate(texts)]
    counts = inspection.wrap_counts(docs, load(Path("/nonexistent")))
    return {c.mode: c.paragraphs for c in counts}


def test_wrap_counts_paragraphs_per_candidate() -> None:
    long_line = "# T\n\n" + "word " * 30 + "end. Second sentence here.\n"
    counts = _counts([WRAPPED_72, long_line])
    assert counts == {"none": 1, 72: 1, 80: 1, 100: 1, 120: 1, "sentence": 2}


@pytest.mark.parametrize(
    ("texts", "chosen"),
    [
        ([], "none"),  # nothing to go by: the default
        (["# T\n\nShort.\n"], "none"),  # fits everything: none first
        ([WRAPPED_72], 72),  # fits 72, 80, 100, 120: the narrowest
        (["# T\n\nOne sentence.\nAnother sentence.\n"], "sentence"),  # ties widths: sentence first
        (["# T\n\n" + "word " * 25 + "end.\n"], "none"),  # 130 columns on one line
    ],
)
def test_choice_and_tie_break(texts: list[str], chosen: str | int) -> None:
    docs = [parse(f"f{i}.md", text) for i, text in enumerate(texts)]
    assert inspection.choose_wrap(inspection.wrap_counts(docs, load(Path("/nonexistent")))) == chosen


# --------------------------------------------------------------------------- the config


def test_config_says_what_it_found_and_loads(repo: GitRepo) -> None:
    code, out = _init()
    assert code == 0, out
    text = (repo.root / ".docsync.toml").read_text()
    config = load(repo.root)
    assert config.target == "docs/adr"  # the one legacy tree stays where people look
    assert [(s.path, s.kind) for s in config.sources] == [("docs/adr", "ADR")]
    assert config.statuses["accepted"] == "implemented"
    assert 'accepted = "implemented"  # 1 record\n' in text
    assert '# pondering = "?"  # 1 record (docsync migrate names them); map it to one of' in text
    assert "pondering  -> ? unknown" in out and "docs/adr/0002-use-y.md" in out
    assert "map the unknown status words (pondering) in .docsync.toml" in out


def test_every_value_is_commented(repo: GitRepo) -> None:
    _init()
    lines = (repo.root / ".docsync.toml").read_text().splitlines()
    for number, line in enumerate(lines):
        if not line or line.startswith(("#", "[", " ", "]")):
            continue
        commented = lines[number - 1].startswith("#") or "  # " in line
        assert commented, f"line {number + 1} has no comment: {line}"


def test_second_run_changes_nothing_and_says_so(repo: GitRepo) -> None:
    _init("--hooks")
    before = {
        p: p.read_bytes() for p in repo.root.rglob("*") if p.is_file() and ".git" not in p.parts
    }
    code, out = _init("--hooks")
    assert code == 0
    assert "Nothing to change: every file is up to date." in out
    after = {
        p: p.read_bytes() for p in repo.root.rglob("*") if p.is_file() and ".git" not in p.parts
    }
    assert after == before


def test_existing_config_that_differs_is_kept_without_force(repo: GitRepo) -> None:
    repo.write(".docsync.toml", "wrap = 100\njobs = 2\n")
    code, out = _init()
    assert code == 1
    assert "kept        .docsync.toml (its values differ from what init found (wrap, target" in out
    assert (repo.root / ".docsync.toml").read_text() == "wrap = 100\njobs = 2\n"
    code, out = _init("--force")
    assert code == 0, out
    config = load(repo.root)
    assert config.wrap == "none" and config.jobs == 2  # a key init does not decide is kept


def test_invalid_existing_config_is_an_error(repo: GitRepo) -> None:
    repo.write(".docsync.toml", "wrap = 'sideways'\n")
    result = runner.invoke(app, ["init"])
    assert result.exit_code == 2
    assert "key 'wrap' must be" in result.stderr


# --------------------------------------------------------------------------- pyproject.toml


PYPROJECT = '[project]\r\nname = "x"\r\n\r\n# Ruff\r\n[tool.ruff]\r\nline-length = 100\r\n'


def test_pyproject_gets_a_table_appended_byte_for_byte(repo: GitRepo) -> None:
    (repo.root / "pyproject.toml").write_bytes(PYPROJECT.encode())
    code, out = _init("--pyproject")
    assert code == 0, out
    data = (repo.root / "pyproject.toml").read_bytes()
    assert data.startswith(PYPROJECT.encode() + b"\r\n# docsync configuration")
    assert b"\n" not in data.replace(b"\r\n", b"")  # the file's line ending throughout
    assert load(repo.root).origin == "pyproject.toml [tool.docsync]"
    assert not (repo.root / ".docsync.toml").exists()
    assert _init("--pyproject")[0] == 0 and "Nothing to change" in _init()[1]


def test_pyproject_table_is_replaced_only_with_force(repo: GitRepo) -> None:
    tail = "\n# Black\n[tool.black]\nline-length = 90\n"
    repo.write(
        "pyproject.toml",
        '[project]\nname = "x"\n\n[tool.docsync]\nwrap = 100\n'
        '[tool.docsync.statuses]\npondering = "proposed"\n' + tail,
    )
    code, out = _init("--pyproject")
    assert code == 1 and "--force replaces that table" in out
    code, out = _init("--force")  # the config lives in pyproject.toml, so init edits it there
    assert code == 0, out
    text = (repo.root / "pyproject.toml").read_text()
    assert text.startswith('[project]\nname = "x"\n\n# docsync configuration')
    assert text.endswith(tail) and text.count("[tool.docsync]") == 1
    assert 'pondering = "proposed"  # 1 record' in text  # the team's mapping, kept
    assert load(repo.root).wrap == "none"


def test_pyproject_refusals(repo: GitRepo) -> None:
    with pytest.raises(DocsyncError, match=re.escape("there is no pyproject.toml")):
        adopt.plan_init(repo.root, adopt.InitOptions(pyproject=True))
    repo.write("pyproject.toml", "[tool]\ndocsync.wrap = 80\n")
    with pytest.raises(DocsyncError, match=re.escape("not written as a [tool.docsync] table")):
        adopt.plan_init(repo.root, adopt.InitOptions(pyproject=True, force=True))
    repo.write(".docsync.toml", "wrap = 80\n")
    with pytest.raises(DocsyncError, match=re.escape("wins over pyproject.toml")):
        adopt.plan_init(repo.root, adopt.InitOptions(pyproject=True))


# --------------------------------------------------------------------------- hooks


EXISTING_PRE_COMMIT = """\
# Team hooks.
repos:
-   repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v4.6.0
    hooks:
    -   id: trailing-whitespace  # keep this
# The next key is not a repo.
default_stages: [pre-commit]
"""


def test_hook_is_appended_to_the_repos_list_in_its_style() -> None:
    text = adopt_hooks.with_hook(EXISTING_PRE_COMMIT, adopt_hooks.DEFAULT_HOOK_REPO)
    assert text is not None
    lines = text.splitlines()
    start = lines.index("    -   id: trailing-whitespace  # keep this") + 1
    assert lines[start : start + 11] == [
        "# docsync: links, wrapping and the record tree (added by docsync init)",
        "-   repo: local",
        "    hooks:",
        "      -   id: docsync-check",
        "          name: docsync check",
        "          entry: docsync check --staged",
        "          language: python",
        f'          additional_dependencies: ["docsync-records=={__version__}"]',
        "          pass_filenames: false",
        "          always_run: true",
        "          require_serial: true",
    ]
    assert lines[:start] + lines[start + 11 :] == EXISTING_PRE_COMMIT.splitlines()
    data = yaml.safe_load(text)
    assert data["default_stages"] == ["pre-commit"]
    assert [r["repo"] for r in data["repos"]][-1] == "local"
    assert adopt_hooks.with_hook(text, "local") is None  # it has one already


@pytest.mark.parametrize(
    "existing",
    [
        None,
        "",
        "repos: []\n",
        "default_stages: [pre-commit]\n",
        "repos:\n",
        "repos:\r\n- repo: local\r\n  hooks:\r\n  - id: x\r\n    name: x\r\n    entry: x\r\n    language: system\r\n",
    ],
)
def test_hook_forms_parse(existing: str | None) -> None:
    text = adopt_hooks.with_hook(existing, "local")
    assert text is not None
    hooks = yaml.safe_load(text)["repos"][-1]
    assert hooks["repo"] == "local"
    assert hooks["hooks"][0] == {
        "id": "docsync-check",
        "name": "docsync check",
        "entry": "docsync check --staged",
        "language": "system",
        "pass_filenames": False,
        "always_run": True,
        "require_serial": True,
    }
    if existing and "\r\n" in existing:
        assert "\n" not in text.replace("\r\n", "")


def test_flow_style_repos_is_refused() -> None:
    with pytest.raises(DocsyncError, match="flow style"):
        adopt_hooks.with_hook("repos: [{repo: local, hooks: []}]\n", "local")


def test_workflow_checks_out_one_commit_and_annotates(repo: GitRepo) -> None:
    code, out = _init("--hooks")
    assert code == 0, out
    steps = yaml.safe_load((repo.root / ".github/workflows/docsync.yml").read_text())["jobs"]
    run = steps["docsync"]["steps"]
    assert run[0] == {"uses": "actions/checkout@v6", "with": {"persist-credentials": False}}
    assert run[-1] == {"run": "docsync check --format github"}
    assert yaml.safe_load((repo.root / ".pre-commit-config.yaml").read_text())["repos"] == [
        {
            "repo": "local",
            "hooks": [
                {
                    "id": "docsync-check",
                    "name": "docsync check",
                    "entry": "docsync check --staged",
                    "language": "python",
                    "additional_dependencies": [f"docsync-records=={__version__}"],
                    "pass_filenames": False,
                    "always_run": True,
                    "require_serial": True,
                }
            ],
        }
    ]


def test_a_hooks_repository_url_gets_the_running_version() -> None:
    text = adopt_hooks.with_hook(None, "https://example.invalid/hooks")
    assert text is not None
    assert yaml.safe_load(text)["repos"] == [
        {
            "repo": "https://example.invalid/hooks",
            "rev": f"v{__version__}",
            "hooks": [{"id": "docsync-check"}],
        }
    ]


def test_a_different_workflow_is_kept_without_force(repo: GitRepo) -> None:
    repo.write(".github/workflows/docsync.yml", "name: ours\n")
    code, out = _init("--hooks")
    assert code == 1
    assert "kept        .github/workflows/docsync.yml (it differs" in out
    assert (repo.root / ".github/workflows/docsync.yml").read_text() == "name: ours\n"
    assert (repo.root / ".docsync.toml").is_file()  # the rest is written
    assert _init("--hooks", "--force")[0] == 0
    wanted = adopt_hooks.workflow(default_branch(repo.root))
    assert (repo.root / ".github/workflows/docsync.yml").read_text() == wanted


# --------------------------------------------------------------------------- the inspection


def test_inspection_reads_trees_statuses_and_scope(repo: GitRepo) -> None:
    repo.write("docs/rfc/001-plugins.md", "# RFC 001: Plugins\n\n## Status\n\nDraft\n")
    repo.write("docs/rfc/README.md", "# RFCs\n")
    repo.write("README.md", "# Project\n")
    workspace = load_workspace(repo.root)
    found = inspection.inspect(workspace, {})
    assert [(t.path, t.kind, len(t.records), t.indexes) for t in found.trees] == [
        ("docs/adr", "ADR", 2, ()),
        ("docs/rfc", "RFC", 1, ("README.md",)),
    ]
    assert found.target == "docs/rfc"  # two trees: the default target
    assert [(w.word, w.state) for w in found.words] == [
        ("accepted", "implemented"),
        ("draft", "proposed"),
        ("pondering", None),
    ]
    assert len(found.files) == 5 and not found.migrated


def test_config_origin_matches_what_load_reads() -> None:
    assert adopt_config.loaded("wrap = 80\n", ".docsync.toml").wrap == 80
    block = adopt_config.render(adopt_config.Draft((), ()), "tool.docsync")
    assert tomllib.loads(block) == {"tool": {"docsync": {}}}
