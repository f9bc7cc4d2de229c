"""The git commands that change a repository. The only module that imports GitPython.

What docsync only reads from git it asks with plain ``git`` subprocesses
(:mod:`docsync.repository.plumbing`, :mod:`docsync.repository.git_history`), so a
command that writes nothing (``check``, a migration's dry run) never imports
GitPython. Nothing here knows Markdown.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

# GitPython raises ImportError at import when git is not on PATH; docsync
# says so in one line instead (open_repo), so the import must not fail.
os.environ.setdefault("GIT_PYTHON_REFRESH", "quiet")

if TYPE_CHECKING:
    import git
else:

    class _GitPython:
        """GitPython, imported on first use: importing it is a tenth of a second, and a
        command that imports this module on its way (``check``) may never call git here."""

        def __getattr__(self, name: str) -> Any:
            import git

            return getattr(git, name)

    git = _GitPython()

from ..errors import GitError
from ..write import writer
from . import plumbing
from .git_output import batches, first_line, z_list
from .plumbing import RepoPaths


def open_repo(start: Path) -> git.Repo:
    if shutil.which(str(git.Git.GIT_PYTHON_GIT_EXECUTABLE or "git")) is None:
        raise GitError("git is not installed or not on PATH; install git, then run docsync again")
    try:
        repo = git.Repo(start, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise GitError(f"not inside a git repository: {start}") from None
    except git.GitCommandNotFound:
        raise GitError("git is not installed or not on PATH") from None
    if repo.bare or repo.working_tree_dir is None:
        raise GitError(f"{start} is a bare repository; docsync needs a working tree")
    return repo


@dataclass(frozen=True)
class Worktree:
    """The repository one writing command changes, asked of git once: its root, git
    directory and index file (one ``git rev-parse``, :func:`~.plumbing.find_repo`), and one
    GitPython ``Repo``, opened at the first git command. Made per command and passed down
    (to :class:`~docsync.write.transaction.Transaction` too), never kept across commands:
    what the user may change meanwhile (HEAD, the index, the files) is still read afresh."""

    paths: RepoPaths

    @property
    def root(self) -> Path:
        return self.paths.root

    @property
    def git_dir(self) -> Path:
        return self.paths.git_dir

    @property
    def index(self) -> Path:
        """The index file: where it is was asked with the root (its bytes are read afresh)."""
        return self.paths.index

    @cached_property
    def repo(self) -> git.Repo:
        return open_repo(self.root)


def worktree(start: Path, found: RepoPaths | None = None) -> Worktree:
    """The work tree holding ``start``; ``found``: the caller asked git already."""
    return Worktree(found or plumbing.find_repo(start))


# --------------------------------------------------------------------------- writing (migrate --apply)
# The only git commands that change a repository; each is a mutation point
# (docsync.write.writer). They run inside a docsync.write.transaction.Transaction, which
# records HEAD, the index and every touched file first and restores them on
# any failure.


NO_HOOKS = ("-c", f"core.hooksPath={os.devnull}", *plumbing.NO_MONITOR)
"""Run no hook: a hooks folder that does not exist holds none (``pre-commit``,
``prepare-commit-msg``, ``commit-msg``, ``post-commit``, ``reference-transaction``, …)."""


def _git(tree: Worktree, *args: str, literal: bool = False) -> str:
    """git's output; no hook runs, as docsync runs nothing the repository names (``status``
    and ``add`` write the index, and would run ``post-index-change``)."""
    repo = tree.repo
    command = ["git", *NO_HOOKS, *(["--literal-pathspecs"] if literal else []), *args]
    try:
        return str(repo.git.execute(command, with_extended_output=False))
    except git.GitCommandError as exc:
        raise GitError(f"git {args[0]} failed: {first_line(str(exc.stderr))}") from None


def _mutating(tree: Worktree, *args: str) -> str:
    """A git command that changes the repository: a mutation the fault tests can fail.
    Its paths are file names, never patterns (``x[1].md`` must not also stage ``x1.md``).
    No hook runs (see :func:`_git`)."""
    writer.mutation_point("git", tree.root)
    return _git(tree, *args, literal=True)


@dataclass(frozen=True)
class Status:
    """The work tree against HEAD, from one ``git status``: every tracked file with
    uncommitted changes (staged or not), and those of them the index changes."""

    dirty: tuple[str, ...]
    staged: frozenset[str]
    """What ``git diff --cached --name-only --no-renames`` names: both sides of a staged
    rename (no rename detection), deletes and conflicts too."""


def status(tree: Worktree) -> Status:
    """:class:`Status`, asked of git once (before an apply: a status, a file later, is the
    file's own business; each write checks it afresh)."""
    output = _git(tree, "status", "--porcelain", "-z", "--no-renames", "--untracked-files=no")
    entries = [(entry[:2], entry[3:]) for entry in z_list(output) if len(entry) > 3 and entry[2] == " "]
    return Status(tuple(path for _, path in entries), frozenset(p for xy, p in entries if xy[0] not in " ?!"))


def move_files(tree: Worktree, moves: list[tuple[str, str]]) -> None:
    """What ``git mv`` does for each (old, new), in a few git commands instead of one per file.

    The files are renamed on disk through the guarded writer (a symlink moves
    as a symlink), the old paths leave the index and the new ones enter it
    with the same content, so the next commit records pure renames that
    ``git log --follow`` follows.
    """
    writer.preflight(tree.root, [], moves)
    for old, new in moves:
        writer.rename(tree.root, old, new)
    for batch in batches([old for old, _ in moves]):
        _mutating(tree, "rm", "-q", "--cached", "--", *batch)
    stage(tree, [new for _, new in moves])


def remove_files(tree: Worktree, paths: list[str]) -> None:
    writer.preflight(tree.root, [], removals=paths)
    for batch in batches(paths):
        _mutating(tree, "rm", "-q", "--", *batch)


def ignored(tree: Worktree, paths: list[str]) -> list[str]:
    """The paths among ``paths`` that a ``.gitignore`` (or the exclude file) ignores."""
    if not paths:
        return []
    repo = tree.repo
    with tempfile.TemporaryFile() as feed:
        feed.write("\0".join(paths).encode() + b"\0")
        feed.seek(0)
        try:
            out = repo.git.execute(
                ["git", *NO_HOOKS, "check-ignore", "-z", "--stdin"], istream=feed, with_extended_output=False
            )
        except git.GitCommandError as exc:
            if exc.status == 1:  # none ignored
                return []
            raise GitError(f"git check-ignore failed: {first_line(str(exc.stderr))}") from None
    return z_list(str(out))


def stage(tree: Worktree, paths: list[str]) -> list[str]:
    """``git add`` the paths; ignored ones deliberately (``-f``). Returns those."""
    forced = ignored(tree, paths)
    plain = [p for p in paths if p not in set(forced)]
    for batch in batches(plain):
        _mutating(tree, "add", "-A", "--", *batch)
    for batch in batches(forced):
        _mutating(tree, "add", "-A", "-f", "--", *batch)
    return forced


def refuse_sparse(tree: Worktree, what: str) -> None:
    """A sparse checkout hides files a rewrite must reach: refuse before any change."""
    repo = tree.repo
    try:
        sparse = repo.git.config("--bool", "core.sparseCheckout").strip() == "true"
    except git.GitCommandError:
        sparse = False
    if sparse:
        raise GitError(
            f"this is a sparse checkout, and {what} must rewrite files outside its cone; "
            "run `git sparse-checkout disable` first (re-enable it afterwards)"
        )


def commit_index(tree: Worktree, message: str) -> str:
    """Commit what is staged; returns the new HEAD.

    Every hook is skipped (``--no-verify`` and :data:`NO_HOOKS`): the pure-move
    commit has links that only the next commit fixes, a hook must not change what
    is committed, and docsync runs nothing the repository names.
    """
    _mutating(tree, "commit", "-q", "--no-verify", "-m", message)
    return _git(tree, "rev-parse", "HEAD").strip()


_COMMIT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def set_head(tree: Worktree, head: str | None) -> None:
    """Point HEAD (its branch) back at ``head``; None: back to an unborn branch. HEAD is read
    afresh: the run (or the user) may have moved it since it was recorded."""
    now = plumbing.head_commit(tree.root)
    if now == head:
        return
    if head is None:
        _mutating(tree, "update-ref", "-d", "HEAD")
    else:
        if not _COMMIT_ID.fullmatch(head):
            raise GitError(f"not a commit id: {head!r}; HEAD is left where it is")
        _mutating(tree, "update-ref", "-m", "docsync: roll back", "--end-of-options", "HEAD", head)
