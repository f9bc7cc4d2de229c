"""A record's ``Status:`` lines, where they are and what they say."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Document

_STATUS = re.compile(r"Status:[ \t]*(?P<value>.*)")


@dataclass(frozen=True, slots=True)
class StatusLine:
    """A ``Status:`` line of a record: where it is and what follows the colon."""

    line: int
    column: int
    value: str


def status_lines(doc: Document) -> list[StatusLine]:
    """Lines of prose that start with ``Status:`` (quoted ones are examples, not the record's)."""
    found: list[StatusLine] = []
    for paragraph in doc.paragraphs:
        if "blockquote" in paragraph.containers:
            continue
        for span in paragraph.line_spans:
            match = _STATUS.match(doc.text, span.start, span.end)
            if match is not None:
                line, column = doc.position(span.start)
                found.append(StatusLine(line, column, match.group("value").strip()))
    return found
