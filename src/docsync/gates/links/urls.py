"""What a link's destination names: its URL (escapes and entities decoded), whether it
leaves the repository, and the repository path it resolves to. Read by the links gate for
every link, and by every rewriter that follows links."""

from __future__ import annotations

import functools
import html
import posixpath
import re
from collections.abc import Iterator
from urllib.parse import unquote

from ...model import HTML_KINDS, Definition, Document, Link, LinkKind

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_ESCAPABLE = re.compile(r"\\([!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])")
# Read by link_url for every link a rewrite reads: a member read off its enum class costs
# more than the test.
_AUTOLINK = LinkKind.AUTOLINK


class BadEscape(ValueError):
    """A percent-escape that is not two hex digits, or escapes that are not UTF-8."""


def percent_decode(value: str) -> str:
    """``value`` percent-decoded as UTF-8; :class:`BadEscape` when it cannot be."""
    if "%" not in value:
        return value
    if _BAD_ESCAPE.search(value):
        raise BadEscape(value)
    try:
        return unquote(value, errors="strict")
    except UnicodeDecodeError:
        raise BadEscape(value) from None


def markdown_url(raw: str) -> str:
    """The URL a Markdown destination stands for: escapes and entities decoded."""
    if "\\" not in raw and "&" not in raw:
        return raw
    return html.unescape(_ESCAPABLE.sub(r"\1", raw))


def is_external(url: str) -> bool:
    return (":" in url and _SCHEME.match(url) is not None) or url.startswith("//")


@functools.lru_cache(maxsize=4096)
def _folder(path: str) -> str:
    return posixpath.dirname(path)


def resolve(source: str, decoded: str) -> str | None:
    """The repository path a decoded link path names, or None outside the repository."""
    if decoded.startswith("/"):
        joined = decoded.lstrip("/")
    else:  # posixpath.join(dirname(source), decoded), without its generality
        folder = _folder(source)
        joined = f"{folder}/{decoded}" if folder else decoded
    normal = posixpath.normpath(joined) if joined else "."
    if normal == ".." or normal.startswith("../"):
        return None
    return "" if normal == "." else normal


def link_url(link: Link) -> str:
    """The URL a link goes to. An autolink without a scheme is an email
    address (CommonMark allows no other), which renders as ``mailto:``."""
    if link.kind in HTML_KINDS:
        return link.destination
    if link.kind == _AUTOLINK and _SCHEME.match(link.destination) is None:
        return "mailto:" + link.destination
    return markdown_url(link.destination)


def link_targets(doc: Document) -> Iterator[tuple[Link | Definition, str]]:
    """Every link or definition with a destination of its own, with its URL (for rewriters)."""
    for link in doc.links:
        if link.dest_span is not None:
            yield link, link_url(link)
    for definition in doc.definitions:
        yield definition, markdown_url(definition.destination)


def resolve_url(source: str, url: str) -> tuple[str, str] | None:
    """(repository path, fragment) a relative URL in ``source`` points at; None if external or outside."""
    if not url or is_external(url):
        return None
    path_part, _, fragment = url.partition("#")
    try:
        decoded = percent_decode(path_part.partition("?")[0])
    except BadEscape:
        return None
    if not decoded:
        return source, fragment
    resolved = resolve(source, decoded)
    return None if resolved is None else (resolved, fragment)
