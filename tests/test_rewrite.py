"""The reference rewriter, case by case: input text and a move in, the exact text out.

Every case moves one record, ``docs/rfc/005-umbrella.md``, one folder deeper
to ``docs/rfc/implemented/2026-01-05-umbrella.md`` (or leaves a file where it
is), with the same set of moved files and known ids, so each case shows only
the construct it is about.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

import pytest

from docsync.gates.links.check import markdown_url, resolve_url
from docsync.parse.native import parse
from docsync.records.model import IdTarget
from docsync.rewrite.ids import IdKey, rewrite_code_text
from docsync.rewrite.prose_ids import bare_ids
from docsync.rewrite.record_links import link_text
from docsync.rewrite.references import RewriteError, RewriteStats, rewrite_document

OLD = "docs/rfc/005-umbrella.md"
NEW = "docs/rfc/implemented/2026-01-05-umbrella.md"
POSTGRES = "docs/rfc/implemented/2026-01-02-use-postgres.md"
PLUGINS = "docs/rfc/proposed/2026-01-01-plugin-api.md"
PART_TWO = "docs/rfc/implemented/2026-01-03-error-taxonomy.md"
MOVES = {
    OLD: NEW,
    "docs/adr/0007-use-postgres.md": POSTGRES,
    "docs/rfc/001-plugin-api.md": PLUGINS,
    "docs/rfc/My File.md": "docs/rfc/implemented/2026-01-04-my-file.md",
}
IDS: dict[IdKey, IdTarget] = {
    ("ADR", 7, None): IdTarget(POSTGRES, "Use Postgres"),
    ("RFC", 1, None): IdTarget(PLUGINS, "Plugin API"),
    ("RFC", 5, None): IdTarget(POSTGRES, "Use Postgres"),
    ("RFC", 5, 1): IdTarget(POSTGRES, "Use Postgres"),
    ("RFC", 5, 2): IdTarget(PART_TWO, "Error taxonomy"),
    ("RFC", 12, None): IdTarget(PLUGINS, "Plugin API"),
}
FRAGMENTS = {
    OLD: {"old-heading": "new-heading"},
    "docs/rfc/001-plugin-api.md": {"motivation": "why"},
    "docs/guide.md": {"setup": "installation"},
}
EXISTING = {
    "AGENTS.md",
    "docs/AGENTS.md",
    "docs/rfc/AGENTS.md",
    NEW,
    POSTGRES,
    PLUGINS,
    PART_TWO,
    "docs/rfc/implemented/2026-01-04-my-file.md",
    # what the link cases point at that does not move (a link to a missing file is left as written)
    "docs/rfc/Other File.md",
    "docs/rfc/001-PLUGIN-API.md",  # a file of its own, not the plugin record in another case
    "docs/rfc/img/a.png",
    "docs/rfc/img/a b.png",
    "docs/rfc/café.md",
    "docs/guide.md",
    "docs/My Notes.md",
    "src/a.py",
    *(
        "docs",
        "docs/rfc",
        "docs/rfc/img",
        "docs/rfc/implemented",
        "docs/rfc/proposed",
        "docs/adr",
        "src",
    ),
}


@dataclass(frozen=True)
class Case:
    name: str
    before: str
    after: str
    old: str = OLD
    new: str = NEW
    unresolved: tuple[str, ...] = ()
    ids: dict[IdKey, IdTarget] = field(default_factory=lambda: IDS)


def _rewrite(
    text: str, old: str = OLD, new: str = NEW, ids: dict[IdKey, IdTarget] | None = None
) -> tuple[str, RewriteStats]:
    return rewrite_document(
        parse(old, text),
        old_path=old,
        new_path=new,
        moves=MOVES,
        fragments=FRAGMENTS,
        ids=IDS if ids is None else ids,
        exists=EXISTING.__contains__,
    )


LINK_CASES = [
    Case(
        "deeper move keeps ../ pointing at the same file",
        "[rules](../AGENTS.md)\n",
        "[rules](../../AGENTS.md)\n",
    ),
    Case("sibling link gains one ../", "[x](AGENTS.md)\n", "[x](../AGENTS.md)\n"),
    Case(
        "link to a moved sibling",
        "[p](001-plugin-api.md)\n",
        "[p](../proposed/2026-01-01-plugin-api.md)\n",
    ),
    Case("percent-encoded destination", "[f](My%20File.md)\n", "[f](2026-01-04-my-file.md)\n"),
    Case("percent-encoded, not moved", "[f](Other%20File.md#a)\n", "[f](../Other%20File.md#a)\n"),
    Case(
        "angle brackets kept, space stays raw",
        "[f](<Other File.md>)\n",
        "[f](<../Other File.md>)\n",
    ),
    Case(
        "fragment of a moved file renamed",
        "[m](001-plugin-api.md#motivation)\n",
        "[m](../proposed/2026-01-01-plugin-api.md#why)\n",
    ),
    Case(
        "fragment matched case-insensitively",
        "[m](001-plugin-api.md#Motivation)\n",
        "[m](../proposed/2026-01-01-plugin-api.md#why)\n",
    ),
    Case(
        "self fragment follows the heading rename", "[up](#old-heading)\n", "[up](#new-heading)\n"
    ),
    Case("self fragment without rename untouched", "[up](#context)\n", "[up](#context)\n"),
    Case("link to itself by name", "[me](005-umbrella.md#x)\n", "[me](2026-01-05-umbrella.md#x)\n"),
    Case(
        "query and fragment kept",
        "[q](../../src/a.py?plain=1#L3)\n",
        "[q](../../../src/a.py?plain=1#L3)\n",
    ),
    Case(
        "root-relative stays root-relative",
        "[r](/docs/adr/0007-use-postgres.md)\n",
        "[r](/docs/rfc/implemented/2026-01-02-use-postgres.md)\n",
    ),
    Case("root-relative to an unmoved file untouched", "[r](/AGENTS.md)\n", "[r](/AGENTS.md)\n"),
    Case("./ style kept", "[d](./AGENTS.md)\n", "[d](../AGENTS.md)\n"),
    Case("folder link keeps its slash", "[d](./)\n", "[d](../)\n"),
    Case(
        "reference definition",
        '[p][x]\n\n[x]: 001-plugin-api.md "t"\n',
        '[p][x]\n\n[x]: ../proposed/2026-01-01-plugin-api.md "t"\n',
    ),
    Case("image", "![d](img/a.png)\n", "![d](../img/a.png)\n"),
    Case(
        "html href and src",
        '<a href="../AGENTS.md">a</a>\n<img src="img/a b.png">\n',
        '<a href="../../AGENTS.md">a</a>\n<img src="../img/a%20b.png">\n',
    ),
    Case(
        "every srcset candidate of img and source, descriptors kept",
        '<img src="img/a.png" srcset="img/a.png 1x, img/a@2x.png 2x">\n'
        '<picture><source media="(prefers-color-scheme: dark)" srcset="img/d.png 480w,img/d b.png, '
        'https://x.org/e.png 2x"></picture>\n',
        '<img src="../img/a.png" srcset="../img/a.png 1x, ../img/a@2x.png 2x">\n'
        '<picture><source media="(prefers-color-scheme: dark)" srcset="../img/d.png 480w,../img/d '
        'b.png, https://x.org/e.png 2x"></picture>\n',
    ),
    Case(
        "srcset on another tag, or in a comment, is not read",
        '<div srcset="img/a.png 1x"></div> <!-- <img srcset="img/b.png"> -->\n',
        '<div srcset="img/a.png 1x"></div> <!-- <img srcset="img/b.png"> -->\n',
    ),
    Case(
        "external links untouched",
        "[e](https://example.com/a.md) [m](mailto:a@b.c) <https://x.org>\n",
        "[e](https://example.com/a.md) [m](mailto:a@b.c) <https://x.org>\n",
    ),
    Case("malformed escape left alone", "[bad](a%zz.md)\n", "[bad](a%zz.md)\n"),
    Case("outside the repository stays outside", "[o](../../../x.md)\n", "[o](../../../../x.md)\n"),
    Case(
        "non-ASCII escaped only when it was",
        "[u](caf%C3%A9.md) [v](café.md)\n",
        "[u](../caf%C3%A9.md) [v](../café.md)\n",
    ),
    Case(
        "file that does not move: only links into moved files change",
        "[r](../AGENTS.md) [p](rfc/001-plugin-api.md) [u](rfc/005-umbrella.md#old-heading)\n",
        "[r](../AGENTS.md) [p](rfc/proposed/2026-01-01-plugin-api.md) [u](rfc/implemented/2026-01-05-umbrella.md#new-heading)\n",
        old="docs/README.md",
        new="docs/README.md",
    ),
]

LINK_CASES += [
    Case(
        "heading renamed in a file that does not move",
        '[g](guide.md#setup) <a href="guide.md#setup">g</a> [k](guide.md#keep)\n',
        '[g](guide.md#installation) <a href="guide.md#installation">g</a> [k](guide.md#keep)\n',
        old="docs/README.md",
        new="docs/README.md",
    ),
    Case(
        "nothing to do leaves the text as it is",
        "[a](x.md) ADR 9\n",
        "[a](x.md) ADR 9\n",
        old="docs/README.md",
        new="docs/README.md",
        unresolved=("ADR 9",),
    ),
]

ID_CASES = [
    Case(
        "compound id with a slash",
        "per RFC-001/012/5.\n",
        "per [Plugin API](../proposed/2026-01-01-plugin-api.md)/"
        "[Plugin API](../proposed/2026-01-01-plugin-api.md)/[Use Postgres](2026-01-02-use-postgres.md).\n",
    ),
    Case(
        "compound id with and",
        "RFC 1 and 5 decide, RFC 12, 5 & 1 too\n",
        "[Plugin API](../proposed/2026-01-01-plugin-api.md) and [Use Postgres](2026-01-02-use-postgres.md)"
        " decide, [Plugin API](../proposed/2026-01-01-plugin-api.md), "
        "[Use Postgres](2026-01-02-use-postgres.md) & [Plugin API](../proposed/2026-01-01-plugin-api.md) too\n",
    ),
    Case(
        "a versioned id links the id and keeps the version",
        "RFC-012-v2 replaces RFC-005/012-v2.\n",
        "[Plugin API](../proposed/2026-01-01-plugin-api.md)-v2 replaces "
        "[Use Postgres](2026-01-02-use-postgres.md)/[Plugin API](../proposed/2026-01-01-plugin-api.md)-v2.\n",
    ),
    Case(
        "a compound ends at a number that names no record",
        "RFC 12 and 2019 and 5; RFC 1/77\n",
        "[Plugin API](../proposed/2026-01-01-plugin-api.md) and 2019 and 5; "
        "[Plugin API](../proposed/2026-01-01-plugin-api.md)/77\n",
    ),
    Case("ADR 0007", "See ADR 0007.\n", "See [Use Postgres](2026-01-02-use-postgres.md).\n"),
    Case(
        "ADR-0007",
        "See ADR-0007, please.\n",
        "See [Use Postgres](2026-01-02-use-postgres.md), please.\n",
    ),
    Case("ADR7", "ADR7 says so\n", "[Use Postgres](2026-01-02-use-postgres.md) says so\n"),
    Case("RFC 12", "per RFC 12\n", "per [Plugin API](../proposed/2026-01-01-plugin-api.md)\n"),
    Case("RFC-012", "per RFC-012\n", "per [Plugin API](../proposed/2026-01-01-plugin-api.md)\n"),
    Case(
        "(RFC 001)",
        "plugins (RFC 001) load\n",
        "plugins ([Plugin API](../proposed/2026-01-01-plugin-api.md)) load\n",
    ),
    Case(
        "qualified part",
        "RFC 005 part 1 and RFC 005 pt 2\n",
        "[Use Postgres](2026-01-02-use-postgres.md) and [Error taxonomy](2026-01-03-error-taxonomy.md)\n",
    ),
    Case(
        "unknown part falls back to the whole id",
        "RFC 5 part 3 is deferred\n",
        "[Use Postgres](2026-01-02-use-postgres.md) part 3 is deferred\n",
    ),
    Case(
        "unresolved id is left and reported",
        "MUST as in RFC 2119\n",
        "MUST as in RFC 2119\n",
        unresolved=("RFC 2119",),
    ),
    Case("unknown kinds are not ids", "ISO 9001 and PEP 8\n", "ISO 9001 and PEP 8\n"),
    Case("lowercase is a word, not an id", "the adr 7 folder\n", "the adr 7 folder\n"),
    Case(
        "ids in paths and file names are not bare",
        "see docs/ADR-7 and ADR-0007-use-postgres.md\n",
        "see docs/ADR-7 and ADR-0007-use-postgres.md\n",
    ),
    Case("code span", "`ADR 7` stays\n", "`ADR 7` stays\n"),
    Case("fenced code", "```\nADR 7\n```\n", "```\nADR 7\n```\n"),
    Case("indented code", "    ADR 7\n", "    ADR 7\n"),
    Case("html block", "<div>\nADR 7\n</div>\n", "<div>\nADR 7\n</div>\n"),
    Case("front matter", "---\nsee: ADR 7\n---\n\ntext\n", "---\nsee: ADR 7\n---\n\ntext\n"),
    Case(
        "heading: the id stays the text (the slug stays)",
        "## Why ADR 7\n\nSetext ADR 7\n---\n",
        "## Why [ADR 7](2026-01-02-use-postgres.md)\n\n"
        "Setext [ADR 7](2026-01-02-use-postgres.md)\n---\n",
    ),
    Case(
        "inline html element content",
        '<code>ADR 7</code> <a href="https://x">ADR 7</a>\n',
        '<code>ADR 7</code> <a href="https://x">ADR 7</a>\n',
    ),
    Case("inline html comment", "x <!-- ADR 7 --> y\n", "x <!-- ADR 7 --> y\n"),
    Case("autolink", "<https://x.org/ADR7>\n", "<https://x.org/ADR7>\n"),
    Case("image alt text", "![ADR 7](https://x.org/a.png)\n", "![ADR 7](https://x.org/a.png)\n"),
    Case(
        "link with other text keeps its text",
        "[see ADR 7](https://x.org)\n",
        "[see ADR 7](https://x.org)\n",
    ),
    Case(
        "link whose text is only an id gets the title",
        "[ADR 7](../adr/0007-use-postgres.md)\n",
        "[Use Postgres](2026-01-02-use-postgres.md)\n",
    ),
    Case(
        "shortcut reference keeps its label",
        "[RFC 1] and [RFC 1][]\n\n[RFC 1]: 001-plugin-api.md\n",
        "[Plugin API][RFC 1] and [Plugin API][RFC 1]\n\n[RFC 1]: ../proposed/2026-01-01-plugin-api.md\n",
    ),
    Case(
        "full reference keeps its label",
        "[RFC 1][p]\n\n[p]: 001-plugin-api.md\n",
        "[Plugin API][p]\n\n[p]: ../proposed/2026-01-01-plugin-api.md\n",
    ),
]

# Letter case (issue 37, class 12): a link that opens the record on macOS and Windows only
# is written to the moved record, in the record's own case.
LINK_CASES += [
    Case(
        "a link in another letter case follows the moved record",
        "[p](001-Plugin-API.md#Motivation) [q](../ADR/0007-use-postgres.MD) [me](005-UMBRELLA.md)\n",
        "[p](../proposed/2026-01-01-plugin-api.md#why) [q](2026-01-02-use-postgres.md) "
        "[me](2026-01-05-umbrella.md)\n",
    ),
    Case(
        "from a file that does not move, html too",
        '[p](rfc/001-PLUGIN-api.md) <a href="adr/0007-Use-Postgres.md">a</a>\n',
        '[p](rfc/proposed/2026-01-01-plugin-api.md) <a href="rfc/implemented/2026-01-02-use-postgres.md">a</a>\n',
        old="docs/README.md",
        new="docs/README.md",
    ),
    Case(
        "a file that exists as written is not another's case",
        "[a](001-PLUGIN-API.md)\n",
        "[a](../001-PLUGIN-API.md)\n",
    ),
]

# Link text (issue 37, class 9): only a link into the record its text names changes its text.
LINK_TEXT_CASES = [
    Case(
        "a link to the discussion keeps its id: it names what it points at",
        "[RFC 1](https://github.com/org/rfcs/pull/1) and [RFC 1][p]\n\n[p]: https://x.org\n",
        "[RFC 1](https://github.com/org/rfcs/pull/1) and [RFC 1][p]\n\n[p]: https://x.org\n",
    ),
    Case(
        "an id-only text into the moved record becomes its title",
        "[ADR 0007](../adr/0007-use-postgres.md) and [RFC-001](001-plugin-api.md#motivation)\n",
        "[Use Postgres](2026-01-02-use-postgres.md) and "
        "[Plugin API](../proposed/2026-01-01-plugin-api.md#why)\n",
    ),
    Case(
        "a text into the moved record loses the retired id, keeps its words",
        "[ADR 0007 quality gates](../adr/0007-use-postgres.md), [ADR-7: why](../adr/0007-use-postgres.md)\n",
        "[quality gates](2026-01-02-use-postgres.md), [why](2026-01-02-use-postgres.md)\n",
    ),
    Case(
        "a link elsewhere keeps its text, id and words",
        "[ADR 0007 quality gates](https://x.org/adr/7) [RFC 1 notes](../AGENTS.md) [ADR 7](001-plugin-api.md)\n",
        "[ADR 0007 quality gates](https://x.org/adr/7) [RFC 1 notes](../../AGENTS.md) "
        "[ADR 7](../proposed/2026-01-01-plugin-api.md)\n",
    ),
    Case(
        "a link into the record from a file that does not move",
        "[RFC 1 plugins](rfc/001-plugin-api.md) [RFC 1](https://x.org/rfc/1)\n",
        "[plugins](rfc/proposed/2026-01-01-plugin-api.md) [RFC 1](https://x.org/rfc/1)\n",
        old="docs/README.md",
        new="docs/README.md",
    ),
    Case(
        "emphasis, list and quote",
        "- *ADR 7*\n\n> per RFC 1\n",
        "- *[Use Postgres](2026-01-02-use-postgres.md)*\n\n> per [Plugin API](../proposed/2026-01-01-plugin-api.md)\n",
    ),
    Case(
        "table cell",
        "| a | b |\n| --- | --- |\n| ADR 7 | `ADR 7` |\n",
        "| a | b |\n| --- | --- |\n| [Use Postgres](2026-01-02-use-postgres.md) | `ADR 7` |\n",
    ),
    Case(
        "title with brackets and a pipe, in a table",
        "| a |\n| --- |\n| ADR 7 |\n",
        "| a |\n| --- |\n| [Use \\[pg\\] &#124; SQL](2026-01-02-use-postgres.md) |\n",
        ids={("ADR", 7, None): IdTarget(POSTGRES, "Use [pg] | SQL")},
    ),
    Case("footnote marker", "text[^ADR7]\n\n[^ADR7]: note\n", "text[^ADR7]\n\n[^ADR7]: note\n"),
    Case("not followed by a word", "ADR 7x and ADR 7.1\n", "ADR 7x and ADR 7.1\n"),
    Case("no ids at all", "plain words\n", "plain words\n", ids={}),
]


@pytest.mark.parametrize("case", LINK_CASES + ID_CASES + LINK_TEXT_CASES, ids=lambda c: c.name)
def test_rewrite_case(case: Case) -> None:
    text, stats = _rewrite(case.before, case.old, case.new, case.ids)
    assert text == case.after
    assert stats.unresolved == case.unresolved


def _resolves_to(source: str, text: str) -> list[str]:
    doc = parse(source, text)
    out = []
    for link in doc.links:
        resolved = resolve_url(source, markdown_url(link.destination))
        assert resolved is not None
        out.append(resolved[0])
    return out


def test_deeper_move_resolves_to_the_same_existing_file() -> None:
    """The hand migration's bug: ../AGENTS.md kept, now naming another file that exists."""
    before = "Read [the rules](../AGENTS.md) first.\n"
    assert _resolves_to(OLD, before) == ["docs/AGENTS.md"]
    naive = _resolves_to(NEW, before)
    assert naive == ["docs/rfc/AGENTS.md"] and naive[0] in EXISTING  # the trap is real
    text, stats = _rewrite(before)
    assert _resolves_to(NEW, text) == ["docs/AGENTS.md"]
    assert stats.links == 1 and stats.dangling == ()


