"""Which file names are templates: the one rule ``migrate``, ``init`` and the layout gate share.

The word alone decides nothing. ``0002-add-template-lint.md`` and
``0114-template-compiler.md`` are records: they are numbered (or dated) like the
records beside them. A template's name holds the word ``template`` and no number
but the placeholder 0: ``template.md``, ``adr-template.md``, ``RFC_TEMPLATE.md``,
``0000-template.md``. See docs/rfc/implemented/2026-12-06-templates-date-names-and-kinds.md.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"(?:^|[-_ .])template(?:[-_ .]|$)", re.IGNORECASE)
# A leading number, after an optional kind prefix (``adr-0002-…``); a date starts with one too.
_NUMBER = re.compile(r"^(?:[A-Za-z]{2,10}[-_ ]?)?(?P<number>\d{1,8})(?:[-_ .]|$)")


def is_template_name(name: str) -> bool:
    """Whether a Markdown file ``name`` is a template's (see the module)."""
    if not name.lower().endswith((".md", ".markdown")) or _WORD.search(name) is None:
        return False
    number = _NUMBER.match(name)
    return number is None or int(number.group("number")) == 0
