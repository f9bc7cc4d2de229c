"""Text from the repository, made safe to print: terminal-acting characters, and file
names that are not UTF-8.

Every place that prints repository text escapes it: findings (``docsync.report.formats``),
lines for people (``docsync.commandline.output.say``/``show``), the migrate report, the
graph. :data:`TERMINAL_UNSAFE` is the one list of what they escape.

File names that are not UTF-8:

git names files by bytes; docsync reads them as UTF-8, keeping a byte that is not
(``0xff``) as a lone surrogate (``\\udcff``, Python's ``surrogateescape``), which no
UTF-8 output can hold. Such a name never enters the workspace (see
:func:`docsync.repository.plumbing.list_files`): a Markdown file so named is one F001
finding showing the name with each such byte as ``\\xff``.
"""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")
TERMINAL_UNSAFE = "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
"""What text from a repository can carry that would act on a reader's terminal instead of
showing (a regular-expression character class): C0 controls (escape sequences, a newline
that forges a line), DEL, C1 controls (U+009B is a one-character CSI), bidirectional marks,
overrides and isolates (which reorder what is shown), the Unicode line and paragraph
separators, and the lone surrogates of a name that is not UTF-8."""


def is_utf8(name: str) -> bool:
    """Whether ``name`` is valid UTF-8 as git gave it (it holds no lone surrogate)."""
    return _SURROGATE.search(name) is None


def _byte(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def shown(name: str) -> str:
    """``name`` with every byte that is not UTF-8 spelled ``\\xff`` (printable, one line)."""
    return _SURROGATE.sub(_byte, name)


def first_bad_byte(name: str) -> str:
    found = _SURROGATE.search(name)
    return "" if found is None else _byte(found)[2:]


_UNSAFE = re.compile(f"[{TERMINAL_UNSAFE}]")


def json_safe(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with every terminal-acting
    character inside its strings spelled ``\\uXXXX``; its own layout newlines are kept
    (json escapes a newline inside a string itself)."""
    return _UNSAFE.sub(lambda m: m.group(0) if m.group(0) == "\n" else f"\\u{ord(m.group(0)):04x}", text)


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escaped_character(match: re.Match[str]) -> str:
    char = match.group(0)
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:  # a byte of a name that is not UTF-8: ``\\xff``
        return _byte(match)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every character that could act on a terminal shown as an escape
    (``\\x1b``, ``\\n``, ``\\u202e``, a byte of a name that is not UTF-8 as ``\\xff``)."""
    return _UNSAFE.sub(escaped_character, text)
