"""Git's rename similarity, and the lineage a similar re-add of deleted content continues."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from .replay import Replayer, Root

BlobReader = Callable[[str], "bytes | None"]
RENAME_SCORE = 0.5  # git's default -M threshold


def similarity(
    a: bytes, b: bytes, a_chunks: Counter[bytes] | None = None, b_chunks: Counter[bytes] | None = None
) -> float:
    """Git's rename score of ``a`` → ``b``, estimated as diffcore-delta does.

    Both are cut into chunks at each newline or every 64 bytes; the score is
    the bytes of ``a``'s chunks also found in ``b`` (a chunk ``a`` holds twice
    counts twice only if ``b`` holds it twice too), over the larger size.
    ``a_chunks`` and ``b_chunks``, when given, are :func:`chunks` of ``a`` and ``b``
    (a caller that compares one blob with many counts its chunks once).
    """
    big = max(len(a), len(b))
    if big == 0:
        return 1.0
    if not _comparable(len(a), len(b)):
        return 0.0
    have = b_chunks if b_chunks is not None else chunks(b)
    mine = a_chunks if a_chunks is not None else chunks(a)
    # Only the chunks both hold count: a set intersection finds them (few, when dissimilar).
    common = sum(min(mine[c], have[c]) * len(c) for c in mine.keys() & have.keys())
    return common / big


def _comparable(a: int, b: int) -> bool:
    """Whether sizes ``a`` and ``b`` can score :data:`RENAME_SCORE` at all."""
    return min(a, b) >= max(a, b) * RENAME_SCORE


def chunks(data: bytes) -> Counter[bytes]:
    """``data``'s chunks (see :func:`similarity`), each with how often it occurs."""
    return Counter(_chunks(data))


def _chunks(data: bytes) -> Iterator[bytes]:
    start = 0
    while start < len(data):
        newline = data.find(b"\n", start, start + 64)
        end = newline + 1 if newline >= 0 else min(start + 64, len(data))
        yield data[start:end]
        start = end


class Resurrection:
    """Continues a fresh lineage from similar content deleted, before it began or after (memoised).

    Deleted after: the record was copied and its original deleted later, a move in
    two commits (``0000-x.md`` copied to ``1445-x.md``, the duplicate removed a week on).
    """

    def __init__(self, replayer: Replayer, read_blob: BlobReader) -> None:
        self._fresh = replayer.fresh
        self._graves = replayer.graves
        self._read = read_blob
        self._blobs: dict[str, bytes | None] = {}
        self._chunks: dict[str, Counter[bytes]] = {}
        self._done: dict[Root, Root] = {}

    def earliest(self, root: Root) -> Root:
        if root in self._done:
            return self._done[root]
        self._done[root] = root  # a cycle cannot happen (graves are earlier), but stay safe
        found = root
        fresh = self._fresh.get(root)
        if fresh is not None:
            blob, _ = fresh
            for grave in self._graves:
                if grave.root == root:
                    continue
                if grave.root < found and self._similar(grave.blob, blob):
                    found = min(found, self.earliest(grave.root))
        self._done[root] = found
        return found

    def _similar(self, a: str, b: str) -> bool:
        if a == b:
            return True
        first, second = self._blob(a), self._blob(b)
        if first is None or second is None:
            return False
        if first and second and not _comparable(len(first), len(second)):
            return False  # before counting chunks: most graves differ in size alone
        return similarity(first, second, self._chunked(a, first), self._chunked(b, second)) >= RENAME_SCORE

    def _chunked(self, blob: str, data: bytes) -> Counter[bytes]:
        """A blob's chunks, counted once: one new record is compared with every grave."""
        if blob not in self._chunks:
            self._chunks[blob] = chunks(data)
        return self._chunks[blob]

    def _blob(self, blob: str) -> bytes | None:
        if blob not in self._blobs:
            self._blobs[blob] = self._read(blob)
        return self._blobs[blob]
