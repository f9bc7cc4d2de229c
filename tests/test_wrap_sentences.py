"""The quick sentence verdict never contradicts the full reading.

:func:`~docsync.gates.wrap.sentences.keeps_sentences` says a paragraph certainly
keeps to ``wrap = "sentence"``; wherever it says so, the full reading must find the
paragraph not breaking it, as ``init`` and the hint count it and as the gate reports
it under ``wrap = "sentence"`` (no finding). Checked on every
paragraph of the case files, of the generated documents of the wrap properties, and
of generated one-sentence-a-line documents built to sit on the verdict's edges
(sentence ends before capitals, abbreviations, initials, code, links and HTML at
either side of a line end, hard breaks, backslashes, wide letters). Each source
must also get the verdict on some paragraphs, or the comparison proves nothing.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.config import Config
from docsync.gates.wrap.count import reading
from docsync.gates.wrap.prose import DocumentIndex
from docsync.gates.wrap.reading import analyse
from docsync.gates.wrap.sentences import breaks_sentences, keeps_sentences
from docsync.gates.wrap.violations import violations
from docsync.model import Document
from docsync.parse.native import parse
from tests.case_readings import case_documents
from tests.test_wrap_properties import DOCUMENTS, TOKENS

_SENTENCE = Config(wrap="sentence")


def _compared(doc: Document) -> int:
    """Assert the verdict on each of ``doc``'s paragraphs; how many it answered."""
    index = DocumentIndex.of(doc)
    answered = 0
    for para in doc.paragraphs:
        if breaks_sentences(doc, para, index):
            answered += 1
            prose = analyse(doc, para, index, sentences=True)
            assert prose is not None and reading(doc, prose).off_sentences, (doc.path, para.lines)
            assert violations(doc, prose, _SENTENCE) != [], (doc.path, para.lines)
        if keeps_sentences(doc, para, index):
            answered += 1
            prose = analyse(doc, para, index, sentences=True)
            assert prose is None or not reading(doc, prose).off_sentences, (doc.path, para.lines)
            assert prose is None or violations(doc, prose, _SENTENCE) == [], (doc.path, para.lines)
    return answered


def test_case_files() -> None:
    assert sum(_compared(doc) for doc in case_documents()) > 50


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(DOCUMENTS)
def test_generated_documents(text: str) -> None:
    _compared(parse("doc.md", text))


ENDS = st.sampled_from(
    ["end.", "Done!", "why?", "e.g.", "Mr.", "U.S.", "J.", "etc.", '"quoted."', "(aside.)", "*em.*",
     "`code`.", "`code.`", "[link](u).", "[link.](u)", "<b>x.</b>", "<b>x</b>.", "x", "3.14", "end.\\",
     "end.  ", "end. ", "end..", "日本語。", "end.\uff01", "$x.$", "**bold.**",
     "`Foo.", "[Link.", '<b title="x.', "[R.]", "[Link.](u)", "<https://x.org/a.>"]
)
STARTS = st.sampled_from(
    ["The", "It", "`Code`", "[Link](u)", "\uff21", "<span>", "alpha", "A", "Ünder", "(The", '"The',
     "#", "1.", "- It", "```", "~~~", "[r]: x", "Is:", "\\The", "_It_", "[^1]:",
     "Bar`", "Text](u)", 'Y">', "Bar` x", "Text](u) x",
     "`x y`e.g. The", "x\u00a0e.g. The", "<b a='x y'>e.g. The", "e.g. The", "Mr. Smith", "3.14 The",
     "x. the", "( The", "An end. ( The", "U.S. Army", "`a`. The", "[e.g.](u) The"]
)
SPACES = st.sampled_from([" ", " ", " ", "  ", "\t"])


