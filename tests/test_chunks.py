"""A very large document parsed in parts makes exactly the document one parse makes.

:mod:`docsync.parse.chunks` parses a document in parts that start at lines
it may start on, and says whether each part ended clean. Wherever every part
ended clean, the parts' tokens, their line maps moved, are markdown-it's
tokens of the whole text, and the joined document is the one parse's: on
every case file, at every line a part may start on; on generated documents
that put every block construct before a possible start; and on a hypothesis
strategy. A part that did not end clean is noticed (fences, lists, HTML
blocks, math, containers that run past a blank line; definitions and
footnotes). Through the parse workers, the links gate's findings are the
same, and a document read from the cache is the one parse's.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from docsync.config import Config
from docsync.config import load as load_config
from docsync.gates.links import check as links
from docsync.parse import chunks, markdown
from docsync.workspace import cache as parse_cache
from docsync.workspace import document_json, parsing
from docsync.workspace.documents import Documents
from docsync.workspace.load import load_workspace
from tests.gitutil import git
from tests.test_fast_paths import CASES, INLINE, LINE_STARTS
from tests.test_links_conformance import build_cases_repo


def _flat(tokens: list[Any]) -> list[tuple[object, ...]]:
    """Every token and inline child, everything markdown-it sets on it."""
    out: list[tuple[object, ...]] = []
    for token in tokens:
        out.append(
            (token.type, token.tag, token.nesting, token.level, token.content, token.markup,
             token.info, token.map, token.block, token.hidden, sorted(token.attrs.items()),
             sorted((token.meta or {}).items(), key=repr))
        )
        out.extend(_flat(token.children or []))
    return out


def _in_parts(text: str, offsets: list[int]) -> bool:
    """Parse ``text`` in the parts that start at ``offsets``; when every part
    ended clean, assert tokens and document are one parse's. Whether they did."""
    found = chunks.parts_at(text, offsets)
    results = [chunks.tokens_of_part(text, part) for part in found]
    if not all(clean for _, clean in results):
        return False
    whole, _ = markdown.tokenize(text)
    assert _flat([t for tokens, _ in results for t in tokens]) == _flat(whole)
    documents = [chunks.parse_part("doc.md", text, "\n", False, part)[0] for part in found]
    assert chunks.merge(documents) == markdown.parse("doc.md", text)
    return True


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_case_files_parse_the_same_in_parts(case: Path) -> None:
    """At every line of every case file a part may start on, alone and all at once."""
    text, _, _ = markdown.decode(case.read_bytes())
    starts = list(chunks.possible_starts(text))
    for at in starts:
        _in_parts(text, [at])
    if len(starts) > 1:
        _in_parts(text, starts)


def test_most_case_files_split_somewhere() -> None:
    """The case-file proof is not vacuous: many case files have clean splits
    (most of the others are a line or two, with nowhere to start a part)."""
    clean = [case for case in CASES if any(
        _in_parts(text, [at])
        for text in [markdown.decode(case.read_bytes())[0]]
        for at in chunks.possible_starts(text)
    )]
    assert len(clean) >= 60, (len(clean), len(CASES))


# Each block written before a blank line and a line a part may start on;
# where a block can run past the blank line, the part does not end clean.
BEFORE_A_START = {
    "a paragraph\nover two lines": True,
    "# heading": True,
    "> quote\n> more": True,
    "    indented code": True,
    "```\nfenced\n```": True,
    "```\nunclosed fence": False,
    "~~~\nfence\n\nwith a blank line\n~~~": True,
    "- item\n- item": False,  # a list takes the blank line
    "1. item": False,
    "<div>\nhtml\n</div>": True,
    "<!-- comment\n\nstill comment -->": True,
    "<!-- unclosed comment": False,
    "<pre>\nunclosed": False,
    "$$\nx^2\n$$": True,
    "$$\nunclosed math": True,  # GitHub's math ends at a blank line (allow_blank_lines=False)
    "::: tip\ninside\n:::": True,
    "::: tip\nunclosed container": False,
    "!!! note\n    body": False,  # the admonition takes the blank line
    "| a | b |\n|---|---|\n| c | d |": True,
    "[ref]: target.md": False,  # a definition: state for every part
    "[^1]: a footnote": False,
    "text ^[inline note]": False,
    "---\nfront: matter\n---": True,
    "***": True,
    "{{< shortcode >}}": True,
    "[[_TOC_]]": True,
}
AFTER = ["[x](a.md) and [y][ref]", "# Next", "> quote", "text", "<div>x</div>", "|a|\n|-|", ":::", "[^1] ref", "[ref]"]


@pytest.mark.parametrize("block", sorted(BEFORE_A_START))
def test_each_block_before_a_start(block: str) -> None:
    for after in AFTER:
        text = f"{block}\n\n{after}\n\nmore text [z](b.md)\n"
        at = text.index(f"\n\n{after}") + 2
        assert at in chunks.possible_starts(text)
        assert _in_parts(text, [at]) is BEFORE_A_START[block], (block, after)


def test_a_part_never_starts_where_a_construct_goes_on() -> None:
    for text in ["- a\n\n- b\n", "1. a\n\n2. b\n", "- a\n\n  more\n", "x\n\n---\n", "x\n\n    code\n", "x\n\n\n"]:
        assert list(chunks.possible_starts(text)) == [], text


