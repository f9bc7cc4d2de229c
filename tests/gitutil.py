"""Real git repositories for tests, isolated from the machine they run on.

Every git command here runs with the inherited ``GIT_*`` variables removed
(a test run from a git hook would otherwise act on the outer repository), the
user's and the system's git config ignored, a fixed identity, ``main`` as the
default branch and fixed dates, so commit ids are reproducible.

Two levels:

* :func:`git` runs one command in a folder and returns its stdout;
* :class:`GitRepo` builds history step by step: ``write``, ``commit`` with a
  chosen author date and time zone, ``move``, ``remove``, ``branch``,
  ``switch``, ``merge`` (fast-forward, merge commit, or stopped before
  committing), ``clone``.

Code under test that runs git itself (GitPython) reads ``os.environ``; call
:func:`isolate_git_environ` from a fixture to give it the same isolation::

    @pytest.fixture(autouse=True)
    def _isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
        isolate_git_environ(monkeypatch)
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

AUTHOR_NAME = "Docsync Tests"
AUTHOR_EMAIL = "tests@docsync.invalid"
DEFAULT_DATE = "2020-01-01 12:00:00"
DEFAULT_TZ = "+0000"

_CONFIG = {
    "init.defaultBranch": "main",
    "commit.gpgsign": "false",
    "tag.gpgsign": "false",
    "core.autocrlf": "false",
    "merge.conflictStyle": "merge",
}


def git_environ(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``base`` (default ``os.environ``) without ``GIT_*``, plus the isolation settings."""
    env = {
        k: v for k, v in (os.environ if base is None else base).items() if not k.startswith("GIT_")
    }
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_AUTHOR_NAME=AUTHOR_NAME,
        GIT_AUTHOR_EMAIL=AUTHOR_EMAIL,
        GIT_COMMITTER_NAME=AUTHOR_NAME,
        GIT_COMMITTER_EMAIL=AUTHOR_EMAIL,
        GIT_AUTHOR_DATE=f"{DEFAULT_DATE} {DEFAULT_TZ}",
        GIT_COMMITTER_DATE=f"{DEFAULT_DATE} {DEFAULT_TZ}",
        GIT_CONFIG_COUNT=str(len(_CONFIG)),
    )
    for i, (key, value) in enumerate(_CONFIG.items()):
        env[f"GIT_CONFIG_KEY_{i}"] = key
        env[f"GIT_CONFIG_VALUE_{i}"] = value
    return env


def isolate_git_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    """Give code under test the same isolated git environment as :func:`git`."""
    for key in [k for k in os.environ if k.startswith("GIT_")]:
        monkeypatch.delenv(key)
    for key, value in git_environ().items():
        if key.startswith("GIT_"):
            monkeypatch.setenv(key, value)


def git(cwd: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    """Run ``git *args`` in ``cwd``; stdout on success, an error naming stderr otherwise.

    ``env`` adds to (and overrides) the isolated environment, e.g. dates.
    """
    full_env = git_environ()
    full_env.update(env or {})
    result = subprocess.run(
        ["git", *args], cwd=cwd, env=full_env, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed ({result.returncode}):\n{result.stderr}")
    return result.stdout


def dated(when: str = DEFAULT_DATE, tz: str = DEFAULT_TZ) -> dict[str, str]:
    """Environment that sets both author and committer date, e.g. ``dated("2021-03-04 23:30", "-0800")``."""
    stamp = f"{when} {tz}"
    return {"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}


@dataclass(frozen=True)
class GitRepo:
    """A repository in ``root`` with helpers that keep each test to its story."""

    root: Path

    @classmethod
    def init(cls, root: Path) -> GitRepo:
        root.mkdir(parents=True, exist_ok=True)
        git(root, "init", "-q")
        return cls(root)

    @classmethod
    def holding(
        cls, root: Path, files: Mapping[str, str], message: str = "pages", **when: str
    ) -> GitRepo:
        """A new repository in ``root`` whose one commit holds ``files`` (path to text);
        ``when`` and ``tz`` as :meth:`commit` takes them."""
        repo = cls.init(root)
        for path, text in files.items():
            repo.write(path, text)
        repo.commit(message, **when)
        return repo

    def git(self, *args: str, env: Mapping[str, str] | None = None) -> str:
        return git(self.root, *args, env=env)

    def write(self, path: str, text: str = "") -> Path:
        """Write a file (folders created); ``text`` defaults to a line naming the path."""
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text or f"# {path}\n")
        return target

    def commit(
        self,
        message: str = "change",
        *,
        when: str = DEFAULT_DATE,
        tz: str = DEFAULT_TZ,
        paths: tuple[str, ...] = (),
    ) -> str:
        """Stage ``paths`` (default: everything) and commit with author date ``when`` in ``tz``.

        Returns the new commit id. Empty commits are allowed.
        """
        self.git("add", "-A", "--", *paths)
        self.git("commit", "-q", "--allow-empty", "-m", message, env=dated(when, tz))
        return self._committed() or self.head()

    def _committed(self) -> str | None:
        """The commit HEAD's branch names, read from its ref file where git keeps it as one
        (a repository made here: ``.git`` a folder, the branch's ref not packed); else None.
        A ``git rev-parse`` less after each of the suite's thousands of commits."""
        head = self.root / ".git" / "HEAD"
        try:
            ref = head.read_text().removeprefix("ref: ").strip()
            sha = (self.root / ".git" / ref).read_text().strip() if ref.startswith("refs/heads/") else ""
        except OSError:
            return None
        return sha if len(sha) in (40, 64) and all(c in "0123456789abcdef" for c in sha) else None

    def move(self, old: str, new: str) -> None:
        """``git mv``, creating the target folder."""
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        self.git("mv", old, new)

    def remove(self, path: str) -> None:
        self.git("rm", "-q", path)

    def branch(self, name: str, start: str = "HEAD") -> None:
        """Create branch ``name`` at ``start`` and switch to it."""
        self.git("switch", "-q", "-c", name, start)

    def switch(self, name: str) -> None:
        self.git("switch", "-q", name)

    def merge(
        self,
        branch: str,
        *,
        when: str = DEFAULT_DATE,
        tz: str = DEFAULT_TZ,
        fast_forward: bool = False,
        commit: bool = True,
    ) -> str:
        """Merge ``branch`` into the current branch; returns HEAD afterwards.

        ``fast_forward=True`` requires a fast-forward (no merge commit);
        otherwise a merge commit is always made (``--no-ff``). With
        ``commit=False`` the merge stops before committing, so the test can
        change the result and call :meth:`commit`, which then records the merge.
        """
        args = ["merge", "-q", "--ff-only" if fast_forward else "--no-ff"]
        if not commit:
            args.append("--no-commit")
        self.git(*args, "-m", f"Merge {branch}", branch, env=dated(when, tz))
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").strip()

    def copy(self, target: Path) -> GitRepo:
        """A copy of the whole folder, ``.git`` and all (symlinks as symlinks, modes kept):
        for a loop that needs many alike repositories, no git process. A ``git clone`` of a
        small repository costs about 25 ms of CPU in five processes; this about 5 ms."""
        shutil.copytree(self.root, target, symlinks=True)
        return GitRepo(target)

    def clone(self, target: Path, *args: str) -> GitRepo:
        """``git clone *args file://root target``, e.g. ``clone(path, "--depth", "1")``."""
        git(target.parent, "clone", "-q", *args, self.root.as_uri(), str(target))
        return GitRepo(target)
