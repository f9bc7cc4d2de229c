"""The config's value checks: each takes a TOML value and returns it in the form
:class:`~docsync.config.Config` keeps, or ``None`` when it is not one."""

from __future__ import annotations

import os
import re
from typing import Any


def strings(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def wrap_mode(value: Any) -> str | int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value > 0:
        return value
    if isinstance(value, str) and value in ("none", "sentence", "off"):
        return value
    return None


def per_file(value: Any) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    if not isinstance(value, dict):
        return None
    out: list[tuple[str, tuple[str, ...]]] = []
    for glob, codes in value.items():
        names = strings(codes)
        if names is None:
            return None
        out.append((glob, names))
    return tuple(out)


def boolean(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


FILE_SIZE_CEILING = 8_000_000
"""The most ``max_file_size`` may say. It is a key of the committed config, so a pull
request could raise it, and a file's memory grows with its size (up to about 130 bytes
per byte); GitHub renders no Markdown preview of a file over about 2 MB."""


def file_size(value: Any) -> int | None:
    size = count(value)
    return size if size is not None and size <= FILE_SIZE_CEILING else None


def worker_cores(jobs: int) -> int:
    """The worker processes ``jobs`` asks for: 0 is one per core, and never more than the
    cores, since ``jobs`` is a key of the committed config a pull request can set."""
    machine = os.cpu_count() or 1
    return min(jobs or machine, machine)


def string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def string_table(value: Any) -> dict[str, str] | None:
    if isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        return {k.lower(): v for k, v in value.items()}
    return None


def inside(value: str) -> bool:
    """A relative path that stays inside the repository (checked again, on disk, before any write)."""
    parts = value.replace("\\", "/").split("/")
    return bool(value.strip("/")) and "\0" not in value and not value.startswith("/") and ".." not in parts


def folder(value: Any) -> str | None:
    return value.strip("/") if isinstance(value, str) and inside(value) else None


def states(value: Any) -> dict[str, str] | None:
    table = string_table(value)
    if table is None or any(
        not name or "/" in name or "\\" in name or "\0" in name or name in (".", "..")
        for name in table.values()
    ):
        return None
    return table


_PHRASE = re.compile(r"[a-z]+(?: [a-z]+)*")


def relations(value: Any) -> dict[str, str] | None:
    table = string_table(value)
    if table is None:
        return None
    pairs = {" ".join(k.split()): " ".join(v.lower().split()) for k, v in table.items()}
    phrases = [*pairs, *pairs.values()]
    if not all(_PHRASE.fullmatch(p) for p in phrases) or len(set(phrases)) != len(phrases):
        return None
    return pairs


def code_refs(value: Any) -> str | None:
    return value if value in ("path", "all", "off") else None


def optional_path(value: Any) -> str | None:
    if value is False:
        return ""
    return value if isinstance(value, str) and inside(value) else None


def site(value: Any) -> str | None:
    from .site import SITES

    return value if isinstance(value, str) and value in SITES else None


def site_root(value: Any) -> str | None:
    if value in (".", "./", ""):
        return ""
    return folder(value)
