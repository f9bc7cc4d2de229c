"""The registry of rule codes: code → gate, short name, one-line description."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .layout import rules as layout
from .links import check as links
from .refs import rules as refs
from .wrap import check as wrap

FILE_RULES: dict[str, tuple[str, str]] = {
    "F001": ("not-utf8", "file is not valid UTF-8"),
    "F002": ("binary", "file contains a NUL byte"),
    "F003": ("too-large", "file is larger than max_file_size"),
    "F004": ("unreadable", "file cannot be read (permissions, symlink loop)"),
}

SUPPRESSIONS_GATE = "suppressions"
UNUSED_SUPPRESSION = "S001"
SUPPRESSION_RULES: dict[str, tuple[str, str]] = {
    UNUSED_SUPPRESSION: (
        "unused-suppression",
        "suppression comment that silences no finding (--report-unused-suppressions)",
    ),
}


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    gate: str
    name: str
    summary: str


def all_rules() -> list[Rule]:
    return list(_all_rules())


@cache
def _all_rules() -> tuple[Rule, ...]:
    tables: list[tuple[str, dict[str, tuple[str, str]]]] = [
        ("files", FILE_RULES),
        (links.GATE, links.RULES),
        (wrap.GATE, wrap.RULES),
        (layout.GATE, layout.RULES),
        (refs.GATE, refs.RULES),
        (SUPPRESSIONS_GATE, SUPPRESSION_RULES),
    ]
    return tuple(
        Rule(code, gate, name, summary)
        for gate, table in tables
        for code, (name, summary) in sorted(table.items())
    )


def by_code() -> dict[str, Rule]:
    return {rule.code: rule for rule in all_rules()}
