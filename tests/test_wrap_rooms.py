"""The rooms asked of the marks are the rooms painted, and the quick width check
reports what the full reading reports.

:class:`~docsync.gates.wrap.rooms.Rooms` answers the quick reading's few
questions (:meth:`~docsync.gates.wrap.rooms.Rooms.room`,
:meth:`~docsync.gates.wrap.rooms.Rooms.plain`) from the marks that paint the
room map, without painting it. Three comparisons prove that exact:

* the painted map is the map as the gate painted it before (the reference
  painter below, kept as it was), on every paragraph of every case file and
  of generated documents;
* every character's asked room is its painted room, and every short range
  and every run of spaces is plain exactly when the painted map says so;
* under a width, the gate (quick decision first) reports what the full
  reading reports, on generated wide paragraphs full of what the decision
  turns on: links across lines, code spans, images, raw HTML, backslashes,
  long words, wide and zero-width characters, emoji, header fields.

And the findings the parse workers send back as rows are the findings
:func:`~docsync.gates.wrap.check.check` makes, word for word.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.config import Config
from docsync.gates.wrap import check as wrap
from docsync.gates.wrap.prose import DocumentIndex, Room
from docsync.gates.wrap.reading import reader_for
from docsync.gates.wrap.rooms import Rooms, text_span
from docsync.gates.wrap.violations import document_violations, prose_of, violations
from docsync.model import Document, Link, LinkKind, Paragraph, Span
from docsync.parse.native import parse
from docsync.workspace.load import load_workspace
from tests.case_readings import CASE_FILES, ROOT
from tests.gitutil import git
from tests.test_wrap_properties import DOCUMENTS, TOKENS
from tests.test_wrapcount import WIDE_DOCUMENTS


def _reference_rooms(doc: Document, index: DocumentIndex, para: Paragraph, region: Span) -> bytearray:
    """The room map as the gate painted it before :class:`Rooms` (kept as it was)."""
    rooms = bytearray(region.end - region.start)

    def mark(span: Span, room: Room) -> None:
        start, end = max(span.start, region.start), min(span.end, region.end)
        if start < end:
            rooms[start - region.start : end - region.start] = bytes([room]) * (end - start)

    first = bisect.bisect_left(index.link_starts, region.start)
    last = bisect.bisect_left(index.link_starts, region.end)
    textual = {LinkKind.INLINE, LinkKind.IMAGE, LinkKind.REFERENCE}
    found: list[Link] = [
        k for k in doc.links[first:last] if k.kind in textual and k.span.end <= region.end
    ]
    link_spans: set[Span] = set()
    for link in sorted(found, key=lambda k: k.span.start - k.span.end):
        link_spans.add(link.span)
        mark(link.span, Room.SEALED)
        if link.text_span is not None and link.kind != LinkKind.IMAGE:
            mark(text_span(para, link.text_span), Room.LINK_TEXT)
    for span in para.protected:
        if span in index.code_spans:
            mark(span, Room.CODE)
        elif span not in link_spans:
            mark(span, Room.SEALED)
    return rooms


@functools.cache
def _case_documents() -> tuple[Document, ...]:
    return tuple(
        parse(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")) for path in CASE_FILES
    )


def _regions(doc: Document) -> list[tuple[Paragraph, Span]]:
    """Each paragraph with its region (as the reader takes it), where it has one."""
    found = []
    for para in doc.paragraphs:
        spans = para.line_spans
        if spans and spans[0].start < spans[-1].end:
            found.append((para, Span(spans[0].start, spans[-1].end)))
    return found


_SPACES = re.compile(r"[ \t]+")


def _differences(doc: Document) -> list[str]:
    """Where painting, asking and the reference disagree on ``doc`` (nothing, if exact)."""
    index = DocumentIndex.of(doc)
    wrong: list[str] = []
    for para, region in _regions(doc):
        painted = Rooms(doc, index, para, region).paint()
        if painted != _reference_rooms(doc, index, para, region):
            wrong.append(f"{doc.path}:{para.lines.first}: painted map")
        asked = Rooms(doc, index, para, region)  # never painted: every answer from the marks
        base = region.start
        for offset in range(region.start, region.end):
            if asked.room(offset) != painted[offset - base]:
                wrong.append(f"{doc.path}:{para.lines.first}: room at {offset}")
        ranges = [(s, s + n) for s in range(region.start, region.end) for n in (1, 2, 3, 5)]
        ranges += [m.span() for m in _SPACES.finditer(doc.text, region.start, region.end)]
        for start, end in ranges:
            if end <= region.end and asked.plain(start, end) != (not any(painted[start - base : end - base])):
                wrong.append(f"{doc.path}:{para.lines.first}: plain {start}..{end}")
        assert not asked.painted  # the answers above came from the marks
    return wrong


def test_case_files_ask_what_they_paint() -> None:
    wrong = [w for doc in _case_documents() for w in _differences(doc)]
    assert wrong == []
    # Else the comparison proves little: the case files hold every kind of mark.
    rooms = {
        room
        for doc in _case_documents()
        for para, region in _regions(doc)
        for room in Rooms(doc, DocumentIndex.of(doc), para, region).paint()
    }
    assert rooms == {Room.PLAIN, Room.LINK_TEXT, Room.SEALED, Room.CODE}


WIDE_WORDS = st.sampled_from(
    [
        "plain", "words", "here", "supercalifragilisticexpialidocious" * 3,
        "https://example.com/a/very/long/path/without/any/space/at/all/" + "x" * 40,
        "[a link](https://example.com/x)", "[link across\nlines](u)", "[ref text][r]", "[r]",
        "![an image](i.png)", "![alt\nacross](i.png)", "`code span`", "`code\nacross lines`",
        "``a ` b``", "<span>", "<b title='a b'>", "</b>", "<https://example.com/auto>",
        "foo\\", "\\", "\\\\", "\\*", "中文字", "日本語。", "한국어", "😀", "👍🏽", "e\u0301",
        "\u200b", "\uff21\uff22", "a\u00a0b", "Status:", "**Date:**", "Owner:", "Note:",
        "#", "-", "1.", ">", "```", "<div>", "[^1]:", "$x$",
    ]
)
WIDE_SEPARATORS = st.sampled_from([" ", " ", " ", "  ", "\t", "\n", "  \n", "\\\n", " \n"])


@st.composite
def wide_paragraphs(draw: st.DrawFn) -> str:
    """A paragraph with lines well past the widths, made of what a break decision turns on."""
    words = draw(st.lists(st.one_of(WIDE_WORDS, TOKENS), min_size=2, max_size=40))
    text = words[0]
    for word in words[1:]:
        text += draw(WIDE_SEPARATORS) + word
    if draw(st.booleans()):
        text = draw(st.sampled_from(["Status: accepted\n", "Date: 2020-01-01\nOwner: me\n"])) + text
    prefix, indent = draw(st.sampled_from([("", ""), ("- ", "  "), ("> ", "> "), ("1. ", "   ")]))
    return prefix + text.replace("\n", "\n" + indent)


WIDE_PARAGRAPH_DOCUMENTS = st.lists(wide_paragraphs(), min_size=1, max_size=4).map(
    lambda parts: "\n\n".join(parts) + "\n\n[r]: https://example.com\n\n[^1]: A note.\n"
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(WIDE_PARAGRAPH_DOCUMENTS, DOCUMENTS, WIDE_DOCUMENTS))
def test_generated_paragraphs_ask_what_they_paint(text: str) -> None:
    assert _differences(parse("generated.md", text)) == []


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=WIDE_PARAGRAPH_DOCUMENTS,
    width=st.sampled_from([20, 40, 60, 80]),
    strict=st.booleans(),
    lists=st.booleans(),
)
def test_the_quick_width_decision_is_the_full_reading(
    text: str, width: int, strict: bool, lists: bool
) -> None:
    doc = parse("generated.md", text)
    config = Config(wrap=width, wrap_strict=strict, wrap_lists=lists)
    full = [v for prose in prose_of(doc, config) for v in violations(doc, prose, config)]
    key = lambda v: (v.offset, v.rule, v.measured)  # noqa: E731
    assert sorted(document_violations(doc, config), key=key) == sorted(full, key=key)


def test_the_generated_paragraphs_reach_both_decisions() -> None:
    """Else the comparison above proves little: the quick reading must decide some
    wide paragraphs itself and leave others to the full reading."""
    from docsync.gates.wrap.width import paragraph_verdict

    texts = [
        "plain words " * 20,
        "[a link](https://example.com/x) " * 10,
        "`code span` and " * 12,
        "https://example.com/" + "x" * 100,
        "Status: accepted\n" + "word " * 30,
        "escaped\\ " * 10,
    ]
    decided = []
    for text in texts:
        doc = parse("g.md", text)
        (para,) = doc.paragraphs
        decided.append(paragraph_verdict(doc, para, 40, strict=True) is not None)
    assert decided == [True, True, True, True, False, False]


def test_a_reader_asks_its_rooms_without_painting_them() -> None:
    doc = parse("a.md", "Some [linked words](u) and `code` " * 6 + "\n")
    (para,) = doc.paragraphs
    prepared = reader_for(doc, para, DocumentIndex.of(doc), sentences=False)
    assert prepared is not None
    _, reader = prepared
    assert reader.plain(0, 4) and not reader.plain(5, 7)
    assert reader.room(doc.text.index("linked")) == Room.LINK_TEXT
    assert reader.room(doc.text.index("code")) == Room.CODE
    assert not reader.marks.painted
    assert reader.rooms[doc.text.index("(u)") + 1] == Room.SEALED  # painted on the first ask
    assert reader.marks.painted


def _tree(root: Path, count: int) -> None:
    root.mkdir()
    git(root, "init", "-q")
    (root / ".docsync.toml").write_text("wrap = 30\nwrap_strict = true\n", encoding="utf-8")
    for i in range(count):
        (root / f"page-{i:03}.md").write_text(
            f"# Page {i}\n\nA line that is too wide for thirty columns [a link](page-{i:03}.md) "
            f"goes on.\n\nhttps://example.com/an/unbreakable/address/{i}/that/goes/on\n\n"
            "- a short item\n- an item that is wider than thirty columns, and it breaks\n",
            encoding="utf-8",
        )
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "docs")


def test_the_workers_rows_are_the_findings(tmp_path: Path) -> None:
    """Enough files for the parse workers: their rows, worded in the main process,
    are the findings :func:`wrap.check` makes of each document."""
    root = tmp_path / "repo"
    _tree(root, 80)
    config = replace(Config(wrap=30, wrap_strict=True), cache=False)
    workspace = load_workspace(root, config=config, summarizers={wrap.GATE: wrap.Summarizer})
    made = workspace.documents.made(wrap.GATE)  # type: ignore[attr-defined]
    assert len(made) == 80  # the workers made them all
    found = wrap.check_workspace(workspace)
    expected = [
        f
        for path in sorted(workspace.selected)
        for f in wrap.check(workspace.documents[path], config)
    ]
    assert sorted(found, key=lambda f: f.sort_key()) == expected
    assert {f.rule for f in found} == {"W002", "W005"}


def _reference_field_key(text: str, start: int, end: int) -> tuple[str, int] | None:
    """:func:`field_key` as it was, without its look for the colon first."""
    from docsync.gates.wrap.fields import FIELD_LINE

    match = FIELD_LINE.match(text, start, end)
    if match is None:
        return None
    key = match.group("key")
    if len(key) > 40 or not key[0].isupper():
        return None
    return key, match.end()


KEY_WORDS = st.sampled_from(["Status", "Date", "a", "Owner", "x" * 9, "Long-word", "it's", "Ünïcode"])


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(KEY_WORDS, min_size=1, max_size=5),
    bold=st.sampled_from(["", "**", "__"]),
    inside=st.booleans(),
    rest=st.sampled_from(["", " accepted", "\taccepted", "\\", ": more", "x"]),
    lead=st.sampled_from(["", "  ", "- "]),
)
def test_a_field_key_is_found_as_before(
    words: list[str], bold: str, inside: bool, rest: str, lead: str
) -> None:
    from docsync.gates.wrap.fields import field_key

    key = " ".join(words)
    colon = f"{bold}:" if not inside else f":{bold}"
    line = f"{lead}{bold}{key}{colon}{rest}"
    for start in range(len(lead) + 1):
        assert field_key(line, start, len(line)) == _reference_field_key(line, start, len(line))
