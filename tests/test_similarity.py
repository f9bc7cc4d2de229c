"""Git's rename score, counted once per blob: the same score as the chunk-by-chunk count,
and the bound that spares a new record the comparison with every grave.

``Resurrection`` compares each new record with every deleted Markdown blob
(65,898 comparisons on rust-lang/rfcs); each blob's chunks are now counted
once, and only the chunks both blobs hold are summed.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.repository.kinship import Texts
from docsync.repository.lineage import Resurrection
from docsync.repository.replay import Grave, Replayer, Root
from docsync.repository.similarity import chunks, similarity


def _cut(data: bytes) -> list[bytes]:
    """The chunks as diffcore-delta cuts them, one at a time: to a newline within 64 bytes,
    else 64 bytes."""
    found, cursor = [], 0
    while cursor < len(data):
        newline = data.find(b"\n", cursor, cursor + 64)
        end = newline + 1 if newline >= 0 else min(cursor + 64, len(data))
        found.append(data[cursor:end])
        cursor = end
    return found


def _greedy(a: bytes, b: bytes) -> float:
    """The score as it was computed: each of ``a``'s chunks, in order, taken from ``b``'s."""
    big = max(len(a), len(b))
    if big == 0:
        return 1.0
    if min(len(a), len(b)) < big * 0.5:
        return 0.0
    have = Counter(_cut(b))
    common = 0
    for chunk in _cut(a):  # a's chunks in file order, each taken from b's if b has one left
        if have[chunk] > 0:
            have[chunk] -= 1
            common += len(chunk)
    return common / big


lines = st.sampled_from([b"alpha\n", b"beta\n", b"\n", b"x" * 70, b"Status: accepted\n", b"y" * 64 + b"\n"])
blobs = st.lists(lines, max_size=30).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(blobs, blobs)
def test_counted_score_is_the_greedy_score(a: bytes, b: bytes) -> None:
    assert similarity(a, b) == _greedy(a, b)
    assert similarity(a, b, chunks(a), chunks(b)) == _greedy(a, b)


pieces = st.sampled_from([b"\n", b"a", b"xyz" * 21, b"\r\n", b"\xff\x00", b"y" * 63, b"z" * 64])


@settings(max_examples=300, deadline=None)
@given(st.lists(pieces, max_size=40).map(b"".join))
def test_chunks_are_cut_as_diffcore_delta_cuts(data: bytes) -> None:
    assert chunks(data) == Counter(_cut(data))


def test_examples() -> None:
    assert similarity(b"", b"") == 1.0
    assert similarity(b"a\n", b"") == 0.0
    assert similarity(b"a\nb\nc\nd\n", b"a\nb\nc\nX\n") == 0.75
    assert similarity(b"a\na\n", b"a\nb\n") == 0.5  # a repeated chunk counts as often as both hold it


def _sha(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


def _resurrection(graves: list[bytes], others: list[bytes]) -> tuple[Resurrection, Texts]:
    store = {_sha(blob): blob for blob in [*graves, *others]}
    replayer = Replayer([], track_homes=False)
    root = Root(date(2020, 1, 1), "c" * 40, "old.md")
    replayer.graves.extend(Grave(_sha(g), root, i, "d" * 40, f"g{i}.md") for i, g in enumerate(graves))
    return Resurrection(replayer, store.get), Texts(store.get, frozenset())


own_lines = st.text(alphabet="abcd ", min_size=1, max_size=90).map(lambda t: (t + "\n").encode())
mixed = st.lists(st.one_of(lines, own_lines), min_size=1, max_size=25).map(b"".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(mixed, min_size=1, max_size=4), mixed)
def test_a_record_no_grave_can_be_like_is_skipped_only_then(graves: list[bytes], new: bytes) -> None:
    """The bound that skips a new record's graves: skipped only when git's measure finds
    none of them similar (the shared chunks' bytes bound the score's numerator)."""
    resurrection, texts = _resurrection(graves, [new])
    if not resurrection._may_restore(_sha(new), len(new)):
        assert not any(texts.similar(_sha(grave), _sha(new)) for grave in graves)


def test_the_bound_skips_new_text_and_keeps_a_grave_of_it() -> None:
    template = b"# Summary\n\n# Motivation\n"
    fresh = template + b"".join(f"new idea line {i}\n".encode() for i in range(20))
    resurrection, _ = _resurrection([template + b"an older draft\n" * 5], [fresh])
    assert not resurrection._may_restore(_sha(fresh), len(fresh))
    resurrection, _ = _resurrection([fresh[:-40]], [fresh])
    assert resurrection._may_restore(_sha(fresh), len(fresh))
    resurrection, _ = _resurrection([fresh], [fresh])
    assert resurrection._may_restore(_sha(fresh), None)  # the very blob, even unread
