"""Gate ``wrap``: prose paragraphs follow the configured wrap convention (work in progress)."""

from __future__ import annotations

from ..config import Config
from ..model import Document, Finding

GATE = "wrap"
RULES: dict[str, tuple[str, str]] = {}


def check(doc: Document, config: Config) -> list[Finding]:
    return []
