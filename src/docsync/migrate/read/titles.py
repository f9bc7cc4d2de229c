"""A legacy record's title: its front matter's ``title:``, else its title heading."""

from __future__ import annotations

import re

from ...model import BlockKind, Document, Heading
from .status import SECTION_NAMES, lead_heading


def title_heading(doc: Document) -> Heading | None:
    """The first level-1 heading, the record's title, unless it is a section's name; without
    a level-1 heading, the heading the document opens with (see :func:`.status.lead_heading`)."""
    heading = next((h for h in doc.headings if h.level == 1), None)
    if heading is None or heading.text.strip().rstrip(":").lower() in SECTION_NAMES:
        heading = lead_heading(doc)
    if heading is None or heading.text.strip().rstrip(":").lower() in SECTION_NAMES:
        return None
    return heading


def front_matter_title(doc: Document) -> str | None:
    """The ``title:`` of the record's YAML front matter, unquoted."""
    block = next((b for b in doc.blocks if b.kind == BlockKind.FRONT_MATTER), None)
    if block is None:
        return None
    for number in range(block.lines.first + 1, block.lines.last):
        found = _FRONT_MATTER_TITLE.match(doc.line_text(number))
        if found is not None:
            return found.group("value").strip().strip("\"'").strip() or None
    return None


_FRONT_MATTER_TITLE = re.compile(r"^title[ \t]*:[ \t]*(?P<value>.*?)[ \t]*$", re.IGNORECASE)
