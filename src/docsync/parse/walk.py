"""The one walk over pulldown-cmark's events that collects a document.

Events come in document order, each with its byte range. The walk keeps what
is open (containers, the paragraph, a heading, links and images) and hands each
finished part to :class:`~docsync.parse.collected.Collected`. A tight list
item's text comes with no paragraph event: it is a paragraph all the same
(markdown-it and GitHub's HTML both hold it as one), opened at its first inline
event and closed before the next block. This module imports no parser.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..model import BlockKind, Span, position_of
from .collected import LEAF_BLOCKS, Collected, link_of
from .constructors import new_block as _block
from .constructors import new_line_span as _line_span
from .constructors import new_span as _span

_CONTAINERS = {"List": "list", "BlockQuote": "blockquote", "FootnoteDefinition": "footnote"}
_BLOCK_TAGS = frozenset(
    {"Paragraph", "List", "BlockQuote", "FootnoteDefinition", "Rule", "DefinitionList", *LEAF_BLOCKS}
)
_OPAQUE = frozenset({"CodeBlock", "HtmlBlock", "MetadataBlock", "Table"})
_PROTECTED_INLINE = frozenset({"Code", "InlineHtml", "InlineMath", "DisplayMath"})


def walk(collected: Collected, events: Iterable[tuple[Any, Any]], to_char: Callable[[int], int] | None) -> None:
    """Collect the model's parts from the parser's ``events`` (byte ranges, converted
    to character offsets by ``to_char`` unless the text is ASCII)."""
    self = collected
    containers: list[str] = []
    quotes = 0
    # the paragraph open: start, protected spans, whether it holds only display math,
    # and whether it is implicit (a tight list item's text, which has no Paragraph event)
    paragraph: tuple[int, list[Span], bool] | None = None
    implicit = False
    inline_end = 0  # where the last inline event ended
    items = 0  # list items open
    opaque = 0  # code, HTML, front matter and tables open (their text is in no paragraph)
    heading: tuple[int, int, list[str]] | None = None  # level, start, text pieces
    images = 0  # images open (their alt text is no link and no heading text)
    links: list[list[Any]] = []  # [tag, info, start, end, last child end]
    for event, where in events:
        start, end = where["start"], where["end"]
        if to_char is not None:
            start, end = to_char(start), to_char(end)
        value: Any
        if type(event) is str:
            name, value = event, None
        else:
            (name,) = event  # its one key (then its value: cheaper than unpacking its items)
            value = event[name]
            if name == "Text":  # most events: what the general path below does for one, in short
                if paragraph is None and heading is None and not opaque and items:
                    paragraph, implicit = (start, [], True), True
                if end > inline_end:
                    inline_end = end
                if links:
                    last = links[-1]
                    if start >= last[2] and end > last[4] and not (start == last[2] and end == last[3]):
                        last[4] = end
                if heading is not None and not images:
                    heading[2].append(value)
                if paragraph is not None and paragraph[2] and value.strip():
                    paragraph = (paragraph[0], paragraph[1], False)
                continue
        info: Any
        if name == "Start" or name == "End":
            if type(value) is str:
                tag, info = value, None
            else:
                (tag,) = value
                info = value[tag]
        else:
            tag, info = name, value
        block = tag in _BLOCK_TAGS
        if implicit and (block or (name == "End" and tag == "Item")):
            self.add_paragraph(paragraph[0], inline_end, paragraph[1], paragraph[2], tuple(containers), quotes)  # type: ignore[index]
            paragraph, implicit = None, False
        if not block and tag != "Item":
            if paragraph is None and heading is None and not opaque and items and name != "End":
                paragraph, implicit = (start, [], True), True
            if name != "End" or tag in ("Link", "Image"):
                inline_end = max(inline_end, end)
            if links and start >= links[-1][2] and not (start == links[-1][2] and end == links[-1][3]):
                links[-1][4] = max(links[-1][4], end)
        if name == "Text":
            if heading is not None and not images:
                heading[2].append(value)
            if paragraph is not None and paragraph[2] and value.strip():
                paragraph = (paragraph[0], paragraph[1], False)
        elif name == "Start":
            if tag == "Paragraph":
                paragraph = (start, [], True)
            elif tag == "Item":
                items += 1
            elif tag in ("Link", "Image"):
                if tag == "Image":
                    images += 1
                    if images == 1:
                        links.append([tag, info, start, end, start + 2])
                elif not images:
                    links.append([tag, info, start, end, start + 1])
                if paragraph is not None:
                    paragraph = (paragraph[0], paragraph[1], False)
            elif tag in _CONTAINERS:
                containers.append(_CONTAINERS[tag])
                if tag == "BlockQuote":
                    quotes += 1
                    if info is not None:  # a GitHub alert: its marker line stands alone
                        line = position_of(self.line_starts, start)[0]
                        self.blocks.append(_block(BlockKind.STANDALONE, _line_span(line, line)))
            elif tag == "Heading":
                heading = (int(info["level"][1]), start, [])
            elif tag in LEAF_BLOCKS:
                opaque += tag in _OPAQUE
                self.leaf(tag, info, start, end)
            elif tag == "Rule":
                self.covered.append((start, end))
            elif paragraph is not None and tag != "Paragraph":
                paragraph = (paragraph[0], paragraph[1], False)
        elif name == "End":
            if tag == "Paragraph" and paragraph is not None:
                self.add_paragraph(paragraph[0], end, paragraph[1], paragraph[2], tuple(containers), quotes)
                paragraph = None
            elif tag == "Item":
                items -= 1
            elif tag in _OPAQUE:
                opaque -= 1
            elif tag in ("Link", "Image"):
                if tag == "Image":
                    images -= 1
                    if images == 0:
                        _add_link(self, links.pop(), paragraph)
                elif not images and links:
                    _add_link(self, links.pop(), paragraph)
            elif tag in _CONTAINERS:
                containers.pop()
                if tag == "BlockQuote":
                    quotes -= 1
            elif tag == "Heading" and heading is not None:
                self.add_heading(heading[0], heading[1], end, "".join(heading[2]))
                heading = None
        elif name in ("SoftBreak", "HardBreak"):
            if heading is not None:
                heading[2].append("\n")
        elif name == "FootnoteReference":
            self.footnote_refs.append(value)
        elif name in _PROTECTED_INLINE:
            span = _span(start, end)
            if name == "Code":
                self.code_spans.append(span)
                if heading is not None and not images:
                    heading[2].append(value)
            elif name == "InlineHtml":
                self.scan_html(start, end)
            else:
                self.math_spans.append(span)
                if heading is not None and not images:
                    heading[2].append(value)
            if paragraph is not None:
                paragraph[1].append(span)
                if name != "DisplayMath":
                    paragraph = (paragraph[0], paragraph[1], False)
        elif name == "Rule":
            self.covered.append((start, end))
        # Html (in an HtmlBlock: scanned whole), TaskListMarker: nothing to read
    if implicit and paragraph is not None:
        self.add_paragraph(paragraph[0], inline_end, paragraph[1], paragraph[2], tuple(containers), quotes)


def _add_link(collected: Collected, opened: list[Any], paragraph: tuple[int, list[Span], bool] | None) -> None:
    link, protect = link_of(collected, opened)
    collected.links.append(link)
    if protect is not None and paragraph is not None:
        paragraph[1].append(protect)
