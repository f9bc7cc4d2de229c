"""Render findings: text (rich), concise, JSON and JSON lines (schema in
docs/schema/), GitHub annotations, GitLab Code Quality, SARIF 2.1.0, JUnit XML.

Data goes to stdout; the CLI sends people's messages to stderr.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import groupby
from json.encoder import encode_basestring  # the C encoder when the interpreter has it
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from .. import DISTRIBUTION, __version__
from ..gates.rules import Rule, by_code, explain
from ..model import Finding, Severity
from ..untrusted_text import TERMINAL_UNSAFE, escaped_character, is_utf8, json_safe, shown
from ..untrusted_text import visible as visible
from . import indented_json
from .junit import as_junit as as_junit  # every format is read from here

if TYPE_CHECKING:
    from rich.console import Console

FORMATS = ("text", "concise", "json", "json-lines", "github", "gitlab", "sarif", "junit")
SCHEMA_VERSION = 1
"""The version of the JSON and JSON-lines output (docs/schema/); bumped on an incompatible change."""


def _record(f: Finding, rules: dict[str, Rule]) -> dict[str, Any]:
    return {
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


def as_json(files: int, findings: Sequence[Finding]) -> str:
    """The report: ``json.dumps`` of the payload (``indent=2``, ``ensure_ascii=False``)
    with the unsafe characters escaped, byte for byte: :func:`json_pieces` joined."""
    return "".join(json_pieces(files, findings))


_PIECE = 1024
"""Findings per piece of the JSON report: a few hundred kilobytes, so that a report of
34 MB is never one string (made, copied and encoded whole it costs more than the findings)."""


def json_pieces(files: int, findings: Sequence[Finding]) -> Iterator[str]:
    """:func:`as_json`'s text in pieces, to be written one after the other. Written here a
    finding at a time: every value is a string, an int or None, each string is encoded by
    json's C encoder, and only a string that is not plain ASCII (``str.isascii`` is a flag
    check) is searched for unsafe characters, which the encoder leaves as they are."""
    if not findings:
        payload = {"version": SCHEMA_VERSION, "files": files, "findings": []}
        yield _json_visible(indented_json.dumps(payload)) + "\n"
        return
    rules = by_code()
    text = _JsonText()
    seen = text.seen  # looked up inline: most values repeat (gates, rules, paths, wordings)
    names = {code: text(rule.name) for code, rule in rules.items()}
    severity = {s: text(s.value) for s in Severity}
    yield f'{{\n  "version": {SCHEMA_VERSION},\n  "files": {int.__repr__(files)},\n  "findings": [\n'
    for start in range(0, len(findings), _PIECE):
        if start:
            yield ",\n"
        yield ",\n".join(
            [
                f'    {{\n      "gate": {seen.get(f.gate) or text(f.gate)},\n'
                f'      "rule": {seen.get(f.rule) or text(f.rule)},\n'
                f'      "name": {names.get(f.rule) or text(f.rule)},\n'
                f'      "path": {seen.get(f.path) or text(f.path)},\n'
                f'      "line": {int.__repr__(f.line)},\n      "column": {int.__repr__(f.column)},\n'
                f'      "message": {seen.get(f.message) or text(f.message)},\n'
                f'      "suggestion": {"null" if f.suggestion is None else seen.get(f.suggestion) or text(f.suggestion)},\n'
                f'      "severity": {severity[f.severity]}\n    }}'
                for f in findings[start : start + _PIECE]
            ]
        )
    yield "\n  ]\n}\n"


class _JsonText:
    """A string as the report spells it: JSON-encoded, unsafe characters escaped;
    each string encoded once (``seen``), however often it repeats."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def __call__(self, value: str) -> str:
        encoded = encode_basestring(value if is_utf8(value) else shown(value))
        if not value.isascii() or "\x7f" in value:
            encoded = _json_visible(encoded)
        self.seen[value] = encoded
        return encoded


# What a file name, link target or link text can carry that would act on the
# reader's terminal instead of showing: see docsync.untrusted_text.TERMINAL_UNSAFE.
_WIDE_UNSAFE = TERMINAL_UNSAFE.removeprefix("\x00-\x1f")  # all but the C0 controls
_escaped = escaped_character


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


def as_json_lines(findings: Sequence[Finding]) -> str:
    """One JSON object per finding, each with the schema version."""
    rules = by_code()
    return "".join(
        json_safe(json.dumps({"version": SCHEMA_VERSION, **_record(f, rules)}, ensure_ascii=False)) + "\n"
        for f in findings
    )


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


INFORMATION_URI = f"https://pypi.org/project/{DISTRIBUTION}/"
"""The tool's page in a SARIF log: its package's, which names docsync's home (the rule
pages travel in the log itself as each rule's help)."""


