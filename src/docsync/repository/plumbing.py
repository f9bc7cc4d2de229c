"""What a check asks of git, each question one ``git`` subprocess: where the
repository is, what it tracks, what changed. No GitPython here.

A pre-commit run is mostly start-up, and importing GitPython is a tenth of a
second of it; a check asks git only these read-only questions, so it runs
them itself (so does :mod:`docsync.repository.git_history`, the history reader;
every command that writes keeps using :mod:`docsync.repository.gitrepo`).
Errors are the one-line ``GitError`` s the rest of docsync raises for git.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import GitError
from ..untrusted_text import is_utf8, shown
from .git_output import first_line, z_list

SYMLINK_MODE = "120000"
GITLINK_MODE = "160000"


@dataclass(frozen=True, slots=True)
class RepoPaths:
    root: Path
    git_dir: Path
    index: Path
    """The index file (``git rev-parse --git-path index``: ``GIT_INDEX_FILE`` if set), asked
    with the two above."""


@dataclass(frozen=True, slots=True)
class Listing:
    """What the index tracks (path → mode) and untracked files git does not ignore."""

    tracked: dict[str, str]
    untracked: frozenset[str]
    unnamable: tuple[str, ...] = ()
    """Tracked or untracked names that are not UTF-8 (see :mod:`docsync.untrusted_text`): kept out
    of the two above, so that no part of docsync meets a name it cannot write out."""
    staged: str = ""
    """HEAD's tree and every index entry (mode, blob, stage, path), hashed: what the renames
    the index stages (:func:`staged_renames`, a broken link's candidate) depend on, which
    the paths and modes above do not show (a commit, a ``git add`` keep them)."""

    submodules: frozenset[str] = frozenset()
    """The paths of submodules (git's gitlinks): GitHub shows each as a link to its own
    repository, none of its files."""

    def is_symlink(self, path: str) -> bool:
        return self.tracked.get(path) == SYMLINK_MODE

    def submodule_of(self, path: str) -> str | None:
        """The submodule ``path`` lies inside (below its folder), if any."""
        parts = path.split("/")
        return next((sub for n in range(1, len(parts)) if (sub := "/".join(parts[:n])) in self.submodules), None)


class _Failed(Exception):
    def __init__(self, stderr: str) -> None:
        super().__init__(stderr)
        self.stderr = stderr


NO_MONITOR = ("-c", "core.fsmonitor=false")
"""Run no file-system monitor: ``core.fsmonitor`` names a command git runs on ``status``,
``diff`` and ``add``; a ``.git/config`` unpacked from an archive (or including a tracked
file) can name one, and docsync runs nothing the repository names (issue #35)."""


def executable() -> str:
    """git, as GitPython would find it (``GIT_PYTHON_GIT_EXECUTABLE`` or ``git`` on PATH)."""
    name = os.environ.get("GIT_PYTHON_GIT_EXECUTABLE") or "git"
    found = shutil.which(name)
    if found is None:
        raise GitError("git is not installed or not on PATH; install git, then run docsync again")
    return found


def _run(cwd: Path, *args: str) -> str:
    """git's stdout (decoded as GitPython decodes it); :class:`_Failed` with its stderr."""
    return _run_all(cwd, args)[0]


def _run_all(cwd: Path, *commands: tuple[str, ...], quiet_fails: int = 0) -> list[str]:
    """Each command's stdout as :func:`_run` gives it, the commands run at once (each is
    a git process of its own); the first failure's :class:`_Failed`, in their order. The
    last ``quiet_fails`` commands may fail without a word on stderr (``rev-parse -q
    --verify`` of what is not there): their stdout is then empty."""
    running: list[subprocess.Popen[bytes]] = []
    try:
        for args in commands:
            running.append(
                subprocess.Popen(
                    [executable(), *NO_MONITOR, *args], cwd=cwd, stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                )
            )
        done = [(process.communicate(), process.returncode) for process in running]
    except (FileNotFoundError, NotADirectoryError, PermissionError) as exc:
        raise _Failed(f"not a git repository: {exc.strerror}") from None
    finally:
        for process in running:
            if process.returncode is None:
                process.kill()
                process.wait()
    for at, ((_, err), code) in enumerate(done):
        if code != 0 and not (at >= len(done) - quiet_fails and not err):
            raise _Failed(err.decode("utf-8", "surrogateescape").strip())
    return [out.decode("utf-8", "surrogateescape") if code == 0 else "" for (out, _), code in done]


def find_repo(start: Path) -> RepoPaths:
    """The work tree root, git directory and index file of the repository holding ``start``,
    in one ``git rev-parse``: every command asks this once and passes the answer down."""
    try:
        out = _run(start, "rev-parse", "--absolute-git-dir", "--show-toplevel", "--git-path", "index").splitlines()
    except _Failed as failed:
        raise _not_a_work_tree(start, failed.stderr) from None
    if len(out) != 3 or not out[1]:
        raise GitError(f"{start} is a bare repository; docsync needs a working tree")
    git_dir, root, index = out
    found = RepoPaths(Path(root).resolve(), Path(git_dir).resolve(), Path(os.path.abspath(start / index)))
    refuse_linked_state(found.git_dir)
    return found


def refuse_linked_state(git_dir: Path) -> None:
    """Refuse a ``docsync`` folder in the git directory that is a symlink, or not a folder:
    docsync's cache and journals are written only there, never through a symlink."""
    own = git_dir / "docsync"
    try:
        mode = os.lstat(own).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise GitError(f"{own}: cannot be read ({exc.strerror}); remove it") from None
    if stat.S_ISLNK(mode):
        raise GitError(
            f"{own} is a symlink; docsync keeps its cache and journals only in a folder of its "
            "own there and never writes through a symlink: remove the symlink"
        )
    if not stat.S_ISDIR(mode):
        raise GitError(f"{own} is not a folder; docsync keeps its cache and journals there: remove it")


def _not_a_work_tree(start: Path, stderr: str) -> GitError:
    if "not a git repository" in stderr.lower():
        return GitError(f"not inside a git repository: {start}")
    try:  # inside a repository after all: a bare one, or its git directory
        _run(start, "rev-parse", "--git-dir")
    except _Failed:
        return GitError(f"not inside a git repository: {start}")
    if "work tree" in stderr:
        return GitError(f"{start} is a bare repository; docsync needs a working tree")
    return GitError(f"git rev-parse failed: {first_line(stderr)}")


def head_commit(root: Path) -> str | None:
    """HEAD's commit; None on a branch without commits yet."""
    try:
        return _run(root, "rev-parse", "-q", "--verify", "HEAD^{commit}").strip()
    except _Failed as failed:
        if failed.stderr:  # -q: silent when HEAD names no commit, so this is another failure
            raise _not_a_work_tree(root, failed.stderr) from None
        return None


def is_ancestor(root: Path, commit: str) -> bool:
    """Whether ``commit`` is HEAD or one of its ancestors."""
    try:
        _run(root, "merge-base", "--is-ancestor", "--end-of-options", commit, "HEAD")
    except _Failed:
        return False
    return True


def list_files(root: Path) -> Listing:
    """Tracked paths with their modes, and untracked non-ignored paths."""
    try:
        staged, others, head = _run_all(
            root,
            ("ls-files", "-s", "-z", "--full-name"),
            ("ls-files", "-o", "--exclude-standard", "-z", "--full-name"),
            ("rev-parse", "-q", "--verify", "HEAD^{tree}"),
            quiet_fails=1,
        )
    except _Failed as failed:
        raise GitError(f"git ls-files failed: {failed.stderr}") from None
    tracked: dict[str, str] = {}
    unnamable: list[str] = []
    submodules: set[str] = set()
    for entry in z_list(staged):
        meta, _, path = entry.partition("\t")
        mode = meta.split(" ", 1)[0]
        if not is_utf8(path):
            unnamable.append(path)
        elif mode != GITLINK_MODE:
            tracked[path] = mode
        else:
            submodules.add(path)
    untracked = z_list(others)
    unnamable.extend(p for p in untracked if not is_utf8(p))
    state = hashlib.sha256(f"{head.strip()}\0{staged}".encode("utf-8", "surrogateescape")).hexdigest()
    return Listing(
        tracked, frozenset(p for p in untracked if is_utf8(p)), tuple(sorted(set(unnamable))), state, frozenset(submodules)
    )


def untracked_files(root: Path) -> frozenset[str]:
    """Untracked paths git does not ignore (the half of :func:`list_files` a writer's tidying needs)."""
    try:
        return frozenset(z_list(_run(root, "ls-files", "-o", "--exclude-standard", "-z", "--full-name")))
    except _Failed as failed:
        raise GitError(f"git ls-files failed: {failed.stderr}") from None


def changed_files(root: Path, rev: str | None) -> frozenset[str]:
    """Files changed between ``rev`` (default: merge base with the default branch) and the work tree."""
    commit = _default_base(root) if rev is None else revision(root, rev)
    try:
        diff = _run(root, "diff", "--name-only", "-z", "--no-renames", "--end-of-options", commit, "--")
        others = _run(root, "ls-files", "-o", "--exclude-standard", "-z", "--full-name")
    except _Failed as failed:
        raise GitError(f"cannot diff against {rev!r}: {failed.stderr}") from None
    return frozenset(map(shown, (*z_list(diff), *z_list(others))))


def revision(root: Path, rev: str) -> str:
    """The commit ``rev`` (the user's ``--since``) names, as its full id; a :class:`GitError`
    when it names none. A revision is never read as an option: one that starts with ``-``
    (``--output=FILE`` would have git write FILE) is refused before git sees it, and git is
    told where its options end."""
    if not rev or rev.startswith("-") or any(c in rev for c in "\0\n\r"):
        raise GitError(f"--since {rev!r}: not a revision (a branch, tag or commit id)")
    try:
        found = _run(root, "rev-parse", "--verify", "-q", "--end-of-options", f"{rev}^{{commit}}")
    except _Failed:
        raise GitError(f"--since {rev!r}: no such commit in this repository") from None
    return found.strip()


def staged_changes(root: Path) -> frozenset[str]:
    """Paths the index changes against HEAD: both sides of a staged rename, deletes too."""
    try:
        diff = _run(root, "diff", "--cached", "--name-only", "-z", "--no-renames")
    except _Failed as failed:
        raise GitError(f"cannot read the staged changes: {failed.stderr}") from None
    return frozenset(map(shown, z_list(diff)))


def staged_renames(root: Path) -> dict[str, str]:
    """Old path → new path for each rename the index stages against HEAD, as git's own
    rename detection (``git diff --cached -M``) pairs them; empty when git cannot say."""
    try:
        out = _run(root, "diff", "--cached", "-M", "--name-status", "-z")
    except _Failed:
        return {}
    fields = z_list(out)
    renames: dict[str, str] = {}
    i = 0
    while i < len(fields):
        status = fields[i]
        if status[:1] in ("R", "C"):
            if status[:1] == "R" and i + 2 < len(fields):
                renames[fields[i + 1]] = fields[i + 2]
            i += 3
        else:
            i += 2
    return renames


def unstaged_paths(root: Path) -> frozenset[str]:
    """Tracked paths whose work-tree file differs from the index (deleted ones too)."""
    try:
        return frozenset(z_list(_run(root, "diff", "--name-only", "-z", "--no-renames")))
    except _Failed as failed:
        raise GitError(f"cannot compare the work tree with the index: {failed.stderr}") from None


def index_blobs(root: Path, paths: Iterable[str]) -> dict[str, bytes]:
    """The staged content of each of ``paths`` (those the index holds as files), read in
    one ``git cat-file --batch``."""
    wanted = set(paths)
    if not wanted:
        return {}
    try:
        staged = _run(root, "ls-files", "-s", "-z", "--full-name")
    except _Failed as failed:
        raise GitError(f"git ls-files failed: {failed.stderr}") from None
    objects: dict[str, str] = {}
    for entry in z_list(staged):
        meta, _, path = entry.partition("\t")
        parts = meta.split(" ")
        if path in wanted and len(parts) == 3 and parts[0] not in (SYMLINK_MODE, GITLINK_MODE) and parts[2] == "0":
            objects[path] = parts[1]
    if not objects:
        return {}
    order = list(objects.items())
    request = "".join(f"{sha}\n" for _, sha in order).encode()
    try:
        done = subprocess.run(
            [executable(), *NO_MONITOR, "cat-file", "--batch"], cwd=root, input=request,
            capture_output=True, check=False,
        )
    except OSError as exc:
        raise GitError(f"cannot read the index: {exc.strerror}") from None
    if done.returncode != 0:
        raise GitError(f"cannot read the index: {done.stderr.decode('utf-8', 'replace').strip()}")
    return dict(zip((path for path, _ in order), _batch_contents(done.stdout), strict=False))


def _batch_contents(out: bytes) -> Iterator[bytes]:
    """Each object's bytes from ``git cat-file --batch`` output, in order."""
    at = 0
    while at < len(out):
        end = out.index(b"\n", at)
        header = out[at:end].split(b" ")
        if len(header) != 3:  # "<sha> missing"
            raise GitError(f"cannot read the index: {out[at:end].decode('utf-8', 'replace')}")
        size = int(header[2])
        yield out[end + 1 : end + 1 + size]
        at = end + 1 + size + 1


def _default_base(root: Path) -> str:
    for candidate in ("origin/HEAD", "origin/main", "origin/master", "main", "master"):
        try:
            return _run(root, "merge-base", "HEAD", candidate).strip()
        except _Failed:
            continue
    return "HEAD"


def default_branch(root: Path) -> str:
    """The branch a pull request merges into: the one ``origin/HEAD`` names, else a local
    ``main`` or ``master``, else the branch checked out, else ``main``."""
    try:
        return _run(root, "symbolic-ref", "--short", "refs/remotes/origin/HEAD").strip().split("/", 1)[1]
    except (_Failed, IndexError):
        pass
    for name in ("main", "master"):
        try:
            _run(root, "rev-parse", "--verify", "--quiet", f"refs/heads/{name}")
            return name
        except _Failed:
            continue
    try:
        return _run(root, "symbolic-ref", "--short", "HEAD").strip() or "main"
    except _Failed:
        return "main"
