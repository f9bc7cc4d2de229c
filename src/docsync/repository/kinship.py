"""Whether deleted content and a new record are one record: alike texts, one line of history.

Two checks keep an unrelated add from passing for a restore (issue 37, class 4):

* :class:`Texts`: git's measure finds drafts written from one template similar
  (65% to 70% on rust-lang/rfcs from the boilerplate alone), so the content
  must also match with the tree's template text set aside (every chunk any
  version of a template held), or the two must share a title or a number
  (``0000`` is no number: every draft has it).
* :class:`Lines`: the delete comes before the add on the add's line of
  history (the deleting commit is an ancestor of the adding one), or the add
  copied content live on its own line and the original was deleted after it
  (a move in two commits). A draft another author deleted on another branch
  is neither.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from .commits import CommitChanges
from .replay import Grave, Root
from .similarity import RENAME_SCORE, BlobReader, chunks, similarity

_NUMBER = re.compile(r"(?:[A-Za-z]+[-_ ]?)?0*(\d+)(?=[-_. ]|$)")
_DATED = re.compile(r"\d{2}(?:\d{2})?[-_.]\d{2}(?:[-_.]|$)")
_TITLE = re.compile(rb"^(?:#[ \t]+(.*?)[ \t#]*|title:[ \t]*(.*?)[ \t]*)\r?$", re.MULTILINE)
_HEAD = 4096  # a title sits near the top
_NUMBERED = re.compile(r"(?:[A-Za-z]+[-_ ]?)?\d+[-_ .]+(.+?)(?:\.[A-Za-z]+)?$")
_TITLE_ID = re.compile(r"^(?:[a-z]+[ -]?)?\d+\s*[:.\-\u2013\u2014]\s*")
_STUB_LINES = 12  # "Moved to [0042](...)." and a heading, or a short note


def number(path: str) -> int | None:
    """The record number a file name starts with: none for ``0000``, or a date."""
    name = path.rpartition("/")[2]
    if _DATED.match(name):
        return None
    found = _NUMBER.match(name)
    if found is None or found.group(1) == "0":
        return None
    return int(found.group(1))


def renumbered(path_a: str, path_b: str) -> bool:
    """Two numbered names in one folder with the same slug (``adr-010-monitoring.md`` and
    ``adr-011-monitoring.md``): one record given another number."""
    folder_a, _, name_a = path_a.rpartition("/")
    folder_b, _, name_b = path_b.rpartition("/")
    first, second = _NUMBERED.fullmatch(name_a), _NUMBERED.fullmatch(name_b)
    return (
        folder_a == folder_b
        and first is not None
        and second is not None
        and first.group(1).casefold() == second.group(1).casefold()
    )


def title(data: bytes) -> str | None:
    """The first level-one heading or front-matter ``title:``, folded for comparison."""
    found = _TITLE.search(data[:_HEAD])
    if found is None:
        return None
    raw = found.group(1) if found.group(1) is not None else found.group(2)
    words = raw.decode("utf-8", "replace").strip("'\"").casefold().split()
    return " ".join(words) or None


class Texts:
    """Blob contents, read once each, compared by git's measure and by their own text."""

    def __init__(self, read_blob: BlobReader, template_blobs: frozenset[str]) -> None:
        self._read = read_blob
        self._template_blobs = template_blobs
        self._blobs: dict[str, bytes | None] = {}
        self._chunks: dict[str, Counter[bytes]] = {}
        self._own: dict[str, Counter[bytes]] = {}
        self._boiler: frozenset[bytes] | None = None
        self._template_titles: frozenset[str] | None = None

    def similar(self, a: str, b: str) -> bool:
        """git's rename measure (50%)."""
        if a == b:
            return True
        first, second = self._blob(a), self._blob(b)
        if first is None or second is None:
            return False
        if (
            first
            and second
            and min(len(first), len(second)) < max(len(first), len(second)) * RENAME_SCORE
        ):
            return False  # before counting chunks: most graves differ in size alone
        return (
            similarity(first, second, self._chunked(a, first), self._chunked(b, second))
            >= RENAME_SCORE
        )

    def chunk_counts(self, blob: str) -> Counter[bytes]:
        """The blob's chunks, counted (none if it cannot be read)."""
        data = self._blob(blob)
        return Counter() if data is None else self._chunked(blob, data)

    def size(self, blob: str) -> int | None:
        """The blob's size, None if it cannot be read."""
        data = self._blob(blob)
        return None if data is None else len(data)

    def alike(self, a: str, b: str) -> bool:
        """Similar once every chunk of the tree's template text is set aside."""
        if a == b:
            return self._blob(a) is not None and bool(self._owned(a))
        if not self._template_blobs:
            return self.similar(a, b)
        mine, theirs = self._owned(a), self._owned(b)
        size_a, size_b = _size(mine), _size(theirs)
        big = max(size_a, size_b)
        if big == 0 or min(size_a, size_b) < big * RENAME_SCORE:
            return False
        common = sum(min(mine[c], theirs[c]) * len(c) for c in mine.keys() & theirs.keys())
        return common / big >= RENAME_SCORE

    def stub(self, old: str, new: str) -> bool:
        """Whether ``new`` is what is left where ``old`` was: a few lines, a quarter of the
        size at most, unlike it (not a README that gave one section away)."""
        before, after = self._blob(old), self._blob(new)
        if before is None or after is None or after.count(b"\n") > _STUB_LINES:
            return False
        return len(after) * 4 <= len(before) and not self.similar(old, new)

    def same_title(self, a: str, b: str) -> bool:
        """The same title once a leading id is set aside (``ADR 010: Monitoring``)."""
        first, second = self._blob(a), self._blob(b)
        if first is None or second is None:
            return False
        name, other = title(first), title(second)
        if name is None or other is None:
            return False
        return bool(_TITLE_ID.sub("", name, count=1)) and (
            _TITLE_ID.sub("", name, count=1) == _TITLE_ID.sub("", other, count=1)
        )

    def kin(self, path_a: str, a: str, path_b: str, b: str) -> bool:
        """The same record number in both names, or the same title (not the template's)."""
        num = number(path_a)
        if num is not None and num == number(path_b):
            return True
        first, second = self._blob(a), self._blob(b)
        if first is None or second is None:
            return False
        name = title(first)
        return name is not None and name == title(second) and name not in self._titles()

    def _owned(self, blob: str) -> Counter[bytes]:
        """The blob's chunks that no template ever held."""
        if blob not in self._own:
            data = self._blob(blob) or b""
            boiler = self._boilerplate()
            counted = self._chunked(blob, data)
            self._own[blob] = Counter({c: n for c, n in counted.items() if c not in boiler})
        return self._own[blob]

    def _boilerplate(self) -> frozenset[bytes]:
        if self._boiler is None:
            found: set[bytes] = set()
            for blob in self._template_blobs:
                data = self._blob(blob)
                if data is not None:
                    found.update(chunks(data))
            self._boiler = frozenset(found)
        return self._boiler

    def _titles(self) -> frozenset[str]:
        if self._template_titles is None:
            names = (
                title(data) for b in self._template_blobs if (data := self._blob(b)) is not None
            )
            self._template_titles = frozenset(name for name in names if name is not None)
        return self._template_titles

    def _chunked(self, blob: str, data: bytes) -> Counter[bytes]:
        """A blob's chunks, counted once: one new record is compared with every grave."""
        if blob not in self._chunks:
            self._chunks[blob] = chunks(data)
        return self._chunks[blob]

    def _blob(self, blob: str) -> bytes | None:
        if blob not in self._blobs:
            self._blobs[blob] = self._read(blob)
        return self._blobs[blob]


