"""The one place docsync writes files.

Writes are atomic (a temporary file in the same folder, then a rename), keep
the file's line endings, byte-order mark and permissions, and never follow a
path out of the repository.
"""

from __future__ import annotations

import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import DocsyncError


@dataclass(frozen=True, slots=True)
class FileWrite:
    """New content for one repository file (``text`` with ``\\n`` line ends)."""

    path: str
    text: str
    newline: str = "\n"
    bom: bool = False

    def encoded(self) -> bytes:
        text = self.text.replace("\n", self.newline) if self.newline != "\n" else self.text
        return (("\ufeff" if self.bom else "") + text).encode("utf-8")


def _inside(root: Path, path: str) -> Path:
    full = (root / path).resolve()
    try:
        full.relative_to(root.resolve())
    except ValueError:
        raise DocsyncError(f"{path}: refusing to write outside the repository") from None
    return full


def write_atomic(root: Path, change: FileWrite) -> None:
    full = _inside(root, change.path)
    full.parent.mkdir(parents=True, exist_ok=True)
    mode = stat.S_IMODE(full.stat().st_mode) if full.exists() else 0o644
    fd, tmp = tempfile.mkstemp(dir=full.parent, prefix=f".{full.name}.", suffix=".docsync")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(change.encoded())
        os.chmod(tmp, mode)
        os.replace(tmp, full)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_all(root: Path, changes: list[FileWrite]) -> None:
    """Write every change, or on failure put back the files already written."""
    originals: list[tuple[Path, bytes | None]] = []
    try:
        for change in changes:
            full = _inside(root, change.path)
            originals.append((full, full.read_bytes() if full.exists() else None))
            write_atomic(root, change)
    except BaseException:
        for full, data in reversed(originals):
            if data is None:
                full.unlink(missing_ok=True)
            else:
                full.write_bytes(data)
        raise
