"""Git's rename similarity, estimated as diffcore-delta does."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

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
    common = 0
    for chunk in mine.keys() & have.keys():
        mine_n, have_n = mine[chunk], have[chunk]
        common += (mine_n if mine_n < have_n else have_n) * len(chunk)
    return common / big


def _comparable(a: int, b: int) -> bool:
    """Whether sizes ``a`` and ``b`` can score :data:`RENAME_SCORE` at all."""
    return min(a, b) >= max(a, b) * RENAME_SCORE


# A chunk ends at a newline within 64 bytes, else after 64 bytes (or at the end).
_CHUNK = re.compile(rb"[^\n]{0,63}\n|[^\n]{1,64}")


def chunks(data: bytes) -> Counter[bytes]:
    """``data``'s chunks (see :func:`similarity`), each with how often it occurs: cut at
    each newline, or after 64 bytes without one."""
    return Counter(_CHUNK.findall(data))
