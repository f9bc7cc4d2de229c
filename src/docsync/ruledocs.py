"""Full rule explanations for ``docsync rules CODE``, read from docs/rules/<gate>.md."""

from __future__ import annotations

import re
from pathlib import Path

from .rules import Rule

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
ONLINE = "https://github.com/docsync/docsync/blob/main/docs/rules"


def section(markdown: str, code: str) -> str | None:
    """The ``## CODE …`` section of a rule page, without the next section."""
    match = re.search(rf"(?ms)^## {re.escape(code)}\b.*?(?=^## |\Z)", markdown)
    return match.group(0).strip() if match else None


def explain(rule: Rule) -> str:
    page = DOCS / f"{rule.gate}.md"
    if page.is_file():
        found = section(page.read_text(encoding="utf-8"), rule.code)
        if found:
            return found
    return f"{rule.code} {rule.name} ({rule.gate}): {rule.summary}\nSee {ONLINE}/{rule.gate}.md"