CROSSING = st.sampled_from(
    [("`Foo.", "Bar`"), ("[Link.", "Text](u)"), ('<b title="x.', 'Y">'), ("<!-- A.", "B -->"),
     ("[Two.", "Words][r]"), ("end.", "The"), ("end.", "`Code`")]
)
"""A line end inside a code span, a link's text, HTML or a comment, after what would end
a sentence: each pair is one line's last word and the next line's first."""


@st.composite
def sentence_lines(draw: st.DrawFn) -> list[str]:
    count = draw(st.integers(1, 4))
    pairs = [draw(CROSSING) if draw(st.booleans()) else (draw(ENDS), draw(STARTS)) for _ in range(count)]
    lines = []
    for k in range(count):
        middle = draw(st.lists(TOKENS, max_size=3))
        start = pairs[k - 1][1] if k else draw(STARTS)
        words = [start, *(t for t in middle if "\n" not in t), pairs[k][0]]
        lines.append("".join(w + draw(SPACES) for w in words[:-1]) + words[-1])
    return lines


@st.composite
def sentence_documents(draw: st.DrawFn) -> str:
    blocks = []
    for _ in range(draw(st.integers(1, 3))):
        lines = draw(sentence_lines())
        first, rest = draw(
            st.sampled_from([("", ""), ("- ", "  "), ("1. ", "   "), ("> ", "> "), ("> ", ""), ("[^n]: ", "    ")])
        )
        blocks.append("\n".join([first + lines[0], *(rest + line for line in lines[1:])]))
    return "---\ntitle: x\n---\n\n" + "\n\n".join(blocks) + "\n\n[r]: https://example.com\n[R.]: https://example.com\n\n[^n]: A note.\n"


_ANSWERED: list[int] = []


@SETTINGS
@given(sentence_documents())
def test_generated_sentences(text: str) -> None:
    _ANSWERED.append(_compared(parse("doc.md", text)))


def test_generated_sentences_answer() -> None:
    """The generator reaches the verdict (run after the property, in file order)."""
    if not _ANSWERED:
        test_generated_sentences()
    assert sum(_ANSWERED) > 20


EDGES = [
    ("An end.\nThe next one.", True),
    ("An x\u00a0e.g. The next.", False),  # the reading's word holds the no-break space
    ("Code `x y`e.g. The next.", False),  # and the code span's space
    ("Use e.g. this one.\nThe next.", True),
    ("Use e.g. This one.", True),  # an abbreviation ends no sentence
    ("An end. ( The next.", False),
    ("An end `Foo.\nBar` goes on.", False),
    ("An end [Link.\nText](u) goes on.", False),
    ("An end.\nthe next.", False),
    ("An end.  \nThe next.", False),
]


def test_edges() -> None:
    """Where a word reaches past what the line's spaces show, the verdict leaves it."""
    for text, keeps in EDGES:
        doc = parse("doc.md", text + "\n")
        (para,) = doc.paragraphs
        assert keeps_sentences(doc, para, DocumentIndex.of(doc)) is keeps, text
        assert _compared(doc) >= int(keeps)


BREAKING_EDGES = [
    ("An end. The next.", True),
    ("An x\u00a0end. The next.", True),
    ("A [Link. Text](u) goes on.", False),  # inside link text no sentence ends
    ("A `Foo. Bar` goes on.", False),  # nor inside code
    ('A <b title="x. Y"> goes on.', False),  # nor inside HTML
    ("An end.\\\n[x]: y. Then more.", False),  # a line the guard on fixed starts holds
    ("Status: Done. Then more.", False),  # a header field
    ("An end.\nthe next. The last.", True),
    ("Use e.g. This one.", False),
]


def test_breaking_edges() -> None:
    """The quick "certainly breaks" verdict, where the reading's rooms, guards and
    fields unmark what the line's text shows."""
    for text, breaks in BREAKING_EDGES:
        doc = parse("doc.md", text + "\n")
        (para,) = doc.paragraphs
        assert breaks_sentences(doc, para, DocumentIndex.of(doc)) is breaks, text
        _compared(doc)
