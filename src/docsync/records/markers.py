"""The markers around a generated part of a page that docsync owns.

Text outside the markers belongs to people and is kept byte for byte when the
generated part is regenerated.
"""

from __future__ import annotations

import re


class MarkersError(ValueError):
    """A page whose begin and end markers are missing one half, repeated, or out of order."""


def marked_span(text: str, begin: str, end: str) -> tuple[int, int] | None:
    """Offsets of the part between ``begin`` and ``end`` (markers included); None without markers."""
    begins = [m.start() for m in re.finditer(re.escape(begin), text)]
    ends = [m.start() for m in re.finditer(re.escape(end), text)]
    if not begins and not ends:
        return None
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise MarkersError(
            f"expected one {begin} followed by one {end}, found {len(begins)} and {len(ends)}"
        )
    return begins[0], ends[0] + len(end)
