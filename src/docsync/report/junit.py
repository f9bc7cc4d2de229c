"""JUnit XML: one test case per finding (see docs/command-line.md#junit)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..model import Finding
from ..untrusted_text import TERMINAL_UNSAFE


def as_junit(files: int, findings: Sequence[Finding]) -> str:
    """JUnit XML: one test case per finding, each with its failure, so ``tests`` and
    ``failures`` count the same elements a reader counts. A clean run is one passing case
    (the check itself). The number of files checked is the suite's ``files`` property."""
    from xml.sax.saxutils import escape, quoteattr

    def attr(value: str) -> str:  # what would act on a terminal: a character reference
        return _referenced(quoteattr(_XML_INVALID.sub("\ufffd", value)))

    def text(value: str) -> str:
        return _referenced(escape(_XML_INVALID.sub("\ufffd", value), {"\r": "&#13;"}))

    tests = max(len(findings), 1)
    counts = f'tests="{tests}" failures="{len(findings)}" errors="0" skipped="0"'
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<testsuites name="docsync" {counts}>',
        f'  <testsuite name="docsync" {counts}>',
        "    <properties>",
        f'      <property name="files" value="{files}"/>',
        "    </properties>",
    ]
    for f in findings:
        where = f"{f.path}:{f.line}:{f.column}"
        detail = f"{where}: {f.rule} {f.message}"
        if f.suggestion:
            detail += f"\n{f.suggestion}"
        lines += [
            f"    <testcase name={attr(f'{f.rule} {where}')} classname={attr(f.path)}>",
            f"      <failure type={attr(f.rule)} message={attr(f'{f.rule} {f.message}')}>"
            f"{text(detail)}</failure>",
            "    </testcase>",
        ]
    if not findings:
        noun = "file" if files == 1 else "files"
        name = f"docsync check: {files} Markdown {noun}, no findings"
        lines.append(f'    <testcase name={attr(name)} classname="docsync"/>')
    lines += ["  </testsuite>", "</testsuites>"]
    return "\n".join(lines) + "\n"


# Characters XML 1.0 cannot hold at all, even escaped.
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
# What XML holds but would act on a terminal (DEL, C1 controls, bidi marks, line separators).
_WIDE_UNSAFE = re.compile(f"[{TERMINAL_UNSAFE.removeprefix(chr(0) + '-' + chr(0x1f))}]")


def _referenced(xml: str) -> str:
    return _WIDE_UNSAFE.sub(lambda m: f"&#x{ord(m.group(0)):x};", xml)
