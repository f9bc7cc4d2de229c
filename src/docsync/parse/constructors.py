"""The model's constructors without the dataclass ``__init__`` (see :func:`docsync.model.constructor`),
made once for every module of the parser that builds documents."""

from __future__ import annotations

from ..model import (
    Anchor,
    Block,
    Definition,
    Document,
    Heading,
    LineSpan,
    Link,
    Paragraph,
    Span,
    constructor,
)

new_span = constructor(Span)
new_line_span = constructor(LineSpan)
new_link = constructor(Link)
new_paragraph = constructor(Paragraph)
new_block = constructor(Block)
new_heading = constructor(Heading)
new_anchor = constructor(Anchor)
new_definition = constructor(Definition)
new_document = constructor(Document)