def source_url() -> str | None:
    """The repository the installed distribution names in its metadata (a ``Source`` or
    ``Repository`` project URL), or None: no address is guessed."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        entries: list[str] = metadata(DISTRIBUTION).get_all("Project-URL") or []
    except PackageNotFoundError:
        return None
    for entry in entries:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() in ("source", "repository") and url.strip().startswith("https://"):
            return str(url.strip().rstrip("/"))
    return None


def help_uri(rule: Rule, source: str | None) -> str:
    """Where a rule's documentation lives: its section of the gate's page in the
    repository at this version's tag when the metadata names the repository, else the
    package's page (the one true address without it)."""
    if source is None:
        return INFORMATION_URI
    anchor = f"{rule.code}-{rule.name}".lower()
    return f"{source}/blob/v{__version__}/docs/rules/{rule.gate}.md#{anchor}"


def _rule_descriptor(code: str, rule: Rule | None, source: str | None) -> dict[str, Any]:
    """A SARIF rule descriptor; its help is the rule's page (``docsync rules CODE``), whole."""
    if rule is None:
        return {"id": code, "name": code, "shortDescription": {"text": code}}
    page = explain(rule)
    return {
        "id": code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "helpUri": help_uri(rule, source),
        "help": {"text": page, "markdown": page},
    }


def as_sarif(findings: Sequence[Finding]) -> str:
    rules = by_code()
    used = sorted({f.rule for f in findings})
    source = source_url() if used else None
    driver_rules = [_rule_descriptor(code, rules.get(code), source) for code in used]
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
                        "informationUri": INFORMATION_URI,
                        "rules": driver_rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2) + "\n"  # ensure_ascii: every unsafe character is \\u-escaped


def print_text(
    console: Console, files: int, findings: Sequence[Finding], summary_line: bool = True
) -> None:
    """Findings grouped by file, then the summary line. One print per file:
    rich's cost is per call, and an adoption run can report thousands. Without
    colour (a pipe, NO_COLOR) the same text is written directly."""
    if console.color_system is None and not console.record:
        _write_plain(console, files, findings, summary_line)
        return
    from rich.markup import escape

    for path, group in groupby(findings, key=lambda f: f.path):
        lines = [f"[bold]{escape(visible(path))}[/bold]"]
        lines.extend(
            f"  {f.line}:{f.column}  [red]{f.rule}[/red]  {escape(visible(f.message))}  [dim]{f.gate}[/dim]"
            for f in group
        )
        console.print("\n".join(lines), soft_wrap=True, highlight=False)
    if summary_line:
        console.print(summary(files, findings), highlight=False)


def _write_plain(
    console: Console, files: int, findings: Sequence[Finding], summary_line: bool = True
) -> None:
    lines: list[str] = []
    for path, group in groupby(findings, key=lambda f: f.path):
        lines.append(visible(path))
        lines.extend(f"  {f.line}:{f.column}  {f.rule}  {visible(f.message)}  {f.gate}" for f in group)
    if summary_line:
        lines.append(summary(files, findings))
    if not lines:
        return
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


def _shown(path: str, prefix: str) -> str:
    """A repository path as seen from the current directory (``prefix``: its relative way to the root)."""
    if not prefix:
        return path
    return posixpath.normpath(posixpath.join(prefix, path))


def as_concise(findings: Sequence[Finding], prefix: str = "") -> str:
    """``path:line:col: CODE message``, one line per finding (paths from the current directory)."""
    return "".join(
        visible(f"{_shown(f.path, prefix)}:{f.line}:{f.column}: {f.rule} {f.message}")
        + "\n"
        for f in findings
    )


def statistics(findings: Sequence[Finding]) -> str:
    """Count, code and name of every rule with findings, most frequent first."""
    rules = by_code()
    counts = Counter(f.rule for f in findings)
    width = len(str(max(counts.values(), default=0)))
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return "".join(
        f"{count:>{width}}  {code}  {rules[code].name if code in rules else code}\n"
        for code, count in rows
    )


def as_gitlab(findings: Sequence[Finding]) -> str:
    """GitLab Code Quality: a JSON array of issues with stable fingerprints."""
    issues = [
        {
            "description": f"{f.rule} {f.message}",
            "check_name": f.rule,
            "fingerprint": hashlib.sha256(
                "\0".join((f.rule, f.path, str(f.line), str(f.column), f.message)).encode()
            ).hexdigest(),
            "severity": "major" if f.severity.value == "error" else "minor",
            "location": {"path": f.path, "lines": {"begin": f.line}},
        }
        for f in findings
    ]
    return json_safe(json.dumps(issues, indent=2, ensure_ascii=False)) + "\n"
