"""Bytes in, normalised text out: what every parse starts from.

A file is Markdown text when it is UTF-8 without a NUL byte; a document holds
its text with every line ending as ``\\n``, and remembers the line ending and
byte-order mark it had, so that a rewrite writes them back.
"""

from __future__ import annotations


class SourceError(Exception):
    """A file that cannot be read as Markdown text (bad encoding, NUL byte)."""

    def __init__(self, rule: str, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.line = line
        self.column = column


_BOM = "\ufeff"


def decode(data: bytes) -> tuple[str, str, bool]:
    """Decode UTF-8 bytes; return (text with ``\\n`` line ends, newline, had BOM)."""
    if b"\x00" in data:
        offset = data.index(b"\x00")
        line = data.count(b"\n", 0, offset) + 1
        raise SourceError("F002", "file contains a NUL byte; it is binary, not Markdown", line)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SourceError(
            "F001", f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x})", line, column
        ) from None
    return text_parts(text)


def text_parts(text: str) -> tuple[str, str, bool]:
    """A decoded text as a document holds it: (text with ``\\n`` line ends, newline, had BOM)."""
    bom = text.startswith(_BOM)
    if bom:
        text = text[1:]
    return normalized(text), newline_of(text), bom


def newline_of(text: str) -> str:
    """The line ending a new line break in ``text`` gets: ``\r\n`` where any line ends so,
    a lone ``\r`` where every line does (an old Mac file), else ``\n``."""
    if "\r\n" in text:
        return "\r\n"
    return "\r" if "\r" in text and "\n" not in text else "\n"


def normalized(text: str) -> str:
    """``text`` with every line ending (CRLF, a lone CR) as ``\\n``, as documents hold it."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
