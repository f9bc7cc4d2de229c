"""Link destinations after a move: where each points now, written the way its author wrote it."""

from __future__ import annotations

import functools
import html
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from urllib.parse import quote, unquote

from ..gates.links.check import is_external, link_targets, markdown_url, resolve_url
from ..model import HTML_KINDS, Definition, Document, Link, LinkKind, Span

_ALWAYS_ENCODED = frozenset("%#?<>\\|&\"'`()[] \t\n")
_ANGLE_SAFE = frozenset(" ()[]'`")
# Printable ASCII but what is always encoded: no character of it needs encoding, whatever
# the brackets or the original's escapes.
_NOTHING_TO_ENCODE = re.compile(
    "[" + re.escape("".join(c for c in map(chr, range(0x20, 0x7F)) if c not in _ALWAYS_ENCODED)) + "]*"
)
_NON_ASCII_ESCAPE = re.compile(r"%[89A-Fa-f][0-9A-Fa-f]")
# A destination path as a person types one: nothing percent-encoded or to encode, no
# parentheses, no colon (so nothing a reader could take for a scheme, as in "(https://…)").
_PLAIN_PATH = re.compile(r"[A-Za-z0-9._~/+=,@!$-]+")


def encode(path: str, *, angle: bool, ascii_only: bool) -> str:
    """Percent-encode what a Markdown or HTML destination cannot hold as written.

    Inside ``<…>`` spaces and brackets may stay (that is why authors use the
    brackets); non-ASCII stays readable unless the original link escaped it.
    """
    if _NOTHING_TO_ENCODE.fullmatch(path):
        return path  # what nearly every path is; the loop below would keep each character
    out: list[str] = []
    for char in path:
        code = ord(char)
        needs = (
            (char in _ALWAYS_ENCODED and not (angle and char in _ANGLE_SAFE))
            or code < 0x20
            or code == 0x7F
            or (ascii_only and code > 0x7F)
        )
        out.append(quote(char, safe="") if needs else char)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _RawParts:
    """A destination as written, split into path, ``?query`` and ``#fragment`` (with markers)."""

    path: str
    query: str
    fragment: str

    @classmethod
    def split(cls, raw: str) -> _RawParts:
        before, hash_sign, fragment = raw.partition("#")
        path, question, query = before.partition("?")
        return cls(path, question + query, hash_sign + fragment)


@dataclass(frozen=True, slots=True)
class Moves:
    """Everything a destination rewrite needs to know about the moves."""

    old_path: str
    new_path: str
    moves: Mapping[str, str]
    fragments: Mapping[str, Mapping[str, str]]
    exists: Callable[[str], bool] = lambda _path: True

    def broken_before(self, path: str) -> bool:
        """Whether a link to ``path`` was broken before the moves: a path in the repository
        that no move touches and that does not exist (``(https://…)`` read as a file).

        A plain one keeps its target, any other is left as written
        (:meth:`left_as_written`); a path that climbs out of the repository is
        not judged and keeps its target.
        """
        if path == self.old_path or path in self.moves or path.startswith("../") or path == "..":
            return False
        return not self.exists(path) and self.known(path) == path

    def left_as_written(self, dest: Destination) -> bool:
        """Whether ``dest`` stays byte for byte: broken before, and not a plain path.

        A plain path that was broken before (``../terraform/main.tf``, a file
        deleted or not written yet) keeps naming the file its author meant,
        from the new folder too; anything else broken before (``(https://…)``
        read as a path, ``%``-escapes, spaces) is text only its author can mend.
        """
        if not self.broken_before(dest.path):
            return False
        return _PLAIN_PATH.fullmatch(_RawParts.split(dest.raw).path) is None

    def target(self, path: str) -> str:
        """Where a repository path lives after the moves (this document: its new path)."""
        path = self.known(path)
        return self.new_path if path == self.old_path else self.moves.get(path, path)

    def known(self, path: str) -> str:
        """``path``, or the moved file it names in another letter case (``0007-Cache.md`` for
        ``0007-cache.md``: it opens on macOS and Windows) when no file has it as written."""
        if path == self.old_path or path in self.moves or self.exists(path):
            return path
        folded = path.casefold()
        if folded == self.old_path.casefold():
            return self.old_path
        return _by_case(self.moves).get(folded, path)

    def led_to(self, url: str) -> str | None:
        """Where a link to ``url`` in this document leads after the moves: a repository
        path, or None (elsewhere)."""
        found = locate(self.old_path, url)
        return None if found is None else self.target(found[0])

    def fragment(self, path: str, fragment: str) -> str | None:
        """The renamed slug of ``fragment`` in ``path``, or None when it keeps its name."""
        renames = self.fragments.get(self.known(path))
        if not renames or not fragment:
            return None
        decoded = unquote(fragment)
        new = renames.get(fragment, renames.get(decoded, renames.get(decoded.lower())))
        return new if new is not None and new != decoded else None


