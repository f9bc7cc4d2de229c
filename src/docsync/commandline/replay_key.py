"""The key of a check's report (:mod:`.replay`): this run's every input, hashed, without
reading the files (their stats stand for them, as in git's index)."""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import __version__
from ..errors import DocsyncError
from ..repository.plumbing import Listing, RepoPaths, find_repo, list_files
from ..workspace import cache_key
from .terminal import not_a_terminal

MAGIC = b"docsync-replay 1\n"
SLOTS = 4
"""Reports kept per repository, at most: one per slot, a slot by command line and folder."""
MAX_REPORT = 1 << 28
"""Bytes of stdout past which a report is not kept (nor a file that large read)."""
MAX_HEADER = 1 << 16
RACY_SLACK_NS = 2_000_000_000
"""As the stat index's: how much older than the run that kept a report every file's last
change must be for its stat to be believed (coarser than any file system's clock)."""
TRAILER = 4 + 8 + cache_key.TAG
"""After the header: its length (4 bytes), how long the run had been going when it wrote
the report (8 bytes), and the tag (HMAC-SHA256 of everything before it)."""

FORMATS = ("text", "concise", "json", "json-lines", "github", "gitlab", "sarif", "junit")
_FLAGS = frozenset({"--quiet", "-q", "--exit-zero", "--statistics", "--report-unused-suppressions", "--verbose", "-v"})
_VALUED = frozenset({"--gate", "-g", "--select", "--ignore", "--format", "--output-format", "-f", "--config", "--color"})
_ENVIRONMENT = frozenset({
    "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS", "LINES", "TERM", "COLORTERM",
    "JUPYTER_COLUMNS", "JUPYTER_LINES", "PYTHONIOENCODING", "LANG", "LC_ALL", "LC_CTYPE",
    "HOME", "XDG_CONFIG_HOME",
})
_CONFIG_NAMES = (".docsync.toml", "pyproject.toml")
_CONFIG_CAP = 1 << 20


@dataclass(frozen=True)
class Asked:
    """What the command line asks, as far as whether its report can be replayed goes."""

    form: str
    color: str
    config: str | None
    paths: tuple[str, ...] = ()
    """The paths named: a file git ignores is checked when named, and no listing shows it."""


def asked(argv: list[str]) -> Asked | None:
    """``argv`` read as ``check`` reads it, where every input of its report is known; None
    for anything else (another command, ``--staged``, ``--changed``, stdin, an option
    this does not know, ``--help``): those runs are never replayed."""
    if not argv or argv[0] != "check":
        return None
    form, color, config = "text", "auto", None
    paths: list[str] = []
    rest, at, options = argv[1:], 0, True
    while at < len(rest):
        token = rest[at]
        at += 1
        if token == "-":
            return None  # stdin
        if not options or not token.startswith("-"):
            paths.append(token)
            continue
        if token == "--":
            options = False
            continue
        name, equals, value = token.partition("=") if token.startswith("--") else (token, "", "")
        if name in _FLAGS and not equals:
            continue
        if name not in _VALUED:
            return None
        if not equals:
            if at == len(rest):
                return None
            value, at = rest[at], at + 1
        if name in ("--format", "--output-format", "-f"):
            form = value
        elif name == "--color":
            color = value
        elif name == "--config":
            config = value
    return Asked(form, color, config, tuple(paths)) if form in FORMATS else None


def plain_stdout(color: str) -> bool:
    """Whether rich would surely write text on stdout without colour (it takes it for no
    terminal); False where stdout has no descriptor (closed, or replaced): not replayed."""
    try:
        sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        return False
    return not_a_terminal(sys.stdout, forced=color == "always")


@dataclass(frozen=True)
class Observed:
    """This run's inputs, hashed, and where its report is kept."""

    argv: tuple[str, ...]
    key: str
    file: Path
    newest_ns: int
    """The latest mtime or ctime of any listed file: a report is believed only when it
    was kept by a run that began :data:`RACY_SLACK_NS` after it."""
    began_ns: int
    """When observing began (monotonic clock)."""
    repo: RepoPaths = field(compare=False)
    listing: Listing = field(compare=False)
    """Where the repository is and its files, as the key holds them: the run checks these
    (it neither asks git again nor checks a listing other than the one its report is kept
    under)."""


class _Digest:
    def __init__(self) -> None:
        self._hash = hashlib.sha256()

    def add(self, *values: object) -> None:
        for value in values:
            self._hash.update(repr(value).encode("utf-8", "surrogateescape"))
            self._hash.update(b"\0")

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def observe(argv: list[str]) -> Observed | None:
    """This run's inputs (see the module's text); None when the report cannot be replayed
    (:func:`asked`), or git cannot answer (then the run says why)."""
    try:
        return _observe(argv)
    except (DocsyncError, OSError, ValueError):  # git cannot answer, a file went meanwhile
        return None


