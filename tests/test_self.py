"""docsync governs its own docs: `docsync check` passes on this repository."""

from __future__ import annotations

from pathlib import Path

from docsync.check.check import run_check

ROOT = Path(__file__).resolve().parents[1]


def test_docsync_check_passes_on_this_repository() -> None:
    result = run_check(ROOT)
    assert result.files > 5
    assert [f"{f.path}:{f.line}:{f.column}: {f.rule} {f.message}" for f in result.findings] == []


def test_design_records_follow_the_naming_convention() -> None:
    import re

    records = sorted((ROOT / "docs" / "rfc").glob("*/*.md"))
    assert records
    for record in records:
        assert record.parent.name in ("proposed", "implemented", "rejected"), record
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}-[a-z0-9]+(?:-[a-z0-9]+)*\.md", record.name), record


def test_ci_runs_exactly_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci_command = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert f"```sh\n{ci_command}\n```" in readme
    assert "pytest" in ci_command
