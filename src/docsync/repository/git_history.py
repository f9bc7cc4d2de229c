"""Git history and blobs, read by plain ``git`` subprocesses. No GitPython here.

A migration's dry run reads history once (to date the records) and never
writes, so it need not pay GitPython's import (a tenth of a second, in the
process that dates the records while the parse workers want both cores).
The commands and their arguments are the ones
:mod:`docsync.repository.gitrepo` ran through GitPython, with the same
environment (git's messages in English, ``LC_ALL=C``, since some are read)
and the same answers: a shallow clone and skipped rename detection are
errors, a repository without commits has no history, merges get their diffs
against every parent from one ``git diff-tree --stdin`` that runs beside the
``git log`` (fed each merge as the log names it, so the two git processes and
the parse of the log share the cores), and blobs come from ``git cat-file
--batch`` (:mod:`docsync.repository.git_blobs`).
"""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO

from ..closing import Closing
from ..errors import GitError
from .commits import UNSHALLOW_FIX, CommitChanges, FileChange
from .git_blobs import CatFile as CatFile
from .git_blobs import environment as _environment
from .git_blobs import read_blobs as read_blobs
from .git_output import (
    LOG_FORMAT,
    LOG_OPTIONS,
    RAW_DIFF,
    check_warnings,
    commit_counter,
    merge_diffs,
    missing_object,
    missing_object_error,
    parse_blocks,
    parse_log,
    with_merge_diffs,
)
from .plumbing import NO_MONITOR, RepoPaths, executable, find_repo, head_commit


def _git(root: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [executable(), *NO_MONITOR, *args],
        cwd=root,
        env=_environment(),
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        check=False,
    )


