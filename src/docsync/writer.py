"""The one place docsync writes files.

Writes are atomic (a temporary file in the same folder, then a rename), keep
the file's line endings (line by line, when a file mixes them), byte-order
mark and permissions, and never follow a path out of the repository.
"""

from __future__ import annotations

import difflib
import os
import re
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

    def encoded(self, original: bytes | None = None) -> bytes:
        """The bytes to write. ``original``, the file's bytes now, matters only
        when its lines do not all end in ``newline`` (mixed endings, or lone
        carriage returns): then lines the change leaves alone keep theirs."""
        if "\r" in self.text:  # already as stored (a file rewritten without decoding)
            text = self.text
        elif original is not None and (lines := _lines_unlike(original, self.newline)):
            text = _with_line_ends(self.text, lines, self.newline)
        elif self.newline != "\n":
            text = self.text.replace("\n", self.newline)
        else:
            text = self.text
        return (("\ufeff" if self.bom else "") + text).encode("utf-8")


_LINE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|$)")


def _lines_unlike(original: bytes, newline: str) -> list[tuple[str, str]] | None:
    """The original's lines with their endings, when some line ends otherwise than ``newline``."""
    try:
        text = original.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None
    lines = [(m.group(1), m.group(2)) for m in _LINE.finditer(text) if m.group(0)]
    return lines if any(end and end != newline for _, end in lines) else None


def _with_line_ends(text: str, original: list[tuple[str, str]], newline: str) -> str:
    """``text`` (``\\n`` line ends) with each line's ending taken from the original.

    Lines before the first change and after the last keep their own endings
    (matched from either end); in between, lines are matched by content, and
    a rewritten run takes the endings of the run it replaces, last lines
    first (a rewrapped paragraph ends as it did). Other lines get ``newline``.
    """
    final = text.endswith("\n")
    lines = text.split("\n")
    if final:
        lines.pop()
    ends = [newline] * len(lines)
    bodies = [body for body, _ in original]
    shortest = min(len(bodies), len(lines))
    head = 0
    while head < shortest and bodies[head] == lines[head]:
        head += 1
    tail = 0
    while tail < shortest - head and bodies[-1 - tail] == lines[-1 - tail]:
        tail += 1
    pairs = [(k, k) for k in range(head)] + [(len(bodies) - t, len(lines) - t) for t in range(1, tail + 1)]
    middle = difflib.SequenceMatcher(
        None, bodies[head : len(bodies) - tail], lines[head : len(lines) - tail], autojunk=False
    )
    for tag, i1, i2, j1, j2 in middle.get_opcodes():
        if tag == "insert" or j1 == j2:
            continue
        count = min(i2 - i1, j2 - j1)
        pairs.extend((head + i2 - c, head + j2 - c) for c in range(count, 0, -1))
    for old, new in pairs:
        if original[old][1]:
            ends[new] = original[old][1]
    if lines and not final:
        ends[-1] = ""
    return "".join(body + end for body, end in zip(lines, ends, strict=True))


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
        original = full.read_bytes() if full.is_file() else None
        with os.fdopen(fd, "wb") as handle:
            handle.write(change.encoded(original))
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
