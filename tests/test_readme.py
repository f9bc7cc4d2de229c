"""The README's comparison table names only options the CLI has."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from docsync.cli import app
from docsync.commandline.output import Color, Format

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _docsync_column() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## docsync next to its peers", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    cells = [re.split(r"(?<!\\)\|", row)[2] for row in rows[1:]]
    assert len(cells) >= 12
    return cells


def _options(*command: str) -> set[str]:
    text = runner.invoke(app, [*command, "--help"], terminal_width=200).stdout
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", text))


def test_every_option_the_table_names_exists() -> None:
    known = _options("check") | _options("fix") | _options()
    named = {o for cell in _docsync_column() for o in re.findall(r"`[^`]*`", cell)}
    options = {m for code in named for m in re.findall(r"(?<![\w<!-])(--?[A-Za-z][\w-]*)", code)}
    assert {"--select", "--exit-zero", "-V", "--stdin-filename"} <= options
    missing = sorted(o for o in options if o not in known)
    assert missing == [], f"options in the README table that docsync lacks: {missing}"


def test_every_format_and_colour_the_table_names_exists() -> None:
    cells = " ".join(_docsync_column())
    formats = set(re.findall(r"`(json|json-lines|sarif|github|gitlab|junit|concise|text)`", cells))
    formats |= set(re.findall(r"--output-format (\w[\w-]*)", cells))
    assert formats and formats <= {f.value for f in Format}
    assert {"auto", "always", "never"} == {c.value for c in Color}


def test_every_config_key_the_table_names_exists() -> None:
    from docsync.config import _KEYS

    assert "per-file-ignores" in _KEYS
    assert {"select", "ignore"} <= set(_KEYS)
