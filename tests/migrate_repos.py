"""Repositories for the migrate tests, built with real commits (few of them, to stay fast).

:func:`mission_repo` is shaped like the mission's: two legacy trees
(``docs/adr``, ``docs/rfc``), an ADR/RFC pair on one topic, an umbrella RFC
whose parts became ADRs, an RFC with a deferred part to split out, a record
that moved in from another folder, ids in code comments and CI, a link that
climbs to the repository root from a record that moves one folder deeper
(``../../AGENTS.md``, where ``docs/AGENTS.md`` also exists), and a
percent-encoded link. Commit A is dated west of UTC late in the evening and
commit B east of UTC early in the morning, so a date read in UTC is wrong
for both.
"""

from __future__ import annotations

from pathlib import Path

from tests.gitutil import GitRepo

# 2021-01-10 23:30 at UTC-8 is 2021-01-11 in UTC.
WHEN_A = ("2021-01-10 23:30:00", "-0800")
# 2021-06-01 00:30 at UTC+5:30 is 2021-05-31 in UTC.
WHEN_B = ("2021-06-01 00:30:00", "+0530")

FILES_A = {
    "AGENTS.md": "# Agents\n\nHow agents work in this repository.\n",
    "docs/AGENTS.md": "# Docs conventions\n\nOne physical line per paragraph.\n",
    "docs/guides/My File.md": "# My file\n\nA guide with a space in its name.\n",
    "docs/rfc/README.md": (
        "# RFCs\n\nProposals start here. Read [the agents guide](../../AGENTS.md) first.\n\n"
        "| RFC | Title |\n| --- | --- |\n| [001](001-plugin-api.md) | Plugin API |\n"
        "| [005](005-tool-safety.md) | Tool safety |\n| [006](006-doc-sync.md) | Doc sync |\n"
    ),
    "docs/rfc/001-plugin-api.md": (
        "# RFC 001: Plugin API\n\nStatus: proposed\n\n## Motivation\n\n"
        "Plugins load from entry points. The link gate is part of RFC 006.\n"
    ),
    "docs/rfc/005-tool-safety.md": (
        "# RFC 005: Tool safety\n\nStatus: implemented\n\nThis umbrella groups the tool safety work.\n\n"
        "## Part 1: Runtime arg validation\n\nValidate arguments at the model boundary.\n\n"
        "## Part 2: Structured error taxonomy\n\nErrors carry stable codes.\n"
    ),
    "docs/rfc/006-doc-sync.md": (
        "# RFC 006: Doc sync\n\nStatus: implemented (pts 1-2; pt 3 deferred)\n\n"
        "Read [the agents guide](../../AGENTS.md) and [my file](../guides/My%20File.md).\n\n"
        "## Part 1: Link gate\n\nEvery relative link resolves.\n\n"
        "## Part 2: Wrap gate\n\nOne physical line per paragraph.\n\n"
        "## Part 3: API extractor reports\n\nReports for the API extractor, deferred.\n\n"
        "### Format\n\nJSON first.\n"
    ),
    "drafts/wrap-policy.md": (
        "# Wrap policy\n\nStatus: accepted\n\n## Decision\n\nProse is not hard-wrapped, as RFC 006 says.\n"
    ),
    "src/app.py": "# Arguments are validated per ADR 0001; errors follow RFC 005 pt 2.\nprint('app')\n",
}

FILES_B = {
    "docs/adr/README.md": (
        "# Architecture decision records\n\nDecisions are numbered and never renumbered.\n\n"
        "- [ADR 0001](0001-runtime-arg-validation.md)\n- [ADR 0002](0002-structured-error-taxonomy.md)\n"
    ),
    "docs/adr/0001-runtime-arg-validation.md": (
        "# ADR 0001: Runtime arg validation\n\nStatus: accepted\n\n## Decision\n\n"
        "This implements RFC 005 part 1. See [the decision](#decision).\n"
    ),
    "docs/adr/0002-structured-error-taxonomy.md": (
        "# ADR 0002: Structured error taxonomy\n\n- Status: accepted\n\n## Decision\n\n"
        "This implements RFC 005 pt 2, next to ADR 0001.\n"
    ),
    "docs/adr/0003-plugin-api.md": (
        "# ADR 0003: Plugin API\n\n**Status:** Accepted\n\n## Decision\n\n"
        "We adopt the plugin API of (RFC 001). See [the agents guide](../../AGENTS.md).\n"
    ),
    "docs/rfc/007-old-idea.md": (
        "# RFC 007: Old idea\n\n## Status\n\nSuperseded by ADR 0001\n\n## Idea\n\nAn idea, see RFC 2119.\n"
    ),
    "README.md": (
        "# Project\n\nSee [validation](docs/adr/0001-runtime-arg-validation.md#decision), "
        "[the reports](docs/rfc/006-doc-sync.md#part-3-api-extractor-reports), "
        "[the taxonomy](docs/rfc/005-tool-safety.md#part-2-structured-error-taxonomy) and ADR 0003.\n"
    ),
    ".github/workflows/docs.yml": "# Checks the docs, see RFC 006.\nname: docs\n",
}

BINARY = b"\x89PNG\r\n\x1a\n\x00ADR 0001\x00"

EDITS = """
[[topic]]
slug = "api-extractor-reports"
title = "API extractor reports"
status = "proposed"
sources = ["docs/rfc/006-doc-sync.md#part-3-api-extractor-reports"]
ids = ["RFC 006 part 3"]

[[retire]]
source = "docs/rfc/005-tool-safety.md"
ids = { "RFC 005" = "runtime-arg-validation", "RFC 005 part 1" = "runtime-arg-validation", "RFC 005 part 2" = "structured-error-taxonomy" }
dates_to = ["runtime-arg-validation", "structured-error-taxonomy"]
text = "drop"
"""


def write_all(repo: GitRepo, files: dict[str, str]) -> None:
    for path, text in files.items():
        repo.write(path, text)


def mission_repo(root: Path) -> GitRepo:
    """The mission-shaped repository, in two commits (plus a move in the second)."""
    repo = GitRepo.init(root)
    write_all(repo, FILES_A)
    (root / "assets").mkdir()
    (root / "assets" / "logo.png").write_bytes(BINARY)
    repo.commit("A: RFCs", when=WHEN_A[0], tz=WHEN_A[1])
    write_all(repo, FILES_B)
    repo.move("drafts/wrap-policy.md", "docs/adr/0004-wrap-policy.md")
    repo.commit("B: ADRs", when=WHEN_B[0], tz=WHEN_B[1])
    return repo


def edited_plan(text: str) -> str:
    """The written plan with the umbrella's own topic removed, the split and the retire added."""
    paragraphs = text.split("\n\n")
    kept = [
        p
        for p in paragraphs
        if not (p.startswith("[[topic]]") and 'sources = ["docs/rfc/005-tool-safety.md"]' in p)
    ]
    assert len(kept) == len(paragraphs) - 1, "the umbrella's topic was not found in the plan"
    return "\n\n".join(kept) + EDITS