def _observe(argv: list[str]) -> Observed | None:
    wanted = asked(argv)
    if wanted is None or (wanted.form == "text" and "--statistics" not in argv and not plain_stdout(wanted.color)):
        return None
    began = time.monotonic_ns()
    cwd = os.getcwd()
    repo = find_repo(Path(cwd))
    listing = list_files(repo.root)
    digest = _Digest()
    digest.add(MAGIC, __version__, sys.version, sys.executable, _code(), tuple(argv), cwd)
    digest.add(sorted((k, v) for k, v in os.environ.items() if k in _ENVIRONMENT or k.startswith("GIT_")))
    digest.add(getattr(sys.stdout, "encoding", None), getattr(sys.stdout, "errors", None), plain_stdout("auto"))
    digest.add(str(repo.root), str(repo.git_dir), sorted(listing.tracked.items()), sorted(listing.untracked))
    digest.add(listing.staged, listing.unnamable, _configs(Path(cwd), repo.root, wanted.config))
    newest = _stamps(digest, str(repo.root), sorted({*listing.tracked, *listing.untracked, *listing.unnamable}))
    newest = max(newest, _stamps(digest, cwd, list(wanted.paths)))  # as named: an ignored file too
    return Observed(tuple(argv), digest.hexdigest(), slot_file(repo.git_dir, argv, cwd), newest, began, repo, listing)


def slot_file(git_dir: Path, argv: list[str], cwd: str) -> Path:
    """Where the report of ``argv`` run in ``cwd`` is kept: one of :data:`SLOTS` files."""
    slot = hashlib.sha256(repr((list(argv), cwd)).encode("utf-8", "surrogateescape")).digest()[0] % SLOTS
    return git_dir / "docsync" / f"replay-{slot}"


def _stamps(digest: _Digest, root: str, paths: list[str]) -> int:
    """Every listed file's stat into ``digest`` (a symlink's target too); the latest change."""
    newest = 0
    rows: list[object] = []
    for path in paths:
        full = os.path.join(root, path)
        try:
            info = os.lstat(full)
        except (OSError, ValueError) as exc:
            rows.append((path, getattr(exc, "errno", None)))
            continue
        row: tuple[object, ...] = (
            path, info.st_mode, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev
        )
        newest = max(newest, info.st_mtime_ns, info.st_ctime_ns)
        if stat.S_ISLNK(info.st_mode):
            try:
                row = (*row, os.readlink(full), os.path.realpath(full), os.path.exists(full))
            except (OSError, ValueError):
                row = (*row, None)
        rows.append(row)
    digest.add(rows)
    return newest


def _configs(cwd: Path, root: Path, named: str | None) -> list[object]:
    """Every config file that could apply, hashed whole: ``.docsync.toml`` and
    ``pyproject.toml`` in each folder from here up to the root, and ``--config``'s."""
    found: list[object] = []
    folder = cwd.resolve()
    if folder != root and root not in folder.parents:
        folder = root
    while True:
        found.extend((str(folder / name), _content(folder / name)) for name in _CONFIG_NAMES)
        if folder == root:
            break
        folder = folder.parent
    if named is not None:
        found.append((os.path.abspath(named), _content(Path(named))))
    return found


def _content(path: Path) -> object:
    """A config file as a run would find it: absent, a folder, or its bytes hashed; never
    blocking on a FIFO nor reading a device (the run refuses those itself)."""
    try:
        info = os.lstat(path)
        real = os.path.realpath(path)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError) as exc:
        return ("unread", getattr(exc, "errno", None))
    try:
        target = os.fstat(fd)
        if not stat.S_ISREG(target.st_mode):
            return ("not a file", info.st_mode, target.st_mode, real)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(_CONFIG_CAP + 1)
    except OSError as exc:
        return ("unread", exc.errno)
    finally:
        os.close(fd)
    return (info.st_mode, real, hashlib.sha256(data).hexdigest())


_CODE: list[object] = []


def _code() -> list[object]:
    """docsync's own files (size and mtime: an edited module in an editable install), and the
    distributions installed beside it (by name and version: an upgraded parser)."""
    if _CODE:
        return _CODE
    base = Path(__file__).resolve().parents[1]
    for folder, folders, files in os.walk(base):
        folders[:] = sorted(f for f in folders if f != "__pycache__")
        for name in sorted(files):
            info = os.stat(os.path.join(folder, name))
            _CODE.append((os.path.relpath(os.path.join(folder, name), base), info.st_size, info.st_mtime_ns))
    for entry in sys.path:  # the installed distributions: where docsync's libraries are
        if os.path.basename(entry) not in ("site-packages", "dist-packages"):
            continue
        try:
            names = os.listdir(entry)
        except (OSError, ValueError):
            continue
        _CODE.append((entry, sorted(n for n in names if n.endswith((".dist-info", ".egg-info", ".pth", ".egg-link")))))
    return _CODE