_CASES: list[tuple[Mapping[str, str], dict[str, str]]] = []  # the last moves' index


def _by_case(moves: Mapping[str, str]) -> dict[str, str]:
    """Each moved path by its case-folded form (one spelt two ways in one case is left
    out), kept for the last ``moves`` asked about: one mapping per migration."""
    if _CASES and _CASES[0][0] is moves:
        return _CASES[0][1]
    counted: dict[str, list[str]] = {}
    for path in moves:
        counted.setdefault(path.casefold(), []).append(path)
    index = {folded: paths[0] for folded, paths in counted.items() if len(paths) == 1}
    _CASES[:] = [(moves, index)]
    return index


@functools.lru_cache(maxsize=1 << 16)
def _relpath(target: str, folder: str) -> str:
    """``posixpath.relpath(target, folder)`` for repository paths, once per pair (a migration
    asks the same pairs thousands of times), by their parts: the library's asks the disk
    for the working directory on every call. Paths that climb out of the repository
    depend on that directory, so they still go to the library."""
    to, start = _normal(target), _normal(folder)
    if to.startswith(("/", "..")) or start.startswith(("/", "..")):
        return posixpath.relpath(target, folder)
    parts = [] if to == "." else to.split("/")
    base = [] if start == "." else start.split("/")
    common = 0
    while common < min(len(parts), len(base)) and parts[common] == base[common]:
        common += 1
    return "/".join([".."] * (len(base) - common) + parts[common:]) or "."


def _normal(path: str) -> str:
    """``posixpath.normpath(path)``, which leaves a path of plain parts (none empty, ``.`` or
    ``..``: every repository path) as it is, without the library's walk over its parts."""
    parts = path.split("/")
    if "" in parts or "." in parts or ".." in parts:
        return posixpath.normpath(path)
    return path


@functools.lru_cache(maxsize=1 << 12)
def _folder(path: str) -> str:
    """The folder ``path`` is in ("." at the top): one per document, asked for each of its links."""
    return posixpath.dirname(path) or "."


def relative(new_path: str, target: str, written: str) -> str:
    """The path from ``new_path``'s folder to ``target``, in the style ``written`` used."""
    if written.startswith("/"):
        rel = "/" + target
    else:
        rel = _relpath(target or ".", _folder(new_path))
        if written.startswith("./") and rel != ".." and not rel.startswith("../"):
            rel = "./" if rel == "." else "./" + rel
    if written.endswith("/") and not rel.endswith("/"):
        rel += "/"
    return rel


_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


@functools.lru_cache(maxsize=1 << 16)
def locate(source: str, url: str) -> tuple[str, str] | None:
    """(path, fragment) a URL in ``source`` names; None if external or malformed.

    Unlike :func:`resolve_url`, a path that climbs out of the repository is
    kept (as ``../x.md``) rather than dropped: moving its document deeper
    must keep it pointing at the same outside path, never let it land on a
    file inside the repository.
    """
    url = url.strip()
    found = resolve_url(source, url)
    if found is not None or not url or is_external(url):
        return found
    path_part, _, fragment = url.partition("#")
    path_part = path_part.partition("?")[0]
    if _BAD_ESCAPE.search(path_part):
        return None
    try:
        decoded = unquote(path_part, errors="strict")
    except UnicodeDecodeError:
        return None
    base = "" if decoded.startswith("/") else posixpath.dirname(source)
    return posixpath.normpath(posixpath.join(base, decoded.lstrip("/"))), fragment


@dataclass(frozen=True, slots=True)
class Destination:
    """One destination to consider: where it is, how it is written, what it points at."""

    span: Span
    raw: str
    html: bool
    angle: bool
    path: str
    fragment: str

    def url(self, raw: str) -> str:
        return html.unescape(raw) if self.html else markdown_url(raw)


# The kinds as constants: reading a member off its enum class costs more than the test.
_BRACKETED = frozenset({LinkKind.INLINE, LinkKind.IMAGE})
_IMAGE = LinkKind.IMAGE


