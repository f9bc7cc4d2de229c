"""Everything docsync reads from git. The only module that imports GitPython.

Plain data goes out: repository paths, what the index tracks, and (in
:mod:`docsync.history`'s terms) the history of files. Nothing here knows
Markdown.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

import git

from .errors import GitError
from .history import UNSHALLOW_FIX, CommitChanges, FileChange

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


# History: one `git log` over every commit reachable from HEAD, plus one
# `git diff-tree --stdin` for merges' other parents. `git log -m` cannot
# serve both, because it omits a parent's block when that diff is empty, so
# the blocks cannot be told apart.

_RAW_DIFF = ("-z", "--raw", "--no-abbrev", "-M", "-r")
_LOG_FORMAT = "--format=%H %P%x00%ai"
_RENAME_LIMIT_WARNING = "diff.renameLimit"


def is_shallow(root: Path) -> bool:
    """Whether the repository holding ``root`` is a shallow clone."""
    return _shallow_and_head(open_repo(root))[0]


def read_history(root: Path) -> list[CommitChanges]:
    """Every commit reachable from HEAD with the files it changed, HEAD first, each before its parents.

    Raises :class:`GitError` for a shallow clone, or when git skipped rename
    detection, since either would date records wrongly.
    """
    repo = open_repo(root)
    shallow, head = _shallow_and_head(repo)
    if shallow:
        raise GitError(
            f"{repo.working_tree_dir} is a shallow clone, so git history does not reach "
            f"back to when records were first proposed; {UNSHALLOW_FIX}"
        )
    if head is None:
        return []
    history = _parse_log(_run_git(repo, "log", _LOG_FORMAT, *_LOG_OPTIONS, head, "--"))
    merges = [(commit.sha, parent) for commit in history for parent in commit.parents[1:]]
    if not merges:
        return history
    lines = "".join(f"{sha} {parent}\n" for sha, parent in merges)
    diffs = _parse_merge_diffs(
        _run_git(repo, "diff-tree", "--stdin", "--always", *_RAW_DIFF, stdin=lines), merges
    )
    return [
        replace(commit, merge_changes=diffs[commit.sha]) if commit.sha in diffs else commit
        for commit in history
    ]


_LOG_OPTIONS = (
    *_RAW_DIFF,
    "--topo-order",
    "--root",
    "--diff-merges=first-parent",
    "--no-color",
    "--no-notes",
    "--no-show-signature",
    "--no-relative",
)


def _shallow_and_head(repo: git.Repo) -> tuple[bool, str | None]:
    """Whether the clone is shallow, and HEAD's commit (``None`` before the first commit)."""
    status, out, err = repo.git.rev_parse(
        "--is-shallow-repository",
        "--verify",
        "-q",
        "HEAD",
        with_extended_output=True,
        with_exceptions=False,
    )
    lines = str(out).split()
    if not lines or lines[0] not in ("true", "false"):
        raise GitError(f"git rev-parse failed: {str(err).strip()}")
    return lines[0] == "true", (lines[1] if status == 0 and len(lines) > 1 else None)


def _run_git(repo: git.Repo, command: str, *args: str, stdin: str | None = None) -> str:
    """Run one git command; stderr warnings about skipped rename detection are errors."""
    try:
        with tempfile.TemporaryFile() as feed:
            feed.write((stdin or "").encode())
            feed.seek(0)
            run = getattr(repo.git, command.replace("-", "_"))
            _, out, err = run(
                *args, istream=feed, with_extended_output=True, strip_newline_in_stdout=False
            )
    except git.GitCommandError as exc:
        raise GitError(f"git {command} failed: {exc.stderr.strip()}") from None
    if _RENAME_LIMIT_WARNING in err:
        advice = " ".join(line.removeprefix("warning: ") for line in err.splitlines())
        raise GitError(
            f"git skipped rename detection, so moved records would be dated by their move: "
            f"{advice} (`git config diff.renameLimit <N>`)"
        )
    return str(out)


def _parse_log(output: str) -> list[CommitChanges]:
    tokens = output.split("\0")
    commits: list[CommitChanges] = []
    i, end = 0, len(tokens)
    while i < end:
        header = tokens[i].lstrip("\n")
        if not header:
            i += 1
            continue
        sha, *parents = header.split()
        stamp = tokens[i + 1]
        changes, i = _parse_raw(tokens, i + 2)
        day = date.fromisoformat(stamp[:10])
        commits.append(CommitChanges(sha, day, stamp[-5:], tuple(parents), changes))
    return commits


def _parse_merge_diffs(
    output: str, merges: list[tuple[str, str]]
) -> dict[str, tuple[tuple[FileChange, ...], ...]]:
    """`diff-tree --stdin --always` prints each input line's commit, then its diff, in input order."""
    tokens = output.split("\0")
    found: dict[str, list[tuple[FileChange, ...]]] = {}
    i = 0
    for sha, _parent in merges:
        if i >= len(tokens) or tokens[i].strip() != sha:
            raise GitError(f"unexpected output from git diff-tree for merge {sha}")
        changes, i = _parse_raw(tokens, i + 1)
        found.setdefault(sha, []).append(changes)
    return {sha: tuple(diffs) for sha, diffs in found.items()}


