"""Every rule docsync reports, in one place: its code, gate, short name and one-line summary,
and its full explanation (``docsync rules CODE``), read from the gate's page in docs/rules/.

Tables only, cheap to import: the reporters name every rule, and a links-only run loads no
other gate. The pages ship inside the package (``docsync/data/rules`` is a link to
``docs/rules`` in the source tree, copied into the wheel), so an installed docsync explains
every rule offline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..model import Finding

_Table = dict[str, tuple[str, str]]  # code -> (short name, summary)

_FILES: _Table = {
    "F001": ("not-utf8", "file is not valid UTF-8"),
    "F002": ("binary", "file contains a NUL byte"),
    "F003": ("too-large", "file is larger than max_file_size"),
    "F004": ("unreadable", "file cannot be read (permissions, symlink loop)"),
}

_LINKS: _Table = {
    "L001": ("missing-target", "relative link to a path that git does not track"),
    "L002": ("untracked-target", "relative link to a file that exists only untracked on this disk"),
    "L003": ("case-mismatch", "relative link whose path matches a tracked file only in another letter case"),
    "L004": ("outside-repository", "relative link that resolves outside the repository"),
    "L005": ("dangling-symlink", "relative link to a tracked symlink whose target does not exist"),
    "L006": ("missing-fragment", "#fragment that names no heading or anchor in the target"),
    "L007": ("fragment-case", "#fragment that matches an anchor only in another letter case (strict_fragments)"),
    "L008": ("bad-escape", "malformed percent-escape in a link destination or fragment"),
    "L009": ("unused-definition", "reference definition that no link uses"),
    "L010": ("duplicate-definition", "reference definition whose label is already defined"),
    "L011": ("line-anchor-on-markdown", "#L10-style line anchor on a Markdown file, where GitHub renders no line numbers"),
    "L900": ("not-fixed", "file `docsync fix` left alone because repairing its links would change how it renders"),
}

_WRAP: _Table = {
    "W001": ("hard-wrapped", 'paragraph spans several lines under wrap = "none"'),
    "W002": ("line-too-wide", "line of prose wider than the configured width"),
    "W003": ("sentences-on-one-line", 'more than one sentence on a line under wrap = "sentence"'),
    "W004": ("sentence-split", 'sentence split across lines under wrap = "sentence"'),
    "W005": (
        "unbreakable-line",
        "line wider than the width with no place to break it (wrap_strict)",
    ),
    "W900": ("not-fixed", "paragraph `docsync fix` left alone because a rewrite would be unsafe"),
}

_LAYOUT: _Table = {
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

_REFS: _Table = {
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

SUPPRESSIONS_GATE = "suppressions"
UNUSED_SUPPRESSION = "S001"
_SUPPRESSIONS: _Table = {
    UNUSED_SUPPRESSION: (
        "unused-suppression",
        "suppression comment that silences no finding (--report-unused-suppressions)",
    ),
}

OPT_IN = frozenset({"L009", "L010"})
"""Rules off unless ``select`` (or ``--select``) names their code: true of the file, and
no broken link (template boilerplate leaves hundreds of them in a large tree).
Naming one turns it on and narrows nothing (``select = ["L009"]``: the defaults and L009)."""

RULES: dict[str, _Table] = {
    "files": _FILES,
    "links": _LINKS,
    "wrap": _WRAP,
    "layout": _LAYOUT,
    "refs": _REFS,
    SUPPRESSIONS_GATE: _SUPPRESSIONS,
}
"""Each gate's rules, in the order ``docsync rules`` lists them."""


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    gate: str
    name: str
    summary: str

    @property
    def opt_in(self) -> bool:
        """Off unless selected by its code (:data:`OPT_IN`)."""
        return self.code in OPT_IN


def all_rules() -> list[Rule]:
    return list(_all_rules())


@cache
def _all_rules() -> tuple[Rule, ...]:
    return tuple(
        Rule(code, gate, name, summary)
        for gate, table in RULES.items()
        for code, (name, summary) in sorted(table.items())
    )


def by_code() -> dict[str, Rule]:
    return dict(_by_code())


@cache
def _by_code() -> dict[str, Rule]:
    return {rule.code: rule for rule in _all_rules()}


def finding(rule: str, path: str, line: int, column: int, message: str) -> Finding:
    """A finding of ``rule``, filed under the gate whose table holds it."""
    return Finding(_by_code()[rule].gate, rule, path, line, column, message)


DOCS = Path(__file__).resolve().parents[1] / "data" / "rules"


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
    return f"{rule.code} {rule.name} ({rule.gate}): {rule.summary}\n\n{suppress_line(rule)}"


def suppress_line(rule: Rule) -> str:
    """How to silence ``rule``: inline (not for the file rules, which have no text), in config."""
    config = f'ignore = ["{rule.code}"] or per-file-ignores = {{ "GLOB" = ["{rule.code}"] }} in config'
    if rule.gate in ("files", "suppressions"):
        return f"Suppress: {config}, or --ignore {rule.code}."
    return (
        f"Suppress: <!-- docsync-disable-next-line {rule.code} --> on the line before, "
        f"<!-- docsync-disable-file {rule.code} -->, {config}, or --ignore {rule.code}."
    )