def reliable_span(doc: Document, item: Link | Definition) -> bool:
    """Whether the parser's spans for ``item`` can be trusted enough to splice."""
    span = item.dest_span
    if span is None or not (0 <= span.start <= span.end <= len(doc.text)):
        return False
    if isinstance(item, Definition):
        return item.span.start <= span.start and span.end <= item.span.end
    if not (item.span.start <= span.start and span.end <= item.span.end):
        return False
    if item.kind in _BRACKETED:
        opener = "![" if item.kind == _IMAGE else "["
        return doc.text.startswith(opener, item.span.start)
    return item.kind in HTML_KINDS


def relative_destinations(
    doc: Document, targets: Iterable[tuple[Link | Definition, str]] | None = None
) -> Iterator[Destination]:
    """Every relative destination of ``doc`` that parses, resolved against its own path
    (``targets``: its :func:`link_targets`, when the caller has them)."""
    for item, url in link_targets(doc) if targets is None else targets:
        if not reliable_span(doc, item):
            continue
        resolved = locate(doc.path, url)
        if resolved is None:
            continue
        assert item.dest_span is not None
        span = item.dest_span
        is_html = isinstance(item, Link) and item.kind in HTML_KINDS
        angle = (
            not is_html
            and doc.text[span.start - 1 : span.start] == "<"
            and doc.text[span.end : span.end + 1] == ">"
        )
        raw = doc.text[span.start : span.end]
        yield Destination(span, raw, is_html, angle, resolved[0], resolved[1])


def rewritten_raw(dest: Destination, moves: Moves) -> str | None:
    """The rewritten destination, or None when the one written still points right
    (or is left as written, :meth:`Moves.left_as_written`)."""
    if moves.left_as_written(dest):
        return None
    return _rewritten(dest, moves, moves.target(dest.path), moves.fragment(dest.path, dest.fragment))


def planned(dest: Destination, moves: Moves) -> tuple[str | None, tuple[str, str]]:
    """:func:`rewritten_raw` and :func:`expected_target` of ``dest`` at once: whether it is
    left as written, where its path lives now and its renamed fragment, read once for both."""
    if moves.left_as_written(dest):
        return None, _kept_target(dest, moves)
    target = moves.target(dest.path)
    renamed = moves.fragment(dest.path, dest.fragment)
    return _rewritten(dest, moves, target, renamed), _moved_target(dest, target, renamed)


def _rewritten(dest: Destination, moves: Moves, target: str, renamed: str | None) -> str | None:
    """:func:`rewritten_raw` of a destination not left as written, which now lives at
    ``target`` (:meth:`Moves.target`), with its fragment ``renamed`` (:meth:`Moves.fragment`)."""
    parts = _RawParts.split(dest.raw)
    written = dest.url(parts.path).strip()
    still = locate(moves.new_path, written) if written else (moves.new_path, "")
    path_ok = still is not None and still[0] == target
    if path_ok and renamed is None:
        return None
    ascii_only = bool(_NON_ASCII_ESCAPE.search(dest.raw))
    path = (
        parts.path
        if path_ok
        else encode(
            relative(moves.new_path, target, written),
            angle=dest.angle,
            ascii_only=ascii_only,
        )
    )
    fragment, query = parts.fragment, parts.query
    if not dest.angle and not path_ok:
        # The new path's parentheses are encoded, so a kept ")" would now close nothing.
        fragment, query = _escape_parens(fragment), _escape_parens(query)
    if renamed is not None:
        fragment = "#" + encode(renamed, angle=dest.angle, ascii_only=ascii_only)
    return path + query + fragment


def _escape_parens(text: str) -> str:
    return text.replace("(", "%28").replace(")", "%29")


def expected_target(dest: Destination, moves: Moves) -> tuple[str, str]:
    """Where a destination must resolve after the rewrite: (path, decoded fragment)."""
    if moves.left_as_written(dest):
        return _kept_target(dest, moves)
    return _moved_target(dest, moves.target(dest.path), moves.fragment(dest.path, dest.fragment))


def _moved_target(dest: Destination, target: str, renamed: str | None) -> tuple[str, str]:
    """Where a destination that follows the moves leads: ``target`` (:meth:`Moves.target`),
    at its fragment ``renamed`` (:meth:`Moves.fragment`) or else as written, decoded."""
    return target, renamed if renamed is not None else unquoted(dest.fragment)


def _kept_target(dest: Destination, moves: Moves) -> tuple[str, str]:
    """Where a destination left as written leads from the new path."""
    kept = locate(moves.new_path, dest.url(dest.raw))
    return ("url", dest.url(dest.raw)) if kept is None else (kept[0], unquote(kept[1]))


def unquoted(text: str) -> str:
    """``unquote(text)``, which returns a text without ``%`` as it is (most fragments: none)."""
    return unquote(text) if "%" in text else text