def _decoded(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def is_shallow(root: Path) -> bool:
    """Whether the repository holding ``root`` is a shallow clone (its common git
    directory has a ``shallow`` file, as git itself decides)."""
    return _shallow(find_repo(root).git_dir)


def _shallow(git_dir: Path) -> bool:
    return (_common_dir(git_dir) / "shallow").is_file()


def _common_dir(git_dir: Path) -> Path:
    """The git directory a linked work tree shares with its main one (its ``commondir``)."""
    try:
        shared = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except OSError:
        return git_dir
    return (git_dir / shared).resolve()


def read_history(
    root: Path, progress: Callable[[str, int, int], None] | None = None, repo: RepoPaths | None = None
) -> list[CommitChanges]:
    """Every commit reachable from HEAD with the files it changed, HEAD first, each before its parents.

    Raises :class:`GitError` for a shallow clone, or when git skipped rename
    detection, since either would date records wrongly. ``progress`` hears
    (:data:`~docsync.repository.git_output.HISTORY`, commits read, commits in
    all); counting them costs one more git command, so it runs only when
    someone listens. ``repo``: where ``root`` is, when the caller has asked git already.
    """
    repo = repo or find_repo(root)
    if _shallow(repo.git_dir):
        raise GitError(
            f"{repo.root} is a shallow clone, so git history does not reach "
            f"back to when records were first proposed; {UNSHALLOW_FIX}"
        )
    with MergeDiffs(repo.root) as merges:
        try:
            tokens = _stream_log(repo.root)
            history = parse_log(tokens, _commit_counter(repo.root, progress), merges.ask)
        except GitError:
            if head_commit(repo.root) is None:
                return []
            raise
        diffs = merges.read()
    return [with_merge_diffs(c, diffs) if c.sha in diffs else c for c in history]


class MergeDiffs(Closing):
    """Each merge's diffs against every parent, from one ``git diff-tree --stdin`` started at
    the first merge asked about. A thread reads and parses what it prints while the log is
    still read, so neither git waits for the other's reader; :meth:`read` ends its input
    and returns the diffs by merge."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._asked: list[tuple[str, str]] = []
        self._process: subprocess.Popen[bytes] | None = None
        self._files = contextlib.ExitStack()
        self._err: IO[bytes] | None = None
        self._reader: threading.Thread | None = None
        self._blocks: list[tuple[str, tuple[FileChange, ...]]] = []
        self._failure: Exception | None = None

    def ask(self, sha: str, parents: Sequence[str]) -> None:
        process = self._process or self._start()
        lines = "".join(f"{sha} {parent}\n" for parent in parents)
        self._asked += [(sha, parent) for parent in parents]
        stdin: IO[bytes] = process.stdin  # type: ignore[assignment]
        with contextlib.suppress(OSError):  # git ended early: read() gives its message
            stdin.write(lines.encode("ascii"))

    def _start(self) -> subprocess.Popen[bytes]:
        self._err = err = self._files.enter_context(tempfile.TemporaryFile())  # noqa: SIM115
        self._process = process = subprocess.Popen(
            [executable(), *NO_MONITOR, "diff-tree", "--stdin", "--always", *RAW_DIFF],
            cwd=self._root,
            env=_environment(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
        )
        stdout: IO[bytes] = process.stdout  # type: ignore[assignment]
        self._reader = threading.Thread(target=self._parse, args=(stdout,), daemon=True)
        self._reader.start()
        return process

    def _parse(self, stdout: IO[bytes]) -> None:
        try:
            self._blocks = parse_blocks(_fields(stdout))
        except Exception as error:  # raised again by read(), in the caller's thread
            self._failure = error
            while stdout.read(1 << 16):  # let git finish
                pass

    def read(self) -> dict[str, tuple[tuple[FileChange, ...], ...]]:
        process, reader, err_file = self._process, self._reader, self._err
        if process is None or reader is None or err_file is None:
            return {}
        stdin: IO[bytes] = process.stdin  # type: ignore[assignment]
        with contextlib.suppress(OSError):
            stdin.close()
        reader.join()
        process.wait()
        err_file.seek(0)
        err = err_file.read().decode("utf-8", "replace")
        if process.returncode != 0:
            failed = GitError(f"git diff-tree failed: {err.strip()}")
            raise _missing_object(self._root, err) or failed
        check_warnings(err)
        if self._failure is not None:
            raise self._failure
        return merge_diffs(self._blocks, self._asked)

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
            if process.stdin is not None:
                with contextlib.suppress(OSError):
                    process.stdin.close()
            if self._reader is not None:
                self._reader.join()
            process.wait()
            if process.stdout is not None:
                process.stdout.close()
        self._files.close()


def _fields(stdout: IO[bytes]) -> Iterator[str]:
    """The NUL-separated fields of a git command's output, as git writes them."""
    rest = b""
    while chunk := stdout.read1(1 << 16):  # type: ignore[attr-defined]
        done, separator, rest = (rest + chunk).rpartition(b"\0")
        if separator:
            yield from _decoded(done).split("\0")
    if rest:
        yield _decoded(rest)


def _stream_log(root: Path) -> Iterator[str]:
    """The NUL-separated fields of ``git log``'s output, as git writes them.

    Parsing while git still computes diffs keeps both cores busy. git's
    stderr goes to a file, so that a chatty git never blocks on a full pipe.
    """
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            [executable(), *NO_MONITOR, "log", LOG_FORMAT, *LOG_OPTIONS, "HEAD", "--"],
            cwd=root,
            env=_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errors,
        )
        with process:
            stdout: IO[bytes] = process.stdout  # type: ignore[assignment]
            yield from _fields(stdout)
        errors.seek(0)
        err = errors.read().decode("utf-8", "replace")
    if process.returncode != 0:
        failed = GitError(f"git log failed: {err.strip()}")
        raise _missing_object(root, err) or failed
    check_warnings(err)


def _missing_object(root: Path, stderr: str) -> GitError | None:
    """A missing object named, with what it means: a partial clone or a mirror without it."""
    sha = missing_object(stderr)
    if sha is None:
        return None
    partial = bool(_git(root, "config", "--get", "extensions.partialClone").stdout.strip())
    return missing_object_error(sha, str(root), partial)


def _commit_counter(
    root: Path, progress: Callable[[str, int, int], None] | None
) -> Callable[[int], None] | None:
    if progress is None:
        return None
    counted = _git(root, "rev-list", "--count", "HEAD")
    try:
        total = int(counted.stdout) if counted.returncode == 0 else None
    except ValueError:
        total = None
    return None if total is None else commit_counter(total, progress)
