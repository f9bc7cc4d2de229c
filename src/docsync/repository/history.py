"""When each design record was first proposed, and where moved files went.

Pure logic over plain data; :func:`docsync.repository.gitrepo.read_history` reads the
history (every commit reachable from HEAD, in one pass) and this module
replays it oldest first, carrying each file's *origin* (the commit that first
added its content) along renames, moves and merges, so the answer for every
record comes out of a single replay instead of one ``git log --follow`` each.

Decisions, each with a test in ``tests/test_history.py``:

* The date is the author date of the introducing commit, in the author's own
  time zone as recorded (what ``git log --date=short`` prints), never UTC.
* Renames are what ``git log -M`` detects (50% similarity by default). Copy
  detection is ignored on purpose: a record copied from a template starts a
  new lineage dated by the commit that created it. Without ``-B`` (which
  would nearly double the cost of reading history) git cannot see a move
  whose old path gets a new file in the same commit; the moved record is
  then dated by that commit, as ``git log --follow`` would date it.
* Merges: each parent's diff says where a file came from. A file the merge
  takes unchanged from its first parent keeps that lineage. A file that
  differs from the first parent (brought in from a side branch, or merged
  from both) gets the earliest origin among the parents that hold it,
  following renames, even ones made in the merge commit itself; so a file
  added on a side branch is dated by the side-branch commit, whether the
  branch was merged or fast-forwarded. A file no parent holds was added by
  the merge.
* Delete and restore: a file added at a path where the *same content* (the
  same blob) was recorded before counts as restored, and keeps the earliest
  origin that content had there (``git revert`` of a deletion, ``git checkout
  <old> -- path``). A Markdown file added with content *similar* to Markdown
  content deleted earlier in the replay (git's rename measure, 50%), at the
  same path or elsewhere, continues that content's lineage too: a one-line
  edit between the delete and the restore does not restart the date. An
  empty file, or dissimilar content, starts a new lineage: the same path
  alone does not prove the same record, since numbered names (``0007-...``)
  do get reused. Similarity is only computed for the files asked about.
* Squash and merge: a file that a merge takes unchanged from every parent
  keeps the earliest origin any parent has for it, so a file first added on
  a side branch keeps the side-branch date even when the first parent added
  the same content (a squash commit) before the merge.
* History that does not reach back to a file's creation (a parent missing
  from the history, or a change to a file never added) raises
  :class:`GitError` with the fix, rather than returning a wrong date.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

from ..errors import GitError

UNSHALLOW_FIX = (
    "fetch the full history with `git fetch --unshallow` "
    "(GitHub Actions: set `fetch-depth: 0` on actions/checkout)"
)

# Empty content proves nothing about identity, so it never counts as a restore.
EMPTY_BLOBS = frozenset(
    {
        "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
        "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813",
    }
)


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file a commit changed, relative to one parent.

    ``status`` is ``"A"`` (added; copies count as adds), ``"M"`` (modified,
    including type changes), ``"D"`` (deleted) or ``"R"`` (renamed from
    ``old_path``). ``blob`` is the object id of the content after the change;
    for a deletion, of the content deleted (or ``None``).
    """

    status: str
    path: str
    old_path: str | None = None
    blob: str | None = None


