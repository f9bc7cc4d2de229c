"""Gate ``layout``'s rule codes: a plain table, cheap to import (the reporters
name every rule; a links-only run need not load the gate)."""

from __future__ import annotations

from ...model import Finding

GATE = "layout"
RULES: dict[str, tuple[str, str]] = {
    "Y001": (
        "outside-lifecycle-folder",
        "record that is not directly in a lifecycle folder of the tree",
    ),
    "Y002": ("bad-name", "record whose file name is not yyyy-mm-dd-slug.md"),
    "Y003": ("bad-date", "record whose file name holds a date that does not exist"),
    "Y004": ("missing-status", "record without a 'Status:' line"),
    "Y005": ("several-statuses", "record with more than one 'Status:' line"),
    "Y006": ("unknown-status", "record whose status word maps to no lifecycle state"),
    "Y007": ("status-folder-mismatch", "record whose status belongs to another lifecycle folder"),
    "Y008": ("duplicate-slug", "two records with the same slug"),
    "Y009": ("stale-index", "tree index missing or not up to date (docsync fix regenerates it)"),
    "Y010": ("index-markers", "tree index whose generated-part markers are broken"),
    "Y011": (
        "stale-conventions",
        "conventions doc whose generated part does not match the config (docsync fix regenerates it)",
    ),
    "Y012": (
        "missing-reverse-relation",
        "relation whose other record does not link back (docsync fix adds the reverse)",
    ),
    "Y013": (
        "superseded-state",
        "record superseded by another but not in the state superseded records take",
    ),
    "Y014": ("relation-to-missing-record", "relation that links to no record of the tree"),
    "Y015": ("supersession-loop", "records that supersede each other in a loop"),
}


def finding(rule: str, path: str, line: int, column: int, message: str) -> Finding:
    return Finding(GATE, rule, path, line, column, message)
