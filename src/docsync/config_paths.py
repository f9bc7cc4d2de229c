"""Where the config's paths may lead: inside the work tree, never into a git directory.

A committed config is untrusted input (a pull request can change it), and its
paths say where docsync reads and writes: ``target`` and the ``states``
folders under it, ``sources``, ``conventions``, ``template`` and the roots of
the ``exclude`` globs. Each is refused, with one :class:`ConfigError` naming
the key, when it

* leaves the repository: absolute, or a ``..`` that climbs out;
* names a git directory, in any spelling (``.git``, ``./.GIT/x``);
* on disk, resolves (through symlinks) outside the work tree or into its git
  directory;
* names a device, a FIFO, or a folder where a file is meant (a file where a
  folder is meant).

:func:`lexical_problem` is the check without the disk (the config's loader
runs it on every path key); :func:`contained` adds the disk, and runs where a
config first meets its repository (:func:`docsync.workspace.load.load_workspace`):
every command that reads the repository passes there before it reads or
writes a file the config names. The writer's guard refuses a ``.git`` name
again before any change (:mod:`docsync.write.writer`).
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .errors import ConfigError
from .untrusted_text import TERMINAL_UNSAFE

DEFAULTS = "(defaults)"
"""The origin of a config no file gave (:attr:`docsync.config.Config.origin`)."""
FILE = "file"
FOLDER = "folder"
_GLOB = frozenset("*?[{\\")
_UNSAFE = re.compile(f"[{TERMINAL_UNSAFE}]")


class _Source(Protocol):
    @property
    def path(self) -> str: ...
    @property
    def folders(self) -> Mapping[str, str]: ...


class Config(Protocol):
    """The paths of a :class:`docsync.config.Config` this module reads (a protocol, so the
    config module can call this one without a cycle)."""

    @property
    def target(self) -> str: ...
    @property
    def states(self) -> Mapping[str, str]: ...
    @property
    def sources(self) -> Sequence[_Source]: ...
    @property
    def conventions(self) -> str | None: ...
    @property
    def template(self) -> str | None: ...
    @property
    def exclude(self) -> Sequence[str]: ...
    @property
    def origin(self) -> str: ...


@dataclass(frozen=True, slots=True)
class PathKey:
    """One path the config names: the key that names it (``sources[2]``), the path, and
    whether a file or a folder is meant (an ``exclude`` root is a folder)."""

    key: str
    path: str
    kind: str


def is_git_name(part: str) -> bool:
    """Whether one path component names a git directory (``.git``, ``.GIT``, ``.Git.``):
    case-insensitive file systems, and Windows' trailing dots and spaces, make all one."""
    return part.rstrip(". ").casefold() == ".git" or part.casefold() == ".git"


def lexical_problem(path: str) -> str | None:
    """Why ``path`` (a repository-relative POSIX path from config) may not be used; ``None``
    when it may. The disk is not read."""
    if "\0" in path:
        return "holds a NUL character"
    if _UNSAFE.search(path):
        return "holds a control or bidirectional character; name it without one"
    if path.startswith("/") or (len(path) > 1 and path[1] == ":"):
        return "is an absolute path; config paths are relative to the repository root"
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts:
        return "names no file or folder"
    if ".." in parts:
        return "climbs out with '..'; config paths stay inside the repository"
    if any(is_git_name(p) for p in parts):
        return "is inside a git directory (.git), which docsync never reads or writes"
    return None


def exclude_root(glob: str) -> str:
    """The literal folders a glob starts with (``docs/old/**`` → ``docs/old``), ``""`` if none.
    Globs are read as ``.gitignore`` lines: a leading ``!`` takes a match back and a leading
    ``/`` anchors the glob at the repository root; neither is part of the folder."""
    parts: list[str] = []
    for part in glob.removeprefix("!").lstrip("/").split("/"):
        if _GLOB & set(part):
            break
        parts.append(part)
    else:
        parts = parts[:-1] if parts else parts  # the last literal part is a name, not a folder
    return "/".join(parts)


