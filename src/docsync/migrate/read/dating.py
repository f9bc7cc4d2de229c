"""When each legacy record was first proposed, read from history while the files are parsed.

Dating the records reads all of history (one ``git log --name-status -M``
pass, replayed) and needs nothing the parse makes: which files are records
follows from their paths alone. So :class:`EarlyDates` forks one process at
the start of a run, before anything is parsed, that lists the files, finds
the record paths and dates them, while this process parses the repository;
the dates travel back as one small mapping, read once the records are known.

The answer is the one the serial reading gives, always: a record's date
depends on its own lineage only, so the dates of the paths that turn out
to be records are taken from the child's; when the child failed (a shallow
clone, git missing, a kill), or dated other paths than the records found,
the dates are read here as before, which raises the same error at the same
point. There is no fork where it is not safe or not wanted (see
:func:`docsync.workspace.forked.fork_safe`), nor while a progress bar listens: its history
count belongs to this process.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from ...closing import Closing
from ...config import Config
from ...records.templates import is_template_path
from ...repository import git_history, history, plumbing
from ...repository.plumbing import Listing, RepoPaths
from ...workspace.forked import fork_safe
from .discover import find_trees, lifecycle_folders, record_paths
from .inputs import Dated
from .tree import tree_paths

Progress = Callable[[str, int, int], None]


def candidates(paths: Sequence[str], config: Config) -> list[str]:
    """The record files of the legacy trees, by path alone, in the order they are read."""
    trees = find_trees(paths, config.sources, lifecycle_folders(config.target, config.states.values()))
    lifecycle = set(tree_paths(config.target, config.states, paths))
    outside = [p for p in paths if p not in lifecycle]
    return [path for tree in trees for path, _, _ in record_paths(tree, outside)]


def read_origins(
    root: Path, paths: Sequence[str], progress: Progress | None, records: Sequence[str],
    repo: RepoPaths | None = None,
) -> dict[str, Dated]:
    """The day each of ``paths`` was first proposed, from one pass over history.

    ``records`` are the record files of the trees (:func:`candidates`): a record left as a
    stub when its content moved out restarts only if the content went to one of them."""
    if not paths:
        return {}
    commits = git_history.read_history(root, progress, repo)
    kept = frozenset(records)
    with git_history.CatFile(root) as read_blob:
        origins = history.first_proposed(
            commits,
            paths,
            read_blob,
            template=is_template_path,
            record=kept.__contains__,
            read_ahead=read_blob.read_ahead,
        )
    return {path: Dated(o.date, o.commit) for path, o in origins.items()}


def _listed_candidates(root: Path, config: Config, listing: Listing | None) -> list[str]:
    listing = listing or plumbing.list_files(root)
    return candidates(sorted(set(listing.tracked) | listing.untracked), config)


def source_hash(base: str, path: str) -> str:
    """``sha256:`` and the hex digest of the file's bytes: what a plan file's ``[hashes]`` hold."""
    with open(os.path.join(base, path), "rb") as handle:  # a Path per file cost more than its hash
        return "sha256:" + hashlib.sha256(handle.read()).hexdigest()


def _readable_hashes(base: str, paths: Sequence[str]) -> dict[str, str]:
    hashes: dict[str, str] = {}
    for path in paths:
        try:
            hashes[path] = source_hash(base, path)
        except OSError:
            continue  # read again where it is asked for, which says why it cannot be
    return hashes


_Sent = tuple[list[str], dict[str, Dated], str | None, dict[str, str]] | None


def _date_all(root: Path, config: Config, sink: Connection, listing: Listing | None, repo: RepoPaths | None) -> None:
    """In the child: list the files (unless the run had), date the records, read HEAD's
    commit, hash the records, send (paths, dates, commit, hashes); None on failure."""
    sent: _Sent = None
    try:
        paths = _listed_candidates(root, config, listing)
        dates = read_origins(root, paths, None, paths, repo)
        sent = (paths, dates, plumbing.head_commit(root), _readable_hashes(str(root), paths))
    except BaseException:
        sent = None
    sink.send(sent)
    sink.close()


class EarlyDates(Closing):
    """The records' dates, read by a forked process while this one parses (see the module)."""

    def __init__(
        self, root: Path, config: Config, progress: Progress | None,
        listing: Listing | None = None, repo: RepoPaths | None = None,
    ) -> None:
        """``listing`` and ``repo``: the run's files and where they are, asked of git
        already (the child inherits them), else asked where they are needed."""
        self._root, self._progress, self._config = root, progress, config
        self._listing, self._repo = listing, repo
        self._child: BaseProcess | None = None
        self._source: Connection | None = None
        self._sent: _Sent = None
        self.forked = False  # whether a child reads them
        self.answered = False  # whether the child's dates were the answer
        if progress is None and config.jobs != 1 and fork_safe():
            context = multiprocessing.get_context("fork")
            self._source, sink = context.Pipe(duplex=False)
            self._child = context.Process(target=_date_all, args=(root, config, sink, listing, repo), daemon=True)
            self._child.start()
            sink.close()
            self.forked = True

    def origins(self, records: Sequence[str]) -> dict[str, Dated]:
        """The dates of ``records``: the child's, or read here when it has none for them."""
        sent = self._received()
        if sent is not None and not set(records) - set(sent[0]):
            dates, self.answered = sent[1], True
            return {path: dates[path] for path in records if path in dates}
        known = _listed_candidates(self._root, self._config, self._listing) if records else []
        return read_origins(self._root, records, self._progress, known, self._repo)

    def head_commit(self) -> str | None:
        """HEAD's commit as the child read it (with the dates), or read here."""
        sent = self._received()
        return sent[2] if sent is not None else plumbing.head_commit(self._root)

    def hashes(self, paths: Sequence[str]) -> dict[str, str]:
        """The :func:`source_hash` of each of ``paths``: the child's, read after the dates,
        or read here."""
        sent = self._received()
        known = sent[3] if sent is not None else {}
        base = str(self._root)
        return {path: known.get(path) or source_hash(base, path) for path in paths}

    def _received(self) -> _Sent:
        if self._source is None:
            return self._sent
        source, self._source = self._source, None
        try:
            self._sent = source.recv()
        except (EOFError, OSError):
            self._sent = None
        source.close()
        self._reap(kill=False)
        return self._sent

    def _reap(self, *, kill: bool) -> None:
        child, self._child = self._child, None
        if child is not None:
            if kill:
                child.terminate()
            child.join()

    def close(self) -> None:
        """A run that never read the dates (an error on the way) stops the child."""
        if self._source is not None:
            self._source.close()
            self._source = None
        self._reap(kill=True)
