"""``docsync move`` then ``docsync check`` passes on any repository that passed before.

Hypothesis builds small record trees (records in every state, links between
them in every style with and without fragments, links from docs outside the
tree, a code file naming a record by path, hard-wrapped and unwrapped
conventions), checks that the tree passes, moves records around, and checks
again. Each example is a real git repository, so the number is kept small.
"""

from __future__ import annotations

import posixpath
import tempfile
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from docsync.check.check import run_check
from docsync.check.fix import run_fix
from docsync.lifecycle import move as lifecycle_move
from docsync.rewrite.record_links import relative_destination
from tests.gitutil import GitRepo

STATES = ("proposed", "implemented", "rejected")
WORDS = ("cache", "plugin", "api", "storage", "queue", "auth", "search", "export")
FRAGMENTS = ("", "#context", "#decision")
STYLES = ("inline", "reference", "angle", "absolute")



@dataclass(frozen=True)
class Spec:
    slug: str
    state: str
    day: int
    detail: str

    @property
    def path(self) -> str:
        return f"docs/rfc/{self.state}/2026-01-{self.day:02d}-{self.slug}.md"


@dataclass(frozen=True)
class LinkSpec:
    source: int  # a record's index, or -1 / -2 for the two docs outside the tree
    target: int
    fragment: str
    style: str


slugs = st.lists(st.sampled_from(WORDS), min_size=1, max_size=2, unique=True).map("-".join)
records = st.lists(
    st.builds(
        Spec,
        slug=slugs,
        state=st.sampled_from(STATES),
        day=st.integers(1, 28),
        detail=st.sampled_from(("", " (pts 1-2)", ", see notes")),
    ),
    min_size=2,
    max_size=5,
    unique_by=lambda r: r.slug,
)


@st.composite
def trees(draw: st.DrawFn) -> tuple[list[Spec], list[LinkSpec], list[tuple[int, str]], str]:
    specs = draw(records)
    indexes = st.integers(0, len(specs) - 1)
    links = draw(
        st.lists(
            st.builds(
                LinkSpec,
                source=st.integers(-2, len(specs) - 1),
                target=indexes,
                fragment=st.sampled_from(FRAGMENTS),
                style=st.sampled_from(STYLES),
            ),
            max_size=8,
        )
    )
    moves = draw(st.lists(st.tuples(indexes, st.sampled_from(STATES)), min_size=1, max_size=3))
    wrap = draw(st.sampled_from(('"none"', "72")))
    return specs, links, moves, wrap


OUTSIDE = {-1: "README.md", -2: "docs/guide/deep/notes.md"}


def _source_path(specs: list[Spec], index: int) -> str:
    return OUTSIDE[index] if index < 0 else specs[index].path


def _link(source: str, target: str, fragment: str, style: str, number: int) -> tuple[str, str]:
    """The link as written in a paragraph, and a reference definition (or "")."""
    relative = relative_destination(source, target) + fragment
    if style == "reference":
        return f"see [record {number}][r{number}]", f"[r{number}]: {relative}"
    if style == "angle":
        return f"see [record {number}](<{relative}>)", ""
    if style == "absolute":
        return f"see [record {number}](/{target}{fragment})", ""
    return f"see [record {number}]({relative})", ""


def _documents(specs: list[Spec], links: list[LinkSpec]) -> dict[str, str]:
    bodies: dict[str, list[str]] = {p: [] for p in OUTSIDE.values()}
    bodies.update((s.path, []) for s in specs)
    definitions: dict[str, list[str]] = {p: [] for p in bodies}
    for number, link in enumerate(links):
        source = _source_path(specs, link.source)
        text, definition = _link(
            source, specs[link.target].path, link.fragment, link.style, number
        )
        bodies[source].append(f"Here we {text} for more on this topic and its consequences.")
        if definition:
            definitions[source].append(definition)
    files: dict[str, str] = {}
    for spec in specs:
        title = spec.slug.replace("-", " ").capitalize()
        head = f"# {title}\n\nStatus: {spec.state}{spec.detail}\n\n## Context\n\nWhy.\n\n## Decision\n\nWhat.\n"
        files[spec.path] = _with_body(head, bodies[spec.path], definitions[spec.path])
    for index, path in OUTSIDE.items():
        files[path] = _with_body(f"# Outside {-index}\n", bodies[path], definitions[path])
    return files


