"""The replay of history, oldest first: path → lineage root for each commit still needed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import NamedTuple

from ..errors import GitError
from .commits import UNSHALLOW_FIX, CommitChanges, FileChange

EMPTY_BLOBS = frozenset(
    {
        "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
        "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813",
    }
)


_RECORD_SUFFIXES = (".md", ".markdown")


class Root(NamedTuple):
    """The start of a lineage. Tuple order makes ``min`` pick the earliest, deterministically."""

    date: date
    commit: str
    path: str


class Grave(NamedTuple):
    """Record content deleted, or left out by a merge from a side branch: its blob, lineage,
    replay position, the commit that deleted it and the path it was deleted at."""

    blob: str
    root: Root
    seq: int
    commit: str
    path: str


class Split(NamedTuple):
    """A record changed in the commit that added a new one: if the change left a stub and the
    new file holds the old text, the content moved (a move git sees as an add)."""

    path: str
    old_blob: str
    new_blob: str
    root: Root


State = dict[str, Root]
Side = tuple[State, tuple[FileChange, ...] | None]  # a merge's other parent: its state and diff


class _States:
    """Each replayed commit's state, kept until its last child has read it.

    A commit's state is handed to its last child without copying and freed
    once every child has read it, so memory holds one state per open branch.
    """

    def __init__(self, history: Sequence[CommitChanges]) -> None:
        self._known = {commit.sha for commit in history}
        self._children = Counter(parent for commit in history for parent in commit.parents)
        self._states: dict[str, State] = {}

    def keep(self, sha: str, state: State) -> None:
        self._states[sha] = state

    def peek(self, sha: str) -> State:
        state = self._states.get(sha)
        if state is None:
            raise self._missing(sha)
        return state

    def take(self, sha: str) -> State:
        """The parent's state to build on: its own dict if no other child needs it."""
        state = self.peek(sha)
        if self._children[sha] > 1:
            self._children[sha] -= 1
            return dict(state)
        del self._states[sha]
        return state

    def release(self, sha: str) -> None:
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


class Replayer:
    """Replays history oldest first, keeping path → origin for each commit still needed."""

    def __init__(
        self,
        history: Sequence[CommitChanges],
        *,
        track_homes: bool,
        template: Callable[[str], bool] | None = None,
    ) -> None:
        self.history = history
        self._template = template
        self._template_blobs: set[str] = set()  # what templates held: proves no identity
        self._states = _States(history)
        self._seen: dict[tuple[str, str], Root] = {}
        self._track_homes = track_homes
        self.homes: dict[str, set[Root]] = {}
        self.fresh: dict[Root, tuple[str, int]] = {}  # new Markdown lineage → (blob, seq)
        self.graves: list[Grave] = []
        self.splits: dict[Root, list[Split]] = {}  # new Markdown lineage → records changed beside
        self._seq = 0

    @property
    def template_blobs(self) -> frozenset[str]:
        """Every content a template file held: the tree's boilerplate."""
        return frozenset(self._template_blobs)

    def run(self) -> State:
        """The state at HEAD, the first commit of the history."""
        for seq, commit in enumerate(reversed(self.history)):
            self._seq = seq
            self._states.keep(commit.sha, self._replay(commit))
        return self._states.peek(self.history[0].sha) if self.history else {}

    def _replay(self, commit: CommitChanges) -> State:
        others = [self._states.peek(parent) for parent in commit.parents[1:]]
        state = self._states.take(commit.parents[0]) if commit.parents else {}
        self._bury(state, commit)
        moved = _remove(state, commit)
        if others:
            diffs: list[tuple[FileChange, ...] | None] = list(commit.merge_changes)
            diffs += [None] * (len(others) - len(diffs))
            pairs = list(zip(others, diffs, strict=True))
            self._merge_in(state, commit, moved, pairs)
            self._bury_left_out(state, commit, pairs)
        else:
            changed = _changed_records(state, commit, self.is_record)
            self._add(state, commit, moved)
            if changed:
                _note_splits(self.splits, self.fresh, state, commit, changed)
        for parent in commit.parents[1:]:
            self._states.release(parent)
        return state

    def is_record(self, path: str) -> bool:
        """Markdown that may be a record: a template's content starts and continues no lineage."""
        return _is_markdown(path) and not self._is_template(path)

    def _is_template(self, path: str) -> bool:
        template = self._template
        return template is not None and _is_markdown(path) and template(path)

    def _bury(self, state: State, commit: CommitChanges) -> None:
        """Remember Markdown content the commit deletes, for a similar re-add to continue."""
        for change in commit.changes:
            if change.status == "D":
                self._grave(change, state.get(change.path), commit)

    def _bury_left_out(self, state: State, commit: CommitChanges, others: list[Side]) -> None:
        """Content a merge leaves out of a side branch is deleted content too (a branch's
        ``0000-x.md`` dropped by the merge and added by hand as ``1234-x.md`` just after)."""
        kept: set[Root] | None = None
        for other, diff in others:
            for change in diff or ():
                if change.status != "D" or (root := other.get(change.path)) is None:
                    continue
                kept = set(state.values()) if kept is None else kept
                if root not in kept:
                    self._grave(change, root, commit)

    def _grave(self, change: FileChange, root: Root | None, commit: CommitChanges) -> None:
        blob = change.blob
        if root is not None and blob and blob not in EMPTY_BLOBS and self.is_record(change.path):
            self.graves.append(Grave(blob, root, self._seq, commit.sha, change.path))

    def _add(self, state: State, commit: CommitChanges, moved: Mapping[str, Root]) -> None:
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
        state: State,
        commit: CommitChanges,
        moved: Mapping[str, Root],
        others: list[tuple[State, tuple[FileChange, ...] | None]],
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
            taken = _taken_unchanged(indexes, change.path)
            root = min(taken or candidates) if candidates else self._added(commit, change)
            self._place(state, change, root)
        _earliest_of_unchanged(state, commit, others)

    def _added(self, commit: CommitChanges, change: FileChange) -> Root:
        root = Root(commit.author_date, commit.sha, change.path)
        blob = change.blob
        if blob is None or blob in EMPTY_BLOBS or blob in self._template_blobs:
            return root  # a skeleton copied from the template is no restore of anything
        restored = self._seen.get((change.path, blob))
        if restored is not None and restored.date <= root.date:
            return restored
        if self.is_record(change.path):
            self.fresh.setdefault(root, (blob, self._seq))
        return root

    def _place(self, state: State, change: FileChange, root: Root) -> None:
        state[change.path] = root
        blob = change.blob
        if blob is not None and self._is_template(change.path):
            self._template_blobs.add(blob)
        if blob is not None:
            key = (change.path, blob)
            known = self._seen.get(key)
            if known is None or root < known:
                self._seen[key] = root
        if self._track_homes:
            self.homes.setdefault(change.path, set()).add(root)