def test_percent_encoded_target_is_found_and_stays_encoded() -> None:
    text, _ = _rewrite("[f](../My%20Notes.md) [g](My%20File.md#Old%20Part)\n")
    assert text == "[f](../../My%20Notes.md) [g](2026-01-04-my-file.md#Old%20Part)\n"
    assert _resolves_to(NEW, text) == [
        "docs/My Notes.md",
        "docs/rfc/implemented/2026-01-04-my-file.md",
    ]


def test_stats_count_links_refs_and_dangling() -> None:
    text, stats = _rewrite("[a](../AGENTS.md) [b](missing.md) ADR 7 and RFC 2119 and RFC 2119\n")
    assert stats == RewriteStats(
        links=2, refs=1, unresolved=("RFC 2119",), dangling=("../missing.md",)
    )
    assert "[b](../missing.md)" in text  # broken before, a plain path: it keeps its target
    assert "[Use Postgres](2026-01-02-use-postgres.md)" in text


def test_untouched_bytes_are_kept() -> None:
    before = "# T\n\nx  \n\n* a\n*  b\n\n| a|b |\n|-|-|\n\n  two  spaces ADR 7 \n\n\tcode ADR 7\n"
    text, _ = _rewrite(before, old="docs/x.md", new="docs/x.md")
    link = "[Use Postgres](rfc/implemented/2026-01-02-use-postgres.md)"
    assert text == before.replace("ADR 7 \n", f"{link} \n")


