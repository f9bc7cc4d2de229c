"""Gate ``refs``'s rule codes: a plain table, cheap to import (the reporters
name every rule; a links-only run need not load the gate)."""

from __future__ import annotations

from ...model import Finding

GATE = "refs"
RULES: dict[str, tuple[str, str]] = {
    "R001": ("bare-former-id", "bare former id of a migrated record in Markdown prose"),
    "R002": (
        "missing-tree-path",
        "path into the record tree, in a non-Markdown file, that does not exist",
    ),
    "R003": (
        "bare-former-id-in-code",
        'bare former id in a non-Markdown file (code_refs = "path")',
    ),
}


def finding(rule: str, path: str, line: int, column: int, message: str) -> Finding:
    return Finding(GATE, rule, path, line, column, message)
