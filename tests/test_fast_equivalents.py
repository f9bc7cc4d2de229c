"""Fast forms of the migration's rewrites give exactly what the plain forms give.

Each shortcut the dry run takes is held to the definition it replaces:
:class:`~docsync.rewrite.code_paths.PathFinder` to the regex of
:func:`~docsync.rewrite.code_paths.path_pattern`, and
:func:`~docsync.rewrite.destinations.encode`'s early return to its
character-by-character loop, and :func:`~docsync.parse.render.github_html`,
which applies each of GitHub's rules only where its text occurs, to the
page with every rule applied; and the native parse's first reading, which
checks events for a metadata block only up to the last place one could open,
to the reading that checks every event.
"""

from __future__ import annotations

from urllib.parse import quote

from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.parse import native, render
from docsync.rewrite.code_paths import PathFinder, path_pattern
from docsync.rewrite.destinations import _ALWAYS_ENCODED, _ANGLE_SAFE, encode

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



def _github_html_every_rule(text: str) -> str:
    html = render._cmark(text)
    html = render._ALERT.sub(lambda m: f'<blockquote class="markdown-alert-{m.group(1).lower()}">\n<p>', html)
    html = render._IDS.sub(r'\1="user-content-', html)
    return render._FOOTNOTE_HREF.sub(r'href="#user-content-\1', html)


_MARKDOWN = [
    "> [!NOTE]\n> Careful.\n", "> [!warning] x\n", "> [!TIP]\n", "text[^1]\n\n[^1]: a note\n",
    '<a name="here"></a>\n', '<div id="x">\n\nin\n\n</div>\n', "[!NOTE]\n", "# Title\n",
    "[link](#fn-1)\n", "plain words\n", "`id=\"x\"`\n", "- [ ] task\n", "\n", 'name="n" id="i"\n',
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_MARKDOWN), max_size=8).map("".join))
def test_github_html_applies_each_rule_where_it_can_apply(text: str) -> None:
    assert render.github_html(text) == _github_html_every_rule(text)


_LINES = [
    "---", "--- ", "----", "-----", "- ---", "> ---", ">---", "  ---", "    ---", "1. ---", "[^1]: ---",
    "[^1]:---", "text", "", "\u00e9 \u00fc", "| a | b |", "|---|---|", "a | b", "--|---", "...", "```",
    "~~~", "<div>", "* item", "title: x", "Heading", "===", "---\t", "x ---",
]  # fmt: skip


def _every_event_checked(text: str) -> list[object] | None:
    """The plain form: every event of the first reading, or None where one after the start
    opens a metadata block."""
    read = native.pyromark.events_with_range(native._for_parser(text), options=native._OPTIONS)
    events = list(read)
    return None if any(w["start"] > 0 and native._is_metadata(e) for e, w in events) else events


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_LINES), max_size=14).map("\n".join), st.booleans())
def test_the_first_reading_checks_as_every_event_would(text: str, ending: bool) -> None:
    text += "\n" if ending else ""
    try:
        read: list[object] | None = list(native._first_reading(text))
    except native._MetadataLater:
        read = None
    assert read == _every_event_checked(text)
