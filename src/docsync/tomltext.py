"""TOML source for the values docsync writes (init's config, the migration plan): the
one module that imports tomlkit.

Scalars and keys are written by tomlkit, which escapes what TOML requires (control
characters, DEL, quotes). Arrays and inline tables are put together here, in the
layout docsync's files use (``[a, b]``, ``{ key = value }``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import tomlkit


def key(name: str) -> str:
    """A key as TOML writes it: bare when it can be, else a quoted string."""
    return str(tomlkit.key(name).as_string())


def value(item: Any) -> str:
    """TOML source for a string, number, boolean, list or table (inline)."""
    if isinstance(item, bool | int | float | str):
        return str(tomlkit.item(item).as_string())
    if isinstance(item, Mapping):
        pairs = ", ".join(f"{key(str(k))} = {value(v)}" for k, v in item.items())
        return "{ " + pairs + " }" if pairs else "{}"
    if isinstance(item, list | tuple):
        return "[" + ", ".join(value(v) for v in item) + "]"
    raise TypeError(f"no TOML form for {item!r}")
