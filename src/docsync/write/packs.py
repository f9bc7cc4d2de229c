"""How the journal keeps the bytes of the files it saved: in pack files.

Each :meth:`Packs.save` writes the contents not saved yet into one new file,
``pack-N``: the bytes of every file, one after another, each content once.
``state.json`` names, for every saved file, its content's digest and its
place (pack, offset, size); :func:`state_from` reads it back and refuses bytes
whose digest changed. One write per ``cover``, not one per file, and nothing
to remove but a few files when the run ends.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import writer
from .snapshot import FileState


@dataclass(frozen=True, slots=True)
class Place:
    """Where the journal holds one content: its pack, offset and size."""

    pack: str
    at: int
    size: int


@dataclass
class Packs:
    """The packs one transaction has written under ``folder`` (in the git directory)."""

    folder: str
    written: int = 0
    by_digest: dict[str, Place] = field(default_factory=dict)
    by_path: dict[str, tuple[str, Place]] = field(default_factory=dict)

    def save(self, git_dir: Path, states: Sequence[FileState]) -> None:
        """Write the contents of ``states`` (files) not saved yet into one new pack."""
        name = f"pack-{self.written}"
        placed = dict(self.by_digest)
        pieces: list[bytes] = []
        at = 0
        digests = {s.path: writer.digest(s.data) for s in states}
        for state in states:
            if digests[state.path] not in placed:
                placed[digests[state.path]] = Place(name, at, len(state.data))
                pieces.append(state.data)
                at += len(state.data)
        if pieces:
            writer.write_file(git_dir, f"{self.folder}/{name}", pieces)
            self.written += 1
        self.by_digest = placed
        self.by_path.update((path, (sha, placed[sha])) for path, sha in digests.items())

    def item(self, state: FileState) -> dict[str, Any]:
        """``state`` as ``state.json`` records it."""
        item: dict[str, Any] = {"path": state.path, "kind": state.kind, "mode": state.mode}
        if state.kind == "file":
            sha, place = self.by_path[state.path]
            item.update(blob=sha, pack=place.pack, at=place.at, size=place.size)
        elif state.kind == "symlink":
            item["target"] = os.fsdecode(state.data)
        return item


def state_from(
    git_dir: Path, folder: str, item: Mapping[str, Any], packs: dict[str, bytes]
) -> FileState:
    """The state ``state.json``'s ``item`` records; ``packs`` keeps each pack read once."""
    kind = item["kind"]
    data = b""
    if kind == "file":
        data = _saved_bytes(git_dir, folder, item, packs)
    elif kind == "symlink":
        data = os.fsencode(item["target"])
    return FileState(item["path"], kind, data, item["mode"])


def _saved_bytes(
    git_dir: Path, folder: str, item: Mapping[str, Any], packs: dict[str, bytes]
) -> bytes:
    """A file's saved bytes: from its pack, and only when they still have the digest the
    journal recorded."""
    name = f"{folder}/{item['pack']}"
    if name not in packs:
        packs[name] = writer.read_regular(writer.guarded(git_dir, name))
    data = packs[name][item["at"] : item["at"] + item["size"]]
    if writer.digest(data) != item["blob"]:
        raise ValueError(f"the saved bytes of {item['path']} in {name} are damaged")
    return data
