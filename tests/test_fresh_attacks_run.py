"""The second outsider's run of issue #35: the classes that broke, generated.

* **A live run taken for a killed one** (class 4): while one write command runs, a
  second one, or ``--abort``/``--continue``, read its journal as an unfinished run's,
  said it "did not finish", and ``--abort`` put the files back under the live run.
  Every write command x {run, ``--abort``, ``--continue``} while another run holds the
  journal: exit 2, one line naming the other run, the live run's files untouched.
* **A full disk at any cache write** (class 2): the cache key written, its stamp not,
  and every later run warned of a planted key. Every cache write k of a cold ``check``
  fails with ENOSPC: the findings are a cacheless run's, and a later run warns of nothing.
* **YAML that expands** (class 5): a ``.pre-commit-config.yaml`` of aliases a few hundred
  bytes long expands to a billion values, and ``init --hooks`` hung. Each spot for the
  aliases x ``init --hooks``: exit 2, one line, nothing written.
* **A site generator's config that is no regular file** (classes 1 and 6): ``book.toml``
  or ``mkdocs.yml`` as a symlink to ``/dev/zero``, or a FIFO, hung ``check``. Each
  generator x form, as a real process: the findings of a repository without it.

What was tried and what held is in the threat model's design record.
"""

from __future__ import annotations

import errno
import os
import resource
import shutil
import subprocess
import sys
from contextlib import chdir
from pathlib import Path

import pytest

from docsync.cli import app
from docsync.workspace import cache_key
from docsync.write import transaction, writer
from tests.gitutil import GitRepo, git_environ
from tests.test_untrusted_git import WRITE_COMMANDS
from tests.untrusted import legacy_repo, one_line, picture, runner