def test_a_link_broken_before_is_left_as_written_unless_it_is_a_plain_path() -> None:
    """rust-lang/rfcs: ``[x]: (https://…)`` is a relative path on GitHub, broken before the
    move; it was rewritten to ``../%28https:/…%29``. Such text stays byte for byte. A plain
    path broken before (alphagov/govuk-aws: a file since deleted) keeps naming its target."""
    before = (
        "See [the spec][s] and [p](001-plugin-api.md).\n\n"
        "[s]: (https://example.com/spec)\n[t]: <nowhere (draft).md>\n"
        "[u]: gone%20away.md\n[v]: mailto-ish:x.md\n[w]: ../infra/main.tf#L3\n"
    )
    text, stats = _rewrite(before)
    assert text == (
        "See [the spec][s] and [p](../proposed/2026-01-01-plugin-api.md).\n\n"
        "[s]: (https://example.com/spec)\n[t]: <nowhere (draft).md>\n"
        "[u]: gone%20away.md\n[v]: mailto-ish:x.md\n[w]: ../../infra/main.tf#L3\n"
    )
    assert stats.links == 2
    # (a scheme-like "x:" destination is not a path at all, so it is never dangling)
    left = ("(https://example.com/spec)", "nowhere (draft).md", "gone%20away.md")
    assert stats.dangling == (*left, "../../infra/main.tf#L3")


