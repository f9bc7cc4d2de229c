"""Properties of the rewriter on generated Markdown: never raises, twice equals once,
and the rendered document is the same apart from the links it means to change.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from docsync.parse import markdown
from docsync.parse.native import parse
from docsync.parse.render import github_structure
from docsync.parse.scanned import srcset_urls
from docsync.records.model import IdTarget
from docsync.rewrite.ids import IdKey, id_pattern
from docsync.rewrite.references import rewrite_document

OLD = "docs/rfc/005-umbrella.md"
NEW = "docs/rfc/implemented/2026-01-05-umbrella.md"
MOVES = {
    OLD: NEW,
    "docs/adr/0007-use-postgres.md": "docs/rfc/implemented/2026-01-02-use-postgres.md",
    "docs/rfc/001-plugin-api.md": "docs/rfc/proposed/2026-01-01-plugin-api.md",
}
FRAGMENTS = {OLD: {"old": "new"}, "docs/rfc/001-plugin-api.md": {"motivation": "why"}}
IDS: dict[IdKey, IdTarget] = {
    ("ADR", 7, None): IdTarget("docs/rfc/implemented/2026-01-02-use-postgres.md", "Use Postgres"),
    ("RFC", 1, None): IdTarget("docs/rfc/proposed/2026-01-01-plugin-api.md", "Plugin `API` [v1]"),
    ("RFC", 5, 2): IdTarget("docs/rfc/implemented/2026-01-03-errors.md", "Errors | taxonomy"),
    ("RFC", 5, None): IdTarget("docs/rfc/implemented/2026-01-02-use-postgres.md", "Use Postgres"),
}

WORDS = [
    "alpha",
    "beta,",
    "ADR 7",
    "ADR-0007",
    "ADR7",
    "(RFC 001)",
    "RFC 5 part 2",
    "RFC 5 pt 3",
    "RFC 2119",
    "ISO 9001",
    "`ADR 7`",
    "*ADR 7*",
    "**RFC 1**",
    "[ADR 7](../adr/0007-use-postgres.md)",
    "[see ADR 7](../adr/0007-use-postgres.md)",
    "[ADR 0007 quality gates](../adr/0007-use-postgres.md)",
    "[RFC 1](https://github.com/org/rfcs/pull/1)",
    "[RFC-001: plugins][p]",
    "[c](001-PLUGIN-api.md#Motivation)",
    "[d](../ADR/0007-use-postgres.md)",
    "[ADR 7 why](../adr/0007-Use-Postgres.md)",
    "[rules](../AGENTS.md)",
    "[me](#old)",
    "[f](My%20File.md#Old)",
    "[p](001-plugin-api.md#motivation)",
    "[q](</a b.md>)",
    "<https://x.org/ADR7>",
    "<span>ADR 7</span>",
    "<code>RFC 1</code>",
    "![ADR 7](img/a.png)",
    "[RFC 1]",
    "[RFC 1][]",
    "docs/ADR-7.md",
    "[x](https://example.com/a.md)",
    "&amp;",
    "\\*",
    "<!-- ADR 7 -->",
    "ADR 7.",
    "x_ADR",
    "[^n]",
    "'RFC 12'",
    '<img src="img/a.png" srcset="img/a.png 1x, ../adr/0007-use-postgres.md 2x,img/b c.png">',
    '<source srcset="001-plugin-api.md#motivation 480w, https://x.org/a.png 2x">',
    '<img srcset="  , img/a.png,, (x, y) 1x">',
]
CELL_WORDS = [w for w in WORDS if "|" not in w]

words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)
cells = st.lists(st.sampled_from(CELL_WORDS), min_size=1, max_size=3).map(" ".join)


def _table(row: list[str]) -> str:
    return f"| {row[0]} | {row[1]} |\n| --- | --- |\n| {row[2]} | {row[3]} |"


blocks = st.one_of(
    st.lists(words, min_size=1, max_size=3).map("\n".join),
    words.map(lambda w: f"## {w}"),
    words.map(lambda w: f"```\n{w}\n```"),
    words.map(lambda w: f"    {w}"),
    st.lists(words, min_size=1, max_size=3).map(lambda ws: "\n".join(f"- {w}" for w in ws)),
    words.map(lambda w: f"> {w}\n> {w}"),
    st.lists(cells, min_size=4, max_size=4).map(_table),
    words.map(lambda w: f"<div>\n{w}\n</div>"),
    words.map(lambda w: f'<picture>\n<source srcset="img/d.png 1x, 005-umbrella.md#old 2x">\n{w}\n</picture>'),
    st.just("[RFC 1]: 001-plugin-api.md"),
    st.just("[p]: 001-plugin-api.md#motivation"),
    st.just("[^n]: footnote RFC 1"),
    # structure GitHub and docs sites read that markdown-it alone does not
    words.map(lambda w: f"> [!NOTE]\n> {w}"),
    words.map(lambda w: f"::: tip\n{w}\n:::"),
    words.map(lambda w: f'!!! note "t"\n    {w}'),
    words.map(lambda w: f"$$\n{w}\n$$"),
    words.map(lambda w: f"$x {w}$ and {w}"),
    words.map(lambda w: f"{{{{< note >}}}}\n{w}\n{{{{< /note >}}}}"),
)
documents = st.tuples(st.booleans(), st.lists(blocks, min_size=1, max_size=6)).map(
    lambda t: ("---\nrefs: ADR 7\n---\n\n" if t[0] else "") + "\n\n".join(t[1]) + "\n"
)

EXISTS = lambda path: True  # noqa: E731  (existence only feeds the dangling report)
# What exists after the moves when existence is real: a link in another letter case than a
# moved record's name (issue 37, class 12) is then read as that record's.
AFTER_MOVES = frozenset({*MOVES.values(), "AGENTS.md", "docs/AGENTS.md", "docs/rfc/img/a.png"})


def _rewrite(
    text: str,
    old: str,
    new: str,
    moves: dict[str, str],
    fragments: dict[str, dict[str, str]],
    exists: Callable[[str], bool] = EXISTS,
) -> str:
    out, _ = rewrite_document(
        parse(old, text),
        old_path=old,
        new_path=new,
        moves=moves,
        fragments=fragments,
        ids=IDS,
        exists=exists,
    )
    return out


PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(documents)
def test_never_raises_and_twice_equals_once(text: str) -> None:
    once = _rewrite(text, OLD, NEW, MOVES, FRAGMENTS)
    again = _rewrite(once, NEW, NEW, {}, {})
    assert again == once


@PROPERTY
@given(documents)
def test_with_real_existence_twice_equals_once_and_renders_the_same(text: str) -> None:
    once = _rewrite(text, OLD, NEW, MOVES, FRAGMENTS, AFTER_MOVES.__contains__)
    assert _rewrite(once, NEW, NEW, {}, {}, AFTER_MOVES.__contains__) == once
    assert github_structure(once) == github_structure(text)


@PROPERTY
@given(st.text(alphabet="ADR 7RFC1-[]()<>`*_#|\\!:/.%\n\t>xa", max_size=80))
def test_never_raises_on_arbitrary_text(text: str) -> None:
    _rewrite(text, OLD, NEW, MOVES, FRAGMENTS)


# -------------------------------------------------------------------------- rendering


# GitHub's dialect as the model reads it (math, alerts, containers: where no
# id is linked, since formulas and docs-site lines are not prose)
_MD: MarkdownIt = markdown._dialect()
_IDS = id_pattern(frozenset(k[0] for k in IDS))
_LINK = "\x00link\x00"
_WS = re.compile(r"\s+")
_LINK_ATTRS = re.compile(r'(href|src|srcset)="[^"]*"')
_OPAQUE = re.compile(r"</?(?:a|code|kbd|samp|pre|tt|var)\b", re.I)


def _known(match: re.Match[str]) -> bool:
    part = match.group("part")
    key = (match.group("kind"), int(match.group("number")))
    return (*key, int(part) if part else None) in IDS or (*key, None) in IDS


def _ids_as_links(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        if not _known(match):
            return match.group(0)
        part = match.group("part")
        if part and (match.group("kind"), int(match.group("number")), int(part)) not in IDS:
            return _LINK + match.group(0)[match.end("number") - match.start() :]
        return _LINK

    return _IDS.sub(one, text)


def _inline(children: Sequence[Token], *, with_ids: bool) -> str:
    """Inline content with every link (and image) reduced to one marker, ids too before the rewrite."""
    out: list[str] = []
    depth = 0
    opaque = 0
    for child in children:
        if child.type == "html_inline" and _OPAQUE.match(child.content):
            opaque += -1 if child.content.startswith("</") else 1
        if child.type == "link_open":
            depth += 1
            if depth == 1:
                out.append(_LINK)
        elif child.type == "link_close":
            depth -= 1
        elif depth:
            continue
        elif child.type == "image":
            out.append(_LINK)
        elif child.type == "text":
            out.append(_ids_as_links(child.content) if with_ids and not opaque else child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif child.type == "html_inline":
            out.append(f"<html_inline:{_LINK_ATTRS.sub('', child.content)}>")
        else:
            out.append(f"<{child.type}:{child.content}>")
    return _WS.sub(" ", "".join(out)).strip()


def _rendered(text: str, *, before: bool) -> list[tuple[str, ...]]:
    shape: list[tuple[str, ...]] = []
    admonitions: list[int] = []  # the opening lines of the admonitions a token is in
    for token in _MD.parse(text):
        if token.type == "admonition_open":
            admonitions.append(token.map[0] if token.map else -2)
        elif token.type == "admonition_close" and admonitions:
            admonitions.pop()
        if token.type == "inline":
            # an admonition paragraph GitHub shows as code is left alone: any
            # but the one continuing the !!! line itself
            line = token.map[0] if token.map else -1
            as_code = bool(admonitions) and (len(admonitions) > 1 or line != admonitions[0] + 1)
            in_prose = before and not as_code
            shape.append(("inline", _inline(token.children or [], with_ids=in_prose)))
        elif token.type == "html_block":
            shape.append(("html", _LINK_ATTRS.sub("", token.content)))
        else:
            shape.append((token.type, token.tag, token.info, token.content))
    return shape


@PROPERTY
@given(documents)
def test_renders_the_same_apart_from_links(text: str) -> None:
    out = _rewrite(text, OLD, NEW, MOVES, FRAGMENTS)
    assert _rendered(out, before=False) == _rendered(text, before=True)
    # and on GitHub (cmark-gfm with alerts, math, ids): the same page but the links
    assert github_structure(out) == github_structure(text)
    # every heading keeps its anchor: an id linked in a heading keeps its text
    assert [h.slug for h in parse(NEW, out).headings] == [h.slug for h in parse(OLD, text).headings]


# -------------------------------------------------------------------------- srcset


@PROPERTY
@given(st.text(alphabet=" ,\t\n()a.png1x2w@", max_size=60))
def test_srcset_candidates_are_what_html_reads(value: str) -> None:
    """Each candidate URL is a run of non-space characters not ending in a comma, in order,
    after a separator; a value with any character but spaces and commas has one."""
    found = list(srcset_urls(value))
    assert all(0 <= start < end <= len(value) for start, end in found)
    assert all(a[1] < b[0] for a, b in itertools.pairwise(found))
    for start, end in found:
        url = value[start:end]
        assert not any(c in url for c in " \t\n") and not url.endswith(",")
        assert start == 0 or value[start - 1] in " \t\n,"
    assert bool(found) == bool(value.strip(" \t\n,"))
