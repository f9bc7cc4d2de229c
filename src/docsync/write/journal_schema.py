"""What a journal may say, and how a run knows it wrote the journal it finds.

The git directory can come from anywhere (an archive, a network disk, a CI
cache), so a journal is untrusted until proven docsync's own, and
``--abort`` writes only what a validated journal names.

Two checks, both before a single byte is put back:

* **The seal.** Before anything else, a run writes ``seal`` (random bytes)
  into its journal folder and records in ``state.json`` the token and what
  the kernel said of the file once written: device, inode and change time
  (``st_ctime_ns``). The change time is set by the kernel and cannot be set
  back, and a file unpacked from an archive gets a new inode and a new
  change time: a journal planted or copied from elsewhere cannot match, and
  is refused as not this repository's.
* **The schema** (:func:`validated`). Every field has its type and bounds.
  A path is a relative path inside the work tree that does not enter
  ``.git`` in any spelling, a folder likewise, a mode has no bits beyond
  0o777 and an executable mode only for a file that is executable now with
  the same mode (a rollback never makes a file executable), the command is
  one that journals, and ``redo`` is plain data of bounded depth.

Anything else is a :class:`Foreign` journal: the command stops with one
line (exit 2) and nothing is changed.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DocsyncError
from . import writer
from .finished import JOURNAL

FORMAT = 4
"""4: the run's own moves, removals and relinks are logged as left absent before it makes
them, so that a rollback puts back only what the run removed (an older journal would put
back a file the user renamed or deleted meanwhile, or leave a moved one where the move put
it); 3: the journal is sealed (``seal``); 2: pack files, no seal; 1: one blob file each.
Only a sealed journal of this format is believed: an older docsync's is refused in one line,
for that docsync's ``--abort``."""

SEAL = f"{JOURNAL}/seal"
COMMANDS = frozenset({"migrate", "fix", "move", "new", "init"})
"""The commands that journal what they change."""

_HEX = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_DIGEST = re.compile(r"[0-9a-f]{64}")
_PACK = re.compile(r"pack-[0-9]{1,9}")
_MAX_FILES = 1_000_000
_MAX_DEPTH = 4


class Foreign(DocsyncError):
    """A journal that is not one this docsync wrote in this repository, or is damaged."""


@dataclass(frozen=True, slots=True)
class Seal:
    token: str
    device: int
    inode: int
    ctime: int

    def record(self) -> dict[str, Any]:
        return {"token": self.token, "device": self.device, "inode": self.inode, "ctime": self.ctime}


def write_seal(git_dir: Path) -> Seal:
    """Write the journal's seal (before anything else of it) and return what to record."""
    token = secrets.token_hex(16)
    writer.write_file(git_dir, SEAL, token.encode())
    info = os.lstat(writer.guarded(git_dir, SEAL))
    return Seal(token, info.st_dev, info.st_ino, info.st_ctime_ns)


def _seal_holds(git_dir: Path, recorded: object) -> bool:
    if not (isinstance(recorded, dict) and recorded.keys() == {"token", "device", "inode", "ctime"}):
        return False
    if not (type(recorded["token"]) is str and all(type(recorded[k]) is int for k in ("device", "inode", "ctime"))):
        return False
    try:
        full = writer.guarded(git_dir, SEAL)
        info = os.lstat(full)
        if not stat.S_ISREG(info.st_mode) or info.st_size > 64:
            return False
        token = writer.read_regular(full).decode("ascii", "replace")
    except (OSError, DocsyncError):
        return False
    return (
        secrets.compare_digest(token, recorded["token"])
        and (info.st_dev, info.st_ino, info.st_ctime_ns)
        == (recorded["device"], recorded["inode"], recorded["ctime"])
    )


def _foreign(why: str) -> Foreign:
    return Foreign(
        f".git/{JOURNAL}: not a journal this docsync wrote in this repository ({why}); "
        "nothing was changed: restore the repository with git if a run was cut short, "
        f"then remove .git/{JOURNAL}"
    )