@dataclass(frozen=True, slots=True)
class CommitChanges:
    """One commit: its author date as the author's clock showed it, and what it changed.

    ``changes`` is the diff against the first parent (against nothing for a
    root commit); ``merge_changes`` holds a merge's diffs against its other
    parents, in ``parents[1:]`` order.
    """

    sha: str
    author_date: date
    author_tz: str
    parents: tuple[str, ...]
    changes: tuple[FileChange, ...]
    merge_changes: tuple[tuple[FileChange, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a file at HEAD (``path``) began: the commit that first added it, and at which path."""

    path: str
    date: date
    commit: str
    original_path: str


BlobReader = Callable[[str], "bytes | None"]
RENAME_SCORE = 0.5  # git's default -M threshold
_RECORD_SUFFIXES = (".md", ".markdown")


def first_proposed(
    history: Sequence[CommitChanges], paths: Iterable[str], read_blob: BlobReader | None = None
) -> dict[str, Origin]:
    """The origin of each of ``paths`` (repository-relative, as at HEAD).

    ``history`` is what :func:`docsync.repository.gitrepo.read_history` returns: HEAD
    first, every commit listed before its parents. Paths that HEAD does not
    track (not committed yet) are left out of the result. With ``read_blob``
    (blob id → content), a file re-added with content similar to a deleted
    one continues its lineage (see the module).
    """
    replayer = _Replayer(history, track_homes=False)
    head = replayer.run()
    roots = {path: root for path in paths if (root := head.get(path)) is not None}
    if read_blob is not None:
        resurrect = _Resurrection(replayer, read_blob)
        roots = {path: resurrect.earliest(root) for path, root in roots.items()}
    return {path: Origin(path, root.date, root.commit, root.path) for path, root in roots.items()}


def similarity(a: bytes, b: bytes) -> float:
    """Git's rename score of ``a`` → ``b``, estimated as diffcore-delta does.

    Both are cut into chunks at each newline or every 64 bytes; the score is
    the bytes of ``a``'s chunks also found in ``b``, over the larger size.
    """
    big = max(len(a), len(b))
    if big == 0:
        return 1.0
    if min(len(a), len(b)) < big * RENAME_SCORE:
        return 0.0
    have = Counter(_chunks(b))
    common = 0
    for chunk in _chunks(a):
        if have[chunk] > 0:
            have[chunk] -= 1
            common += len(chunk)
    return common / big


def _chunks(data: bytes) -> Iterator[bytes]:
    start = 0
    while start < len(data):
        newline = data.find(b"\n", start, start + 64)
        end = newline + 1 if newline >= 0 else min(start + 64, len(data))
        yield data[start:end]
        start = end


class _Resurrection:
    """Continues a fresh lineage from similar content deleted before it began (memoised)."""

    def __init__(self, replayer: _Replayer, read_blob: BlobReader) -> None:
        self._fresh = replayer.fresh
        self._graves = replayer.graves
        self._read = read_blob
        self._blobs: dict[str, bytes | None] = {}
        self._done: dict[_Root, _Root] = {}

    def earliest(self, root: _Root) -> _Root:
        if root in self._done:
            return self._done[root]
        self._done[root] = root  # a cycle cannot happen (graves are earlier), but stay safe
        found = root
        fresh = self._fresh.get(root)
        if fresh is not None:
            blob, seq = fresh
            for grave in self._graves:
                if grave.seq >= seq or grave.root == root:
                    continue
                if grave.root < found and self._similar(grave.blob, blob):
                    found = min(found, self.earliest(grave.root))
        self._done[root] = found
        return found

    def _similar(self, a: str, b: str) -> bool:
        if a == b:
            return True
        first, second = self._blob(a), self._blob(b)
        if first is None or second is None:
            return False
        return similarity(first, second) >= RENAME_SCORE

    def _blob(self, blob: str) -> bytes | None:
        if blob not in self._blobs:
            self._blobs[blob] = self._read(blob)
        return self._blobs[blob]


def rename_map(history: Sequence[CommitChanges]) -> dict[str, str]:
    """Old path → path at HEAD, for every file that HEAD tracks under another name.

    Chains are collapsed (``a → b → c`` gives ``a: c`` and ``b: c``). A path
    is left out when it is tracked at HEAD, when files of more than one
    lineage have lived there, or when its file was deleted since: a link to
    it has no single right target.
    """
    replayer = _Replayer(history, track_homes=True)
    head = replayer.run()
    places: dict[_Root, list[str]] = {}
    for path, root in head.items():
        places.setdefault(root, []).append(path)
    moved: dict[str, str] = {}
    for old, roots in replayer.homes.items():
        if old in head or len(roots) != 1:
            continue
        current = places.get(next(iter(roots)), [])
        if len(current) == 1:
            moved[old] = current[0]
    return moved


class _Root(NamedTuple):
    """The start of a lineage. Tuple order makes ``min`` pick the earliest, deterministically."""

    date: date
    commit: str
    path: str


class _Grave(NamedTuple):
    """Markdown content deleted on a first-parent line: its blob, lineage and replay position."""

    blob: str
    root: _Root
    seq: int


_State = dict[str, _Root]


class _Replayer:
    """Replays history oldest first, keeping path → origin for each commit still needed.

    A commit's state is handed to its last child without copying and freed
    once every child has read it, so memory holds one state per open branch.
    """

    def __init__(self, history: Sequence[CommitChanges], *, track_homes: bool) -> None:
        self._history = history
        self._known = {commit.sha for commit in history}
        self._children = Counter(parent for commit in history for parent in commit.parents)
        self._states: dict[str, _State] = {}
        self._seen: dict[tuple[str, str], _Root] = {}
        self._track_homes = track_homes
        self.homes: dict[str, set[_Root]] = {}
        self.fresh: dict[_Root, tuple[str, int]] = {}  # new Markdown lineage → (blob, seq)
        self.graves: list[_Grave] = []
        self._seq = 0

    def run(self) -> _State:
        """The state at HEAD, the first commit of the history."""
        for seq, commit in enumerate(reversed(self._history)):
            self._seq = seq
            self._states[commit.sha] = self._replay(commit)
        return self._states[self._history[0].sha] if self._history else {}

    def _replay(self, commit: CommitChanges) -> _State:
        others = [self._peek(parent) for parent in commit.parents[1:]]
        state = self._take(commit.parents[0]) if commit.parents else {}
        self._bury(state, commit)
        moved = _remove(state, commit)
        if others:
            diffs: list[tuple[FileChange, ...] | None] = list(commit.merge_changes)
            diffs += [None] * (len(others) - len(diffs))
            self._merge_in(state, commit, moved, list(zip(others, diffs, strict=True)))
        else:
            self._add(state, commit, moved)
        for parent in commit.parents[1:]:
            self._release(parent)
        return state

    def _bury(self, state: _State, commit: CommitChanges) -> None:
        """Remember Markdown content the commit deletes, for a similar re-add to continue."""
        for change in commit.changes:
            if change.status != "D" or not change.blob or not _is_record(change.path):
                continue
            root = state.get(change.path)
            if root is not None and change.blob not in EMPTY_BLOBS:
                self.graves.append(_Grave(change.blob, root, self._seq))

    def _add(self, state: _State, commit: CommitChanges, moved: Mapping[str, _Root]) -> None:
        for change in commit.changes:
            status = change.status
            if status == "D":
                continue
            if status == "A":
                root = self._added(commit, change)
            elif status == "R":
                root = moved[change.old_path or ""]
            elif (known := state.get(change.path)) is not None:
                root = known
            else:
                raise _incomplete(change.path, commit)
            self._place(state, change, root)

    def _merge_in(
        self,
        state: _State,
        commit: CommitChanges,
        moved: Mapping[str, _Root],
        others: list[tuple[_State, tuple[FileChange, ...] | None]],
    ) -> None:
        """Like :meth:`_add`, but a file may also come from the other parents."""
        indexes = [(other, None if diff is None else _by_path(diff)) for other, diff in others]
        for change in commit.changes:
            if change.status == "D":
                continue
            candidates = [
                root
                for root in (_via_first(state, moved, change), *_via_others(indexes, change.path))
                if root is not None
            ]
            if change.status == "M" and not candidates:
                raise _incomplete(change.path, commit)
            root = min(candidates) if candidates else self._added(commit, change)
            self._place(state, change, root)
        self._earliest_of_unchanged(state, commit, others)

    def _earliest_of_unchanged(
        self,
        state: _State,
        commit: CommitChanges,
        others: list[tuple[_State, tuple[FileChange, ...] | None]],
    ) -> None:
        """A file the merge takes unchanged from every parent keeps the earliest origin of any."""
        changed = {c.path for c in commit.changes} | {
            c.old_path for c in commit.changes if c.old_path
        }
        for other, diff in others:
            if diff is None:
                continue
            differs = changed | {c.path for c in diff} | {c.old_path for c in diff if c.old_path}
            for path, root in other.items():
                mine = state.get(path)
                if mine is not None and root is not mine and root < mine and path not in differs:
                    state[path] = root

    def _added(self, commit: CommitChanges, change: FileChange) -> _Root:
        root = _Root(commit.author_date, commit.sha, change.path)
        blob = change.blob
        if blob is None or blob in EMPTY_BLOBS:
            return root
        restored = self._seen.get((change.path, blob))
        if restored is not None and restored.date <= root.date:
            return restored
        if _is_record(change.path):
            self.fresh.setdefault(root, (blob, self._seq))
        return root

    def _place(self, state: _State, change: FileChange, root: _Root) -> None:
        state[change.path] = root
        blob = change.blob
        if blob is not None:
            key = (change.path, blob)
            known = self._seen.get(key)
            if known is None or root < known:
                self._seen[key] = root
        if self._track_homes:
            self.homes.setdefault(change.path, set()).add(root)

    def _peek(self, sha: str) -> _State:
        state = self._states.get(sha)
        if state is None:
            raise self._missing(sha)
        return state

    def _take(self, sha: str) -> _State:
        """The parent's state to build on: its own dict if no other child needs it."""
        state = self._peek(sha)
        if self._children[sha] > 1:
            self._children[sha] -= 1
            return dict(state)
        del self._states[sha]
        return state

    def _release(self, sha: str) -> None:
        self._children[sha] -= 1
        if self._children[sha] <= 0:
            self._states.pop(sha, None)

    def _missing(self, sha: str) -> Exception:
        if sha in self._known:
            return ValueError(f"history must list commit {sha} after its children")
        return GitError(
            f"git history is incomplete: parent commit {sha} is missing, "
            f"so first-proposed dates would be wrong; {UNSHALLOW_FIX}"
        )


def _is_record(path: str) -> bool:
    return path.lower().endswith(_RECORD_SUFFIXES)


def _remove(state: _State, commit: CommitChanges) -> dict[str, _Root]:
    """Drop deleted and renamed-away paths first, so a path freed and reused in one commit works."""
    moved: dict[str, _Root] = {}
    for change in commit.changes:
        if change.status == "D":
            state.pop(change.path, None)
        elif change.status == "R" and change.old_path is not None:
            root = state.pop(change.old_path, None)
            if root is None:
                raise _incomplete(change.old_path, commit)
            moved[change.old_path] = root
    return moved


def _via_first(state: _State, moved: Mapping[str, _Root], change: FileChange) -> _Root | None:
    if change.status == "R":
        return moved.get(change.old_path or "")
    if change.status == "M":
        return state.get(change.path)
    return None


def _via_others(
    indexes: list[tuple[_State, dict[str, FileChange] | None]], path: str
) -> list[_Root | None]:
    """Where ``path`` came from in each non-first parent, per that parent's diff."""
    found: list[_Root | None] = []
    for state, index in indexes:
        change = None if index is None else index.get(path)
        if change is None or change.status == "M":
            found.append(state.get(path))
        elif change.status == "R":
            found.append(state.get(change.old_path or ""))
        else:
            found.append(None)
    return found


def _by_path(diff: Sequence[FileChange]) -> dict[str, FileChange]:
    return {change.path: change for change in diff if change.status != "D"}


def _incomplete(path: str, commit: CommitChanges) -> GitError:
    return GitError(
        f"git history is incomplete: {path} changes in commit {commit.sha} but was never added, "
        f"so first-proposed dates would be wrong; {UNSHALLOW_FIX}"
    )


def versions(history: Sequence[CommitChanges], path: str) -> list[str]:
    """Blob ids of the file now at ``path``, newest first, following renames back to its add.

    Walks first-parent diffs only: enough to see a heading renamed in the
    file's own line of history, which is what link repair needs.
    """
    name = path
    blobs: list[str] = []
    for commit in history:
        change = next((c for c in commit.changes if c.path == name and c.status != "D"), None)
        if change is None:
            continue
        if change.blob:
            blobs.append(change.blob)
        if change.status.startswith("R") and change.old_path:
            name = change.old_path
        elif change.status.startswith(("A", "C")):
            break
    return blobs