def _with_body(head: str, paragraphs: list[str], definitions: list[str]) -> str:
    parts = [head.rstrip("\n"), *paragraphs]
    if definitions:
        parts.append("\n".join(definitions))
    return "\n\n".join(parts) + "\n"


def _findings(root: Path) -> list[str]:
    return [f"{f.path}:{f.line} {f.rule} {f.message}" for f in run_check(root).findings]


def _build(root: Path, specs: list[Spec], links: list[LinkSpec], wrap: str) -> GitRepo:
    repo = GitRepo.init(root)
    repo.write(".docsync.toml", f"wrap = {wrap}\n")
    for path, text in _documents(specs, links).items():
        repo.write(path, text)
    repo.write("tools/records.txt", f"The rules live in {specs[0].path}.\n")
    repo.commit("tree")
    run_fix(repo.root)  # the index, and the width convention
    repo.commit("index")
    return repo


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(trees())
def test_move_then_check_passes(
    tree: tuple[list[Spec], list[LinkSpec], list[tuple[int, str]], str],
) -> None:
    specs, links, moves, wrap = tree
    with tempfile.TemporaryDirectory() as folder:
        repo = _build(Path(folder) / "repo", specs, links, wrap)
        assert _findings(repo.root) == [], "the generated tree must pass before the move"
        states = {spec.slug: spec.state for spec in specs}
        for day, (index, state) in enumerate(moves, start=1):
            slug = specs[index].slug
            if states[slug] == state:
                continue
            change = lifecycle_move.move(repo.root, slug, state, "why not", date(2026, 12, day))
            states[slug] = state
            assert posixpath.dirname(change.record) == f"docs/rfc/{state}"
            assert _findings(repo.root) == [], f"after moving {slug} to {state}"


relations = st.lists(
    st.tuples(st.integers(0, 4), st.integers(0, 4), st.sampled_from(("supersedes", "amends"))),
    min_size=1,
    max_size=3,
)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(trees(), relations)
@example(  # a second supersession of a record whose status value the first one wrapped
    (
        [
            Spec("cache", "proposed", 1, ""),
            Spec("plugin", "proposed", 1, " (pts 1-2)"),
            Spec("api", "proposed", 1, ""),
        ],
        [],
        [(0, "proposed")],
        "72",
    ),
    [(1, 0, "supersedes"), (1, 2, "supersedes")],
)
@example(  # reopening a superseded record would leave it superseded outside its state (Y013)
    ([Spec("cache", "proposed", 1, ""), Spec("plugin", "implemented", 2, "")], [], [(1, "proposed")], '"none"'),
    [(1, 0, "supersedes")],
)
def test_relating_then_check_passes_and_a_refusal_changes_nothing(
    tree: tuple[list[Spec], list[LinkSpec], list[tuple[int, str]], str],
    pairs: list[tuple[int, int, str]],
) -> None:
    specs, links, moves, wrap = tree
    with tempfile.TemporaryDirectory() as folder:
        repo = _build(Path(folder) / "repo", specs, links, wrap)
        for day, (old, new, relation) in enumerate(pairs, start=1):
            older, newer = specs[old % len(specs)].slug, specs[new % len(specs)].slug
            state = "superseded" if relation == "supersedes" else _state(repo, older)
            _refused_or_clean(
                repo,
                f"{newer} {relation} {older}",
                (older, state, "", date(2026, 12, day), newer, relation),
            )
        for day, (index, state) in enumerate(moves, start=10):  # then plain moves, related or not
            slug = specs[index].slug
            if _state(repo, slug) != state:
                _refused_or_clean(
                    repo,
                    f"{slug} to {state}",
                    (slug, state, "why", date(2026, 12, day)),
                )


def _refused_or_clean(repo: GitRepo, what: str, args: tuple[Any, ...]) -> None:
    """``docsync move`` with ``args`` either refuses and changes nothing (itself, a loop,
    nothing to add, a superseded record out of its state) or leaves a tree that passes
    ``docsync check``."""
    from docsync.errors import DocsyncError

    before = repo.git("status", "--porcelain")
    try:
        lifecycle_move.move(repo.root, *args)
    except DocsyncError:
        assert repo.git("status", "--porcelain") == before
        return
    assert _findings(repo.root) == [], f"after {what}"
    repo.commit(what)


def _state(repo: GitRepo, slug: str) -> str:
    return next((repo.root / "docs/rfc").glob(f"*/*-{slug}.md")).parent.name
