"""Which file names are templates: the one rule ``migrate``, ``init`` and the layout gate share.

The word alone decides nothing. ``0002-add-template-lint.md`` and
``0114-template-compiler.md`` are records: they are numbered (or dated) like the
records beside them. A template's name holds the word ``template`` and no number
but the placeholder 0: ``template.md``, ``adr-template.md``, ``RFC_TEMPLATE.md``,
``0000-template.md``. A template may be a folder, as records may: the page of a folder
named so (``keps/NNNN-kep-template/README.md``) is the template. See
docs/rfc/implemented/2026-12-06-templates-date-names-and-kinds.md and
docs/rfc/implemented/2026-12-07-templates-are-told-by-more-than-a-name.md.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"(?:^|[-_ .])template(?:[-_ .]|$)", re.IGNORECASE)
# A leading number, after an optional kind prefix (``adr-0002-…``); a date starts with one too.
_NUMBER = re.compile(r"^(?:[A-Za-z]{2,10}[-_ ]?)?(?P<number>\d{1,8})(?:[-_ .]|$)")


_PAGES = frozenset({"readme.md", "index.md"})


def is_template_name(name: str) -> bool:
    """Whether a Markdown file ``name`` is a template's (see the module)."""
    if not name.lower().endswith((".md", ".markdown")):
        return False
    return _template_word(name)


def is_template_path(path: str) -> bool:
    """Whether the Markdown file at ``path`` is a template: named as one, or the page
    (``README.md``, ``index.md``) of a folder named as one (``NNNN-kep-template/``)."""
    folder, _, name = path.rpartition("/")
    if is_template_name(name):
        return True
    return name.lower() in _PAGES and bool(folder) and _template_word(folder.rpartition("/")[2])


def _template_word(name: str) -> bool:
    """The word ``template`` in ``name``, and no number but the placeholder 0."""
    if _WORD.search(name) is None:
        return False
    number = _NUMBER.match(name)
    return number is None or int(number.group("number")) == 0
