"""Failures the 20-repository corpus of scripts/realworld.py found outside issue #37's listed
classes, each on a small real repository built here."""

from __future__ import annotations

import itertools
import re

from typer.testing import CliRunner

from docsync.cli import app
from docsync.migrate.run import Options, run
from tests.gitutil import GitRepo

runner = CliRunner()

# Spaces a record written in a word processor or a wiki carries where a plain space was
# meant (tensorflow/community's SavedModel RFC: ``| Status\u00a0\u00a0| Accepted\u00a0|``).
UNICODE_SPACES = ("\u00a0", "\u2007", "\u202f", "\u2009", "\u3000")

# Each status form, with {s} where a space goes: before and after the label and the value.
FORMS = {
    "line": "Status:{s}Accepted{s}\n",
    "bold": "**Status:**{s}Accepted{s}\n",
    "list": "* Status:{s}Accepted{s}\n",
    "table-header": "| Status{s}{s} | Accepted{s}{s} |\n:--- |:--- |\n| **Author** | x |\n",
    "table-body": "| Author | x |\n| --- | --- |\n|{s}Status{s}|{s}Accepted{s}|\n",
}


def test_a_status_padded_with_unicode_spaces_is_read_in_every_form(
    migration_repo: GitRepo,
) -> None:
    cases = list(itertools.product(FORMS.items(), enumerate(UNICODE_SPACES)))
    for number, ((form, text), (index, space)) in enumerate(cases, start=1):
        body = text.format(s=space)
        migration_repo.write(
            f"rfcs/{number:04d}-{form}-{index}.md",
            f"# {form} {index}\n\n{body}\n## Objective\n\nText {number}.\n",
        )
    migration_repo.commit("records", when="2020-09-24 10:00:00")
    _, outcome = run(migration_repo.root, Options())
    plan = outcome.plan
    assert [str(p) for p in plan.problems] == []
    assert len(plan.topics) == len(cases)
    assert {t.state for t in plan.topics} == {"implemented"}
    assert {t.detail for t in plan.topics} == {"Accepted"}  # no space kept around the word


# An HTML link attribute in every form HTML allows (tensorflow/community's pluggable device
# RFC: ``<img src=20200624-pluggable-device-for-tensorflow/design_overview.png>``).
QUOTES = {"double": '"{}"', "single": "'{}'", "bare": "{}"}
TAGS = {
    "img": "<img src={}>",
    "a": "<a href={}>the asset</a>",
    "IMG": "<IMG SRC={}>",
    # no space after the value (tensorflow/community's TFX RFCs), which a browser accepts
    "comma": '<div style="text-align:center"><img src={}, width=800></div>',
}


def test_html_link_attributes_in_every_quoting_are_rewritten(migration_repo: GitRepo) -> None:
    cases = [
        case for case in itertools.product(QUOTES.items(), TAGS.items())
        if case != (("bare", "{}"), ("comma", TAGS["comma"]))  # the comma would be the path's
    ]  # fmt: skip
    migration_repo.write("doc/adr/assets/pic.png", "png\n")
    for number, ((quoting, quote), (tag, html)) in enumerate(cases, start=1):
        element = html.format(quote.format("assets/pic.png"))
        migration_repo.write(
            f"doc/adr/{number:04d}-{quoting}-{tag.lower()}{number}.md",
            f"# {quoting} {tag} {number}\n\nStatus: Accepted\n\n<div>\n{element}\n</div>\n\n"
            f"Text {number}.\n",
        )
    migration_repo.commit("records", when="2020-09-24 10:00:00")
    _, outcome = run(migration_repo.root, Options())
    assert [str(p) for p in outcome.plan.problems] == []
    applied = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert applied.exit_code == 0, applied.output
    for topic in outcome.plan.topics:
        new = migration_repo.root / topic.path
        text = new.read_text()
        destinations = re.findall(r"""(?i)(?:src|href)=["']?([^"'\s>]+)""", text)
        assert len(destinations) == 1, text
        assert (new.parent / destinations[0]).resolve() == (
            migration_repo.root / "doc/adr/assets/pic.png"
        ).resolve(), text
