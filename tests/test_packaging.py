"""The package's metadata: classifiers the package index knows, keywords, only true
project URLs, a changelog with this version, and the reason for every upper bound."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from trove_classifiers import classifiers as KNOWN

from docsync import __version__

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def _project() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads(PYPROJECT)["project"]
    return project


def test_every_classifier_is_one_the_package_index_knows() -> None:
    classifiers = _project()["classifiers"]
    assert classifiers and len(set(classifiers)) == len(classifiers)
    assert sorted(set(classifiers) - KNOWN) == []


def test_the_python_classifiers_agree_with_requires_python() -> None:
    lowest = re.fullmatch(r">=3\.(\d+)", _project()["requires-python"])
    assert lowest is not None
    versions = [
        int(c.rsplit(".", 1)[1])
        for c in _project()["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    ]
    assert versions and min(versions) == int(lowest.group(1))


def test_keywords_name_what_it_is_for() -> None:
    keywords = _project()["keywords"]
    assert {"adr", "rfc", "markdown", "pre-commit"} <= set(keywords)


def test_project_urls_are_only_true_ones() -> None:
    """No made-up address: none is published yet, so any URL must be https and free of
    placeholders (a Source URL is then what README links and SARIF helpUri use)."""
    for label, url in _project().get("urls", {}).items():
        assert url.startswith("https://"), label
        assert not re.search(r"example\.|[<>{}]|OWNER|TODO|your-", url), (label, url)


def test_the_changelog_has_this_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", changelog, re.MULTILINE)
    assert headings[0] == "Unreleased"
    assert __version__ in headings


def test_every_upper_bound_names_its_reason() -> None:
    """A capped dependency has a comment above it naming a design record that exists and
    gives the same cap."""
    lines = PYPROJECT.splitlines()
    capped = [n for n, line in enumerate(lines) if re.match(r'\s*"[\w.-]+[^"]*,<[\d.]+"', line)]
    assert capped, "typer is capped"
    for number in capped:
        cap = re.search(r"<([\d.]+)", lines[number])
        assert cap is not None
        above = "\n".join(lines[max(0, number - 3) : number])
        record = re.search(r"docs/rfc/implemented/[\w.-]+\.md", above)
        assert record is not None, lines[number]
        text = (ROOT / record.group(0)).read_text(encoding="utf-8")
        assert f"<{cap.group(1)}" in text
