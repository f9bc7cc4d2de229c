"""Render findings: text (rich), JSON, GitHub annotations, SARIF 2.1.0.

Data goes to stdout; the CLI sends people's messages to stderr.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from itertools import groupby
from typing import Any
from urllib.parse import quote

from rich.console import Console
from rich.markup import escape

from . import __version__
from .model import Finding
from .rules import by_code

FORMATS = ("text", "json", "github", "sarif")


def as_json(files: int, findings: Sequence[Finding]) -> str:
    rules = by_code()
    payload = {
        "files": files,
        "findings": [
            {
                "gate": f.gate,
                "rule": f.rule,
                "name": rules[f.rule].name if f.rule in rules else f.rule,
                "path": f.path,
                "line": f.line,
                "column": f.column,
                "message": f.message,
                "suggestion": f.suggestion,
                "severity": f.severity.value,
            }
            for f in findings
        ],
    }
    return _json_visible(json.dumps(payload, indent=2, ensure_ascii=False)) + "\n"


# What a file name, link target or link text can carry that would act on the
# reader's terminal instead of showing: C0 controls (escape sequences, a
# newline that forges a finding line), DEL, C1 controls (U+009B is a
# one-character CSI), bidirectional overrides and isolates (which reorder
# what is shown), and the Unicode line and paragraph separators.
_WIDE_UNSAFE = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[\x00-\x1f{_WIDE_UNSAFE}]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(match: re.Match[str]) -> str:
    char = match.group(0)
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every character that could act on a terminal shown as an escape (``\\x1b``)."""
    return _UNSAFE.sub(_escaped, text)


# json.dumps escapes C0 controls inside strings itself; its own newlines are layout.
_UNSAFE_IN_JSON = re.compile(f"[{_WIDE_UNSAFE}]")


_UNSAFE_IN_LINES = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{_WIDE_UNSAFE}]|\r(?!\n)")


def visible_diff(text: str) -> str:
    """A diff (or any multi-line text) with the unsafe characters escaped, newlines and tabs kept."""
    return _UNSAFE_IN_LINES.sub(_escaped, text)


_UNSAFE_BUT_BREAKS = re.compile(f"[\x00-\x09\x0b\x0c\x0e-\x1f{_WIDE_UNSAFE}]")


def _json_visible(text: str) -> str:
    """JSON whose strings keep their values but spell the unsafe characters as ``\\uXXXX``."""
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def as_github(findings: Sequence[Finding]) -> str:
    """GitHub Actions workflow commands, one annotation per finding."""
    rules = by_code()
    lines = []
    for f in findings:
        name = rules[f.rule].name if f.rule in rules else f.gate
        title = f"docsync {f.rule} ({name})"
        lines.append(
            f"::{f.severity.value} file={_escape_property(_UNSAFE_BUT_BREAKS.sub(_escaped, f.path))},line={f.line},"
            f"col={f.column},title={_escape_property(title)}::{_escape_data(_UNSAFE_BUT_BREAKS.sub(_escaped, f.message))}"
        )
    return "".join(line + "\n" for line in lines)


def as_sarif(findings: Sequence[Finding]) -> str:
    rules = by_code()
    used = sorted({f.rule for f in findings})
    driver_rules = [
        {
            "id": code,
            "name": rules[code].name if code in rules else code,
            "shortDescription": {"text": rules[code].summary if code in rules else code},
            "helpUri": f"https://github.com/docsync/docsync/blob/main/docs/rules/{rules[code].gate if code in rules else 'files'}.md",
        }
        for code in used
    ]
    results: list[dict[str, Any]] = [
        {
            "ruleId": f.rule,
            "ruleIndex": used.index(f.rule),
            "level": "error" if f.severity.value == "error" else "warning",
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": quote(f.path), "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": f.line, "startColumn": f.column},
                    }
                }
            ],
        }
        for f in findings
    ]
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "docsync",
                        "version": __version__,
                        "informationUri": "https://github.com/docsync/docsync",
                        "rules": driver_rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2) + "\n"  # ensure_ascii: every unsafe character is \\u-escaped


def print_text(console: Console, files: int, findings: Sequence[Finding]) -> None:
    """Findings grouped by file, then the summary line. One print per file:
    rich's cost is per call, and an adoption run can report thousands. Without
    colour (a pipe, NO_COLOR) the same text is written directly."""
    if console.color_system is None and not console.record:
        _write_plain(console, files, findings)
        return
    for path, group in groupby(findings, key=lambda f: f.path):
        lines = [f"[bold]{escape(visible(path))}[/bold]"]
        lines.extend(
            f"  {f.line}:{f.column}  [red]{f.rule}[/red]  {escape(visible(f.message))}  [dim]{f.gate}[/dim]"
            for f in group
        )
        console.print("\n".join(lines), soft_wrap=True, highlight=False)
    console.print(summary(files, findings), highlight=False)


def _write_plain(console: Console, files: int, findings: Sequence[Finding]) -> None:
    lines: list[str] = []
    for path, group in groupby(findings, key=lambda f: f.path):
        lines.append(visible(path))
        lines.extend(f"  {f.line}:{f.column}  {f.rule}  {visible(f.message)}  {f.gate}" for f in group)
    lines.append(summary(files, findings))
    console.file.write("\n".join(lines) + "\n")
    console.file.flush()


def summary(files: int, findings: Sequence[Finding]) -> str:
    noun = "file" if files == 1 else "files"
    if not findings:
        return f"All clear: {files} Markdown {noun} checked, no findings."
    per_gate = Counter(f.gate for f in findings)
    gates = ", ".join(f"{gate}: {count}" for gate, count in sorted(per_gate.items()))
    touched = len({f.path for f in findings})
    return (
        f"{len(findings)} finding{'s' if len(findings) != 1 else ''} in {touched} "
        f"file{'s' if touched != 1 else ''} ({gates}); {files} Markdown {noun} checked."
    )
