"""The inline rule docsync puts into markdown-it's: GitHub's reading of ``$``.

Written against markdown-it's rule interface (the inline state markdown-it
passes), so only :mod:`docsync.parse.markdown` imports markdown-it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

State = Any
"""markdown-it's ``State``."""

InlineRule = Callable[[State, bool], bool]


def no_digits_around(rule: InlineRule) -> InlineRule:
    """The inline math rule, refusing a ``$`` right after a digit or a closing
    ``$`` right before one (so "5$ and $10" is money, not math).

    The plugin's own check reads the character before position 0 as the
    content's last one (a negative index), so "$x$ is 7" was not math.
    """

    def math(state: State, silent: bool) -> bool:
        start = state.pos
        if state.src[start] != "$" or (start > 0 and state.src[start - 1].isdigit()):
            return False
        if not rule(state, True):
            return False
        end, state.pos = state.pos, start
        if end < state.posMax and state.src[end].isdigit():
            return False
        return rule(state, silent)

    return math
