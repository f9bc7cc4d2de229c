"""What a planted cache file would hold: an object whose unpickling runs a command."""

from __future__ import annotations

import os
from pathlib import Path


class RunsACommand:
    """Unpickling this calls ``os.system``, which touches ``marker``: a cache reader
    that refuses it leaves no marker behind."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))
