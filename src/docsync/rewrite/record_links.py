"""A link to a record, as docsync writes one: the title as text, a relative destination."""

from __future__ import annotations

import re

from ..records.model import IdTarget
from .destinations import encode, relative

_CODE_RUN = re.compile(r"(`+).+?\1")


def link_text(title: str, *, table: bool = False) -> str:
    """A record title as Markdown link text: brackets escaped outside code spans.

    The title is Markdown source (it may hold `code`); an unescaped ``]``
    would end the link early and a ``|`` would split a table cell.
    """
    specials = "[]|" if table else "[]"
    out: list[str] = []
    cursor = 0
    for code in _CODE_RUN.finditer(title):
        out.append(_escape(title[cursor : code.start()], specials))
        # GitHub splits table cells before it reads code spans; only "\\|" survives there.
        out.append(code.group(0).replace("|", "\\|") if table else code.group(0))
        cursor = code.end()
    out.append(_escape(title[cursor:], specials))
    return "".join(out)


def _escape(text: str, specials: str) -> str:
    # A pipe is written as an entity, not as "\\|": both keep the cell whole on
    # GitHub, but the entity keeps the cell's source equal to its content.
    return "".join(("&#124;" if c == "|" else f"\\{c}") if c in specials else c for c in text)


def relative_destination(from_path: str, to_path: str) -> str:
    """A Markdown link destination, percent-encoded, from the file ``from_path`` to ``to_path``."""
    return encode(relative(from_path, to_path, ""), angle=False, ascii_only=False)


def record_link(target: IdTarget, new_path: str, written: str, table: bool) -> str:
    destination = relative_destination(new_path, target.path)
    return f"[{link_text(target.title or written, table=table)}]({destination})"
