"""Markdown files whose names are not UTF-8: each one F001 finding by its escaped name,
never read (see :mod:`docsync.untrusted_text`)."""

from __future__ import annotations

from ..config import Config
from ..model import Finding
from ..repository.plumbing import Listing
from ..untrusted_text import first_bad_byte, is_utf8, shown
from .files import file_problem
from .globs import in_scope


def _markdown(path: str) -> bool:
    return path.lower().endswith((".md", ".markdown"))


def misnamed(
    selected: tuple[str, ...], listing: Listing, config: Config, everything: bool
) -> tuple[tuple[str, ...], dict[str, Finding]]:
    """``selected`` with each Markdown file whose name is not UTF-8 (in scope, or named on
    the command line) shown as ``\\xff``, and its F001 by that name: it is not read."""
    raw = [p for p in listing.unnamable if _markdown(p) and in_scope(p, config)] if everything else []
    raw.extend(p for p in selected if not is_utf8(p))
    found = {
        shown(p): file_problem(
            shown(p), "F001",
            f"the file name is not valid UTF-8 (byte 0x{first_bad_byte(p)}); not read: rename it",
        )
        for p in dict.fromkeys(raw)
    }
    kept = tuple(p for p in selected if is_utf8(p))
    return (*kept, *(p for p in found if p not in kept)), found