def test_document_must_be_parsed_at_old_path() -> None:
    with pytest.raises(ValueError, match="old_path"):
        rewrite_document(
            parse("a.md", "x\n"),
            old_path="b.md",
            new_path="b.md",
            moves={},
            fragments={},
            ids={},
            exists=lambda _: True,
        )


def test_a_rewrite_that_would_add_a_link_is_refused() -> None:
    """A title holding raw HTML with an href would add a link: verification refuses it."""
    ids: dict[IdKey, IdTarget] = {("ADR", 7, None): IdTarget(POSTGRES, '<a href="x.md">pg</a>')}
    with pytest.raises(RewriteError, match="links"):
        _rewrite("See ADR 7.\n", ids=ids)


def test_bare_ids_reports_positions_for_gates() -> None:
    doc = parse("docs/x.md", "a ADR 7 `ADR 7` RFC 2119\n")
    found = [(b.span.start, b.written, b.target) for b in bare_ids(doc, IDS)]
    assert found == [(2, "ADR 7", IDS[("ADR", 7, None)]), (16, "RFC 2119", None)]


def test_link_text_escapes_only_what_breaks_a_link() -> None:
    assert link_text("Use `a[0]` [beta]") == "Use `a[0]` \\[beta\\]"
    assert link_text("a | `b|c`", table=True) == "a &#124; `b\\|c`"
    assert link_text("a | b") == "a | b"


