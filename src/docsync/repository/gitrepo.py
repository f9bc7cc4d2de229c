"""Everything docsync reads from git. The only module that imports GitPython.

Plain data goes out: repository paths, what the index tracks, and (in
:mod:`docsync.repository.history`'s terms) the history of files. Nothing here knows
Markdown.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
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
from .commits import UNSHALLOW_FIX, CommitChanges
from .git_output import (
    LOG_FORMAT,
    LOG_OPTIONS,
    RAW_DIFF,
    batches,
    check_warnings,
    commit_counter,
    first_line,
    merge_parents,
    missing_object,
    missing_object_error,
    parse_log,
    parse_merge_diffs,
    with_merge_diffs,
    z_list,
)


def blob_reader(root: Path) -> Callable[[str], bytes | None]:
    """The content of a blob by id, through git's persistent cat-file process; None if missing."""
    odb = open_repo(root).odb

    def read(blob: str) -> bytes | None:
        try:
            data: bytes = odb.stream(bytes.fromhex(blob)).read()
        except (ValueError, OSError, git.exc.GitError, KeyError):
            return None
        return data

    return read


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


def head_commit(root: Path) -> str | None:
    repo = open_repo(root)
    try:
        return repo.head.commit.hexsha
    except ValueError:
        return None


def is_shallow(root: Path) -> bool:
    """Whether the repository holding ``root`` is a shallow clone."""
    return _is_shallow(open_repo(root))



def read_history(
    root: Path, progress: Callable[[str, int, int], None] | None = None
) -> list[CommitChanges]:
    """Every commit reachable from HEAD with the files it changed, HEAD first, each before its parents.

    Raises :class:`GitError` for a shallow clone, or when git skipped rename
    detection, since either would date records wrongly. ``progress`` hears
    (:data:`HISTORY`, commits read, commits in all); counting them costs one
    more git command, so it runs only when someone listens.
    """
    repo = open_repo(root)
    if _is_shallow(repo):
        raise GitError(
            f"{repo.working_tree_dir} is a shallow clone, so git history does not reach "
            f"back to when records were first proposed; {UNSHALLOW_FIX}"
        )
    try:
        tokens = _stream_git(repo, "log", LOG_FORMAT, *LOG_OPTIONS, "HEAD", "--")
        history = parse_log(tokens, _commit_counter(repo, progress))
    except GitError:
        if not repo.head.is_valid():
            return []
        raise
    merges = merge_parents(history)
    if not merges:
        return history
    lines = "".join(f"{sha} {parent}\n" for sha, parent in merges)
    output = _run_git(repo, "diff-tree", "--stdin", "--always", *RAW_DIFF, stdin=lines)
    diffs = parse_merge_diffs(iter(output.split("\0")), merges)
    return [with_merge_diffs(commit, diffs) for commit in history]


def _is_shallow(repo: git.Repo) -> bool:
    """What `git rev-parse --is-shallow-repository` checks, without starting git."""
    return Path(repo.common_dir, "shallow").is_file()


def _run_git(repo: git.Repo, command: str, *args: str, stdin: str) -> str:
    """Run one git command with ``stdin`` as its input; all its output at once."""
    try:
        with tempfile.TemporaryFile() as feed:
            feed.write(stdin.encode())
            feed.seek(0)
            run = getattr(repo.git, command.replace("-", "_"))
            _, out, err = run(
                *args, istream=feed, with_extended_output=True, strip_newline_in_stdout=False
            )
    except git.GitCommandError as exc:
        raise GitError(f"git {command} failed: {str(exc.stderr).strip()}") from None
    check_warnings(str(err))
    return str(out)


