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


# --------------------------------------------------------------------------- writing (migrate --apply)
# The only git commands that change a repository; each is a mutation point
# (docsync.write.writer). They run inside a docsync.write.transaction.Transaction, which
# records HEAD, the index and every touched file first and restores them on
# any failure.


NO_HOOKS = ("-c", f"core.hooksPath={os.devnull}", *plumbing.NO_MONITOR)
"""Run no hook: a hooks folder that does not exist holds none (``pre-commit``,
``prepare-commit-msg``, ``commit-msg``, ``post-commit``, ``reference-transaction``, …)."""


def _git(root: Path, *args: str, literal: bool = False) -> str:
    """git's output; no hook runs, as docsync runs nothing the repository names (``status``
    and ``add`` write the index, and would run ``post-index-change``)."""
    repo = open_repo(root)
    command = ["git", *NO_HOOKS, *(["--literal-pathspecs"] if literal else []), *args]
    try:
        return str(repo.git.execute(command, with_extended_output=False))
    except git.GitCommandError as exc:
        raise GitError(f"git {args[0]} failed: {first_line(str(exc.stderr))}") from None


def _mutating(root: Path, *args: str) -> str:
    """A git command that changes the repository: a mutation the fault tests can fail.
    Its paths are file names, never patterns (``x[1].md`` must not also stage ``x1.md``).
    No hook runs (see :func:`_git`)."""
    writer.mutation_point("git", root)
    return _git(root, *args, literal=True)


def dirty_files(root: Path) -> list[str]:
    """Tracked files with uncommitted changes (staged or not)."""
    output = _git(root, "status", "--porcelain", "-z", "--untracked-files=no")
    return [entry[3:] for entry in z_list(output) if len(entry) > 3 and entry[2] == " "]


def move_files(root: Path, moves: list[tuple[str, str]]) -> None:
    """What ``git mv`` does for each (old, new), in a few git commands instead of one per file.

    The files are renamed on disk through the guarded writer (a symlink moves
    as a symlink), the old paths leave the index and the new ones enter it
    with the same content, so the next commit records pure renames that
    ``git log --follow`` follows.
    """
    writer.preflight(root, [], moves)
    for old, new in moves:
        writer.rename(root, old, new)
    for batch in batches([old for old, _ in moves]):
        _mutating(root, "rm", "-q", "--cached", "--", *batch)
    stage(root, [new for _, new in moves])


def remove_files(root: Path, paths: list[str]) -> None:
    writer.preflight(root, [], removals=paths)
    for batch in batches(paths):
        _mutating(root, "rm", "-q", "--", *batch)


def ignored(root: Path, paths: list[str]) -> list[str]:
    """The paths among ``paths`` that a ``.gitignore`` (or the exclude file) ignores."""
    if not paths:
        return []
    repo = open_repo(root)
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


def stage(root: Path, paths: list[str]) -> list[str]:
    """``git add`` the paths; ignored ones deliberately (``-f``). Returns those."""
    forced = ignored(root, paths)
    plain = [p for p in paths if p not in set(forced)]
    for batch in batches(plain):
        _mutating(root, "add", "-A", "--", *batch)
    for batch in batches(forced):
        _mutating(root, "add", "-A", "-f", "--", *batch)
    return forced


def refuse_sparse(root: Path, what: str) -> None:
    """A sparse checkout hides files a rewrite must reach: refuse before any change."""
    repo = open_repo(root)
    try:
        sparse = repo.git.config("--bool", "core.sparseCheckout").strip() == "true"
    except git.GitCommandError:
        sparse = False
    if sparse:
        raise GitError(
            f"this is a sparse checkout, and {what} must rewrite files outside its cone; "
            "run `git sparse-checkout disable` first (re-enable it afterwards)"
        )


def commit_index(root: Path, message: str) -> str:
    """Commit what is staged; returns the new HEAD.

    Every hook is skipped (``--no-verify`` and :data:`NO_HOOKS`): the pure-move
    commit has links that only the next commit fixes, a hook must not change what
    is committed, and docsync runs nothing the repository names.
    """
    _mutating(root, "commit", "-q", "--no-verify", "-m", message)
    return _git(root, "rev-parse", "HEAD").strip()


def index_file(root: Path) -> Path:
    """The index file of the work tree at ``root``."""
    return root / _git(root, "rev-parse", "--git-path", "index").strip()


_COMMIT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def set_head(root: Path, head: str | None) -> None:
    """Point HEAD (its branch) back at ``head``; None: back to an unborn branch."""
    now = plumbing.head_commit(root)
    if now == head:
        return
    if head is None:
        _mutating(root, "update-ref", "-d", "HEAD")
    else:
        if not _COMMIT_ID.fullmatch(head):
            raise GitError(f"not a commit id: {head!r}; HEAD is left where it is")
        _mutating(root, "update-ref", "-m", "docsync: roll back", "--end-of-options", "HEAD", head)
