"""The README is a manual a newcomer reads in a minute, and the comparison
table (docs/comparison.md) names only options the CLI has."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from docsync.cli import app
from docsync.commandline.output import Color, Format

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _docsync_column() -> list[str]:
    page = (ROOT / "docs" / "comparison.md").read_text(encoding="utf-8")
    table = page.split("# docsync next to its peers", 1)[1].split("\n## ", 1)[0]
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
    assert missing == [], f"options in the comparison table that docsync lacks: {missing}"


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


# The test command .ci/run runs, which the README must show word for word.
TEST_COMMAND = (
    "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' "
    "&& ruff check . && mypy && pytest"
)


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_short_with_the_quickstart_on_the_first_screen() -> None:
    lines = _readme().splitlines()
    assert len(lines) < 250
    first_screen = "\n".join(lines[:40])
    assert "## Quickstart" in first_screen
    assert "pip install docsync-records" in first_screen
    for use in ("docsync migrate", "docsync check", "docsync init --hooks", "--staged"):
        assert use in "\n".join(lines[:60]), use


def test_the_readme_shows_the_command_ci_runs() -> None:
    assert TEST_COMMAND in _readme()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1] == TEST_COMMAND
    assert "pip install -e . && docsync check" in _readme()


def test_the_readme_holds_no_measurements() -> None:
    """Figures live in docs/ (speed.md, speed-log.md, realworld.md), never in the README."""
    readme = _readme()
    assert not re.search(r"\d+\.\d+ ?(s|ms|MB|MiB|x)\b", readme), "a measurement in the README"
    for heading in ("## Speed", "## Real repositories", "## Architecture"):
        assert heading not in readme


def _links(text: str) -> list[str]:
    return re.findall(r"\]\(([^)\s]+)\)", text)


def _project_urls() -> dict[str, str]:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    urls: dict[str, str] = project.get("urls", {})
    return urls


def test_every_readme_link_works_on_github_and_on_the_package_index() -> None:
    """Relative links resolve on GitHub and in a checkout. The package index resolves no
    relative link, so once pyproject names the repository (``Source``), every link must be
    absolute under it; until then there is no true address to write (see the design
    record 2026-12-06-readme-links-where-it-is-shown)."""
    links = [link for link in _links(_readme()) if not link.startswith("#")]
    assert links, "the README links to its details"
    source = _project_urls().get("Source")
    for link in links:
        if source is not None:
            assert link.startswith(source.rstrip("/") + "/blob/"), link
            continue
        assert not re.match(r"[a-z]+:", link), f"an absolute link with no repository: {link}"
        assert (ROOT / link.split("#", 1)[0]).exists(), link


def test_the_workflow_and_hook_init_writes_are_shown_where_a_user_reads_them() -> None:
    """The README shows the hook (a user pastes it); the workflow, whole, is on the hook and
    CI page the README links to, and each is what ``init --hooks`` writes."""
    from docsync.adopt.hooks import PACKAGE, hook_entry, workflow

    readme, page = _readme(), (ROOT / "docs" / "hooks-and-ci.md").read_text(encoding="utf-8")
    assert "```yaml\n" + workflow("main") + "```" in page
    assert "(docs/hooks-and-ci.md)" in readme
    hook = "\n".join(line for line in hook_entry(PACKAGE) if not line.lstrip().startswith("#"))
    for shown in (readme, page):
        assert "```yaml\nrepos:\n" + hook + "\n```" in shown
