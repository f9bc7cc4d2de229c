"""Full rule explanations for ``docsync rules CODE``, read from docs/rules/<gate>.md.

The pages ship inside the package (``docsync/data/rules`` is a link to
``docs/rules`` in the source tree, copied into the wheel), so an installed
docsync explains every rule offline.
"""

from __future__ import annotations

import re
from pathlib import Path

from .registry import Rule

DOCS = Path(__file__).resolve().parents[1] / "data" / "rules"
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
            return f"{found}\n\n{suppress_line(rule)}"
    return f"{rule.code} {rule.name} ({rule.gate}): {rule.summary}\nSee {ONLINE}/{rule.gate}.md"


def suppress_line(rule: Rule) -> str:
    """How to silence ``rule``: inline (not for the file rules, which have no text), in config."""
    config = f'ignore = ["{rule.code}"] or per-file-ignores = {{ "GLOB" = ["{rule.code}"] }} in config'
    if rule.gate in ("files", "suppressions"):
        return f"Suppress: {config}, or --ignore {rule.code}."
    return (
        f"Suppress: <!-- docsync-disable-next-line {rule.code} --> on the line before, "
        f"<!-- docsync-disable-file {rule.code} -->, {config}, or --ignore {rule.code}."
    )