def _changed_records(
    state: State, commit: CommitChanges, is_record: Callable[[str], bool]
) -> list[Split]:
    """The records a commit that adds a record rewrites in place (before the replay moves on)."""
    if not any(change.status == "A" for change in commit.changes):
        return []
    return [
        Split(change.path, change.old_blob, change.blob, root)
        for change in commit.changes
        if change.status == "M"
        and change.old_blob
        and change.blob
        and (root := state.get(change.path)) is not None
        and is_record(change.path)
    ]


def _note_splits(
    splits: dict[Root, list[Split]],
    fresh: Mapping[Root, object],
    state: State,
    commit: CommitChanges,
    changed: list[Split],
) -> None:
    """Remember, for each record the commit began, the records it changed beside it."""
    for change in commit.changes:
        root = state.get(change.path)
        if change.status == "A" and root is not None and root.commit == commit.sha and root in fresh:
            splits[root] = changed


def _earliest_of_unchanged(
    state: State,
    commit: CommitChanges,
    others: list[tuple[State, tuple[FileChange, ...] | None]],
) -> None:
    """A file the merge takes unchanged from every parent keeps the earliest origin of any;
    one it takes unchanged from the first parent that, against a side parent, is a rename
    (EIPs: ``eip-3.mediawiki`` converted to ``eip-3.md`` on main) meets that lineage too."""
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
        for change in diff:
            if change.status != "R" or change.path in changed or change.old_path is None:
                continue
            theirs, mine = other.get(change.old_path), state.get(change.path)
            if theirs is not None and mine is not None and theirs < mine:
                state[change.path] = theirs


def _is_markdown(path: str) -> bool:
    return path.lower().endswith(_RECORD_SUFFIXES)


def _remove(state: State, commit: CommitChanges) -> dict[str, Root]:
    """Drop deleted and renamed-away paths first, so a path freed and reused in one commit works."""
    moved: dict[str, Root] = {}
    for change in commit.changes:
        if change.status == "D":
            state.pop(change.path, None)
        elif change.status == "R" and change.old_path is not None:
            root = state.pop(change.old_path, None)
            if root is None:
                raise _incomplete(change.old_path, commit)
            moved[change.old_path] = root
    return moved


def _via_first(state: State, moved: Mapping[str, Root], change: FileChange) -> Root | None:
    if change.status == "R":
        return moved.get(change.old_path or "")
    if change.status == "M":
        return state.get(change.path)
    return None


def _via_others(
    indexes: list[tuple[State, dict[str, FileChange] | None]], path: str
) -> list[Root | None]:
    """Where ``path`` came from in each non-first parent, per that parent's diff."""
    found: list[Root | None] = []
    for state, index in indexes:
        change = None if index is None else index.get(path)
        if change is None or change.status == "M":
            found.append(state.get(path))
        elif change.status == "R":
            found.append(state.get(change.old_path or ""))
        else:
            found.append(None)
    return found


def _taken_unchanged(
    indexes: list[tuple[State, dict[str, FileChange] | None]], path: str
) -> list[Root]:
    """The lineages of the side parents a merge takes ``path`` from unchanged: the file is
    theirs (a stub a side branch wrote where the first parent kept the old record)."""
    return [
        root
        for state, index in indexes
        if index is not None and path not in index and (root := state.get(path)) is not None
    ]


def _by_path(diff: Sequence[FileChange]) -> dict[str, FileChange]:
    return {change.path: change for change in diff if change.status != "D"}


def _incomplete(path: str, commit: CommitChanges) -> GitError:
    return GitError(
        f"git history is incomplete: {path} changes in commit {commit.sha} but was never added, "
        f"so first-proposed dates would be wrong; {UNSHALLOW_FIX}"
    )
