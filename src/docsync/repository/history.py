"""When each design record was first proposed, and where moved files went.

Pure logic over plain data; :func:`docsync.repository.git_history.read_history` reads the
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
  whose old path gets a new file in the same commit; such a move is found
  from the blobs instead, for the records asked about (see below).
* Merges: each parent's diff says where a file came from. A file the merge
  takes unchanged from its first parent keeps that lineage. A file that
  differs from the first parent (brought in from a side branch, or merged
  from both) gets the lineage of the side parent it is taken from unchanged
  (a stub a side branch wrote at a record's old path is the stub, not the
  record), else the earliest origin among the parents that hold it,
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
  Deleted content includes what a merge leaves out of a side branch (the
  branch's ``0000-x.md`` dropped, ``1234-x.md`` added by hand just after),
  and the delete may also come after the add: a record copied and its
  original deleted later moved in two commits.
* An unrelated add is no restore (issue 37): deleted content continues a new
  record only if it was deleted before the add on the add's line of history
  (the deleting commit is an ancestor of the adding one), or the add copied
  it from its own line and the original was deleted after; and only if the
  two are still alike with the tree's template text set aside, or share a
  title or a record number (:mod:`.kinship`). Drafts written from one
  template are 65% alike by git's measure from the boilerplate alone.
* Content moved out of a file that stays behind as a stub: a commit that adds
  a record while it rewrites another into a short stub is a move git cannot
  see without ``-B``. When the new file holds the old text (alike, as above)
  and the rewritten file no longer does, the new record continues the old
  lineage, and the stub starts a new one with that commit, but only when
  the content's new file is a record at HEAD: a proposal whose text moved to
  a draft that is no record keeps the day it began at its own path.
* A rename git misses because the record was also rewritten (a delete and an
  add in one commit, under 50%): one record when both names have the same
  slug in one folder and the same title once their numbers are set aside.
* Templates (the paths ``template`` says are templates, as discovery reads
  them: ``0000-template.md``, and the page of a template folder,
  ``keps/NNNN-kep-template/README.md``) start and continue no lineage: a deleted template is no grave, and
  content a template held is no restore, so an RFC whose first commit is the
  template's text begins with that commit.
* Squash and merge: a file that a merge takes unchanged from every parent
  keeps the earliest origin any parent has for it, so a file first added on
  a side branch keeps the side-branch date even when the first parent added
  the same content (a squash commit) before the merge.
* History that does not reach back to a file's creation (a parent missing
  from the history, or a change to a file never added) raises
  :class:`GitError` with the fix, rather than returning a wrong date.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from .commits import CommitChanges
from .lineage import Resurrection
from .replay import Replayer, Root
from .similarity import BlobReader


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a file at HEAD (``path``) began: the commit that first added it, and at which path."""

    path: str
    date: date
    commit: str
    original_path: str


def first_proposed(
    history: Sequence[CommitChanges],
    paths: Iterable[str],
    read_blob: BlobReader | None = None,
    *,
    template: Callable[[str], bool] | None = None,
    record: Callable[[str], bool] | None = None,
    read_ahead: Callable[[Sequence[str]], None] | None = None,
) -> dict[str, Origin]:
    """The origin of each of ``paths`` (repository-relative, as at HEAD).

    ``history`` is what :func:`docsync.repository.git_history.read_history` returns: HEAD
    first, every commit listed before its parents. Paths that HEAD does not
    track (not committed yet) are left out of the result. With ``read_blob``
    (blob id → content), a file re-added with content similar to a deleted
    one continues its lineage (see the module). ``template`` says which file
    paths are templates, whose content starts and continues no lineage.
    ``record`` says which paths at HEAD are records (default: every file): a
    file left as a stub restarts only when its content went to one of them.
    ``read_ahead``, given the blobs ``read_blob`` will be asked for, may start reading them
    (:meth:`docsync.repository.git_blobs.CatFile.read_ahead`).
    """
    replayer = Replayer(history, track_homes=False, template=template)
    head = replayer.run()
    roots = {path: root for path in paths if (root := head.get(path)) is not None}
    if read_blob is not None:
        resurrect = Resurrection(replayer, read_blob)
        if read_ahead is not None:
            read_ahead(resurrect.blobs_ahead(roots.values()))
        homes = {r for p, r in head.items() if record is None or record(p)}
        roots = {
            path: resurrect.earliest(resurrect.restarted(path, r, homes))
            for path, r in roots.items()
        }
    return {path: Origin(path, root.date, root.commit, root.path) for path, root in roots.items()}


def rename_map(history: Sequence[CommitChanges]) -> dict[str, str]:
    """Old path → path at HEAD, for every file that HEAD tracks under another name.

    Chains are collapsed (``a → b → c`` gives ``a: c`` and ``b: c``). A path
    is left out when it is tracked at HEAD, when files of more than one
    lineage have lived there, or when its file was deleted since: a link to
    it has no single right target.
    """
    replayer = Replayer(history, track_homes=True)
    head = replayer.run()
    places: dict[Root, list[str]] = {}
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
