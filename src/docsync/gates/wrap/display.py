"""Display columns of prose: tab stops, wide and zero-width characters, CJK text."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

TAB_STOP = 4


@lru_cache(maxsize=8192)
def _char_width(ch: str) -> int:
    category = unicodedata.category(ch)
    if unicodedata.combining(ch) or category in ("Mn", "Me", "Cf", "Cc"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def advance(column: int, text: str) -> int:
    """The display column after writing ``text`` from ``column`` (a newline restarts at 0)."""
    for ch in text:
        if ch == "\t":
            column += TAB_STOP - column % TAB_STOP
        elif ch == "\n":
            column = 0
        else:
            column += _char_width(ch)
    return column


_PRINTABLE_ASCII = re.compile(r"[ -~]*")


def display_width(line: str) -> int:
    """Display columns of a physical line, trailing whitespace excluded."""
    text = line.rstrip(" \t")
    if _PRINTABLE_ASCII.fullmatch(text):
        return len(text)  # one column a character: what advance() would count
    return advance(0, text)


def overflow_index(line: str, width: int) -> int:
    """Index of the first character of ``line`` that ends past display column ``width``."""
    if _PRINTABLE_ASCII.fullmatch(line):
        return min(width, len(line))  # one column a character
    column = 0
    for index, ch in enumerate(line):
        column = advance(column, ch)
        if column > width:
            return index
    return len(line)


_HANGUL = ((0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xAC00, 0xD7FF))


@lru_cache(maxsize=8192)
def is_cjk(ch: str) -> bool:
    """A Chinese or Japanese wide character, where browsers join lines without a space."""
    if unicodedata.east_asian_width(ch) not in ("W", "F"):
        return False
    code = ord(ch)
    if any(low <= code <= high for low, high in _HANGUL):
        return False  # Korean separates words with spaces; a line end there is a space
    return unicodedata.category(ch) != "So"  # emoji and symbols are not CJK text
