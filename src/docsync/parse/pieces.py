"""Where a large text can be parsed in pieces, each on its own, in bounded memory.

pulldown-cmark's first pass builds a tree of the whole document before its
first event: a node for every block and for every ``[``, ``*`` or backtick that
may open something, about 50 bytes of memory for each byte of bracket soup.
A text over a few hundred kilobytes is therefore parsed in pieces
(:func:`docsync.parse.native.parse`), and the tree is never bigger than one
piece's.

A piece may end only where the whole document's parse has nothing open: after
a blank line, before a line that starts with a letter in its first column.
Such a line closes every list, block quote, footnote, indented code and
paragraph, so what follows parses alone as it parses in the whole. Only a
fenced code block, a raw HTML block of CommonMark's kinds 1 to 5
(``<script>``, ``<pre>``, ``<style>``, ``<textarea>``, ``<!--``, ``<?``,
``<!X``, ``<![CDATA[``) and a ``---`` metadata block run on over blank lines
(pulldown-cmark 0.13 reads the last anywhere, even after the first line, and
in a block quote): this scan skips the stretches they cover. The scan reads only lines with at most three spaces before the
marker; the parse checks each piece again (no leaf block of the piece may run
to its end) and parses the whole text at once when a piece did. This module
imports no parser.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

PIECE = 256 * 1024
"""Characters a piece holds at least (the last piece, and a piece that must run on
to a safe end, may hold more)."""

_SPLIT = re.compile(r"\n\n(?=[A-Za-z])")
_OPENER = re.compile(
    r"(?im)^ {0,3}(?:(?P<fence>`{3,}(?=[^`\n]*$)|~{3,})"
    r"|<(?P<tag>script|pre|style|textarea)(?=[\s>]|$)"
    r"|(?P<raw><!--|<\?|<!\[CDATA\[|<![a-z]))"
    r"|^[ \t>]*(?P<meta>---|\+\+\+)[ \t]*\n(?!\n)"
)
_RAW_CLOSERS = {"<!--": "-->", "<?": "?>", "<![CDATA[": "]]>"}


def piece_bounds(text: str, size: int = PIECE) -> list[int]:
    """The offsets where pieces of at least ``size`` characters start, and the text's end
    (``[0, len(text)]``: one piece)."""
    bounds = [0]
    regions = _regions(text)
    region = next(regions, None)
    want = size
    while want < len(text) - size:
        split = _SPLIT.search(text, want - 1)  # the blank line may follow a closing line
        if split is None:
            break
        at = split.end()
        while region is not None and region[1] <= at:
            region = next(regions, None)
        if region is not None and region[0] < at:
            want = region[1]  # inside a fence or a raw HTML block: after its end
            continue
        bounds.append(at)
        want = at + size
    bounds.append(len(text))
    return bounds


def _regions(text: str) -> Iterator[tuple[int, int]]:
    """The stretches that top-level fences and raw HTML blocks cover, in order:
    from the opening line's start to the end of the closing line (or the text)."""
    at = 0
    while (opened := _OPENER.search(text, at)) is not None:
        line_end = text.find("\n", opened.end())
        after = len(text) if line_end < 0 else line_end + 1
        fence, meta = opened.group("fence"), opened.group("meta")
        if meta is not None:
            after = opened.end()
            closed = re.compile(r"(?m)^[ \t>]*(?:---|\.\.\.|\+\+\+)[ \t]*$").search(text, after)
            if closed is None:  # never closed: no metadata block (the parser wants its end)
                at = after
                continue
        elif fence is not None:
            closer = re.compile(rf"(?m)^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
            closed = closer.search(text, after)
        else:
            tag = opened.group("tag")
            raw = opened.group("raw")
            mark = f"</{tag.lower()}>" if tag is not None else _RAW_CLOSERS.get(raw, ">")
            closed = re.compile(re.escape(mark), re.IGNORECASE).search(text, opened.end())
        if closed is None:
            yield opened.start(), len(text)
            return
        line_end = text.find("\n", closed.end())
        end = len(text) if line_end < 0 else line_end + 1
        yield opened.start(), end
        at = max(end, opened.end())
