"""Which paths config's ``include`` and ``exclude`` name (the matcher is :mod:`docsync.globs`)."""

from __future__ import annotations

from ..config import DEFAULT_INCLUDE, Config
from ..globs import matches as matches

_SUFFIXES = (".md", ".markdown")


def in_scope(path: str, config: Config) -> bool:
    """Whether ``path`` is one of config's Markdown files. The default ``include`` names
    every ``.md`` and ``.markdown`` file in either letter case, which the suffix says
    without the matcher (discovery asks this of every Markdown path)."""
    if config.include is DEFAULT_INCLUDE or config.include == DEFAULT_INCLUDE:
        included = path.lower().endswith(_SUFFIXES)
    else:
        included = matches(path, config.include)
    return included and not matches(path, config.exclude)
