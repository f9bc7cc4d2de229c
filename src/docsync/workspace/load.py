"""Discover the Markdown files of a repository and parse each exactly once.

The result, a :class:`Workspace`, is what every gate and rewriter reads: the
repository's tracked and untracked files, and one :class:`Document` per
Markdown file in scope. Parsing runs in parallel across cores and goes
through a content-keyed cache under the git directory.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..config import Config
from ..config import load as load_config
from ..config_paths import contained
from ..errors import DocsyncError
from ..model import Document, Finding
from ..repository.plumbing import Listing, RepoPaths, find_repo, list_files
from ..untrusted_text import is_utf8
from . import cache as parse_cache
from . import stat_index
from .collector import PAUSE_COLLECTOR_FROM, collector_paused
from .documents import NO_DOCUMENT, Documents, Kept, unpickled
from .files import bytes_of, read_capped, stat_of
from .globs import in_scope as in_scope
from .globs import matches as matches
from .indexed import Blob
from .misnamed import misnamed
from .named import MARKDOWN_SUFFIXES as MARKDOWN_SUFFIXES
from .named import is_markdown as is_markdown
from .named import named
from .parsing import Packed, Packs, Reader, Result, Summarize, parse_one, parse_pending
from .stat_index import Source, Unread

SummarizerFactory = Callable[["Workspace"], Summarize]
"""Makes a :data:`Summarize` from the workspace as known before parsing (no documents yet)."""

Progress = Callable[[str, int, int], None]
"""A progress hook: (description, done, total). The core reports; the CLI decides whether to show it."""
PARSING = "Parsing Markdown"


@dataclass(frozen=True)
class Workspace:
    root: Path
    git_dir: Path
    config: Config
    listing: Listing
    documents: Mapping[str, Document]
    problems: tuple[Finding, ...]
    selected: tuple[str, ...]

    @property
    def files_checked(self) -> int:
        return len(self.selected)

    def tracked(self, path: str) -> bool:
        return path in self.listing.tracked


# --------------------------------------------------------------------------- discovery


def discover(root: Path, listing: Listing, config: Config) -> list[str]:
    """Every Markdown file in scope: tracked ones plus untracked, non-ignored ones.

    A tracked symlink is not a file of its own (its target, if in the
    repository, is checked under its real path), so a file reached twice is
    checked once and nothing outside the repository is read.
    """
    return _markdown_files(root, listing, lambda path: in_scope(path, config))


def out_of_scope(root: Path, listing: Listing, config: Config) -> list[str]:
    """The Markdown files :func:`discover` leaves out only because config's
    ``include`` / ``exclude`` say so (unchecked, but still somebody's docs)."""
    return _markdown_files(root, listing, lambda path: not in_scope(path, config))


def _markdown_files(root: Path, listing: Listing, wanted: Callable[[str], bool]) -> list[str]:
    found: list[str] = []
    base = str(root)
    for path in sorted(set(listing.tracked) | listing.untracked):
        if not is_markdown(path) or not wanted(path):
            continue
        if listing.is_symlink(path):
            continue
        mode = _lstat_mode(os.path.join(base, path))
        if mode is not None and not stat.S_ISLNK(mode) and stat.S_ISREG(mode):
            found.append(path)
    return found


# What Path.is_symlink() and Path.is_file() read as "no such file"; and a
# tracked name longer than the file system allows, which cannot exist on disk.
_MISSING = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP, errno.ENAMETOOLONG})


def _lstat_mode(path: str) -> int | None:
    """One lstat for Path.is_symlink() then Path.is_file() (same answers, half the calls)."""
    try:
        return os.lstat(path).st_mode
    except OSError as exc:
        if exc.errno not in _MISSING:
            raise
        return None
    except ValueError:
        return None


def relative_to_root(root: Path, cwd: Path, raw: str) -> str:
    """A path given on the command line as a repository-relative POSIX path."""
    candidate = Path(raw) if Path(raw).is_absolute() else cwd / raw
    try:
        resolved = candidate.resolve(strict=False)
    except RuntimeError:
        raise DocsyncError(f"{raw}: symlink loop") from None
    try:
        return PurePosixPath(resolved.relative_to(root)).as_posix()
    except ValueError:
        raise DocsyncError(f"{raw}: path is outside the repository {root}") from None


# --------------------------------------------------------------------------- parsing


