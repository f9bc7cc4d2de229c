"""What git prints, read: history logs, raw diffs and error messages.

Pure text in, plain data out; :mod:`docsync.repository.git_history` runs the
history commands.

History is one `git log` over every commit reachable from HEAD, which prints
no diff for a merge (as the `git log --name-status -M` people run does not),
and one `git diff-tree --stdin` beside it, fed each merge and parent as the
log names them, for a merge's diff against every parent. The two run at once.
Only flags that git 2.25 knows are used.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import date

from ..errors import GitError
from .commits import CommitChanges, FileChange

HISTORY = "Reading git history"

RAW_DIFF = ("-z", "--raw", "--no-abbrev", "-M", "-r")
LOG_FORMAT = "--format=%H %P%x00%ai"
LOG_OPTIONS = (
    *RAW_DIFF,
    "--topo-order",
    "--root",
    "--no-color",
    "--no-notes",
    "--no-show-signature",
)
_RENAME_LIMIT_WARNING = "diff.renameLimit"


_MISSING_OBJECT = re.compile(
    r"(?:unable to read|missing blob|bad object|could not read|missing object)\s+([0-9a-f]{40,64})"
)


def check_warnings(stderr: str) -> None:
    """Skipped rename detection would date moved records by their move: an error, not a warning."""
    if _RENAME_LIMIT_WARNING in stderr:
        advice = " ".join(line.removeprefix("warning: ") for line in stderr.splitlines())
        raise GitError(
            f"git skipped rename detection, so moved records would be dated by their move: "
            f"{advice} (`git config diff.renameLimit <N>`)"
        )


def with_merge_diffs(
    commit: CommitChanges, diffs: dict[str, tuple[tuple[FileChange, ...], ...]]
) -> CommitChanges:
    if len(commit.parents) < 2:
        return commit
    first, *others = diffs[commit.sha]
    return replace(commit, changes=first, merge_changes=tuple(others))


def parse_log(
    tokens: Iterator[str],
    seen: Callable[[int], None] | None = None,
    merge: Callable[[str, Sequence[str]], None] | None = None,
) -> list[CommitChanges]:
    """The commits of ``git log``'s output, newest first. A merge gets no changes here:
    ``merge`` hears its id and parents, to ask for its diffs against each parent."""
    commits: list[CommitChanges] = []
    merges: set[str] = set()
    header = next(tokens, None)
    while header is not None:
        if not header.strip():
            header = next(tokens, None)
            continue
        sha, *parents = header.split()
        stamp = next(tokens)
        changes, header = parse_raw(tokens)
        if len(parents) > 1:
            if sha in merges:
                continue  # a block of diff against a later parent (a configured `-m`)
            merges.add(sha)
            changes = ()
            if merge is not None:
                merge(sha, parents)
        day = date.fromisoformat(stamp[:10])
        commits.append(CommitChanges(sha, day, stamp[-5:], tuple(parents), changes))
        if seen is not None:
            seen(len(commits))
    return commits


def parse_blocks(tokens: Iterator[str]) -> list[tuple[str, tuple[FileChange, ...]]]:
    """What `diff-tree --stdin --always` prints: each input line's commit, then its diff."""
    blocks: list[tuple[str, tuple[FileChange, ...]]] = []
    header = next(tokens, None)
    while header is not None:
        if not header.strip():
            header = next(tokens, None)
            continue
        changes, following = parse_raw(tokens)
        blocks.append((header.strip(), changes))
        header = following
    return blocks


def merge_diffs(
    blocks: list[tuple[str, tuple[FileChange, ...]]], merges: list[tuple[str, str]]
) -> dict[str, tuple[tuple[FileChange, ...], ...]]:
    """The blocks of diff by merge, in parent order; ``merges`` is (merge, parent) for each
    line given to `diff-tree --stdin`, which prints one block per line, in input order."""
    if [sha for sha, _ in blocks] != [sha for sha, _ in merges]:
        raise GitError("unexpected output from git diff-tree for the merges")
    found: dict[str, list[tuple[FileChange, ...]]] = {}
    for sha, changes in blocks:
        found.setdefault(sha, []).append(changes)
    return {sha: tuple(diffs) for sha, diffs in found.items()}


def parse_raw(tokens: Iterator[str]) -> tuple[tuple[FileChange, ...], str | None]:
    """Raw diff entries (``:mode mode blob blob status\\0path[\\0path]``), and the token after them."""
    changes: list[FileChange] = []
    for token in tokens:
        meta = token.lstrip("\n")
        if not meta.startswith(":"):
            return tuple(changes), meta
        fields = meta.split(" ")
        blob, status = fields[3], fields[4][0]
        if status == "R":
            old = next(tokens)
            changes.append(FileChange("R", next(tokens), old, blob))
        elif status == "C":
            next(tokens)
            changes.append(FileChange("A", next(tokens), None, blob))
        elif status == "D":
            changes.append(FileChange("D", next(tokens), None, fields[2]))
        elif status == "A":
            changes.append(FileChange("A", next(tokens), None, blob))
        else:
            changes.append(FileChange("M", next(tokens), None, blob, fields[2]))
    return tuple(changes), None


def first_line(stderr: str) -> str:
    """git's message without its ``hint:`` lines and the quoting GitPython adds."""
    text = stderr.strip().removeprefix("stderr:").strip().strip("'").strip()
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("hint:")]
    return lines[0].strip() if lines else "no message"


def missing_object(stderr: str) -> str | None:
    """The id of the object git's ``stderr`` says is missing, if it says so."""
    found = _MISSING_OBJECT.search(stderr)
    return found.group(1) if found else None


def missing_object_error(sha: str, where: str, partial: bool) -> GitError:
    """What a missing object means: a partial clone, or a mirror without it."""
    what = (
        "this is a partial clone, which fetches objects on demand and could not fetch it"
        if partial
        else "this clone lacks it (a partial clone, or a mirror without large objects)"
    )
    return GitError(
        f"git object {sha} is missing from {where}: {what}, so "
        "renames cannot be detected and records cannot be dated; fetch it (`git fetch "
        "--refetch origin` fetches every object), or migrate from a full clone"
    )


def commit_counter(total: int, progress: Callable[[str, int, int], None]) -> Callable[[int], None]:
    """A callback for :func:`parse_log` that tells ``progress`` every 250 commits, and at the end."""

    def seen(done: int) -> None:
        if done % 250 == 0 or done == total:
            progress(HISTORY, done, total)

    return seen


def z_list(output: str) -> list[str]:
    """The items of a NUL-separated git output."""
    return [item for item in output.split("\0") if item]


_BATCH = 200  # paths per git command, well under any command-line length limit


def batches(paths: list[str]) -> list[list[str]]:
    """``paths`` in runs short enough for one git command line."""
    return [paths[i : i + _BATCH] for i in range(0, len(paths), _BATCH)]
