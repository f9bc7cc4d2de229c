"""Fast forms of the migration's rewrites give exactly what the plain forms give.

Each shortcut the dry run takes is held to the definition it replaces:
:class:`~docsync.rewrite.code_paths.PathFinder` to the regex of
:func:`~docsync.rewrite.code_paths.path_pattern`, and
:func:`~docsync.rewrite.destinations.encode`'s early return to its
character-by-character loop. And the rewrites done in forked workers
(:mod:`docsync.migrate.forked`) give the change set done here gives.
"""

from __future__ import annotations

import os
from dataclasses import replace
from urllib.parse import quote

from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.config import DEFAULT_STATES
from docsync.migrate.changes import compute
from docsync.migrate.forked import forked_map, workers
from docsync.migrate.plan import infer_spec, resolve
from docsync.migrate.repo_view import RepoView
from docsync.parse.markdown import parse
from docsync.rewrite.code_paths import PathFinder, path_pattern
from docsync.rewrite.destinations import _ALWAYS_ENCODED, _ANGLE_SAFE, encode
from tests import migrate_memory

_PIECES = ["docs", "adr", "0001-a", "a.md", "b.md", ".", "/", "-", "_", "x", "é", "md", " ", ".bak", "1"]
_path = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map("".join)
_text = st.lists(
    st.sampled_from([*_PIECES, "\n", "(", '"', "`", "./", "..", ".md.", "a.md.orig", "#", "ß"]),
    max_size=30,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(st.lists(_path, min_size=1, max_size=6, unique=True), _text, st.data())
def test_path_finder_matches_the_regex(paths: list[str], text: str, data: st.DataObject) -> None:
    # Texts that name the paths, beside one another and with anything around them.
    text = text.join(data.draw(st.lists(st.sampled_from(paths), max_size=4))) or text
    pattern = path_pattern(paths)
    assert pattern is not None
    assert list(PathFinder(paths).spans(text)) == [m.span() for m in pattern.finditer(text)]


def test_path_finder_cases() -> None:
    paths = ["docs/adr/a.md", "docs/adr/a.md.md", "docs/b.md"]
    text = "docs/adr/a.md. docs/adr/a.md.md x/docs/b.md docs/b.md.orig docs/b.md.. (docs/b.md)"
    pattern = path_pattern(paths)
    assert pattern is not None
    spans = list(PathFinder(paths).spans(text))
    assert spans == [m.span() for m in pattern.finditer(text)]
    assert [text[a:b] for a, b in spans] == ["docs/adr/a.md", "docs/adr/a.md.md", "docs/b.md", "docs/b.md"]


def _encoded_by_loop(path: str, *, angle: bool, ascii_only: bool) -> str:
    def needs(char: str) -> bool:
        code = ord(char)
        return (
            (char in _ALWAYS_ENCODED and not (angle and char in _ANGLE_SAFE))
            or code < 0x20
            or code == 0x7F
            or (ascii_only and code > 0x7F)
        )

    return "".join(quote(c, safe="") if needs(c) else c for c in path)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=20), st.booleans(), st.booleans())
def test_encode_is_the_loop(path: str, angle: bool, ascii_only: bool) -> None:
    assert encode(path, angle=angle, ascii_only=ascii_only) == _encoded_by_loop(
        path, angle=angle, ascii_only=ascii_only
    )


# --------------------------------------------------------------------------- rewrites in workers


def test_forked_map_keeps_the_order_and_forks() -> None:
    results = forked_map(lambda index: (index * index, os.getpid()), 200, jobs=2)
    assert [square for square, _ in results] == [i * i for i in range(200)]
    assert os.getpid() not in {pid for _, pid in results}  # every item was done in a worker


def _repository(records: int) -> dict[str, str]:
    """Records naming and linking one another and an unknown id, pages linking them and a
    file that was never there, a page naming none, and a program naming one."""
    names = [f"{n:04d}-topic-{n}" for n in range(1, records + 1)]
    files = {
        f"docs/adr/{name}.md": (
            f"# ADR {n:04d}: Topic {n}\n\nStatus: accepted\n\n## Context\n\n"
            f"See ADR {(n % records) + 1:04d} and [the next](./{names[n % records]}.md#context), "
            f"not ADR 9999.\n"
        )
        for n, name in enumerate(names, 1)
    }
    for page in range(records):
        files[f"guide/page{page}.md"] = (
            f"# Page {page}\n\nRead [this](../docs/adr/{names[page]}.md) and ADR {page + 1:04d}.\n"
            f"A [gone](../docs/adr/missing.md) link.\n"
        )
    files["guide/unchanged.md"] = "# Nothing\n\nNo record is named here.\n"
    files["src/app.py"] = f'# Follows ADR 0001.\nRECORD = "docs/adr/{names[1]}.md"\n'
    return files


def test_rewrites_in_workers_change_nothing() -> None:
    files = _repository(40)
    given = migrate_memory.inputs(files)
    plan = resolve(infer_spec(given), given)
    documents = {p: parse(p, t) for p, t in files.items() if p.endswith(".md")}
    view = RepoView(
        documents=documents,
        tracked=frozenset(files),
        read_text=lambda path, needles: files.get(path),
        states=DEFAULT_STATES,
    )
    assert workers(len(plan.topics) + len(documents), 2) == 2
    here = compute(plan, given.records, replace(view, jobs=1))
    forked = compute(plan, given.records, replace(view, jobs=2))
    assert here.writes and here.stats.already_broken and here.stats.unresolved and here.parsed
    assert forked == here
    assert set(forked.parsed) == set(here.parsed) and forked.parsed == here.parsed