def read_text(root: Path, path: str, limit: int, needles: Sequence[bytes] = ()) -> str | None:
    """A text file's content exactly as stored (line endings and any BOM kept,
    so that ``.encode("utf-8")`` gives its bytes back), or None when it is a
    symlink, a binary (a NUL byte), larger than ``limit`` bytes, not UTF-8,
    unreadable, or holds none of ``needles`` (checked before decoding).

    For the files docsync rewrites without parsing them as Markdown (code
    and config that name records by path or id): a rewrite then changes the
    words it means to and not a byte more, even in a file whose line endings
    are mixed.
    """
    try:
        data = read_capped(root / path, limit, follow=False)
    except OSError:  # a symlink: ELOOP
        return None
    if data is None or len(data) > limit or b"\0" in data or (needles and not any(needle in data for needle in needles)):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def content_key(root: Path, path: str, config: Config) -> str | None:
    """The cache key of a file as :func:`parse_files` would read it; None if it cannot be read."""
    status = stat_of(root, path, config)
    data = status if isinstance(status, Finding) else bytes_of(root, path, config.max_file_size)
    return None if isinstance(data, Finding) else parse_cache.ParseCache.key(path, data)


def parse_files(
    root: Path,
    git_dir: Path,
    paths: Sequence[str],
    config: Config,
    progress: Progress | None = None,
    summarize: Summarize | None = None,
    *,
    eager: bool = False,
) -> tuple[Documents, list[Finding]]:
    """Parse every path once, through the cache and in parallel.

    ``progress`` hears (:data:`PARSING`, done, total) for the files the stat
    index did not know, once before the first and after each one (each read
    where it is parsed, see :class:`~.parsing.Reader`). ``summarize``,
    when given, runs in the parse workers on each document they parse; the
    results are :attr:`Documents.summaries` (documents parsed here or taken
    from the cache have none).

    ``eager``: the caller reads every document. A parse worker's documents are
    then unpickled as they come, while the workers parse the rest, rather than
    when first read after the parse (the same documents, only sooner).
    """
    if len(paths) < PAUSE_COLLECTOR_FROM:
        return _parse_files(root, git_dir, paths, config, progress, summarize, eager)
    with collector_paused():
        return _parse_files(root, git_dir, paths, config, progress, summarize, eager)


def _parse_files(
    root: Path,
    git_dir: Path,
    paths: Sequence[str],
    config: Config,
    progress: Progress | None,
    summarize: Summarize | None,
    eager: bool = False,
) -> tuple[Documents, list[Finding]]:
    store = parse_cache.open_cache(git_dir) if config.cache else parse_cache.disabled()
    seen = stat_index.open_index(git_dir, root, parse_cache.fingerprint()) if config.cache else stat_index.disabled()
    context = summarize.context() if isinstance(summarize, Packs) else None
    found: dict[str, Document] = {}
    packed: dict[str, tuple[Blob, Source]] = {}
    kept: dict[str, Blob] = {}
    problems: list[Finding] = []
    to_read: dict[str, os.stat_result] = {}
    keys: dict[str, str] = {}

    def cached(path: str, key: str, source: Source) -> bool:
        """Whether the cache has the file's document or its summaries (then packed)."""
        summaries = store.get_blob(store.summaries_key(key, context)) if context else None
        blob = store.get_blob(key)
        if summaries is None and blob is None:
            return False
        keys[path] = key
        packed[path] = (blob if blob is not None else NO_DOCUMENT, source)
        if summaries is not None:
            kept[path] = summaries
        return True

    summaries: dict[str, object] = {}
    uncached = parse_cache.disabled()
    parse_problems: list[Finding] = []

    def take(result: Result, status: os.stat_result) -> None:
        """A file read after ``status`` was taken, and parsed unless the cache has it."""
        path, key, marker, made, problem, summary = result
        if key is None:  # it could not be read
            seen.forget(path)
            problems.extend((problem,) if problem is not None else ())
            return
        keys[path] = key
        seen.put(path, status, key, marker)
        # its bytes are not held here (read again if a gate asks for the document), as a warm run's
        source = Unread(os.path.join(root, path), marker)
        if made is None and problem is None and summary is None and not cached(path, key, source):
            parsed = parse_one(path, source.read())  # the reader was told the cache has it: never so
            made, problem = parsed.document, parsed.problem
        # A file parsed with a problem (not UTF-8) is not cached: the next run parses it
        # again and reports the problem again.
        keep = store if problem is None else uncached
        if isinstance(summary, Packed) and context is not None:  # kept instead of the document
            packed[path] = (NO_DOCUMENT, source)
            summaries[path] = summary.made
            keep.put_blob(keep.summaries_key(key, context), summary.blob)
        elif isinstance(made, bytes):  # a worker's: stays packed, like the cache's
            keep.put_blob(key, made)
            ready = unpickled(path, made) if eager else None
            if ready is not None:
                found[path] = ready
            else:
                packed[path] = (made, source)
        elif made is not None:
            found[path] = made
            keep.put(key, made)
        if summary is not None and not isinstance(summary, Packed):
            summaries[path] = summary
        if problem is not None:
            parse_problems.append(problem)

    def started() -> None:
        if progress is not None:
            progress(PARSING, 0, len(to_read))

    # Each file is read where it is parsed (a worker reads its own) after its stat, but
    # for one the stat index knew (changed, or too recently to believe): it is read and
    # hashed here first, as it is often content the cache has; its bytes are not kept.
    reader = Reader(str(root), config.max_file_size, store.keys(), context)
    for path in paths:
        status = stat_of(root, path, config)
        if isinstance(status, Finding):
            seen.forget(path)
            problems.append(status)
            continue
        known = seen.get(path, status)
        if known is not None and cached(path, known.key, Unread(os.path.join(root, path), known.marker)):
            continue  # unchanged since its stat was seen: not read
        if seen.remembers(path):
            result, data = reader.read(path)
            if data is None:  # unreadable, or the cache has it
                take(result, status)
                continue
        to_read[path] = status
    largest = sorted(to_read, key=lambda path: to_read[path].st_size, reverse=True)
    results = parse_pending(largest, reader, config, summarize, context is not None, started)
    for done, result in enumerate(results, start=1):
        if progress is not None:
            progress(PARSING, done, len(to_read))
        take(result, to_read[result[0]])
    place = {path: i for i, path in enumerate(paths)}
    problems.sort(key=lambda problem: place[problem.path])  # stat's and read's, in path order
    problems.extend(sorted(parse_problems, key=lambda problem: place[problem.path]))
    store.save()
    seen.save()
    unpack = summarize.unpack if isinstance(summarize, Packs) else None
    return Documents(paths, found, packed, keys, summaries, Kept(kept, unpack)), problems