@pytest.mark.parametrize(
    ("title", "text"),
    [
        ("Simplify [EIP-161](./eip-161.md)", "Simplify EIP-161"),
        ("1. [ADR 3](x.md) first", "1. ADR 3 first"),  # never read as a list
        ("Keep `[a](b)` and [r][x]", "Keep `[a](b)` and \\[r\\]\\[x\\]"),  # code; no definition
        ("# [A](a.md) | [B](b.md)", "# A &#124; B"),
    ],
)
def test_a_title_s_links_are_written_as_their_text_in_a_link_text(title: str, text: str) -> None:
    """A link text cannot hold a link, and a title's links change as files move: the
    index shows the same words before the migration links an id in a header and after."""
    assert link_text(title, table="|" in title) == text


CODE_CASES = [
    ("# see ADR 7\n", "# see docs/rfc/implemented/2026-01-02-use-postgres.md\n", 1),
    ("// per RFC-001 and (RFC 12)\n", f"// per {PLUGINS} and ({PLUGINS})\n", 2),
    ("# RFC 005 pt 2; RFC 5 part 9\n", f"# {PART_TWO}; {POSTGRES} part 9\n", 2),
    ("timestamps: RFC 3339, RFC 2119\n", "timestamps: RFC 3339, RFC 2119\n", 0),
    (
        "path: docs/adr/ADR-0007.md and ADR-0007-use-postgres.md\n",
        "path: docs/adr/ADR-0007.md and ADR-0007-use-postgres.md\n",
        0,
    ),
    ("adr1 = ADR_7 = 'x'\n", "adr1 = ADR_7 = 'x'\n", 0),
    ("key: ADR7\n", f"key: {POSTGRES}\n", 1),
]


