"""Fresh attacks, as an outsider would make them, beyond the examples of issue #35.

Each class is generated over its forms, on repositories built once per module:

* a record that is a tracked symlink out of the repository (a relative path, an
  absolute one, one into ``.git``, a chain of links): ``migrate`` read its target and
  printed its title (class 1: nothing outside the work tree is read);
* a ``.docsync.toml``, ``pyproject.toml`` or plan file nested thousands deep: a
  ``RecursionError`` traceback (class 6);
* config path spellings not in :mod:`tests.test_untrusted_paths` (backslashes, ``..``
  through a symlinked folder, a trailing slash or space, doubled slashes, a NUL):
  each refused with exit 2 and one line (class 1; these held).

The record of what was tried, and what broke, is in the threat model's design record.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import chdir
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from tests.gitutil import GitRepo

runner = CliRunner()
SECRET = "Outside secret 7f3a"
RECORD = "# ADR 0001: Use X\n\nStatus: accepted\n\nText.\n"


def _run(root: Path, *args: str) -> tuple[int, str, str]:
    with chdir(root):
        result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


# --------------------------------------------------------------------------- symlinked records

LINKS = {  # record name -> where its symlink points (from docs/adr/)
    "0002-relative.md": "../../../outside.md",
    "0003-absolute.md": "{outside}",
    "0004-into-git.md": "../../.git/secret.md",
    "0005-chain.md": "0002-relative.md",
}


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("linked")
    outside = base / "outside.md"
    outside.write_text(f"# {SECRET}\n\nStatus: accepted\n")
    repo = GitRepo.init(base / "repo")
    repo.write("docs/adr/0001-use-x.md", RECORD)
    repo.write(".docsync.toml", 'sources = [{ path = "docs/adr", status = "implemented" }]\n')
    (repo.root / ".git" / "secret.md").write_text(f"# {SECRET}\n")
    for name, target in LINKS.items():
        (repo.root / "docs" / "adr" / name).symlink_to(target.format(outside=outside))
    repo.commit("records, some symlinks out")
    return repo.root


@pytest.mark.parametrize("args", [["migrate"], ["migrate", "--verbose"], ["migrate", "--format", "json"]])
def test_a_record_that_is_a_symlink_out_is_never_read(linked: Path, args: list[str]) -> None:
    code, out, err = _run(linked, *args)
    assert SECRET not in out + err
    assert code in (0, 1, 2), err
    # a symlink is no record: none is planned, so none is read (not even for its title); the
    # dry run names each one it skips, on a line (or in a JSON list) of its own
    if args[-1] == "json":
        payload = json.loads(out)
        assert sorted(payload.pop("symlinks")) == [f"docs/adr/{name}" for name in sorted(LINKS)]
        kept = {k["path"] for k in payload.pop("symlinks_kept")}
        assert kept == {f"docs/adr/{n}" for n in LINKS} - {"docs/adr/0005-chain.md"}
        out = json.dumps(payload)
    else:  # each is named as skipped, each link out as left alone (issue #37), and nowhere else
        skipped = [line for line in out.splitlines() if line.startswith("symlink skipped")]
        assert sorted(line.rsplit(": ", 1)[1] for line in skipped) == [f"docs/adr/{n}" for n in sorted(LINKS)]
        out = "\n".join(
            line for line in out.splitlines() if line not in skipped and not line.startswith("symlink left alone: ")
        )
    assert not [name for name in LINKS if name.removesuffix(".md") in out], out


# --------------------------------------------------------------------------- deep TOML


def _deep_array(n: int) -> str:
    return "x = " + "[" * n + "]" * n


def _deep_inline(n: int) -> str:
    return "x = " + "{a = " * n + "1" + "}" * n


DEEP = {"array": _deep_array, "inline table": _deep_inline}


@pytest.fixture(scope="module")
def plain_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = GitRepo.init(tmp_path_factory.mktemp("deep") / "repo")
    repo.write("docs/adr/0001-use-x.md", RECORD)
    repo.commit("one record")
    return repo.root


@pytest.fixture
def clean(plain_repo: Path) -> Iterator[Path]:
    yield plain_repo
    for name in (".docsync.toml", "pyproject.toml", "plan.toml"):
        (plain_repo / name).unlink(missing_ok=True)


@pytest.mark.parametrize("where", [".docsync.toml", "pyproject.toml", "plan.toml"])
@pytest.mark.parametrize("shape", list(DEEP))
def test_toml_nested_thousands_deep_is_one_line(clean: Path, where: str, shape: str) -> None:
    text = DEEP[shape](20_000)
    if where == "pyproject.toml":
        text = "[tool.docsync]\n" + text
    (clean / where).write_text(text + "\n")
    args = ["migrate", "--plan", "plan.toml"] if where == "plan.toml" else ["check"]
    code, out, err = _run(clean, *args)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1, (code, out, err)
    assert "Traceback" not in err and "nested too deep" in lines[0], lines


# --------------------------------------------------------------------------- config path spellings

SPELLINGS = [
    "docs\\..\\.git",
    "lnk/../.git",
    "lnk/../../.git/rfc",
    ".git/",
    ".GIT ",
    "docs/./.git/x",
    "docs/../docs/../.git",
    "//tmp/x",
    "docs//..//..//x",
    "docs/\0x",
]


@pytest.fixture(scope="module")
def symlinked_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = GitRepo.init(tmp_path_factory.mktemp("spell") / "repo")
    repo.write("docs/sub/page.md", "# Page\n")
    (repo.root / "lnk").symlink_to("docs/sub")
    repo.commit("a symlinked folder")
    return repo.root


@pytest.mark.parametrize("key", ["target", "conventions"])
@pytest.mark.parametrize("spelling", SPELLINGS, ids=lambda s: repr(s[:20]))
def test_every_fresh_path_spelling_is_refused_in_one_line(symlinked_folder: Path, key: str, spelling: str) -> None:
    value = spelling if key == "target" else f"{spelling}/c.md"
    config = symlinked_folder / ".docsync.toml"
    config.write_text(f"{key} = {json.dumps(value)}\n")
    try:
        code, out, err = _run(symlinked_folder, "check")
    finally:
        config.unlink()
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, (code, out, err)


# --------------------------------------------------------------------------- git's monitor


@pytest.mark.parametrize(
    "args",
    [["check"], ["check", "--staged"], ["fix"], ["migrate", "--apply", "--commit"], ["new", "Use Y"]],
    ids=" ".join,
)
def test_no_command_runs_the_file_system_monitor_a_git_config_names(tmp_path: Path, args: list[str]) -> None:
    """``core.fsmonitor`` in a ``.git/config`` unpacked from an archive (or included from
    a tracked file) names a command git runs on ``status`` and ``check-ignore``: docsync
    runs git with the monitor off, as it runs no hook."""
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("docs/adr/0001-use-x.md", RECORD)
    repo.write("README.md", "# P\n\nSee [x](docs/adr/0001-use-x.md).\n")
    repo.commit("a record")
    marker = tmp_path / "monitor-ran"
    repo.git("config", "core.fsmonitor", f"touch {marker}; echo")
    if args[0] == "new":
        _run(repo.root, "migrate", "--apply", "--commit")
        marker.unlink(missing_ok=True)
    code, out, err = _run(repo.root, *args)
    assert code in (0, 1), (out, err)
    assert not marker.exists(), f"docsync {' '.join(args)} ran core.fsmonitor"


# A committed `jobs` is the repository's, so a pull request can set it: it must not
# fork more worker processes than the machine has cores, whatever it says.
@pytest.mark.parametrize("jobs", [0, 1, 2, 3, 64, 10**6, 2**62])
def test_a_committed_jobs_never_forks_more_than_the_cores(jobs: int) -> None:
    import os

    from docsync.config import Config
    from docsync.migrate.rewrite.fanout import workers_for
    from docsync.workspace.parsing import _workers

    cores = os.cpu_count() or 1
    assert 1 <= _workers(Config(jobs=jobs), 10**7) <= cores
    assert workers_for(jobs, 10**7) <= cores
    if jobs >= cores:  # asked for at least every core, it gets every core (where fork is safe)
        assert _workers(Config(jobs=jobs), 10**7) == cores


# `max_file_size` bounds a file's memory, and the committed config is the repository's:
# it may lower the cap, never raise it past the ceiling.
@pytest.mark.parametrize("offset", [-1, 0, 1, 10**9, 10**30])
def test_a_committed_max_file_size_cannot_pass_the_ceiling(tmp_path: Path, offset: int) -> None:
    from docsync.config_values import FILE_SIZE_CEILING

    repo = GitRepo.init(tmp_path)
    repo.write("a.md", "# A\n")
    repo.write(".docsync.toml", f"max_file_size = {FILE_SIZE_CEILING + offset}\n")
    repo.commit("a")
    with chdir(tmp_path):
        result = CliRunner().invoke(app, ["check"])
    if offset <= 0:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 2
        assert f"at most {FILE_SIZE_CEILING}" in result.output
        assert "Traceback" not in result.output
