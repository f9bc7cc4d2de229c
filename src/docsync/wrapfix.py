"""The fixer of the ``wrap`` gate (work in progress)."""

from __future__ import annotations

from dataclasses import dataclass

from .config import Config
from .model import Document, Finding


@dataclass(frozen=True, slots=True)
class WrapFix:
    text: str
    changed: bool
    skipped: tuple[Finding, ...]


def fix_document(doc: Document, config: Config) -> WrapFix:
    return WrapFix(doc.text, False, ())