def validated(raw: object, git_dir: Path, root: Path) -> dict[str, Any]:
    """``state.json``'s parsed JSON when it is a sealed journal of the right shape
    whose every path the recorded command could have written; :class:`Foreign` otherwise."""
    if not isinstance(raw, dict):
        raise _foreign("not a JSON object")
    version = raw.get("format")
    if type(version) is not int:
        raise _foreign("no format")
    if version > FORMAT:
        raise _foreign(f"format {version}, written by a newer docsync")
    if version < FORMAT:
        raise _foreign(f"format {version}, written by an older docsync (run its --abort)")
    expected = {"format", "command", "redo", "head", "index", "files", "absent_folders", "seal"}
    if raw.keys() != expected:
        raise _foreign("unexpected fields")
    if not _seal_holds(git_dir, raw["seal"]):
        raise _foreign("its seal does not match: planted, or copied from another repository")
    if raw["command"] not in COMMANDS:
        raise _foreign("an unknown command")
    if not (raw["head"] is None or (type(raw["head"]) is str and _HEX.fullmatch(raw["head"]))):
        raise _foreign("HEAD is not a commit id")
    if not (raw["index"] is None or (type(raw["index"]) is str and _DIGEST.fullmatch(raw["index"]))):
        raise _foreign("a damaged index digest")
    if not (isinstance(raw["redo"], dict) and _plain(raw["redo"], 0)):
        raise _foreign("damaged arguments")
    files, folders = raw["files"], raw["absent_folders"]
    if not (isinstance(files, list) and isinstance(folders, list) and len(files) <= _MAX_FILES):
        raise _foreign("damaged file list")
    for folder in folders:
        _path(folder)
    for item in files:
        _item(item, root)
    return raw


def _plain(value: object, depth: int) -> bool:
    """JSON scalars, lists and string-keyed objects, at most :data:`_MAX_DEPTH` deep."""
    if value is None or type(value) in (bool, int, str):
        return True
    if depth >= _MAX_DEPTH:
        return False
    if isinstance(value, list):
        return all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(type(k) is str and _plain(v, depth + 1) for k, v in value.items())
    return False


def inside_work_tree(path: object) -> str:
    """``path`` when it is a relative path in the work tree outside ``.git``; :class:`Foreign` otherwise."""
    return _path(path)


def _path(path: object) -> str:
    if type(path) is not str:
        raise _foreign("a path that is not a string")
    try:
        parts = writer.lexical(path)
    except DocsyncError:
        raise _foreign(f"a path outside the work tree: {path!r}") from None
    if any(part.casefold().rstrip(". ") == ".git" for part in parts):
        raise _foreign(f"a path inside the git directory: {path!r}")
    return path


def _item(item: object, root: Path) -> None:
    if not isinstance(item, dict):
        raise _foreign("a damaged file entry")
    path = _path(item.get("path"))
    kind, mode = item.get("kind"), item.get("mode")
    if type(mode) is not int or not 0 <= mode <= 0o777:
        raise _foreign(f"a damaged mode for {path!r}")
    if kind == "absent" and item.keys() == {"path", "kind", "mode"}:
        return
    if kind == "symlink" and item.keys() == {"path", "kind", "mode", "target"}:
        if type(item["target"]) is not str or "\0" in item["target"] or not item["target"]:
            raise _foreign(f"a damaged symlink for {path!r}")
        return
    if kind != "file" or item.keys() != {"path", "kind", "mode", "blob", "pack", "at", "size"}:
        raise _foreign(f"a damaged file entry for {path!r}")
    if not (type(item["blob"]) is str and _DIGEST.fullmatch(item["blob"])):
        raise _foreign(f"a damaged digest for {path!r}")
    if not (type(item["pack"]) is str and _PACK.fullmatch(item["pack"])):
        raise _foreign(f"a damaged pack name for {path!r}")
    if not all(type(item[k]) is int and item[k] >= 0 for k in ("at", "size")):
        raise _foreign(f"a damaged place for {path!r}")
    if mode & 0o111 and _mode_now(root, path) != mode:
        raise _foreign(f"it would make {path!r} executable")


def _mode_now(root: Path, path: str) -> int | None:
    try:
        info = os.lstat(root / path)
    except OSError:
        return None
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None
