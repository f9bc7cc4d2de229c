"""Config globs mean what a ``.gitignore`` line means: git itself is the oracle.

Generated patterns and paths are matched by :func:`docsync.globs.matches` and by
``git check-ignore --no-index`` with the patterns as the repository's ``.gitignore``;
the two agree on every case. Negations (``!``) are compared by table: pathspec lets a
file's own ``!`` match take it back from a matched folder, which git does not. A pattern the matcher cannot read is a config error
(exit 2), never a silent no-match.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from docsync.cli import app
from docsync.errors import ConfigError
from docsync.globs import checked, matches, problem
from tests.gitutil import GitRepo, git_environ

runner = CliRunner()

_PIECES = ["a", "b", "1", "2", "4", "md", ".", "*", "?", "**", "[1-3]", "[!a]", "[ab]", "-"]
_NAMES = ["a", "b", "ab", "1", "2", "4", "a.md", "b2.md", "x4.md", "docs", "a-1.md", "A.MD"]

_segment = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=4).map("".join)


@st.composite
def _pattern(draw: st.DrawFn) -> str:
    segments = draw(st.lists(_segment, min_size=1, max_size=3))
    text = "/".join(segments)
    if draw(st.booleans()):
        text = "/" + text
    if draw(st.booleans()):
        text += "/"
    return text


_path = st.lists(st.sampled_from(_NAMES), min_size=1, max_size=4).map("/".join)


def _git_ignored(root: Path, patterns: list[str], paths: list[str]) -> set[str]:
    (root / ".gitignore").write_text("".join(p + "\n" for p in patterns))
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", "--stdin", "-z"],
        cwd=root, input="".join(p + "\0" for p in paths).encode(),
        capture_output=True, env=git_environ(), check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return {p for p in done.stdout.decode().split("\0") if p}


@pytest.fixture(scope="module")
def oracle_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return GitRepo.init(tmp_path_factory.mktemp("oracle") / "repo").root


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(patterns=st.lists(_pattern(), min_size=1, max_size=3), paths=st.lists(_path, min_size=1, max_size=12, unique=True))
def test_globs_match_what_git_ignores(oracle_repo: Path, patterns: list[str], paths: list[str]) -> None:
    if any(problem(p) is not None for p in patterns):
        return  # refused at config load (test_unreadable_globs_are_config_errors)
    expected = _git_ignored(oracle_repo, patterns, paths)
    assert {p for p in paths if matches(p, patterns)} == expected


@pytest.mark.parametrize(
    ("patterns", "path", "matched"),
    [
        (["*.md", "!keep.md"], "docs/keep.md", False),  # the last match decides, as in git
        (["!keep.md", "*.md"], "docs/keep.md", True),
        (["docs/", "!docs/keep.md"], "docs/keep.md", False),  # a file's own match outranks its folder's
        (["!a", "b"], "b/a", False),  # (git cannot take back a file whose folder is excluded)
    ],
)
def test_negation_takes_back_what_an_earlier_pattern_matched(
    patterns: list[str], path: str, matched: bool
) -> None:
    assert matches(path, patterns) is matched


@pytest.mark.parametrize(
    ("pattern", "path", "matched"),
    [
        ("docs/000[1-3]-*.md", "docs/0002-x.md", True),
        ("docs/000[1-3]-*.md", "docs/0004-x.md", False),
        ("*.md", "a/b/c.md", True),  # no slash: any depth
        ("/*.md", "a/c.md", False),  # leading slash: the root only
        ("tests/**", "tests/data/x.md", True),
        ("vendor", "vendor/lib/README.md", True),  # a folder's pattern holds its files
        ("**/*.[mM][dD]", "README.MD", True),
        ("a[!b]c", "a/c", False),  # a class never matches the folder separator
        ("a[!b]c", "axc", True),
    ],
)
def test_gitignore_forms(pattern: str, path: str, matched: bool, oracle_repo: Path) -> None:
    assert matches(path, [pattern]) is matched
    assert (path in _git_ignored(oracle_repo, [pattern], [path])) is matched


@pytest.mark.parametrize("pattern", ["docs/{a,b}.md", "[", "#comment", "", "dir\\", "a**/*", "**b", "x***"])
def test_unreadable_globs_are_config_errors(pattern: str) -> None:
    assert problem(pattern) is not None
    with pytest.raises(ConfigError, match="glob"):
        checked([pattern], "here")


def _repo(tmp_path: Path, config: str) -> GitRepo:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write(".docsync.toml", config + 'gates = ["links"]\n')
    repo.write("docs/0001-a.md", "# A\n\n[gone](missing.md)\n")
    repo.write("docs/0002-b.md", "# B\n\n[gone](missing.md)\n")
    repo.write("docs/0004-c.md", "# C\n\n[gone](missing.md)\n")
    repo.commit()
    return repo


@pytest.mark.parametrize(
    "config",
    [
        'exclude = ["docs/{0001,0002}-*.md"]\n',
        'exclude = ["docs/["]\n',
        'refs_exclude = ["#x"]\n',
        'include = ["**/*.md", "docs\\\\"]\n',
        '[per-file-ignores]\n"{a,b}.md" = ["L001"]\n',
    ],
)
def test_an_unreadable_glob_in_config_exits_2(
    config: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body, _, table = config.partition("[per-file-ignores]")
    repo = _repo(tmp_path, body)
    if table:
        (repo.root / ".docsync.toml").write_text('gates = ["links"]\n[per-file-ignores]' + table)
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 2, result.output
    assert "glob" in result.output


def test_a_character_class_excludes_what_it_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path, 'exclude = ["docs/000[1-3]-*.md"]\n')
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, ["check", "--output-format", "json"])
    assert result.exit_code == 1
    assert "docs/0004-c.md" in result.output
    assert "0001-a" not in result.output and "0002-b" not in result.output


def test_per_file_ignores_read_character_classes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path, "")
    (repo.root / ".docsync.toml").write_text(
        'gates = ["links"]\n[per-file-ignores]\n"docs/000[1-2]-*.md" = ["L001"]\n'
    )
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, ["check", "--output-format", "json"])
    assert "docs/0004-c.md" in result.output
    assert "0001-a" not in result.output and "0002-b" not in result.output


def test_an_upper_case_extension_is_markdown_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("README.MD", "# Top\n\n[down](#nowhere)\n")
    repo.write("guide/INTRO.Markdown", "# Intro\n\n[back](../README.MD#nope)\n")
    repo.commit()
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, ["check", "--gate", "links", "--output-format", "json"])
    assert result.exit_code == 1, result.output
    assert "README.MD" in result.output and "guide/INTRO.Markdown" in result.output


@given(path=st.lists(st.sampled_from([*_NAMES, "README.Md", "x.MARKDOWN", "y.mdx", "z.markdow"]), min_size=1, max_size=4).map("/".join))
def test_the_default_include_is_the_markdown_suffix_in_either_case(path: str) -> None:
    from docsync.config import DEFAULT_INCLUDE, Config
    from docsync.workspace.globs import in_scope

    markdown = path.lower().endswith((".md", ".markdown"))
    if markdown:  # discovery asks in_scope only of these
        assert in_scope(path, Config()) is matches(path, DEFAULT_INCLUDE) is True
    else:
        assert not in_scope(path, Config())