# --------------------------------------------------------------------------- entry point


def load_workspace(
    start: Path,
    paths: Sequence[str] | None = None,
    config: Config | None = None,
    extra: Iterable[str] = (),
    progress: Progress | None = None,
    summarizers: Mapping[str, SummarizerFactory] | None = None,
    *,
    eager: bool = False,
    repo: RepoPaths | None = None,
    listing: Listing | None = None,
) -> Workspace:
    """Discover and parse the repository holding ``start``.

    ``paths`` (repository-relative) narrows what is reported on; every
    Markdown file in scope is still parsed so that links into other files
    resolve against their headings. ``progress`` is passed to :func:`parse_files`,
    and so are ``summarizers``, each made of the workspace as known before
    parsing, as one (:class:`~docsync.workspace.summaries.Combined`): their
    results are read by name (:meth:`Documents.made`). ``eager``: the caller
    reads every document (see :func:`parse_files`). ``repo``: where ``start`` is, and
    ``listing``: its files, when the caller has asked git already (a question less each).
    """
    repo = repo or find_repo(start)
    config = config or load_config(repo.root)
    contained(config, repo.root, repo.git_dir)  # before any file the config names is read
    listing = listing or list_files(repo.root)
    everything = discover(repo.root, listing, config)
    selected = tuple(everything) if paths is None else named(repo.root, paths, listing, config)
    selected, unnamed = misnamed(selected, listing, config, paths is None)
    to_parse = sorted(set(everything) | set(selected) - set(unnamed) | {p for p in extra if is_utf8(p)})
    chosen = set(selected)
    summarize = None
    if summarizers:
        from .summaries import Combined

        unparsed = Workspace(repo.root, repo.git_dir, config, listing, {}, (), selected)
        summarize = Combined({name: make(unparsed) for name, make in summarizers.items()})
    documents, problems = parse_files(
        repo.root, repo.git_dir, to_parse, config, progress, summarize, eager=eager
    )
    return Workspace(
        root=repo.root,
        git_dir=repo.git_dir,
        config=config,
        listing=listing,
        documents=documents,
        problems=(*unnamed.values(), *(p for p in problems if p.path in chosen)),
        selected=selected,
    )


def excluded_documents(workspace: Workspace, skip: Iterable[str] = ()) -> Mapping[str, Document]:
    """The Markdown files config's ``include`` / ``exclude`` keep out of the gates,
    parsed (``skip`` aside); for rewriters that keep links in them working."""
    left_out = set(skip)
    paths = [
        p
        for p in out_of_scope(workspace.root, workspace.listing, workspace.config)
        if p not in left_out
    ]
    if not paths:
        return {}
    documents, _ = parse_files(workspace.root, workspace.git_dir, paths, workspace.config)
    return documents