def _size(counted: Counter[bytes]) -> int:
    return sum(len(c) * n for c, n in counted.items())


class Lines:
    """Ancestry between the commits of one history (HEAD first, each before its parents)."""

    def __init__(self, history: Sequence[CommitChanges]) -> None:
        self._history = history
        self._index: dict[str, int] | None = None
        self._known: dict[tuple[str, str], bool] = {}

    def ordered(self, grave: Grave, root: Root) -> bool:
        """Whether ``grave`` was deleted before ``root`` began, on its line of history, or
        ``root`` began as a copy of the grave's content, which its line held, deleted after."""
        deleted, added = grave.commit, root.commit
        if self.ancestor(deleted, added):
            return True
        return self.ancestor(added, deleted) and self.ancestor(grave.root.commit, added)

    def ancestor(self, older: str, newer: str) -> bool:
        """Whether ``older`` is ``newer`` or one of its ancestors."""
        key = (older, newer)
        if key not in self._known:
            self._known[key] = self._walk(older, newer)
        return self._known[key]

    def _walk(self, older: str, newer: str) -> bool:
        index = self._positions()
        limit, start = index.get(older), index.get(newer)
        if limit is None or start is None or limit < start:
            return False  # an ancestor is listed after its descendants
        stack, seen = [newer], {newer}
        while stack:
            sha = stack.pop()
            if sha == older:
                return True
            for parent in self._history[index[sha]].parents:
                at = index.get(parent)
                if at is not None and at <= limit and parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        return False

    def _positions(self) -> dict[str, int]:
        if self._index is None:
            self._index = {commit.sha: i for i, commit in enumerate(self._history)}
        return self._index