blocks = st.lists(
    st.tuples(st.sampled_from(LINE_STARTS), st.lists(st.sampled_from(INLINE), max_size=4)).map(
        lambda line: line[0] + "".join(line[1])
    ),
    min_size=1,
    max_size=4,
).map("\n".join)
documents = st.lists(st.tuples(blocks, st.sampled_from(["\n", "\n\n", "\n\n\n"])), min_size=2, max_size=10).map(
    lambda pieces: "".join(block + gap for block, gap in pieces)
)


@settings(max_examples=300, deadline=None)
@given(documents)
@example("```\n\n[a](b.md)\n")
@example("<!--\n\n[a](b.md)\n-->\n")
@example("---\n\ntext\n---\n")  # front matter: no part starts inside it
def test_generated_documents_parse_the_same_in_parts(text: str) -> None:
    starts = list(chunks.possible_starts(text))
    for at in starts:
        _in_parts(text, [at])
    if len(starts) > 1:
        _in_parts(text, starts)


def test_split_picks_starts_near_equal_shares(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chunks, "SPLIT_FROM", 1000)
    monkeypatch.setattr(chunks, "MIN_PART", 100)
    text = "".join(f"[x](missing-{n}.md)\n\n" for n in range(400))
    found = chunks.split(text, 3)
    assert len(found) == 3
    assert [part.start for part in found[1:]] == [
        next(chunks.possible_starts(text, len(text) * k // 3)) for k in (1, 2)
    ]
    assert found[-1].end is None and found[-1].stop == len(text)
    assert _in_parts(text, [part.start for part in found[1:]])
    assert chunks.split(text[:900], 3) == []  # too short to be worth it
    assert chunks.split("x\n" * 2000, 2) == []  # nowhere to start a part


def test_the_cache_entry_of_parts_is_the_document() -> None:
    text = "# A\n\n[x](a.md)\n\n# A\n\n[y](b.md#a-1)\n\n# A\n"
    found = chunks.parts_at(text, list(chunks.possible_starts(text)))
    documents = [chunks.parse_part("doc.md", text, "\n", False, part)[0] for part in found]
    blobs = [document_json.encode_document(doc if k == 0 else replace(doc, text="", line_starts=())) for k, doc in enumerate(documents)]
    whole = markdown.parse("doc.md", text)
    assert [h.slug for h in whole.headings] == ["a", "a-1", "a-2"]  # slugs made unique across parts
    assert parse_cache.loads(document_json.encode_parts(blobs)) == whole
    assert parse_cache.loads(document_json.encode_parts([blobs[0], b"junk"])) is None
    assert parse_cache.loads(document_json.encode_parts([blobs[0], blobs[0]])) is None  # a second text


@pytest.fixture
def split_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two parse workers, and every file that has a line to start a part on parsed in parts."""
    monkeypatch.setattr(parsing, "_workers", lambda config, pending: 2)
    monkeypatch.setattr(chunks, "SPLIT_FROM", 1)
    monkeypatch.setattr(chunks, "MIN_PART", 1)


def _whole_findings(root: Path, config: Config) -> list[object]:
    workspace = load_workspace(root, config=config)
    index = links.RepoIndex.build(workspace)
    return [f for path in workspace.selected for f in links.check(workspace.documents[path], index)]


@pytest.mark.parametrize("strict", [False, True])
def test_links_findings_are_the_same_in_parts(tmp_path: Path, split_everything: None, strict: bool) -> None:
    repo = build_cases_repo(tmp_path / "cases")
    (repo / "many.md").write_text(
        "# Many\n\n" + "".join(f"[x](missing-{n}.md) [self](#many) [gone](#nope-{n})\n\n# Many\n\n" for n in range(30)),
        encoding="utf-8",
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "many")
    config = replace(load_config(repo), cache=False, strict_fragments=strict)
    expected = _whole_findings(repo, config)
    workspace = load_workspace(repo, config=config, summarizers={links.GATE: links.Summarizer})
    documents = workspace.documents
    assert isinstance(documents, Documents)
    assert "many.md" in documents.made(links.GATE)
    assert links.check_workspace(workspace) == expected
    for path in workspace.selected:  # and each document, read, is the one parse's
        data = (repo / path).read_bytes()
        assert documents[path] == markdown.parse_bytes(path, data), path


def test_a_part_that_is_not_clean_is_parsed_whole(
    tmp_path: Path, split_everything: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    # The one line a part could start on is inside the fence.
    text = "```\n" + "code\n" * 20 + "\n[a](gone.md)\ncode\n```\ntext [b](also-gone.md)\n"
    assert len(chunks.split(text, 2)) == 2
    (repo / "fence.md").write_text(text, encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "x")
    here: list[str] = []
    parse_one = parsing.parse_one
    monkeypatch.setattr(parsing, "parse_one", lambda path, data: here.append(path) or parse_one(path, data))
    workspace = load_workspace(repo, config=Config(cache=True), summarizers={links.GATE: links.Summarizer})
    assert here == ["fence.md"]  # parsed whole, in this process
    assert workspace.documents["fence.md"] == markdown.parse("fence.md", text)
    assert [f.rule for f in links.check_workspace(workspace)] == ["L001"]
