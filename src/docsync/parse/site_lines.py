"""Docs-site lines that GitHub reads as prose and a docs site as structure.

GitHub renders a ``:::`` fence, a ``!!!`` admonition's opening line, a Hugo
shortcode, a Liquid tag or a ``[TOC]`` marker as text, often inside the
paragraph around it; the site the docs are built into reads each as a line
of its own. Joined to a neighbour by a rewrap, the site loses it. The parser
has no extension for any of them, so this pass splits them out of the
paragraphs it made: each such line is a block of its own, and the lines
between are paragraphs again (those right after an admonition's opening
line are its body).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..model import Span, constructor

# A line that stands alone wherever it is written (Hugo shortcodes, Liquid
# tags, table-of-contents markers, a ``:::`` container fence with or without
# its name, an admonition's opening line).
_STANDALONE = re.compile(
    r"""(?: \{\{<.*>\}\}              # Hugo shortcode {{< … >}}
          | \{\{%.*%\}\}              # Hugo shortcode {{% … %}}
          | \{%.*%\}                  # Liquid tag {% … %}
          | \[\[_TOC_\]\] | \[TOC\]     # GitLab / Azure DevOps, Python-Markdown
          | :{3,}.*                   # a ::: container fence, opening or closing
        )[ \t]*""",
    re.VERBOSE,
)
_ADMONITION = re.compile(r"(?:!!!|\?\?\?\+?)[ \t]+\S.*")
_SHORTCODE_LINE = re.compile(r"(?m)^[ \t>]*\{\{([<%])(?!.*[>%]\}\}).*$")
_MAX_SHORTCODE_LINES = 40
_FIRST_CHARS = frozenset("{[:!?")


@dataclass(frozen=True, slots=True)
class Piece:
    """Lines ``first`` to ``last`` (1-based) of a paragraph: a standalone line
    (or a shortcode's lines), or a paragraph of the lines between."""

    first: int
    last: int
    spans: tuple[Span, ...]
    protected: tuple[Span, ...]
    standalone: bool = False
    admonition: bool = False


_piece = constructor(Piece)


def shortcode_lines(text: str, line_starts: Sequence[int]) -> dict[int, int]:
    """The Hugo shortcodes of ``text`` that open on one line and close on a later one
    (their parameters one a line): first line to last (1-based). No blank line is
    inside one; a line of one can start a block of its own on GitHub (``>}}`` a
    block quote), so they are found in the source, not in a paragraph."""
    found: dict[int, int] = {}
    if "{{" not in text:
        return found
    lines = text.split("\n")
    for match in _SHORTCODE_LINE.finditer(text):
        first = bisect.bisect_right(line_starts, match.start())
        closer = ">}}" if match.group(1) == "<" else "%}}"
        for index in range(first, min(len(lines), first + _MAX_SHORTCODE_LINES - 1)):
            line = lines[index].rstrip()
            if not line:
                break
            if line.endswith(closer):
                found[first] = index + 1
                break
    return found


def split_site_lines(
    first: int, spans: tuple[Span, ...], contents: Sequence[str], protected: tuple[Span, ...], shortcodes: dict[int, int]
) -> Sequence[Piece]:
    """The pieces of the paragraph whose lines (from line ``first``) have ``spans``, and
    the text ``contents`` there; ``shortcodes`` are :func:`shortcode_lines`."""
    if not shortcodes and not any(content[:1] in _FIRST_CHARS for content in contents):
        return (_piece(first, first + len(spans) - 1, spans, protected),)
    pieces: list[Piece] = []
    run_start = 0
    admonition = False
    k = 0
    inside = _inside(shortcodes, first, first + len(contents) - 1)
    while k < len(contents):
        last = inside.get(k)
        if last is None:
            last = _standalone_end(contents, k)
        if last is None:
            k += 1
            continue
        if run_start < k:
            pieces.append(_prose(first, spans, protected, run_start, k, admonition))
        pieces.append(Piece(first + k, first + last, spans[k : last + 1], (), standalone=True))
        admonition = _ADMONITION.fullmatch(contents[k]) is not None
        k = run_start = last + 1
    if run_start < len(contents):
        pieces.append(_prose(first, spans, protected, run_start, len(contents), admonition))
    return pieces


def _standalone_end(contents: Sequence[str], k: int) -> int | None:
    """The last line of the standalone construct that starts on line ``k``, or None."""
    line = contents[k].rstrip(" \t")
    if line[:1] not in _FIRST_CHARS:
        return None
    if _STANDALONE.fullmatch(line) or _ADMONITION.fullmatch(line):
        return k
    return None


def _inside(shortcodes: dict[int, int], first: int, last: int) -> dict[int, int]:
    """Of the paragraph's lines ``first`` to ``last``, those in a multi-line shortcode:
    index in the paragraph to the index of the shortcode's (or the paragraph's) last line."""
    found: dict[int, int] = {}
    for opening, closing in shortcodes.items():
        if opening <= last and closing >= first:
            for line in range(max(opening, first), min(closing, last) + 1):
                found[line - first] = min(closing, last) - first
    return found


def container_change(line: str) -> int:
    """+1 for a line that opens a ``:::`` container, -1 for one that closes it, else 0."""
    if not line.startswith(":::"):
        return 0
    return -1 if not line.strip(": \t") else 1


def _prose(
    first: int, spans: tuple[Span, ...], protected: tuple[Span, ...], start: int, stop: int, admonition: bool
) -> Piece:
    kept = spans[start:stop]
    low, high = kept[0].start, kept[-1].end
    inside = tuple(span for span in protected if low <= span.start < high)
    return _piece(first + start, first + stop - 1, kept, inside, False, admonition)
