"""``site``: links written for a docs site's build are checked as its generator resolves
them, in the pages it builds; GitHub stays the default, and ``init`` detects the generator.

Each generator gets a small repository with its own config file, pages that link the
way its authors write for the built site, and one link that is broken on the site too.
Without ``site`` those links are findings (correct ones, on GitHub); with it only the
broken one is, and a file outside the site's folder is still read as GitHub shows it."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docsync.cli import app
from docsync.site import Site, detect
from tests.gitutil import GitRepo, isolate_git_environ

runner = CliRunner()


@dataclass(frozen=True)
class Case:
    site: str
    files: Mapping[str, str]
    built_links: int  # links only the built site resolves: findings without `site`
    broken: tuple[str, int]  # the link broken on the site too: (file, line)


OUTSIDE = "README.md", "# Project\n\nSee [the intro](/intro.html).\n"

CASES = [
    Case(
        "mdbook",
        {
            "book.toml": '[book]\ntitle = "B"\nsrc = "src"\n',
            "src/SUMMARY.md": "# Summary\n\n- [Intro](README.md)\n- [One](ch01.md)\n",
            "src/README.md": "# Intro\n\nOn to [chapter one](ch01.html#getting-started).\n",
            "src/ch01.md": "# One\n\n## Getting started\n\nBack [home](index.html), "
            "[two](./part/ch02.html), [root](/ch01.html).\n",
            "src/part/ch02.md": "# Two\n\nUp to [one](../ch01.html#getting-started) "
            "and [gone](../ch09.html).\n",
        },
        5,
        ("src/part/ch02.md", 3),
    ),
    Case(
        "mkdocs",
        {
            "mkdocs.yml": "site_name: M\ndocs_dir: site-src  # pages\nnav:\n  - index.md\n",
            "site-src/index.md": "# Home\n\nSee [setup](guide/setup.html#install) and "
            "[the guide](/guide/).\n",
            "site-src/guide/index.md": "# Guide\n\n[Setup](setup.md).\n",
            "site-src/guide/setup.md": "# Setup\n\n## Install\n\nBack [home](/index.html); "
            "[nope](/guide/nope.html).\n",
        },
        3,
        ("site-src/guide/setup.md", 5),
    ),
    Case(
        "docusaurus",
        {
            "website/docusaurus.config.js": "module.exports = { title: 'D' };\n",
            "website/docs/intro.md": "# Intro\n\nRead [the tutorial](/docs/tutorial/basics) "
            "and [api](/docs/api/).\n",
            "website/docs/tutorial/basics.mdx": "# Basics\n",
            "website/docs/api/index.md": "# API\n\nBack to [intro](../intro), "
            "[missing](/docs/missing).\n",
        },
        3,
        ("website/docs/api/index.md", 3),
    ),
    Case(
        "vitepress",
        {
            "docs/.vitepress/config.mts": "export default { title: 'V' }\n",
            "docs/index.md": "# Home\n\n[Start](/guide/getting-started#install), "
            "[config](/reference/config.html).\n",
            "docs/guide/getting-started.md": "# Getting started\n\n## Install\n\n"
            "[Home](/) and [gone](./gone).\n",
            "docs/reference/config.md": "# Config\n",
        },
        2,  # "/" is the repository root on GitHub, which exists
        ("docs/guide/getting-started.md", 5),
    ),
]


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: Case) -> GitRepo:
    isolate_git_environ(monkeypatch)
    repo = GitRepo.init(tmp_path / case.site)
    for path, text in {**case.files, OUTSIDE[0]: OUTSIDE[1]}.items():
        repo.write(path, text)
    repo.commit("pages")
    monkeypatch.chdir(repo.root)
    return repo


def _findings(*config: str) -> list[dict[str, object]]:
    Path(".docsync.toml").write_text("".join(line + "\n" for line in config))
    result = runner.invoke(app, ["check", "--gate", "links", "--format", "json"])
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    findings: list[dict[str, object]] = json.loads(result.stdout)["findings"]
    return findings


@pytest.mark.parametrize("case", CASES, ids=[c.site for c in CASES])
def test_links_for_the_built_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: Case) -> None:
    _repo(tmp_path, monkeypatch, case)
    github = _findings()
    outside = [f for f in github if f["path"] == OUTSIDE[0]]
    assert len(github) - len(outside) == case.built_links + 1, github
    site = _findings(f'site = "{case.site}"')
    located = [(f["path"], f["line"], f["rule"]) for f in site]
    assert located == [(OUTSIDE[0], 3, "L001"), (*case.broken, "L001")]


@pytest.mark.parametrize("case", CASES, ids=[c.site for c in CASES])
def test_init_detects_the_generator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: Case
) -> None:
    _repo(tmp_path, monkeypatch, case)
    result = runner.invoke(app, ["init"])
    assert result.exit_code == 0, result.stdout
    config = tomllib.loads(Path(".docsync.toml").read_text())
    assert config["site"] == case.site
    assert runner.invoke(app, ["check", "--gate", "links", "-q"]).stdout.count("L001") == 2


def test_site_root_and_html_to_md_describe_another_generator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = Case(
        "custom",
        {
            "pages/a.md": "# A\n\n[B](b.html), [root](/a.md), [no](c.html).\n",
            "pages/b.md": "# B\n",
        },
        2,
        ("pages/a.md", 3),
    )
    _repo(tmp_path, monkeypatch, case)
    assert len(_findings()) == 4
    site = _findings('site_root = "pages"', "html_to_md = true")
    assert [(f["path"], f["line"]) for f in site] == [("README.md", 3), ("pages/a.md", 3)]
    assert len(_findings('site_root = "pages"', "html_to_md = false")) == 3


@pytest.mark.parametrize(
    ("raw", "message"),
    [('site = "hugo"', "key 'site' must be"), ('site_root = "../x"', "key 'site_root' must be")],
)
def test_a_wrong_site_is_a_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raw: str, message: str
) -> None:
    _repo(tmp_path, monkeypatch, CASES[0])
    Path(".docsync.toml").write_text(raw + "\n")
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 2
    assert message in result.stderr


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (["book.toml", "docs/mkdocs.yml"], ("mdbook", "book.toml")),
        (["site/docs/.vitepress/config.ts", "x/docusaurus.config.ts"], ("docusaurus", "x/docusaurus.config.ts")),
        (["docs/.vitepress/config.mts"], ("vitepress", "docs/.vitepress/config.mts")),
        (["notbook.toml", "mkdocs.yaml.bak", "README.md"], None),
    ],
)
def test_detect_takes_the_shallowest_config_file(
    files: list[str], expected: tuple[str, str] | None
) -> None:
    assert detect(files) == expected


def test_a_page_outside_the_site_is_read_as_github_shows_it() -> None:
    site = Site("mdbook", ("src",), True, False)
    assert site.covers("src/ch01.md") and not site.covers("README.md")
    assert not site.covers("srcx/a.md")
    assert list(site.candidates("src/a.md", "../../x.html")) == []


def test_a_fragment_on_a_site_link_is_checked_against_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = Case(
        "mdbook",
        {
            "book.toml": "[book]\n",
            "src/a.md": "# A\n\n[ok](b.html#part-two), [wrong](b.html#part-three).\n",
            "src/b.md": "# B\n\n## Part two\n",
        },
        2,
        ("src/a.md", 3),
    )
    _repo(tmp_path, monkeypatch, case)
    site = [(f["path"], f["rule"]) for f in _findings('site = "mdbook"')]
    assert site == [("README.md", "L001"), ("src/a.md", "L006")]


def test_every_book_in_the_repository_is_a_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A repository of several books (an edition per folder, each with its book.toml):
    each book's links are read from its own source folder."""
    case = Case(
        "mdbook",
        {
            "book.toml": "[book]\n",
            "src/a.md": "# A\n\n[b](b.html), [root](/b.html).\n",
            "src/b.md": "# B\n",
            "old/book.toml": '[book]\nsrc = "pages"\n',
            "old/pages/a.md": "# Old A\n\n[b](b.html), [root](/b.html), [gone](c.html).\n",
            "old/pages/b.md": "# Old B\n",
        },
        5,
        ("old/pages/a.md", 3),
    )
    _repo(tmp_path, monkeypatch, case)
    assert len(_findings()) == 6
    site = [(f["path"], f["line"], f["column"]) for f in _findings('site = "mdbook"')]
    assert [(p, line) for p, line, _ in site] == [("README.md", 3), ("old/pages/a.md", 3)]
    assert len(_findings('site = "mdbook"', 'site_root = "src"')) == 4  # one book named
