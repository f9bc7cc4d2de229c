"""``--format junit``: one test case per finding, counts that agree with the elements,
validated against a JUnit XML schema (``tests/data/junit-subset.xsd``, written for these
tests from the format's published descriptions; see its header)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
import xmlschema
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from docsync.cli import app
from docsync.model import Finding, Severity
from docsync.report.formats import as_junit
from tests.gitutil import GitRepo, isolate_git_environ

SCHEMA = xmlschema.XMLSchema(Path(__file__).parent / "data" / "junit-subset.xsd")
runner = CliRunner()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GitRepo]:
    isolate_git_environ(monkeypatch)
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("docs/guide.md", "# Guide\n\n## Install\n\nSee [a](gone.md) and [b](#nope).\n")
    repo.write(
        "README.md",
        "# Project\n\nRead [the guide](docs/guide.md#setup) and [nothing](docs/nope.md).\n\n"
        "A paragraph\nwrapped by hand.\n",
    )
    repo.write("docs/clean.md", "# Clean\n")
    repo.commit()
    monkeypatch.chdir(repo.root)
    yield repo


def _consistent(report: str) -> ET.Element:
    """Valid against the schema, and every count is the count of the elements it counts."""
    SCHEMA.validate(report)
    root = ET.fromstring(report)
    suites = root.findall("testsuite")
    cases = [case for suite in suites for case in suite.findall("testcase")]
    failing = [case for case in cases if case.find("failure") is not None]
    assert int(root.get("tests", "-1")) == len(cases)
    assert int(root.get("failures", "-1")) == len(failing)
    for suite in suites:
        assert int(suite.get("tests", "-1")) == len(suite.findall("testcase"))
        assert int(suite.get("failures", "-1")) == sum(
            case.find("failure") is not None for case in suite.findall("testcase")
        )
    return root


def test_one_test_case_per_finding(repo: GitRepo) -> None:
    report = runner.invoke(app, ["check", "--format", "junit"])
    assert report.exit_code == 1 and report.stderr == ""
    findings = json.loads(runner.invoke(app, ["check", "--format", "json"]).stdout)["findings"]
    assert len({f["path"] for f in findings}) < len(findings)  # one file has several
    root = _consistent(report.stdout)
    cases = root.findall("testsuite/testcase")
    assert len(cases) == len(findings) == int(root.get("failures", "0"))
    assert [(c.get("classname"), c.find("failure").get("type")) for c in cases] == [  # type: ignore[union-attr]
        (f["path"], f["rule"]) for f in findings
    ]
    for case, f in zip(cases, findings, strict=True):
        assert case.get("name") == f"{f['rule']} {f['path']}:{f['line']}:{f['column']}"
        assert f["message"] in case.find("failure").text  # type: ignore[union-attr,operator]
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert properties == {"files": "3"}


def test_a_clean_run_is_one_passing_case(repo: GitRepo) -> None:
    report = runner.invoke(app, ["check", "--format", "junit", "docs/clean.md"])
    assert report.exit_code == 0
    root = _consistent(report.stdout)
    (case,) = root.findall("testsuite/testcase")
    assert case.find("failure") is None
    assert (root.get("tests"), root.get("failures")) == ("1", "0")


# Paths, messages and suggestions as a repository can make them: XML's specials, quotes,
# control characters XML cannot hold, astral characters, bidirectional overrides.
_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.builds(
            Finding,
            gate=st.sampled_from(["links", "wrap"]),
            rule=st.sampled_from(["L001", "W001", "X999"]),
            path=_TEXT,
            line=st.integers(1, 10**6),
            column=st.integers(1, 10**4),
            message=_TEXT,
            suggestion=st.none() | _TEXT,
            severity=st.sampled_from(list(Severity)),
        ),
        max_size=8,
    ),
    st.integers(0, 10**5),
)
def test_any_findings_make_a_valid_consistent_report(findings: list[Finding], files: int) -> None:
    root = _consistent(as_junit(files, findings))
    assert len(root.findall("testsuite/testcase")) == max(len(findings), 1)
    assert int(root.get("failures", "-1")) == len(findings)