def _parse_raw(tokens: list[str], i: int) -> tuple[tuple[FileChange, ...], int]:
    """Raw diff entries (``:mode mode blob blob status\\0path[\\0path]``) from ``tokens[i]`` on."""
    changes: list[FileChange] = []
    end = len(tokens)
    while i < end:
        meta = tokens[i].lstrip("\n")
        if not meta.startswith(":"):
            break
        fields = meta.split(" ")
        blob, status = fields[3], fields[4][0]
        if status in "RC":
            old, path = tokens[i + 1], tokens[i + 2]
            i += 3
            if status == "R":
                changes.append(FileChange("R", path, old, blob))
            else:
                changes.append(FileChange("A", path, None, blob))
            continue
        path = tokens[i + 1]
        i += 2
        if status == "D":
            changes.append(FileChange("D", path))
        else:
            changes.append(FileChange("A" if status == "A" else "M", path, None, blob))
    return tuple(changes), i


# --------------------------------------------------------------------------- writing (migrate --apply)
# The only git commands that change a repository. `docsync migrate --apply`
# takes a Snapshot first and restores it on any failure, so a failed run
# leaves HEAD, the index and every touched file exactly as they were.


@dataclass(frozen=True, slots=True)
class FileState:
    """A file's bytes and permission bits, or ``data=None`` when it did not exist."""

    path: str
    data: bytes | None
    mode: int = 0o644


@dataclass(frozen=True, slots=True)
class Snapshot:
    head: str | None
    index: bytes | None
    files: tuple[FileState, ...]


def _git(root: Path, *args: str) -> str:
    repo = open_repo(root)
    try:
        return str(repo.git.execute(["git", *args], with_extended_output=False))
    except git.GitCommandError as exc:
        raise GitError(f"git {args[0]} failed: {str(exc.stderr).strip()}") from None


def dirty_files(root: Path) -> list[str]:
    """Tracked files with uncommitted changes (staged or not)."""
    output = _git(root, "status", "--porcelain", "-z", "--untracked-files=no")
    return [entry[3:] for entry in _z_list(output) if len(entry) > 3 and entry[2] == " "]


def is_ancestor(root: Path, commit: str) -> bool:
    """Whether ``commit`` is HEAD or one of its ancestors."""
    repo = open_repo(root)
    try:
        repo.git.merge_base("--is-ancestor", commit, "HEAD")
    except git.GitCommandError:
        return False
    return True


def move_files(root: Path, moves: list[tuple[str, str]]) -> None:
    """``git mv`` each (old, new), creating folders, so history follows the files."""
    for old, new in moves:
        (root / new).parent.mkdir(parents=True, exist_ok=True)
        _git(root, "mv", "--", old, new)


def remove_files(root: Path, paths: list[str]) -> None:
    if paths:
        _git(root, "rm", "-q", "--", *paths)


def stage(root: Path, paths: list[str]) -> None:
    if paths:
        _git(root, "add", "-A", "--", *paths)


def commit_paths(root: Path, message: str, paths: list[str]) -> str:
    """Commit the staged state of ``paths`` only (other staged changes stay staged).

    Hooks are skipped: the pure-move commit has links that only the next
    commit fixes, and a hook must not change what is committed.
    """
    _git(root, "commit", "-q", "--no-verify", "-m", message, "--", *paths)
    return _git(root, "rev-parse", "HEAD").strip()


def _index_path(root: Path) -> Path:
    return root / _git(root, "rev-parse", "--git-path", "index").strip()


def _file_state(root: Path, path: str) -> FileState:
    full = root / path
    if not full.is_file() or full.is_symlink():
        return FileState(path, None)
    return FileState(path, full.read_bytes(), full.stat().st_mode & 0o7777)


def snapshot(root: Path, paths: list[str]) -> Snapshot:
    """HEAD, the index and ``paths`` as they are now."""
    index = _index_path(root)
    return Snapshot(
        head=head_commit(root),
        index=index.read_bytes() if index.is_file() else None,
        files=tuple(_file_state(root, p) for p in dict.fromkeys(paths)),
    )


def restore(root: Path, snap: Snapshot) -> None:
    """Put HEAD, the index and the snapshot's files back exactly."""
    if snap.head is not None and head_commit(root) != snap.head:
        _git(root, "update-ref", "-m", "docsync: roll back migration", "HEAD", snap.head)
    index = _index_path(root)
    if snap.index is None:
        index.unlink(missing_ok=True)
    else:
        index.write_bytes(snap.index)
    for state in snap.files:
        _restore_file(root, state)


def _restore_file(root: Path, state: FileState) -> None:
    full = root / state.path
    if state.data is None:
        full.unlink(missing_ok=True)
        _remove_empty_parents(root, full.parent)
        return
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_bytes(state.data)
    full.chmod(state.mode)


def _remove_empty_parents(root: Path, folder: Path) -> None:
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
