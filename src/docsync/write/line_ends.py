"""Line endings of a rewritten file: each line keeps the ending it had.

A file that mixes ``\\r\\n`` and ``\\n`` (or has lone carriage returns) is
rewritten with docsync's ``\\n`` text; :func:`with_line_ends` gives each line
back the ending of the line it came from, so a change touches only the
lines it changes.
"""

from __future__ import annotations

import difflib
import re

_LINE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|$)")


def lines_unlike(original: bytes, newline: str) -> list[tuple[str, str]] | None:
    """The original's lines with their endings, when some line ends otherwise than ``newline``."""
    try:
        text = original.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None
    lines = [(m.group(1), m.group(2)) for m in _LINE.finditer(text) if m.group(0)]
    return lines if any(end and end != newline for _, end in lines) else None


def with_line_ends(text: str, original: list[tuple[str, str]], newline: str) -> str:
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