@pytest.mark.parametrize(("before", "after", "count"), CODE_CASES)
def test_rewrite_code_text(before: str, after: str, count: int) -> None:
    assert rewrite_code_text(before, ids=IDS) == (after, count)


def test_every_case_result_resolves_where_the_input_pointed() -> None:
    """Independent of the expected texts: each rewritten link lands on the moved target."""
    for case in LINK_CASES:
        text, _ = _rewrite(case.before, case.old, case.new)
        for link in parse(case.new, text).links:
            resolved = resolve_url(case.new, markdown_url(link.destination))
            if resolved is not None and resolved[0]:
                assert posixpath.normpath(resolved[0]) == resolved[0], case.name


FRONT_MATTER_CASES = [
    # (value as written, as rewritten): what counts as a path into a moved file
    ("a: see [p](001-plugin-api.md#motivation)", "a: see [p](../proposed/2026-01-01-plugin-api.md#why)"),
    ('a: "[p](./001-plugin-api.md)"', 'a: "[p](../proposed/2026-01-01-plugin-api.md)"'),
    ("a: ./001-plugin-api.md", "a: ../proposed/2026-01-01-plugin-api.md"),
    ("- '../AGENTS.md'  # rules", "- '../../AGENTS.md'  # rules"),
    ("a: ./005-umbrella.md", "a: ./2026-01-05-umbrella.md"),  # itself, still explicitly relative
    # left as written
    ("a: 001-plugin-api.md", None),  # a name without ./ or ../ is no path
    ("a: [p](<001-plugin-api.md>)", None),  # angle brackets: YAML reads a flow sequence
    ('a: "[p](./001\\u002dplugin-api.md)"', None),  # a YAML escape in the destination
    ("a: ./001-plugin-api.md and more", None),  # not a whole value
    ("a: [p](https://example.com/001-plugin-api.md)", None),
]


@pytest.mark.parametrize(("written", "rewritten"), FRONT_MATTER_CASES)
def test_paths_in_front_matter_follow_the_moves(written: str, rewritten: str | None) -> None:
    """GitHub shows front matter as a table of text, but people, docs sites and lychee read
    these as references to files (ethereum/EIPs' ``withdrawal-reason``)."""
    body = "# T\n\nText.\n"
    text, stats = _rewrite(f"---\n{written}\n---\n{body}")
    assert text == f"---\n{written if rewritten is None else rewritten}\n---\n{body}"
    assert stats.links == (0 if rewritten is None else 1)
