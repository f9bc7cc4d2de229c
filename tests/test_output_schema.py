"""The JSON and JSON-lines output against the schemas in docs/schema/, for every
kind of finding docsync emits (each gate, file rules, unused suppressions)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from typer.testing import CliRunner

from docsync.cli import app
from tests.gitutil import GitRepo

SCHEMAS = Path(__file__).resolve().parents[1] / "docs" / "schema"
runner = CliRunner()


def _validator(name: str) -> Draft202012Validator:
    schemas = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in SCHEMAS.glob("*.json")}
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
    registry: Registry[Any] = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schemas.values()
    )
    return Draft202012Validator(schemas[name], registry=registry)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("README.md", "# P\n\nA hard\nwrap [x](nope.md) [y](#nowhere).\n\n<!-- docsync-disable-next-line W002 -->\nok\n")
    repo.write("docs/rfc/proposed/notes.md", "no heading, no status\n")
    repo.root.joinpath("binary.md").write_bytes(b"\x00\x01")
    repo.commit("init")
    monkeypatch.chdir(repo.root)
    return repo


def _run(*args: str) -> str:
    result = runner.invoke(app, ["check", "--report-unused-suppressions", *args])
    assert result.exit_code == 1, result.output
    return result.stdout


def test_json_output_follows_its_schema(repo: GitRepo) -> None:
    payload = json.loads(_run("--output-format", "json"))
    assert payload["version"] == 1
    gates = {f["gate"] for f in payload["findings"]}
    assert {"files", "links", "wrap", "layout", "suppressions"} <= gates
    assert [e.message for e in _validator("findings.schema.json").iter_errors(payload)] == []


def test_each_json_line_follows_its_schema(repo: GitRepo) -> None:
    lines = _run("--output-format", "json-lines").splitlines()
    assert len(lines) >= 5
    validator = _validator("finding-line.schema.json")
    for line in lines:
        record = json.loads(line)
        assert record["version"] == 1
        assert [e.message for e in validator.iter_errors(record)] == []


@pytest.mark.parametrize(
    ("schema", "record"),
    [
        ("findings.schema.json", {"files": 1, "findings": []}),
        ("findings.schema.json", {"version": 2, "files": 1, "findings": []}),
        (
            "finding-line.schema.json",
            {"gate": "links", "rule": "L001", "name": "x", "path": "a.md", "line": 0, "column": 1,
             "message": "m", "suggestion": None, "severity": "error", "version": 1},
        ),
        (
            "finding-line.schema.json",
            {"gate": "links", "rule": "L001", "name": "x", "path": "a.md", "line": 1, "column": 1,
             "message": "m", "suggestion": None, "severity": "error", "version": 1, "extra": 1},
        ),
    ],
)
def test_the_schemas_reject_what_the_output_never_holds(schema: str, record: dict[str, Any]) -> None:
    assert list(_validator(schema).iter_errors(record))