def path_keys(config: Config) -> Iterator[PathKey]:
    """Every path ``config`` names, with the key that names it."""
    target = config.target.strip("/")
    yield PathKey("target", target, FOLDER)
    for state, folder in config.states.items():
        yield PathKey(f"states.{state}", posixpath.join(target, folder), FOLDER)
    for number, source in enumerate(config.sources):
        if source.path.strip("/"):  # "" is the repository root: a tree of records at the root
            yield PathKey(f"sources[{number}]", source.path, FOLDER)
        for folder in source.folders:
            yield PathKey(f"sources[{number}].status", posixpath.join(source.path, folder), FOLDER)
    if config.conventions:
        yield PathKey("conventions", config.conventions, FILE)
    if config.template is not None:
        yield PathKey("template", config.template, FILE)
    for glob in config.exclude:
        if root := exclude_root(glob):
            yield PathKey("exclude", root, FOLDER)


def _refused(config: Config, found: PathKey, why: str) -> ConfigError:
    where = "(the default)" if config.origin == DEFAULTS else f"in {config.origin}"
    return ConfigError(f"key {found.key!r} {where}: {found.path!r} {why}")


MARKDOWN = (".md", ".markdown")


def lexically_contained(config: Config) -> None:
    """Refuse (:class:`ConfigError`, naming the key) a path of ``config`` that leaves the
    repository or names a git directory, without reading the disk; and a file key
    (``conventions``, ``template``) that is no Markdown file, since the conventions doc is
    rewritten as Markdown (``conventions = ".github/workflows/ci.yml"`` would overwrite a
    workflow) and a template is read as one."""
    for found in path_keys(config):
        why = lexical_problem(found.path)
        if why is None and found.kind == FILE and not found.path.lower().endswith(MARKDOWN):
            why = "is not a Markdown file (a name ending in .md or .markdown)"
        if why is not None:
            raise _refused(config, found, why)


def contained(config: Config, root: Path, git_dir: Path) -> None:
    """Refuse (:class:`ConfigError`, naming the key) a path of ``config`` that, on disk,
    leads out of the work tree at ``root`` or into ``git_dir``, or is the wrong kind of file."""
    lexically_contained(config)
    real_root = os.path.realpath(root)
    real_git = os.path.realpath(git_dir)
    for found in path_keys(config):
        why = _on_disk_problem(real_root, real_git, found)
        if why is not None:
            raise _refused(config, found, why)


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _on_disk_problem(real_root: str, real_git: str, found: PathKey) -> str | None:
    real = os.path.realpath(os.path.join(real_root, found.path))
    if _within(real, real_git):
        return "leads into the git directory (through a symlink); docsync never reads or writes there"
    if not _within(real, real_root) or (real == real_root and found.kind == FILE):
        return "leads out of the repository (through a symlink)"
    inside = os.path.relpath(real, real_root)
    if any(is_git_name(p) for p in inside.split(os.sep)):
        return "leads into a git directory (through a symlink); docsync never reads or writes there"
    try:
        mode = os.stat(real).st_mode
    except OSError:
        return None  # absent: made (a folder, the conventions doc) or reported when used
    if found.kind == FILE and not stat.S_ISREG(mode):
        return f"is {_kind_of(mode)}, not a regular file"
    if found.kind == FOLDER and not stat.S_ISDIR(mode):
        return f"is {_kind_of(mode)}, not a folder"
    return None


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a file" if stat.S_ISREG(mode) else "not a regular file"


def leads_inside(root: Path, path: str) -> bool:
    """Whether the repository path ``path`` (a tracked symlink, say) leads to a place in the
    work tree outside any git directory: a record that is a symlink out of the repository
    is never read, so its text never reaches a plan's output (issue #35, class 1)."""
    base = os.path.realpath(root)
    real = os.path.realpath(os.path.join(base, path))
    if os.path.commonpath([base, real]) != base:
        return False
    return not any(is_git_name(part) for part in Path(os.path.relpath(real, base)).parts)
