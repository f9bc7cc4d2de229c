"""Whether rich would take a stream for a terminal, told without importing rich (a tenth
of a run's start-up, and the whole of a replayed one's)."""

from __future__ import annotations

import os


def not_a_terminal(stream: object, forced: bool) -> bool:
    """Whether rich would call ``stream`` no terminal, by the rules it applies first: a
    terminal ``forced`` (``--color always``), then ``TTY_COMPATIBLE``, then ``FORCE_COLOR``,
    then ``isatty``; False where only rich can tell (it also says no to Jupyter and IDLE)."""
    if forced:
        return False
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "0"
    forced_color = os.environ.get("FORCE_COLOR")
    if forced_color is not None:
        return forced_color == ""
    file = getattr(stream, "rich_proxied_file", stream)
    isatty = getattr(file, "isatty", None)
    try:
        return isatty is None or not isatty()
    except (ValueError, OSError):  # a closed stream
        return True
