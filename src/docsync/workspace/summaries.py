"""The gates' per-file work, done in the parse workers beside the parse.

A cold run parses in worker processes. Each gate whose verdict on a document
needs that document alone gives a summarizer: the links gate its summary
(findings, and fragment checks pending other documents' anchors), the wrap
gate its findings, the inline suppressions their ranges, ``init`` its wrap
counts. A worker runs every one of them on each document it parses, and
only their small results travel back, beside the document's pickle. So the
main process need not unpickle a document to learn what any of them says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..model import Document
from .parsing import Summarize
from .parts import PartSummarize

Summaries = Mapping[str, object]
"""One document's results: summarizer name → what it made (absent when it made nothing)."""


class Combined:
    """Named summarizers as one :data:`~docsync.workspace.parsing.Summarize`.

    Each document's summary is a dict of what each made of it (a None result
    is left out: the gate then reads the document itself). A file parsed in
    parts gets the results of the members that summarize parts; the others
    have none for it.
    """

    def __init__(self, members: Mapping[str, Summarize]) -> None:
        self._members = dict(members)

    def __call__(self, doc: Document) -> dict[str, object]:
        made = {name: summarize(doc) for name, summarize in self._members.items()}
        return {name: result for name, result in made.items() if result is not None}

    def part(self, doc: Document) -> dict[str, object]:
        made = {name: member.part(doc) for name, member in self._in_parts()}
        return {name: result for name, result in made.items() if result is not None}

    def join(self, parts: Sequence[object], outline: Document) -> dict[str, object]:
        made: dict[str, object] = {}
        held = [part if isinstance(part, dict) else {} for part in parts]
        for name, member in self._in_parts():
            if all(name in part for part in held):
                result = member.join([part[name] for part in held], outline)
                if result is not None:
                    made[name] = result
        return made

    def _in_parts(self) -> list[tuple[str, PartSummarize]]:
        return [(name, m) for name, m in self._members.items() if isinstance(m, PartSummarize)]
