"""Repositories a new user would run ``docsync init`` on, built with real commits.

* :func:`adr_only_wrapped` — one legacy tree, ``docs/adr``, whose prose is
  hard-wrapped at 80 columns (some lines between 73 and 80 wide, so 72 does
  not fit), statuses in a ``## Status`` section, a README that names a record
  by a bare id inside wrapped prose.
* :func:`two_trees_unwrapped` — ``docs/adr`` and ``docs/rfc`` with one
  physical line per paragraph, an ADR/RFC pair on one topic, ids in code.
* :func:`already_migrated` — a lifecycle tree ``docs/rfc/{implemented,proposed}``
  with a docsync index, and a ``docs/AGENTS.md`` the team wrote by hand.
"""

from __future__ import annotations

import textwrap
from datetime import date
from pathlib import Path

from docsync.records.index import render_index
from docsync.records.model import Record
from tests.gitutil import GitRepo

WHEN_FIRST = "2021-01-10 10:00:00"
WHEN_SECOND = "2021-06-01 10:00:00"

_LONG = (
    "The service stores orders, customers and invoices, and every team that builds on it needs "
    "to know which database holds them, how the schema evolves and who approves a change to it, "
    "so this record writes the decision down together with the reasons that led to it."
)


def _wrapped(text: str, width: int = 80) -> str:
    return textwrap.fill(text, width=width, break_long_words=False, break_on_hyphens=False)


def _adr(number: int, title: str, status: str, body: str, wrap: bool) -> str:
    paragraph = _wrapped(body) if wrap else body
    return (
        f"# {number}. {title}\n\nDate: 2021-01-10\n\n## Status\n\n{status}\n\n"
        f"## Context\n\n{paragraph}\n\n## Decision\n\n{paragraph}\n"
    )


def _write(repo: GitRepo, files: dict[str, str]) -> None:
    for path, text in files.items():
        repo.write(path, text)


def adr_only_wrapped(root: Path) -> GitRepo:
    repo = GitRepo.init(root)
    _write(
        repo,
        {
            "README.md": "# Orders service\n\n"
            + _wrapped(
                "Read the decisions in docs/adr before you change the storage layer; the "
                "most recent one, ADR 0002, explains why events go through Kafka and not "
                "through the database, and [the Postgres record](docs/adr/0001-use-postgres.md) "
                "explains the rest."
            )
            + "\n",
            "docs/adr/README.md": "# Architecture decisions\n\n"
            + _wrapped(
                "Each decision is a numbered file that is never renumbered; a superseded "
                "decision stays, with its status saying what replaced it."
            )
            + "\n\n- [ADR 0001](0001-use-postgres.md)\n- [ADR 0003](0003-use-mysql.md)\n",
            "docs/adr/0001-use-postgres.md": _adr(1, "Use Postgres", "Accepted", _LONG, True),
            "docs/adr/0003-use-mysql.md": _adr(
                3, "Use MySQL", "Superseded by ADR 0001", _LONG, True
            ),
        },
    )
    repo.commit("Decisions", when=WHEN_FIRST)
    repo.write("docs/adr/0002-use-kafka.md", _adr(2, "Use Kafka", "Proposed", _LONG, True))
    repo.commit("Kafka", when=WHEN_SECOND)
    return repo


def two_trees_unwrapped(root: Path) -> GitRepo:
    repo = GitRepo.init(root)
    _write(
        repo,
        {
            "README.md": "# Plugins\n\nSee RFC 001 for the plugin API and ADR 0002 for how "
            "plugins are sandboxed. " + _LONG + "\n",
            "docs/rfc/001-plugin-api.md": "# RFC 001: Plugin API\n\nStatus: proposed\n\n"
            "## Motivation\n\nPlugins load from entry points. " + _LONG + "\n",
            "docs/rfc/002-telemetry.md": "# RFC 002: Telemetry\n\nStatus: draft\n\n"
            "## Idea\n\nOpt-in telemetry. " + _LONG + "\n",
            "src/plugins.py": "# Plugins load as ADR 0001 decided.\nPLUGINS = []\n",
        },
    )
    repo.commit("RFCs", when=WHEN_FIRST)
    _write(
        repo,
        {
            "docs/adr/0001-plugin-api.md": "# ADR 0001: Plugin API\n\n**Status:** Accepted\n\n"
            "## Decision\n\nWe adopt the plugin API of RFC 001. " + _LONG + "\n",
            "docs/adr/0002-sandboxing.md": "# ADR 0002: Sandboxing\n\n- Status: accepted\n\n"
            "## Decision\n\nPlugins run in a subprocess, see ADR 0001. " + _LONG + "\n",
        },
    )
    repo.commit("ADRs", when=WHEN_SECOND)
    return repo


def already_migrated(root: Path) -> GitRepo:
    repo = GitRepo.init(root)
    records = [
        Record(
            "docs/rfc/implemented/2021-01-10-plugin-api.md",
            "Plugin API",
            "implemented",
            date(2021, 1, 10),
            "plugin-api",
        ),
        Record(
            "docs/rfc/proposed/2021-06-01-telemetry.md",
            "Telemetry",
            "proposed",
            date(2021, 6, 1),
            "telemetry",
        ),
    ]
    states = {"proposed": "proposed", "implemented": "implemented", "rejected": "rejected"}
    former = {"RFC 001": records[0].path, "RFC 002": records[1].path}
    _write(
        repo,
        {
            "README.md": "# Plugins\n\nSee [the plugin API](docs/rfc/implemented/"
            "2021-01-10-plugin-api.md). " + _LONG + "\n",
            "docs/AGENTS.md": "# Working on the docs\n\nAsk in #docs before a large change.\n",
            records[0].path: "# Plugin API\n\nStatus: implemented (accepted)\n\n## Decision\n\n"
            + _LONG
            + "\n",
            records[1].path: "# Telemetry\n\nStatus: proposed\n\n## Idea\n\n" + _LONG + "\n",
            "docs/rfc/README.md": render_index("docs/rfc", records, states, former, None),
        },
    )
    repo.commit("Migrated by hand, then indexed", when=WHEN_SECOND)
    return repo
