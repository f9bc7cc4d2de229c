"""Everything docsync reads from git. The only module that imports GitPython.

Plain data goes out: repository paths, what the index tracks, and (in
:mod:`docsync.history`'s terms) the history of files. Nothing here knows
Markdown.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import git

from .errors import GitError

SYMLINK_MODE = "120000"
GITLINK_MODE = "160000"


@dataclass(frozen=True, slots=True)
class RepoPaths:
    root: Path
    git_dir: Path


@dataclass(frozen=True, slots=True)
class Listing:
    """What the index tracks (path → mode) and untracked files git does not ignore."""

    tracked: dict[str, str]
    untracked: frozenset[str]

    def is_symlink(self, path: str) -> bool:
        return self.tracked.get(path) == SYMLINK_MODE


def open_repo(start: Path) -> git.Repo:
    try:
        repo = git.Repo(start, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise GitError(f"not inside a git repository: {start}") from None
    except git.GitCommandNotFound:
        raise GitError("git is not installed or not on PATH") from None
    if repo.bare or repo.working_tree_dir is None:
        raise GitError(f"{start} is a bare repository; docsync needs a working tree")
    return repo


def find_repo(start: Path) -> RepoPaths:
    """The work tree root and git directory of the repository holding ``start``."""
    repo = open_repo(start)
    assert repo.working_tree_dir is not None
    return RepoPaths(Path(repo.working_tree_dir).resolve(), Path(repo.git_dir).resolve())


def _z_list(output: str) -> list[str]:
    return [item for item in output.split("\0") if item]


def list_files(root: Path) -> Listing:
    """Tracked paths with their modes, and untracked non-ignored paths."""
    repo = open_repo(root)
    try:
        staged = repo.git.ls_files("-s", "-z", "--full-name")
        others = repo.git.ls_files("-o", "--exclude-standard", "-z", "--full-name")
    except git.GitCommandError as exc:
        raise GitError(f"git ls-files failed: {exc.stderr.strip()}") from None
    tracked: dict[str, str] = {}
    for entry in _z_list(staged):
        meta, _, path = entry.partition("\t")
        mode = meta.split(" ", 1)[0]
        if mode != GITLINK_MODE:
            tracked[path] = mode
    return Listing(tracked, frozenset(_z_list(others)))


def changed_files(root: Path, rev: str | None) -> frozenset[str]:
    """Files changed between ``rev`` (default: merge base with the default branch) and the work tree."""
    repo = open_repo(root)
    try:
        if rev is None:
            rev = _default_base(repo)
        diff = repo.git.diff("--name-only", "-z", "--no-renames", rev)
        others = repo.git.ls_files("-o", "--exclude-standard", "-z", "--full-name")
    except git.GitCommandError as exc:
        raise GitError(f"cannot diff against {rev!r}: {exc.stderr.strip()}") from None
    return frozenset(_z_list(diff)) | frozenset(_z_list(others))


def _default_base(repo: git.Repo) -> str:
    for candidate in ("origin/HEAD", "origin/main", "origin/master", "main", "master"):
        try:
            return str(repo.git.merge_base("HEAD", candidate)).strip()
        except git.GitCommandError:
            continue
    return "HEAD"


def head_commit(root: Path) -> str | None:
    repo = open_repo(root)
    try:
        return repo.head.commit.hexsha
    except ValueError:
        return None
