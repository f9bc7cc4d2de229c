"""Git's rename similarity, estimated as diffcore-delta does."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

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
