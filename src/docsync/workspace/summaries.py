"""The gates' per-file work, done in the parse workers beside the parse.

A cold run parses in worker processes. Each gate whose verdict on a document
needs that document alone gives a summarizer: the links gate its summary
(findings, and fragment checks pending other documents' anchors), the wrap
gate its findings, the inline suppressions their ranges, ``init`` its wrap
counts. A worker runs every one of them on each document it parses, and
only their small results travel back, beside the document's encoding. So the
main process need not decode a document to learn what any of them says.

When every summarizer of a run is :class:`Kept` (it says what besides the
document its result depends on, and packs its result as plain data), the
parse cache keeps the file's summaries instead of its document: a worker
then encodes no document at all (see :func:`Combined.context`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from typing import Protocol, runtime_checkable

from ..model import Document
from . import plain
from .parsing import Summarize

Summaries = Mapping[str, object]
"""One document's results: summarizer name → what it made (absent when it made nothing)."""


@runtime_checkable
class Kept(Protocol):
    """A summarizer whose results the parse cache may keep in place of the document."""

    context: str
    """A digest of everything but the document that the result depends on
    (the code that makes it, the repository listing, the config): a result
    kept under another context is never read."""

    def __call__(self, doc: Document) -> object: ...

    def pack(self, result: object) -> object:
        """The result as plain data and findings (what :func:`~.plain.to_plain` takes)."""
        ...

    def unpack(self, data: object) -> object | None:
        """:meth:`pack`'s data back as the result, checked field by field (it is read
        from the cache's file); None for anything else."""
        ...


class Combined:
    """Named summarizers as one :data:`~docsync.workspace.parsing.Summarize`.

    Each document's summary is a dict of what each made of it (a None result
    is left out: the gate then reads the document itself).
    """

    def __init__(self, members: Mapping[str, Summarize]) -> None:
        self._members = dict(members)
        # Asked once: a protocol's isinstance is slow, and pack and unpack run per file.
        kept = {name: m for name, m in self._members.items() if isinstance(m, Kept)}
        self._kept = kept if len(kept) == len(self._members) else None

    def __call__(self, doc: Document) -> dict[str, object]:
        made = {name: summarize(doc) for name, summarize in self._members.items()}
        return {name: result for name, result in made.items() if result is not None}

    def share(self) -> None:
        """Before the parse workers start: each member that shares state among them makes it."""
        for member in self._members.values():
            share = getattr(member, "share", None)
            if share is not None:
                share()

    def context(self) -> str | None:
        """The run's summaries' context: a digest of every member's, by name, and of how
        :meth:`pack` lays them out; None when a member is not :class:`Kept` (the cache then
        keeps documents, as it must)."""
        if not self._kept:
            return None
        digest = hashlib.blake2b(f"{_LAYOUT}\0".encode(), digest_size=16)
        for name, member in sorted(self._kept.items()):
            digest.update(f"{name}\0{member.context}\0".encode())
        return digest.hexdigest()

    def pack(self, made: object) -> bytes:
        """One document's summaries (what :meth:`__call__` made) as the parse cache keeps them:
        a line of JSON giving each member's length in bytes, then each member's plain data as
        JSON, one after the other, so that each is parsed only when it is read."""
        kept = self._kept
        assert kept is not None and isinstance(made, dict)
        parts = {name: plain.dumps(plain.to_plain(kept[name].pack(result))) for name, result in made.items()}
        return plain.dumps({name: len(part) for name, part in parts.items()}) + b"\n" + b"".join(parts.values())

    def unpack(self, blob: bytes) -> Summaries | None:
        """:meth:`pack`'s bytes back; None when they are not what it makes (corrupt or
        foreign). Each member's result is parsed and made only when it is read
        (:class:`Unpacked`): a warm run's suppressions or convention hint need not make
        every finding of a file's wrap rows."""
        kept = self._kept
        if kept is None:
            return None
        head, newline, body = bytes(blob).partition(b"\n")
        try:
            lengths = plain.loads(head)
        except ValueError:  # corrupt or foreign: not summaries
            return None
        if (
            not newline
            or type(lengths) is not dict
            or not lengths.keys() <= kept.keys()
            or not all(type(n) is int and n >= 0 for n in lengths.values())
            or sum(lengths.values()) != len(body)
        ):
            return None
        parts: dict[str, bytes] = {}
        at = 0
        for name, length in lengths.items():
            parts[name] = body[at : at + length]
            at += length
        return Unpacked(kept, parts)


_LAYOUT = "length-prefixed members"
"""How :meth:`Combined.pack` lays a document's summaries out (in their context: a cache of
another layout is not read)."""


class Unpacked(Mapping[str, object]):
    """One document's kept summaries, each member's parsed and made when first read. A
    member's bytes that do not unpack read as absent: its gate then reads the document
    itself, as it does for a document without summaries."""

    def __init__(self, members: Mapping[str, Kept], parts: dict[str, bytes]) -> None:
        self._members = members
        self._parts = parts
        self._made: dict[str, object] = {}

    def __getitem__(self, name: str) -> object:
        if name not in self._made:
            packed = self._parts.pop(name)  # KeyError: the summarizer made nothing
            try:
                result = self._members[name].unpack(plain.from_plain(plain.loads(packed), 1))
            except ValueError:  # corrupt or foreign
                result = None
            self._made[name] = result
        result = self._made[name]
        if result is None:
            raise KeyError(name)
        return result

    def __iter__(self) -> Iterator[str]:
        return iter([name for name in [*self._made, *self._parts] if name in self])

    def __len__(self) -> int:
        return sum(1 for _ in self)
