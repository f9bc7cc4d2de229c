"""Which paths config's ``include`` and ``exclude`` name (the matcher is :mod:`docsync.globs`)."""

from __future__ import annotations

from ..config import Config
from ..globs import matches as matches


def in_scope(path: str, config: Config) -> bool:
    return matches(path, config.include) and not matches(path, config.exclude)