def _stream_git(repo: git.Repo, command: str, *args: str) -> Iterator[str]:
    """The NUL-separated fields of a git command's output, as git writes them.

    Parsing while git still computes diffs keeps both cores busy.
    """
    process = getattr(repo.git, command.replace("-", "_"))(*args, as_process=True)
    stdout, stderr = process.proc.stdout, process.proc.stderr
    rest = b""
    while chunk := stdout.read1(1 << 16):
        done, separator, rest = (rest + chunk).rpartition(b"\0")
        if separator:
            yield from done.decode("utf-8", "surrogateescape").split("\0")
    if rest:
        yield rest.decode("utf-8", "surrogateescape")
    err = stderr.read().decode("utf-8", "replace")
    try:
        process.wait(stderr=err)
    except git.GitCommandError:
        failed = GitError(f"git {command} failed: {err.strip()}")
        raise _missing_object(repo, err) or failed from None
    check_warnings(err)


def _missing_object(repo: git.Repo, stderr: str) -> GitError | None:
    """A missing object named, with what it means: a partial clone or a mirror without it."""
    sha = missing_object(stderr)
    if sha is None:
        return None
    partial = bool(repo.git.config("--get", "extensions.partialClone", with_exceptions=False))
    return missing_object_error(sha, str(repo.working_tree_dir), partial)


def _commit_counter(
    repo: git.Repo, progress: Callable[[str, int, int], None] | None
) -> Callable[[int], None] | None:
    if progress is None:
        return None
    try:
        total = int(repo.git.rev_list("--count", "HEAD"))
    except (git.GitCommandError, ValueError):
        return None
    return commit_counter(total, progress)


# --------------------------------------------------------------------------- writing (migrate --apply)
# The only git commands that change a repository; each is a mutation point
# (docsync.write.writer). They run inside a docsync.write.transaction.Transaction, which
# records HEAD, the index and every touched file first and restores them on
# any failure.


def _git(root: Path, *args: str, literal: bool = False) -> str:
    repo = open_repo(root)
    command = ["git", "--literal-pathspecs", *args] if literal else ["git", *args]
    try:
        return str(repo.git.execute(command, with_extended_output=False))
    except git.GitCommandError as exc:
        raise GitError(f"git {args[0]} failed: {first_line(str(exc.stderr))}") from None


def _mutating(root: Path, *args: str) -> str:
    """A git command that changes the repository: a mutation the fault tests can fail.
    Its paths are file names, never patterns (``x[1].md`` must not also stage ``x1.md``)."""
    writer.mutation_point("git", root)
    return _git(root, *args, literal=True)


def dirty_files(root: Path) -> list[str]:
    """Tracked files with uncommitted changes (staged or not)."""
    output = _git(root, "status", "--porcelain", "-z", "--untracked-files=no")
    return [entry[3:] for entry in z_list(output) if len(entry) > 3 and entry[2] == " "]


def is_ancestor(root: Path, commit: str) -> bool:
    """Whether ``commit`` is HEAD or one of its ancestors."""
    repo = open_repo(root)
    try:
        repo.git.merge_base("--is-ancestor", commit, "HEAD")
    except git.GitCommandError:
        return False
    return True


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
            out = repo.git.check_ignore("-z", "--stdin", istream=feed)
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

    Hooks are skipped: the pure-move commit has links that only the next
    commit fixes, and a hook must not change what is committed.
    """
    _mutating(root, "commit", "-q", "--no-verify", "-m", message)
    return _git(root, "rev-parse", "HEAD").strip()


def index_file(root: Path) -> Path:
    """The index file of the work tree at ``root``."""
    return root / _git(root, "rev-parse", "--git-path", "index").strip()


def set_head(root: Path, head: str | None) -> None:
    """Point HEAD (its branch) back at ``head``; None: back to an unborn branch."""
    now = head_commit(root)
    if now == head:
        return
    if head is None:
        _mutating(root, "update-ref", "-d", "HEAD")
    else:
        _mutating(root, "update-ref", "-m", "docsync: roll back", "HEAD", head)


def read_blobs(root: Path, shas: Iterable[str]) -> dict[str, bytes]:
    """The contents of blobs by id, through git's object database (one cat-file process)."""
    repo = open_repo(root)
    found: dict[str, bytes] = {}
    for sha in dict.fromkeys(shas):
        try:
            found[sha] = repo.odb.stream(bytes.fromhex(sha)).read()
        except (ValueError, git.BadName, git.BadObject):
            continue
    return found