# --------------------------------------------------------------------------- a live run


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One repository per write command, built once and copied."""
    base = tmp_path_factory.mktemp("live")
    with pytest.MonkeyPatch.context() as patch:
        from tests.gitutil import isolate_git_environ

        isolate_git_environ(patch)
        return {name: make(base / name).root for name, (make, _) in WRITE_COMMANDS.items()}


@pytest.mark.parametrize("ending", ["run", "--abort", "--continue"])
@pytest.mark.parametrize("which", list(WRITE_COMMANDS))
def test_a_second_command_never_takes_a_live_run_for_a_killed_one(
    built: dict[str, Path], tmp_path: Path, which: str, ending: str
) -> None:
    root = tmp_path / "repo"
    shutil.copytree(built[which], root, symlinks=True)
    command = WRITE_COMMANDS[which][1]
    live = transaction.Transaction.begin(root, command[0], {}, ["README.md"])
    try:
        live.write(writer.FileWrite("README.md", "# Written by the live run\n"))
        during = picture(root, git=("hooks",))
        args = list(command) if ending == "run" else [command[0], ending]
        with chdir(root):
            result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "another docsync run is changing this repository" in one_line(result)
        assert picture(root, git=("hooks",)) == during  # nothing undone under the live run
        assert transaction.pending(root / ".git") is not None
    finally:
        assert live.rollback() == []


def test_once_the_live_run_has_died_abort_finishes_it(built: dict[str, Path], tmp_path: Path) -> None:
    """The control: a run that died (the kernel drops its lock) is aborted as before."""
    root = tmp_path / "repo"
    shutil.copytree(built["fix"], root, symlinks=True)
    before = picture(root, git=("hooks",))
    live = transaction.Transaction.begin(root, "fix", {}, ["README.md"])
    live.write(writer.FileWrite("README.md", "# Written by the run that died\n"))
    live.release()
    with chdir(root):
        assert runner.invoke(app, ["fix"]).exit_code == 2
        aborted = runner.invoke(app, ["fix", "--abort"])
    assert aborted.exit_code == 0, aborted.output
    assert picture(root, git=("hooks",)) == before


# --------------------------------------------------------------------------- a full disk


PAGES = {
    "README.md": "# Project\n\nRead [the guide](docs/guide.md#install) and [nothing](docs/nope.md).\n",
    "docs/guide.md": "# Guide\n\n## Install\n\nA hard\nwrapped line.\n",
}


def test_a_full_disk_at_any_cache_write_costs_nothing_later(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    template = tmp_path / "template"
    repo = GitRepo.init(template)
    for path, text in PAGES.items():
        repo.write(path, text)
    repo.commit("pages")
    writes: list[str] = []
    monkeypatch.setattr(writer, "mutation_point", lambda kind, path: writes.append(kind))
    cache_key.forget()
    with chdir(template):
        reference = runner.invoke(app, ["check", "--format", "json"])
    assert reference.exit_code == 1 and len(writes) >= 4, writes
    for k in range(1, len(writes) + 1):
        root = tmp_path / f"k{k}"
        shutil.copytree(template, root, symlinks=True, ignore=shutil.ignore_patterns("docsync"))
        seen = [0]

        def full(kind: str, path: Path, k: int = k, seen: list[int] = seen) -> None:
            seen[0] += 1
            if seen[0] >= k and kind not in ("unlink", "rmdir"):  # a full disk still frees
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

        cache_key.forget()
        monkeypatch.setattr(writer, "mutation_point", full)
        with chdir(root):
            first = runner.invoke(app, ["check", "--format", "json"])
        assert (first.exit_code, first.stdout) == (1, reference.stdout), f"write {k}: {first.stderr}"
        monkeypatch.setattr(writer, "mutation_point", lambda kind, path: None)
        monkeypatch.setattr(cache_key, "_just_made", lambda info: False)  # a later run, seconds on
        cache_key.forget()
        with chdir(root):
            later = runner.invoke(app, ["check", "--format", "json"])
        assert (later.exit_code, later.stdout) == (1, reference.stdout)
        assert "warning" not in later.stderr, f"disk full from cache write {k}: {later.stderr}"
        monkeypatch.undo()
        monkeypatch.setattr(writer, "mutation_point", lambda kind, path: None)
    cache_key.forget()


# --------------------------------------------------------------------------- YAML aliases


def _laughs(levels: int = 9) -> str:
    """``levels`` anchors, each a list naming the one before nine times: 9**levels values."""
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


PRE_COMMIT_FORMS = {
    "another top key": "repos:\n- repo: local\n  hooks: []\n" + _laughs(),
    "before repos": _laughs() + "repos:\n- repo: local\n  hooks: []\n",
    "inside a hook": _laughs() + "repos:\n- repo: local\n  hooks:\n  - id: x\n    args: *l9\n",
    "as the repos' last item": _laughs() + "repos:\n- *l9\n",
}


@pytest.mark.parametrize("form", list(PRE_COMMIT_FORMS))
def test_yaml_aliases_that_expand_are_refused_by_init(tmp_path: Path, form: str) -> None:
    repo = legacy_repo(tmp_path / "repo")
    repo.write(".pre-commit-config.yaml", PRE_COMMIT_FORMS[form])
    repo.commit("pre-commit")
    before = picture(repo.root, git=("hooks",))
    with chdir(repo.root):
        result = runner.invoke(app, ["init", "--hooks"])
    assert result.exit_code == 2, result.output
    assert "aliases expand" in one_line(result) or "flow style" in result.stderr
    assert picture(repo.root, git=("hooks",)) == before


# --------------------------------------------------------------------------- a site's config


SITE_CONFIGS = {"mdbook": "book.toml", "mkdocs": "mkdocs.yml"}


def _limited() -> None:  # pragma: no cover (runs in the child)
    resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))


@pytest.mark.parametrize("form", ["a symlink to /dev/zero", "a FIFO"])
@pytest.mark.parametrize("site", list(SITE_CONFIGS))
def test_a_site_config_that_is_no_regular_file_is_not_read(tmp_path: Path, site: str, form: str) -> None:
    repo = GitRepo.init(tmp_path / "repo")
    for path, text in PAGES.items():
        repo.write(path, text)
    repo.write(".docsync.toml", f'site = "{site}"\n')
    config = repo.root / SITE_CONFIGS[site]
    if form == "a FIFO":
        config.write_text("")
        repo.commit("pages")
        config.unlink()
        os.mkfifo(config)
    else:
        config.symlink_to("/dev/zero")
        repo.commit("pages")
    found = subprocess.run(
        [sys.executable, "-m", "docsync", "check", "--format", "json"],
        cwd=repo.root, env=git_environ(), capture_output=True, timeout=60, preexec_fn=_limited,
    )
    assert found.returncode == 1, found.stderr
    assert b"Traceback" not in found.stderr
    assert b"docs/nope.md" in found.stdout
