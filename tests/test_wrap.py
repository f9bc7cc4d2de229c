"""The wrap gate and its fixer: golden cases in every mode, and the rules one by one.

Goldens live in tests/golden/wrap/expected/<mode>/<case>.{findings,fixed.md}.
Regenerate them with ``DOCSYNC_UPDATE_GOLDEN=1 pytest tests/test_wrap.py`` and
read every changed file before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from docsync.config import Config
from docsync.gates.rules import RULES
from docsync.gates.wrap import check as wrap
from docsync.gates.wrap.boundaries import is_sentence_end, starts_block
from docsync.gates.wrap.display import display_width
from docsync.gates.wrap.fix import _proven, _Rewrite, fix_document
from docsync.gates.wrap.reading import analyse
from docsync.model import Document, Edit, Finding, Span
from docsync.parse.markdown import render_signature
from docsync.parse.native import parse
from docsync.parse.render import github_rendering
from docsync.parse.source import decode

HERE = Path(__file__).resolve().parent
SHARED = HERE / "cases" / "wrap"
OWN = HERE / "golden" / "wrap" / "cases"
EXPECTED = HERE / "golden" / "wrap" / "expected"
UPDATE = os.environ.get("DOCSYNC_UPDATE_GOLDEN") == "1"
MODES: dict[str, str | int] = {"none": "none", "80": 80, "sentence": "sentence"}


def _cases(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.md") if p.name not in ("README.md", "SEMANTICS.md"))


CASES = _cases(SHARED) + _cases(OWN)


def _load(path: Path) -> Document:
    text, newline, bom = decode(path.read_bytes())
    return parse(path.name, text, newline, bom)


def _doc(text: str) -> Document:
    return parse("doc.md", text)


def _lines(findings: list[Finding] | tuple[Finding, ...]) -> list[str]:
    return [f"{f.rule}:{f.line}:{f.column}" for f in findings]


def _golden(path: Path, actual: str) -> None:
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8", newline="\n")
        return
    assert path.is_file(), f"missing golden {path}; run with DOCSYNC_UPDATE_GOLDEN=1"
    assert actual == path.read_text(encoding="utf-8"), f"differs from {path}"


def test_shared_cases_are_present() -> None:
    # without them half the cases would silently not run: a failure, not a skip
    assert SHARED.is_dir(), f"wrap cases not found at {SHARED}"
    assert len(_cases(SHARED)) >= 20


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_golden(case: Path, mode: str) -> None:
    config = Config(wrap=MODES[mode])
    doc = _load(case)
    findings = wrap.check(doc, config)
    fixed = fix_document(doc, config)
    _golden(
        EXPECTED / mode / f"{case.stem}.findings",
        "".join(line + "\n" for line in _lines(findings) + _lines(fixed.skipped)),
    )
    _golden(EXPECTED / mode / f"{case.stem}.fixed.md", fixed.text)
    # whatever the goldens say, these hold
    assert render_signature(fixed.text) == render_signature(doc.text)
    assert github_rendering(fixed.text) == github_rendering(doc.text)
    assert fixed.changed == (fixed.text != doc.text)
    again = _doc(fixed.text)
    assert fix_document(again, config).text == fixed.text
    if not fixed.skipped:
        assert wrap.check(again, config) == []
    assert fixed.changed == any(f.rule != "W005" for f in findings) or bool(fixed.skipped)


_NEVER_AT_LINE_START = ("1.", "7.", "*", ">", "###", "~~~", "<div>", "-", "+", "=", "```")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", [c for c in CASES if "starter" in c.stem], ids=lambda p: p.stem)
def test_starter_words_never_start_a_line(case: Path, mode: str) -> None:
    fixed = fix_document(_load(case), Config(wrap=MODES[mode])).text
    for line in fixed.splitlines():
        assert not line.startswith(_NEVER_AT_LINE_START), line


# --------------------------------------------------------------------------- the API


def test_result_cache_key_reads_every_analysis_module() -> None:
    """The gate names the modules its findings depend on by file (it imports them only
    on a cache miss): each name is a module beside it, or an edit would go unseen."""
    here = Path(wrap.__file__).parent
    assert all((here / f"{name}.py").is_file() for name in wrap._READING)
    # the rest serve fix, init and check's convention hint, not this gate's findings:
    # a new module is one or the other
    assert {p.stem for p in here.glob("*.py")} - set(wrap._READING) == {
        "__init__", "check", "count", "count_store", "fix", "hint"
    }


def test_rules_table() -> None:
    from docsync.gates.wrap import violations

    assert wrap.GATE == violations.GATE == "wrap"
    assert set(RULES["wrap"]) == {"W001", "W002", "W003", "W004", "W005", "W900"}
    for name, description in RULES["wrap"].values():
        assert name and description


def test_off_reports_nothing_and_fixes_nothing() -> None:
    doc = _doc("one\ntwo\n")
    config = Config(wrap="off")
    assert wrap.check(doc, config) == []
    fixed = fix_document(doc, config)
    assert (fixed.text, fixed.changed, fixed.skipped) == (doc.text, False, ())


def test_finding_fields() -> None:
    (finding,) = wrap.check(_doc("one\ntwo\n"), Config())
    assert (finding.gate, finding.rule, finding.path) == ("wrap", "W001", "doc.md")
    assert (finding.line, finding.column) == (1, 4)
    assert "docsync fix" in finding.message


# --------------------------------------------------------------------------- wrap = "none"


def test_none_joins_and_keeps_hard_breaks() -> None:
    text = "# Title\n\nalpha\nbeta  \ngamma\\\ndelta\nepsilon\n\n```\nx\ny\n```\n"
    fixed = fix_document(_doc(text), Config()).text
    assert fixed == "# Title\n\nalpha beta  \ngamma\\\ndelta epsilon\n\n```\nx\ny\n```\n"


def test_none_one_finding_per_paragraph_at_the_first_line_end() -> None:
    findings = wrap.check(_doc("a\nb\nc\n\nd  \ne\n"), Config())
    assert _lines(findings) == ["W001:1:2"]


@pytest.mark.parametrize(
    ("setting", "text"),
    [
        ({"wrap_lists": False}, "- item\n  continued\n"),
        ({"wrap_blockquotes": False}, "> quote\n> continued\n"),
        ({"wrap_blockquotes": False}, "- > quote in a list\n  > continued\n"),
    ],
)
def test_lists_and_quotes_can_opt_out(setting: dict[str, bool], text: str) -> None:
    assert _lines(wrap.check(_doc(text), Config())) != []
    config = Config(**setting)  # type: ignore[arg-type]
    assert wrap.check(_doc(text), config) == []
    assert not fix_document(_doc(text), config).changed


def test_footnote_bodies_are_checked_and_keep_their_indent() -> None:
    text = "A note[^n].\n\n[^n]: The note\n    goes on.\n"
    assert _lines(wrap.check(_doc(text), Config())) == ["W001:3:15"]
    fixed = fix_document(_doc(text), Config(wrap=20)).text
    assert fixed == text  # no line is too wide: width mode leaves it
    wide = "A note[^n].\n\n[^n]: The note goes on and on and on.\n"
    assert fix_document(_doc(wide), Config(wrap=20)).text == (
        "A note[^n].\n\n[^n]: The note goes\n    on and on and\n    on.\n"
    )


# --------------------------------------------------------------------------- widths


@pytest.mark.parametrize(
    ("line", "width"),
    [
        ("abc", 3),
        ("abc  \t", 3),  # trailing whitespace excluded
        ("a\tb", 5),  # tab to the next multiple of 4
        ("中文", 4),  # wide characters count 2
        ("\uff21\uff22", 4),  # fullwidth too
        ("e\u0301", 1),  # combining characters count 0
        ("> 한국어", 8),
    ],
)
def test_display_width(line: str, width: int) -> None:
    assert display_width(line) == width


def test_width_column_is_the_first_character_past_the_limit() -> None:
    text = "> " + "中" * 5 + " x y\n"  # "> " + 10 columns, then the space is column 13
    (finding,) = wrap.check(_doc(text), Config(wrap=12))
    assert (finding.rule, finding.line, finding.column) == ("W002", 1, 8)
    assert "16 columns" in finding.message


def test_width_exempts_unbreakable_lines_unless_strict() -> None:
    url = "https://example.com/" + "a" * 80
    text = f"{url}\n\nshort words then {url}\n"
    assert _lines(wrap.check(_doc(text), Config(wrap=80))) == ["W002:3:81"]
    strict = wrap.check(_doc(text), Config(wrap=80, wrap_strict=True))
    assert _lines(strict) == ["W005:1:81", "W002:3:81"]
    fixed = fix_document(_doc(text), Config(wrap=80, wrap_strict=True)).text
    assert fixed == f"{url}\n\nshort words then\n{url}\n"


def test_width_leaves_lines_that_fit_alone() -> None:
    text = "Short\nlines\nstay.\n"
    assert wrap.check(_doc(text), Config(wrap=80)) == []
    assert not fix_document(_doc(text), Config(wrap=80)).changed


def test_width_uses_the_author_continuation_prefix() -> None:
    text = "> > alpha beta gamma delta\n> > epsilon zeta eta theta iota kappa\n"
    fixed = fix_document(_doc(text), Config(wrap=24)).text
    assert fixed == "> > alpha beta gamma\n> > delta epsilon zeta\n> > eta theta iota kappa\n"


def test_width_derives_the_prefix_of_a_one_line_list_item() -> None:
    text = "10. alpha beta gamma delta epsilon\n"
    fixed = fix_document(_doc(text), Config(wrap=20)).text
    assert fixed == "10. alpha beta gamma\n    delta epsilon\n"


# --------------------------------------------------------------------------- sentences


@pytest.mark.parametrize(
    ("word", "following", "ends"),
    [
        ("done.", "Then", True),
        ("done!", "Then", True),
        ("why?", "Then", True),
        ("done.)", "Then", True),
        ('"done."', "Then", True),
        ("**done.**", "Then", True),
        ("done.", "`code`", True),
        ("done.", "then", False),
        ("e.g.", "Python", False),
        ("i.e.", "The", False),
        ("(e.g.", "Ruff", False),
        ("Mr.", "Smith", False),
        ("Dr.", "Jones", False),
        ("vs.", "Go", False),
        ("U.S.", "Army", False),
        ("J.", "Smith", False),
        ("etc.", "The", True),
        ("3.14", "Then", False),
        ("done:", "Then", False),
    ],
)
def test_sentence_ends(word: str, following: str, ends: bool) -> None:
    assert is_sentence_end(word, following) is ends


def test_sentence_mode_findings_and_fix() -> None:
    text = "One. Two is\nsplit. Three.\n"
    findings = wrap.check(_doc(text), Config(wrap="sentence"))
    assert _lines(findings) == ["W003:1:6", "W004:2:1", "W003:2:8"][:0] or _lines(findings) == [
        "W003:1:6",
        "W004:1:12",
        "W003:2:8",
    ]
    fixed = fix_document(_doc(text), Config(wrap="sentence")).text
    assert fixed == "One.\nTwo is split.\nThree.\n"


def test_sentence_mode_keeps_a_period_inside_a_link() -> None:
    text = "See [the docs. They](https://example.com) now.\n"
    assert wrap.check(_doc(text), Config(wrap="sentence")) == []


# --------------------------------------------------------------------------- break opportunities


@pytest.mark.parametrize(
    "word",
    [
        "#",
        "######",
        ">",
        ">=",
        "-",
        "+",
        "*",
        "1.",
        "7)",
        "123456789.",
        "```",
        "~~~py",
        "<div>",
        "</div>",
        "<details",
        "<script>",
        "<!--",
        "<?php",
        "<!DOCTYPE",
        "[^1]:",
        "|---|",
        ":--",
        "=",
        "***",
        "___",
        "---",
    ],
)
def test_words_that_would_start_a_block(word: str) -> None:
    assert starts_block(word)


@pytest.mark.parametrize(
    "word", ["#5", "1.5", "10", "-x", "*em*", "<span>", "<https://x.y>", "[x]"]
)
def test_ordinary_words(word: str) -> None:
    assert not starts_block(word)


@pytest.mark.parametrize(
    ("text", "breakable"),
    [
        ("alpha `code span` omega\n", 2),
        ("alpha [link text](https://example.com) omega\n", 2),
        ("alpha ![alt text](i.png) omega\n", 2),
        ('alpha <span title="x y"> omega\n', 2),
        ("alpha <https://example.com> omega\n", 2),
        ("alpha\\ omega\n", 0),
        ("中文 omega 日本\n", 0),
        ("alpha\u00a0omega\n", 0),
        ("alpha 1. omega\n", 1),
    ],
)
def test_break_opportunities(text: str, breakable: int) -> None:
    """Only the spaces around a construct are break opportunities, none inside it."""
    doc = _doc(text)
    prose = analyse(doc, doc.paragraphs[0])
    assert prose is not None
    assert sum(gap.breakable for gap in prose.gaps) == breakable


def test_break_never_after_a_backslash_or_before_a_starter() -> None:
    text = "aaaa\\ bbbb 1. cccc\n"
    assert fix_document(_doc(text), Config(wrap=4)).text == "aaaa\\ bbbb 1.\ncccc\n"


def test_cjk_line_ends_are_kept_hangul_joined() -> None:
    text = "中文\n中文\n\n한국어\n한국어\n"
    assert _lines(wrap.check(_doc(text), Config())) == ["W001:4:4"]


def test_a_lone_tag_is_not_left_as_the_first_line() -> None:
    text = '<span class="x"> alpha beta gamma\n'
    fixed = fix_document(_doc(text), Config(wrap=10)).text
    assert fixed.splitlines()[0] != '<span class="x">'
    assert render_signature(fixed) == render_signature(text)


def test_tab_indented_continuation_lines() -> None:
    text = "- alpha\n\tbeta\n"
    assert fix_document(_doc(text), Config()).text == "- alpha beta\n"


@pytest.mark.parametrize(
    ("text", "finding", "fixed"),
    [
        (
            "- alpha\n\tbeta [x](y.md) `c` <b>z</b>\n",
            "W001:1:8",
            "- alpha beta [x](y.md) `c` <b>z</b>\n",
        ),
        ("- alpha [x\n\ty](y.md) end\n", "W001:1:11", "- alpha [x y](y.md) end\n"),
        ("- a\n\t\tdeep `c`\n", "W001:1:4", "- a deep `c`\n"),
    ],
)
def test_tab_indented_continuation_lines_with_inline_constructs(
    text: str, finding: str, fixed: str
) -> None:
    doc = _doc(text)
    assert _lines(wrap.check(doc, Config())) == [finding]
    result = fix_document(doc, Config()).text
    assert result == fixed
    assert render_signature(result) == render_signature(text)


# --------------------------------------------------------------------------- proving rewrites


def test_untouched_bytes_stay_as_they_were() -> None:
    text = "Keep  this   spacing.\n\n* list\n  item\n\n| a |\n|---|\n| b |\n"
    fixed = fix_document(_doc(text), Config()).text
    assert fixed == "Keep  this   spacing.\n\n* list item\n\n| a |\n|---|\n| b |\n"


def test_a_rewrite_that_renders_differently_is_put_back() -> None:
    text = "alpha beta\n\ngamma delta\n"
    doc = _doc(text)
    first, second = (analyse(doc, p) for p in doc.paragraphs)
    assert first is not None and second is not None
    harmless = _Rewrite(first, (Edit(Span(5, 6), "\n"),))
    breaking = _Rewrite(second, (Edit(Span(12, 12), "# "),))
    accepted, rejected = _proven(text, [harmless, breaking])
    assert (accepted, rejected) == ([harmless], [breaking])


@pytest.mark.parametrize("count", [8, 64, 256])
@pytest.mark.parametrize("where", ["first", "middle", "last", "two"])
def test_finding_the_rewrites_that_render_differently_takes_log_renders(
    count: int, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #35, class 5: one render a rewrite made ``fix`` quadratic in the paragraphs;
    by halves, k breaking rewrites among n cost about 2·k·log2(n) renders."""
    from docsync.gates.wrap import fix as wrap_fix

    text = "alpha beta\n\n" * count
    doc = _doc(text)
    prose = [analyse(doc, p) for p in doc.paragraphs]
    breaking = {"first": {0}, "middle": {count // 2}, "last": {count - 1}, "two": {1, count - 2}}[where]
    rewrites = []
    for n, paragraph in enumerate(prose):
        assert paragraph is not None
        start = n * len("alpha beta\n\n")
        edit = Edit(Span(start, start), "# ") if n in breaking else Edit(Span(start + 5, start + 6), "\n")
        rewrites.append(_Rewrite(paragraph, (edit,)))
    renders: list[int] = []
    real = wrap_fix.github_rendering
    monkeypatch.setattr(wrap_fix, "github_rendering", lambda t: renders.append(1) or real(t))
    accepted, rejected = _proven(text, rewrites)
    assert rejected == [rewrites[n] for n in sorted(breaking)]
    assert accepted == [r for n, r in enumerate(rewrites) if n not in breaking]
    assert len(renders) <= 2 + 2 * len(breaking) * (count.bit_length() + 1)


def test_a_footnote_nested_in_a_footnote_does_not_crash() -> None:
    # found by the property tests: the model once popped an empty container stack
    text = "[^1]: > [^1]:\n\nSee[^1].\n"
    for mode in MODES.values():
        fixed = fix_document(_doc(text), Config(wrap=mode))
        assert render_signature(fixed.text) == render_signature(text)


# --------------------------------------------------------------------------- what the reader sees

# The issue's table: what `docsync fix` once joined, and what it leaves now in
# every mode (each line that a docs site or GitHub reads as structure stays
# alone; none of these is a finding).
ISSUE_TABLE = {
    "github-alert": "> [!NOTE]\n> Useful information.\n",
    "colon-container": "::: warning\nbody\n:::\n",
    "mkdocs-admonition": '!!! note "Title"\n    indented body\n',
    "display-math": "$$\nformula\n$$\n",
    "hugo-shortcode": "{{< highlight go >}}\ncode\n{{< /highlight >}}\n",
    "toc-marker": "[[_TOC_]]\nintro text\n",
}
FIX_LEAVES = {
    ("github-alert", "none"): "> [!NOTE]\n> Useful information.\n",
    ("github-alert", "80"): "> [!NOTE]\n> Useful information.\n",
    ("github-alert", "sentence"): "> [!NOTE]\n> Useful information.\n",
    ("colon-container", "none"): "::: warning\nbody\n:::\n",
    ("colon-container", "80"): "::: warning\nbody\n:::\n",
    ("colon-container", "sentence"): "::: warning\nbody\n:::\n",
    ("mkdocs-admonition", "none"): '!!! note "Title"\n    indented body\n',
    ("mkdocs-admonition", "80"): '!!! note "Title"\n    indented body\n',
    ("mkdocs-admonition", "sentence"): '!!! note "Title"\n    indented body\n',
    ("display-math", "none"): "$$\nformula\n$$\n",
    ("display-math", "80"): "$$\nformula\n$$\n",
    ("display-math", "sentence"): "$$\nformula\n$$\n",
    ("hugo-shortcode", "none"): "{{< highlight go >}}\ncode\n{{< /highlight >}}\n",
    ("hugo-shortcode", "80"): "{{< highlight go >}}\ncode\n{{< /highlight >}}\n",
    ("hugo-shortcode", "sentence"): "{{< highlight go >}}\ncode\n{{< /highlight >}}\n",
    ("toc-marker", "none"): "[[_TOC_]]\nintro text\n",
    ("toc-marker", "80"): "[[_TOC_]]\nintro text\n",
    ("toc-marker", "sentence"): "[[_TOC_]]\nintro text\n",
}


@pytest.mark.parametrize(("name", "mode"), sorted(FIX_LEAVES))
def test_the_issue_table(name: str, mode: str) -> None:
    config = Config(wrap=MODES[mode])
    doc = _doc(ISSUE_TABLE[name])
    assert wrap.check(doc, config) == []
    fixed = fix_document(doc, config)
    assert (fixed.text, fixed.skipped) == (FIX_LEAVES[name, mode], ())


@pytest.mark.parametrize(
    ("written", "joined"),
    [
        ("> [!NOTE]\n> Useful information.\n", "> [!NOTE] Useful information.\n"),
        ("> [!caution]\n> Useful.\n", "> [!caution] Useful.\n"),
        ("Cost $x$ here.\n", "Cost \\$x$ here.\n"),
    ],
)
def test_github_sees_what_cmark_gfm_alone_does_not(written: str, joined: str) -> None:
    # cmark-gfm's page is the same text in the same elements; GitHub's alert
    # and math rules tell them apart
    assert _cmark_words(written) == _cmark_words(joined)
    assert github_rendering(written) != github_rendering(joined)


def _cmark_words(text: str) -> list[str]:
    from docsync.parse.render import _cmark

    return _cmark(text).split()


def test_a_rewrite_only_github_renders_differently_is_put_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # markdown-it made blind, so that the cmark-gfm comparison alone decides
    from docsync.gates.wrap import fix as wrapfix

    monkeypatch.setattr(wrapfix, "render_signature", lambda text: ())
    text = "> [!NOTE]\n> Useful information.\n\nalpha beta\n"
    doc = _doc(text)
    (para,) = doc.paragraphs[1:]
    prose = analyse(doc, para)
    assert prose is not None
    harmless = _Rewrite(prose, (Edit(Span(text.index(" beta"), text.index(" beta") + 1), "\n"),))
    alert = text.index("\n> Useful")
    breaking = _Rewrite(prose, (Edit(Span(alert, alert + 3), " "),))
    accepted, rejected = _proven(text, [harmless, breaking])
    assert (accepted, rejected) == ([harmless], [breaking])
