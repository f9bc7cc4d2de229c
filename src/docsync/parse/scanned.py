"""What the model reads from source text markdown-it hands over as written.

Raw HTML (a block or inline) keeps its anchors (``<a name>``, ``<a id>``)
and links (``href``, ``src``) in attributes the parser does not look into;
reference definitions leave no token behind, only the lines they took.
Both are read here with patterns over exactly those stretches of source.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Callable, Iterator

from ..model import Anchor, Definition, Link, LinkKind, Span, position_of

# An attribute follows a space, or directly a quoted value, as a browser reads
# ``<img src='a.png', width='800'>`` in an HTML block (the ``,`` is an attribute of its own);
# inline raw HTML reaches here only when it is a valid CommonMark tag.
_TAG = re.compile(
    r"<([A-Za-z][A-Za-z0-9-]*)((?:(?:\s+|(?<=[\"']))[^\s\"'>/=]+"
    r"(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*/?>"
)
_ATTR = re.compile(r"([^\s\"'>/=]+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")


def _comments(source: str) -> list[tuple[int, int]]:
    """The spans of the HTML comments in ``source`` (an unclosed one runs to its end),
    found with plain searches: a pattern with a lazy run was slower than linear."""
    spans: list[tuple[int, int]] = []
    at = source.find("<!--")
    while at != -1:
        end = source.find("-->", at + 4)
        stop = len(source) if end == -1 else end + 3
        spans.append((at, stop))
        at = source.find("<!--", stop)
    return spans


def html_targets(source: str, base: int, line_starts: tuple[int, ...]) -> Iterator[Anchor | Link]:
    """The anchors and links of raw HTML ``source``, which starts at offset ``base``."""
    comments = _comments(source)
    starts = [a for a, _ in comments]
    for tag in _TAG.finditer(source):
        inside = bisect.bisect_right(starts, tag.start()) - 1  # the last comment opened before it
        if inside >= 0 and tag.start() < comments[inside][1]:
            continue
        name = tag.group(1).lower()
        attrs_start = tag.start(2)
        for attr in _ATTR.finditer(tag.group(2)):
            key = attr.group(1).lower()
            raw = attr.group(2)
            if raw is None:
                continue
            value_start = base + attrs_start + attr.start(2)
            quoted = raw[:1] in "\"'"
            value = raw[1:-1] if quoted else raw
            if quoted:
                value_start += 1
            line, column = position_of(line_starts, value_start)
            if name == "a" and key in ("name", "id"):
                yield Anchor(html.unescape(value), line)
            elif key in ("href", "src"):
                kind = LinkKind.HTML_HREF if key == "href" else LinkKind.HTML_SRC
                dest_span = Span(value_start, value_start + len(value))
                tag_span = Span(base + tag.start(), base + tag.end())
                yield Link(kind, html.unescape(value), line, column, tag_span, dest_span, None, name)
            elif key == "srcset" and name in _SRCSET_TAGS:
                tag_span = Span(base + tag.start(), base + tag.end())
                for start, end in srcset_urls(value):
                    at = value_start + start
                    line, column = position_of(line_starts, at)
                    url = html.unescape(value[start:end])
                    yield Link(LinkKind.HTML_SRC, url, line, column, tag_span, Span(at, at + end - start), None, name)


_SRCSET_TAGS = frozenset({"img", "source"})
_SRCSET_SPACE = " \t\n\r\f"


def srcset_urls(value: str) -> Iterator[tuple[int, int]]:
    """Where each candidate's URL lies in a ``srcset`` value, as HTML parses one: a URL is a
    run of non-space characters (trailing commas end the candidate), its descriptors run to
    the next comma outside parentheses."""
    at, size = 0, len(value)
    while at < size:
        while at < size and (value[at] in _SRCSET_SPACE or value[at] == ","):
            at += 1
        start = at
        while at < size and value[at] not in _SRCSET_SPACE:
            at += 1
        end = at
        while end > start and value[end - 1] == ",":
            end -= 1
        if end > start:
            yield start, end
        if end < at:
            continue  # the commas after the URL ended this candidate
        at = _after_descriptors(value, at)


def _after_descriptors(value: str, at: int) -> int:
    depth = 0
    while at < len(value):
        char = value[at]
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif char == "," and not depth:
            return at + 1
        at += 1
    return at


_DEFINITION = re.compile(
    r"(?m)^[ \t]*(?P<open>\[)(?P<label>(?:[^\[\]\\]|\\.){0,999}?)\]:[ \t]*\n?[ \t]*"
    r"(?:<(?P<angle>[^<>\n]*)>|(?P<bare>[^\s<][^\s]*))"
)
_PREFIX = re.compile(r"(?m)^(?:[ \t]*(?:>|[-*+](?=[ \t])|[0-9]{1,9}[.)](?=[ \t])))+")


def definitions(
    text: str, line_starts: tuple[int, ...], start_line: int, end_line: int, normalize: Callable[[str], str]
) -> Iterator[Definition]:
    """The reference definitions on 0-based lines ``start_line`` to ``end_line``
    (exclusive), which the parser's reference rule took; ``normalize`` is its
    label normalisation."""
    start = line_starts[start_line]
    end = line_starts[end_line] if end_line < len(line_starts) else len(text)
    # container prefixes blanked line by line, so that offsets stay put
    for match in _DEFINITION.finditer(_blank_prefixes(text[start:end])):
        label = match.group("label")
        angle = match.group("angle") is not None
        dest = match.group("angle") if angle else match.group("bare")
        dest_start = start + match.start("angle" if angle else "bare")
        def_start = start + match.start("open")
        def_end = start + match.end("angle" if angle else "bare") + (1 if angle else 0)
        line, column = position_of(line_starts, def_start)
        yield Definition(
            label,
            normalize(label),
            dest,
            line,
            column,
            Span(def_start, def_end),
            Span(dest_start, dest_start + len(dest)),
        )


def _blank_prefixes(chunk: str) -> str:
    """Replace block-quote and list markers by spaces so offsets stay put."""
    return _PREFIX.sub(lambda m: " " * len(m.group(0)), chunk)
