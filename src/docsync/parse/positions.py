"""Where inline content sits in the source.

markdown-it gives block tokens a line map but inline content none: a
paragraph's content is its lines with the container prefixes (list
indentation, ``>`` markers) removed, a table cell's is the cell with its
escaped pipes unescaped. These functions map offsets in such content back
to offsets in the document's text.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence

from ..model import Span
from .constructors import new_span as _span


def content_line_offsets(
    text: str, lines: Sequence[str], line_starts: Sequence[int], first_line: int, content: str, atx: bool
) -> list[int]:
    """Source offset where each line of an inline token's content starts.

    markdown-it turns a tab that container indentation takes only part of
    into spaces, so such a line's content is not a slice of its source
    line. Its offset is then where the content would start if it were:
    every character after the leading whitespace (where every inline
    construct is) maps to its own source position.
    """
    return [
        _line_offset(text, lines, line_starts, first_line + k, piece, atx)
        for k, piece in enumerate(content.split("\n"))
    ]


def _line_offset(
    text: str, lines: Sequence[str], line_starts: Sequence[int], index: int, piece: str, atx: bool
) -> int:
    """Where ``piece``, the content of source line ``index``, starts (see
    :func:`content_line_offsets`)."""
    if index >= len(lines):
        return len(text)
    source = lines[index]
    if atx:
        hashes = len(source) - len(source.lstrip(" >\t"))
        column = source.find(piece, hashes)
    else:
        column = source.rstrip().rfind(piece) if piece else len(source.rstrip())
    if column < 0:
        core = piece.lstrip(" \t")
        found = source.rstrip().rfind(core) if core else -1
        if found >= 0:
            column = found - (len(piece) - len(core))
        else:
            column = max(0, len(source) - len(piece))
    return line_starts[index] + column


def paragraph_lines(
    text: str, lines: Sequence[str], line_starts: Sequence[int], first_line: int, content: str
) -> tuple[list[int], tuple[Span, ...]]:
    """A paragraph's :func:`content_line_offsets` and each line's :func:`line_span`.

    Most lines end with their content, which ends with a character that is
    not whitespace: then the source line has no trailing whitespace, the
    content's last occurrence in it is the one at its end, and the span is
    that slice, which is what the search and :func:`line_span` find.
    """
    if "\n" not in content and content and not content[-1].isspace():
        source = lines[first_line] if first_line < len(lines) else ""
        if source.endswith(content):  # one line, the commonest paragraph: the loop's first case
            offset = line_starts[first_line] + len(source) - len(content)
            return [offset], (_span(offset, offset + len(content)),)
    offsets: list[int] = []
    spans: list[Span] = []
    count = len(lines)
    for k, piece in enumerate(content.split("\n")):
        index = first_line + k
        source = lines[index] if index < count else ""
        if piece and not piece[-1].isspace() and source.endswith(piece):
            offset = line_starts[index] + len(source) - len(piece)
            offsets.append(offset)
            spans.append(_span(offset, offset + len(piece)))
            continue
        offset = _line_offset(text, lines, line_starts, index, piece, False)
        offsets.append(offset)
        spans.append(line_span(text, offset, piece))
    return offsets, tuple(spans)


def line_span(text: str, offset: int, piece: str) -> Span:
    """The source span of a content line starting at ``offset`` (see
    :func:`content_line_offsets`): without the leading whitespace when
    that is not in the source as the content has it."""
    end = offset + len(piece)
    if text.startswith(piece, offset):
        return _span(offset, end)
    return _span(end - len(piece.lstrip(" \t")), end)


def cell_mapper(
    lines: Sequence[str], line_starts: Sequence[int], cursor: dict[int, int], line: int, content: str
) -> Callable[[int], int]:
    """Map a table cell's content offsets to the source.

    A cell's content reads each escaped pipe ``\\|`` as ``|`` (GFM drops the
    backslash before the inline parse), so every pipe before an offset
    shifts it one character further in the source. ``cursor`` holds, per
    table line, where the next cell's search starts (cells come in order).
    """
    source = lines[line]
    start = cursor.get(line, 0)
    written = content.replace("|", "\\|")
    column = source.find(written, start) if written else start
    if column < 0:
        column = start
    cursor[line] = column + len(written)
    base = line_starts[line] + column
    pipes = [i for i, char in enumerate(content) if char == "|"]
    if not pipes:
        return lambda pos: base + pos
    # a pipe itself maps to its "|", one past its backslash
    return lambda pos: base + pos + bisect.bisect_right(pipes, pos)


def line_mapper(content: str, offsets: list[int]) -> Callable[[int], int]:
    """Map offsets in (possibly multi-line) inline content to the source, line by line."""
    line_breaks = _newlines(content)
    if not line_breaks:
        base = offsets[0]
        return lambda pos: base + pos

    def to_source(pos: int) -> int:
        k = bisect.bisect_left(line_breaks, pos)
        line_start = line_breaks[k - 1] + 1 if k else 0
        return offsets[min(k, len(offsets) - 1)] + (pos - line_start)

    return to_source


def _newlines(text: str) -> list[int]:
    """Offsets of every ``\\n`` in ``text``."""
    found: list[int] = []
    at = text.find("\n")
    while at != -1:
        found.append(at)
        at = text.find("\n", at + 1)
    return found
