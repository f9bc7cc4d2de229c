"""The files a command names (``docsync check docs/x.md docs/adr``): which Markdown
files of the repository each stands for, or why it names none."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..config import Config
from ..errors import DocsyncError
from ..repository.plumbing import Listing
from .globs import matches

MARKDOWN_SUFFIXES = (".md", ".markdown")


def is_markdown(path: str) -> bool:
    """Whether ``path`` names a Markdown file (either letter case, as GitHub reads it)."""
    return path.lower().endswith(MARKDOWN_SUFFIXES)


def named(root: Path, paths: Sequence[str], listing: Listing, config: Config) -> tuple[str, ...]:
    """Named files and folders; ``exclude`` still applies, as pre-commit passes everything.

    A path that does not exist, a file that is not Markdown and a folder with
    no Markdown file in it are errors: a mistyped path must not pass as clean.
    """
    chosen: list[str] = []
    known = sorted(set(listing.tracked) | listing.untracked)
    for path in paths:
        full = root / path
        if full.is_dir():
            prefix = "" if path in ("", ".") else path.rstrip("/") + "/"
            inside = [p for p in known if p.startswith(prefix) and is_markdown(p)]
            if not inside:
                raise DocsyncError(f"{path}: no Markdown file in this folder")
            chosen.extend(p for p in inside if not (root / p).is_symlink())
        elif not full.exists() and not full.is_symlink():
            raise DocsyncError(f"{path}: no such file or folder")
        elif not is_markdown(path):
            raise DocsyncError(f"{path}: not a Markdown file (names ending {', '.join(MARKDOWN_SUFFIXES)})")
        elif not full.is_symlink():
            chosen.append(path)
    return tuple(p for p in dict.fromkeys(chosen) if not matches(p, config.exclude))
