"""Init's ``[tool.docsync]`` table in ``pyproject.toml``: appended, or put in place of the old one.

Every byte of the file outside docsync's tables is kept, and
:func:`replaced` checks it: the file read without docsync's tables is the
same before and after, or nothing is replaced.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import ConfigError
from .config_text import HEADER, PYPROJECT

_TABLE_HEADER = re.compile(r"^[ \t]*\[\[?(?P<name>[^\]#]*)\]\]?[ \t]*(?:#.*)?$")


def _is_docsync(name: str) -> bool:
    key = re.sub(r"[\s\"']", "", name)
    return key == "tool.docsync" or key.startswith("tool.docsync.")


def _docsync_regions(lines: Sequence[str]) -> list[tuple[int, int]]:
    """Line ranges of ``[tool.docsync]`` and its sub-tables (see :func:`_content_end`)."""
    regions: list[tuple[int, int]] = []
    start: int | None = None
    for number, line in enumerate([*lines, "[end]"]):
        header = _TABLE_HEADER.match(line.rstrip("\r\n"))
        if header is None:
            continue
        if start is not None and not _is_docsync(header.group("name")):
            regions.append((start, _content_end(lines, start, number)))
            start = None
        if start is None and _is_docsync(header.group("name")):
            start = number
    return regions


def _content_end(lines: Sequence[str], start: int, end: int) -> int:
    """Where the region from ``start`` ends: trailing blank lines left out, and a comment block
    that stands apart (a blank line above it) before the next table, which introduces that table."""
    end = _skip_back(lines, start, end, _blank)
    if end == len(lines):
        return end
    block = _skip_back(lines, start, end, _comment)
    if block < end and (block == start + 1 or _blank(lines[block - 1])):
        return _skip_back(lines, start, block, _blank)
    return end


def _blank(line: str) -> bool:
    return not line.strip()


def _comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def _skip_back(lines: Sequence[str], start: int, end: int, skip: Callable[[str], bool]) -> int:
    while end > start + 1 and skip(lines[end - 1]):
        end -= 1
    return end


def has_table(text: str) -> bool:
    """Whether ``pyproject.toml``'s text defines ``tool.docsync`` in any form."""
    tool = tomllib.loads(text).get("tool", {})
    return isinstance(tool, dict) and "docsync" in tool


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def appended(text: str, block: str) -> str:
    """``text`` with ``block`` appended after one blank line, in the file's line ending."""
    newline = _newline(text)
    body = text if not text or text.endswith("\n") else text + newline
    separator = newline if body.strip() else ""
    return body + separator + block.replace("\n", newline)


def replaced(text: str, block: str) -> str:
    """``text`` with its docsync tables replaced by ``block`` (in the first one's place).

    Raises :class:`ConfigError` when the table is written in a form this cannot
    edit safely (dotted keys, an inline table).
    """
    lines = text.splitlines(keepends=True)
    regions = _docsync_regions(lines)
    if not regions:
        raise ConfigError(
            f"{PYPROJECT}: tool.docsync is not written as a [tool.docsync] table; "
            "edit it by hand or move it to .docsync.toml"
        )
    newline = _newline(text)
    out: list[str] = []
    cursor = 0
    for number, (start, end) in enumerate(regions):
        start = _with_our_header(lines, start)
        out += lines[cursor:start]
        if number == 0:
            out.append(block.replace("\n", newline))
        cursor = end
    out += lines[cursor:]
    result = "".join(out)
    _check_rest_kept(text, result)
    return result


def _with_our_header(lines: Sequence[str], start: int) -> int:
    """``start``, moved up over the comment lines init wrote above the table last time."""
    above = [line.rstrip("\r\n") for line in lines[max(0, start - len(HEADER)) : start]]
    return start - len(HEADER) if tuple(above) == HEADER else start


def _without_docsync(text: str) -> dict[str, Any]:
    data = tomllib.loads(text)
    tool = data.get("tool")
    if isinstance(tool, dict):
        tool.pop("docsync", None)
        if not tool:
            data.pop("tool")
    return data


def _check_rest_kept(before: str, after: str) -> None:
    try:
        same = _without_docsync(before) == _without_docsync(after)
    except tomllib.TOMLDecodeError:
        same = False
    if not same:
        raise ConfigError(
            f"{PYPROJECT}: cannot replace [tool.docsync] without changing the rest of the file; "
            "edit it by hand"
        )
