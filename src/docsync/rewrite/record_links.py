"""A link to a record, as docsync writes one: the title as text, a relative destination."""

from __future__ import annotations

import re
from functools import lru_cache

from ..model import Edit, LinkKind, apply_edits
from ..records.model import IdTarget
from .destinations import encode, relative

_CODE_RUN = re.compile(r"(`+).+?\1")
# Put before a title so that it parses as a paragraph whatever it starts with ("1. ", "#").
_PROSE = "x "


def unlinked(title: str) -> str:
    """A title's Markdown source with each inline link written as its text.

    A link text cannot hold a link, and a title's links change when files
    move (``Simplify [EIP-161](./eip-161.md)`` after a migration links the id
    in its heading): the index and every link to the record show the same
    words whichever way the heading was written.
    """
    if "](" not in title:
        return title
    # Imported here: a warm check renders the index without the parser unless a title links.
    from ..parse.native import parse

    doc = parse("title.md", _PROSE + title)
    edits = [
        Edit(link.span, doc.text[link.text_span.start : link.text_span.end])
        for link in doc.links
        if link.kind == LinkKind.INLINE and link.text_span is not None
    ]
    return apply_edits(doc.text, edits)[len(_PROSE) :]


@lru_cache(maxsize=4096)
def link_text(title: str, *, table: bool = False) -> str:
    """A record title as Markdown link text: its links unwrapped (:func:`unlinked`),
    brackets escaped outside code spans.

    The title is Markdown source (it may hold `code`); an unescaped ``]``
    would end the link early and a ``|`` would split a table cell. Kept per
    title: a migration writes each record's title into every link to it.
    """
    title = unlinked(title)
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
    if not any(c in text for c in specials):
        return text  # most titles: no character of them would change
    return "".join(("&#124;" if c == "|" else f"\\{c}") if c in specials else c for c in text)


@lru_cache(maxsize=1 << 16)
def relative_destination(from_path: str, to_path: str) -> str:
    """A Markdown link destination, percent-encoded, from the file ``from_path`` to ``to_path``;
    kept per pair: a migration links every document to the same records."""
    return encode(relative(from_path, to_path, ""), angle=False, ascii_only=False)


def record_link(target: IdTarget, new_path: str, written: str, table: bool) -> str:
    destination = relative_destination(new_path, target.path)
    return f"[{link_text(target.title or written, table=table)}]({destination})"
