"""Class 1 of the threat model: a config path into ``.git`` or out of the repository.

Generated, not listed: every path key (``target``, ``sources``, ``states`` folders,
``exclude`` roots, ``conventions``, ``template``) times every path form (``.git`` in any
spelling, through ``..`` or a symlink, absolute, out through ``..`` or a symlink, a
device, a FIFO, a folder where a file is meant and a file where a folder is). Each
combination runs the command that would write (or read) through the key, and must end
with exit 2 and one line naming the key, with the repository (``.git`` included) and
the folder beside it byte-identical.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from docsync.cli import app
from docsync.config import parse_table
from docsync.config_paths import exclude_root, lexical_problem
from docsync.errors import ConfigError
from tests.untrusted import legacy_repo, one_line, picture, runner

FILE, FOLDER = "file", "folder"


@dataclass(frozen=True)
class Key:
    name: str
    kind: str
    toml: Callable[[str], str]  # the config line that gives the key the value
    command: tuple[str, ...]
    under: str = ""  # where the value is read from: the states folders are under the target


def _quoted(value: str) -> str:
    return json.dumps(value)  # a TOML basic string is a JSON string


KEYS = [
    Key("target", FOLDER, lambda v: f"target = {_quoted(v)}", ("migrate", "--apply", "--commit")),
    Key("sources", FOLDER, lambda v: f"sources = [{_quoted(v)}]", ("migrate", "--apply", "--commit")),
    Key(
        "states",
        FOLDER,
        lambda v: f'states = {{ proposed = {_quoted(v)}, implemented = "implemented", rejected = "rejected" }}',
        ("migrate", "--apply", "--commit"),
        under="docs/rfc",
    ),
    Key("exclude", FOLDER, lambda v: f"exclude = [{_quoted(v + '/**')}]", ("migrate", "--apply", "--commit")),
    Key("conventions", FILE, lambda v: f"conventions = {_quoted(v)}", ("migrate", "--apply", "--commit")),
    Key("template", FILE, lambda v: f"template = {_quoted(v)}", ("new", "A new decision")),
]


@dataclass(frozen=True)
class Form:
    """A way to spell a path the key must refuse; ``make`` builds what it needs on disk
    (in ``base``, the folder the value is read from) and returns the value."""

    name: str
    make: Callable[[Path, Path, str], str]  # (base, outside, kind) -> value


def _literal(value: str) -> Callable[[Path, Path, str], str]:
    return lambda base, outside, kind: value


def _symlink_to_git(base: Path, outside: Path, kind: str) -> str:
    base.mkdir(parents=True, exist_ok=True)
    git_dir = next(p for p in [base, *base.parents] if (p / ".git").is_dir()) / ".git"
    (base / "gitlink").symlink_to(git_dir)
    (git_dir / "description.md").write_text("planted\n")
    return "gitlink/description.md" if kind == FILE else "gitlink"


def _symlink_out(base: Path, outside: Path, kind: str) -> str:
    base.mkdir(parents=True, exist_ok=True)
    (outside / "kept.md").write_text("# Outside\n")
    (base / "outlink").symlink_to(outside)
    return "outlink/kept.md" if kind == FILE else "outlink"


def _fifo(base: Path, outside: Path, kind: str) -> str:
    base.mkdir(parents=True, exist_ok=True)
    os.mkfifo(base / "fifo.md")
    return "fifo.md"


def _device_link(base: Path, outside: Path, kind: str) -> str:
    base.mkdir(parents=True, exist_ok=True)
    (base / "zero.md").symlink_to("/dev/zero")
    return "zero.md"


def _wrong_kind(base: Path, outside: Path, kind: str) -> str:
    """A folder where a file is meant, a file where a folder is."""
    base.mkdir(parents=True, exist_ok=True)
    if kind == FILE:
        (base / "a-folder.md").mkdir()
        return "a-folder.md"
    (base / "a-file.md").write_text("# A file\n")
    return "a-file.md"


FORMS = [
    Form("dot-git", _literal(".git")),
    Form("upper-case", _literal(".GIT/x")),
    Form("dot-slash", _literal("./.git")),
    Form("under-git", _literal(".git/rfc")),
    Form("mixed-case-deep", _literal("docs/.Git/hooks/pre-commit")),
    Form("dotdot-into-git", _literal("docs/../.git")),
    Form("dotdot-out", _literal("../outside")),
    Form("absolute", lambda base, outside, kind: str(outside)),
    Form("device", _literal("/dev/zero")),
    Form("symlink-to-git", _symlink_to_git),
    Form("symlink-out", _symlink_out),
    Form("fifo", _fifo),
    Form("symlink-to-device", _device_link),
    Form("wrong-kind", _wrong_kind),
]


# An exclude glob is a .gitignore line: a leading '/' anchors it at the repository root, so
# an "absolute" glob names a folder inside the repository, which is no attack.
CASES = [
    (key, form)
    for key in KEYS
    for form in FORMS
    if not (key.name == "exclude" and form.name in ("absolute", "device"))
]


@pytest.mark.parametrize(("key", "form"), CASES, ids=[f"{k.name}-{f.name}" for k, f in CASES])
def test_every_path_key_refuses_every_form_before_anything_is_written(
    key: Key, form: Form, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = legacy_repo(tmp_path / "repo")
    outside = tmp_path / "outside"
    outside.mkdir()
    value = form.make(repo.root / key.under, outside, key.kind)
    repo.write(".docsync.toml", key.toml(value) + "\n")
    repo.commit("config")  # committed, as a pull request would bring it
    before, beside = picture(repo.root), picture(outside)
    monkeypatch.chdir(repo.root)

    result = runner.invoke(app, list(key.command))

    assert result.exit_code == 2, result.output + result.stderr
    line = one_line(result)
    assert f"'{key.name}" in line, line
    assert picture(repo.root) == before
    assert picture(outside) == beside


@pytest.mark.parametrize("command", [("check",), ("graph",), ("fix", "--check")])
def test_read_only_commands_refuse_the_same_config(
    command: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = legacy_repo(tmp_path / "repo")
    repo.write(".docsync.toml", 'conventions = ".git/config"\n')
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, list(command))
    assert result.exit_code == 2, result.output + result.stderr
    assert "'conventions'" in one_line(result)


def test_a_lexical_refusal_holds_for_any_spelling_of_a_git_component() -> None:
    spellings = {"".join(c.upper() if bit else c for c, bit in zip(".git", bits, strict=True))
                 for bits in itertools.product([0, 1], repeat=4)}
    for spelling in spellings:
        for value in (spelling, f"docs/{spelling}", f"./{spelling}/x", f"{spelling}/", f"docs\\{spelling}\\x"):
            assert lexical_problem(value) is not None, value
            with pytest.raises(ConfigError, match="'target'"):
                parse_table({"target": value}, ".docsync.toml")


@pytest.mark.parametrize(
    ("glob", "root"),
    [("docs/old/**", "docs/old"), ("**/draft.md", ""), ("CHANGELOG.md", ""), ("docs/*.md", "docs"),
     ("a/b/c.md", "a/b"), (".git/**", ".git"), ("/docs/old/**", "docs/old"), ("!/.git/x/*", ".git/x"),
     ("docs/\\#x/*.md", "docs")],
)
def test_an_exclude_root_is_the_literal_folders_before_the_first_wildcard(glob: str, root: str) -> None:
    assert exclude_root(glob) == root


@pytest.mark.parametrize("key", ["conventions", "template"])
@pytest.mark.parametrize("value", [".github/workflows/ci.yml", "src/main.py", "Makefile", "docs/AGENTS.md.sh"])
def test_a_file_key_names_a_markdown_file(key: str, value: str) -> None:
    with pytest.raises(ConfigError, match=f"'{key}'.*not a Markdown file"):
        parse_table({key: value}, ".docsync.toml")


def test_paths_inside_the_repository_still_load(tmp_path: Path) -> None:
    config = parse_table(
        {"target": "docs/decisions", "sources": ["doc/adr"], "conventions": "docs/CONVENTIONS.md",
         "template": "docs/templates/record.md", "exclude": ["**/.github/**", "docs/old/**", "/vendor/**"],
         "states": {"proposed": "open", "implemented": "done", "rejected": "closed"}},
        ".docsync.toml",
    )
    assert config.template == "docs/templates/record.md"
    assert config.target == "docs/decisions"
