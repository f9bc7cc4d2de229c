"""The lineage a new record continues: content deleted before it, copied, or moved out of a stub."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from .kinship import Lines, Texts, renumbered
from .replay import Grave, Replayer, Root, Split
from .similarity import RENAME_SCORE, BlobReader


class Resurrection:
    """Continues a fresh lineage from content it took over (memoised): a record deleted before
    it began, one copied and deleted later, or one left behind as a stub in the same commit.

    Deleted after: the record was copied and its original deleted later, a move in
    two commits (``0000-x.md`` copied to ``1445-x.md``, the duplicate removed a week on).
    A grave continues a lineage only if git's measure finds them similar, the two lie on
    one line of history (:class:`Lines`), and they are alike once the tree's template
    text is set aside or share a title or a number (:mod:`.kinship`).
    """

    def __init__(self, replayer: Replayer, read_blob: BlobReader) -> None:
        self._fresh = replayer.fresh
        self._graves = replayer.graves
        self._splits = replayer.splits
        self._lines = Lines(replayer.history)
        self._texts = Texts(read_blob, replayer.template_blobs)
        self._done: dict[Root, Root] = {}
        self._by_stub: dict[tuple[str, Root], list[tuple[Root, Split]]] | None = None
        self._sizes: list[int | None] | None = None  # each grave's blob size, in order
        self._pool: tuple[set[str], set[bytes]] | None = None  # the graves' blobs, their chunks
        self._by_commit: dict[str, list[Grave]] | None = None

    def earliest(self, root: Root) -> Root:
        if root in self._done:
            return self._done[root]
        self._done[root] = root  # a cycle cannot happen (graves are earlier), but stay safe
        found = root
        fresh = self._fresh.get(root)
        if fresh is not None:
            blob, _ = fresh
            for split in self._splits.get(root, ()):
                if _not_later(split.root, found) and self._moved_out(split, blob):
                    found = min(found, self.earliest(split.root))
            for grave in self._renumbered(root, blob):
                if _not_later(grave.root, found):
                    found = min(found, self.earliest(grave.root))
            size = self._texts.size(blob)
            graves = zip(self._graves, self._grave_sizes(), strict=True)
            for grave, grave_size in graves if self._may_restore(blob, size) else ():
                if grave.root == root or not _not_later(grave.root, found):
                    continue
                if grave.blob != blob and not _comparable(grave_size, size):
                    continue  # git's measure cannot find them similar: it would say so
                if self._restores(grave, root, blob):
                    found = min(found, self.earliest(grave.root))
        self._done[root] = found
        return found

    def blobs_ahead(self, roots: Iterable[Root]) -> list[str]:
        """The blobs :meth:`earliest` reads for ``roots``: each new record's, and with the
        first of them every grave's (their sizes), in about the order it reads them."""
        fresh = [found[0] for root in roots if (found := self._fresh.get(root)) is not None]
        return [*fresh[:1], *(grave.blob for grave in self._graves), *fresh[1:]] if fresh else []

    def _may_restore(self, blob: str, size: int | None) -> bool:
        """Whether git's measure can find any grave similar to ``blob``: one holds that very
        blob, or the bytes of ``blob``'s chunks that some grave holds too reach half its size
        (the score counts no other bytes, over a size at least ``blob``'s)."""
        if self._pool is None:
            self._pool = (
                {grave.blob for grave in self._graves},
                {chunk for grave in self._graves for chunk in self._texts.chunk_counts(grave.blob)},
            )
        blobs, pool = self._pool
        if blob in blobs:
            return True
        if not size:
            return False  # unreadable: git's measure says no
        counts = self._texts.chunk_counts(blob)
        shared = sum(n * len(chunk) for chunk, n in counts.items() if chunk in pool)
        return shared >= size * RENAME_SCORE

    def _renumbered(self, root: Root, blob: str) -> list[Grave]:
        """Graves of the commit that began ``root`` that are the same record renumbered and
        rewritten (a rename git missed: 47% on cometbft's ADR 011): the same slug in the
        same folder, and the same title once the number is set aside."""
        if self._by_commit is None:
            self._by_commit = {}
            for grave in self._graves:
                self._by_commit.setdefault(grave.commit, []).append(grave)
        return [
            grave
            for grave in self._by_commit.get(root.commit, ())
            if renumbered(grave.path, root.path) and self._texts.same_title(grave.blob, blob)
        ]

    def _grave_sizes(self) -> list[int | None]:
        if self._sizes is None:
            self._sizes = [self._texts.size(grave.blob) for grave in self._graves]
        return self._sizes

    def restarted(self, path: str, root: Root, records: Collection[Root] | None = None) -> Root:
        """The lineage of the file now at ``path``: a new one from the commit that moved its
        content out and left it as a stub, else ``root``.

        With ``records`` (the lineages that records hold at HEAD), only content that went
        to a record restarts the stub: a proposal whose text moved to a draft that is no
        record (``40307-fuzzing.md`` to ``draft-fuzzing.md``) is still the proposal that
        began at its own path."""
        for fresh, split in self._stubs().get((path, root), ()):
            if records is not None and fresh not in records:
                continue
            if self._moved_out(split, self._fresh[fresh][0]):
                return Root(fresh.date, fresh.commit, path)
        return root

    def _stubs(self) -> dict[tuple[str, Root], list[tuple[Root, Split]]]:
        """(path, lineage) of each record changed beside a new one → (the new one, the change)."""
        if self._by_stub is None:
            self._by_stub = {}
            for fresh, splits in self._splits.items():
                for split in splits:
                    self._by_stub.setdefault((split.path, split.root), []).append((fresh, split))
        return self._by_stub

    def _moved_out(self, split: Split, blob: str) -> bool:
        """Whether the commit moved ``split``'s text into ``blob`` and left a stub behind."""
        texts = self._texts
        return (  # the stub first: most files changed beside a new record (an index) are none
            texts.stub(split.old_blob, split.new_blob)
            and texts.similar(split.old_blob, blob)
            and texts.alike(split.old_blob, blob)
        )

    def _restores(self, grave: Grave, root: Root, blob: str) -> bool:
        texts = self._texts
        if not texts.similar(grave.blob, blob):
            return False
        if not (
            texts.alike(grave.blob, blob) or texts.kin(grave.path, grave.blob, root.path, blob)
        ):
            return False
        return self._lines.ordered(grave, root)


def _not_later(source: Root, found: Root) -> bool:
    """Whether ``source`` may lead to a day before ``found``: it began that day or earlier.
    Not its commit id: a source that began the same day may continue an older lineage
    (KEP 0019, renamed and rewritten, reverted and redone on one day)."""
    return source != found and source.date <= found.date


def _comparable(a: int | None, b: int | None) -> bool:
    """Whether blobs of sizes ``a`` and ``b`` (None: unreadable) may be similar by git's
    measure: both readable, and neither under half the other, unless one is empty (then
    :meth:`Texts.similar` gives the answer)."""
    if a is None or b is None:
        return False
    return not a or not b or min(a, b) >= max(a, b) * RENAME_SCORE
