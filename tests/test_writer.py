"""Writing keeps every byte a change does not mean to change: line endings above all."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.check.fix import run_fix
from docsync.parse.source import decode
from docsync.write.writer import FileWrite
from tests.gitutil import GitRepo

BODIES = st.sampled_from(["", "alpha", "beta gamma", "# Title", "- item", "  x", "\t"])
LINES = st.lists(st.tuples(BODIES, st.sampled_from(["\n", "\r\n", "\r"])), max_size=12)
# Mixed LF and CRLF, what real files hold (a lone CR before an emptied line
# would read back as one CRLF: no writer can keep that apart).
LF_CRLF_LINES = st.lists(st.tuples(BODIES, st.sampled_from(["\n", "\r\n"])), max_size=12)


def _original(lines: list[tuple[str, str]], final: bool) -> str:
    text = "".join(body + end for body, end in lines)
    return text if final or not lines else text[: -len(lines[-1][1])]


@settings(max_examples=300, deadline=None)
@given(LINES, st.booleans(), st.booleans())
def test_writing_back_what_was_read_gives_the_same_bytes(
    lines: list[tuple[str, str]], final: bool, bom: bool
) -> None:
    raw = ("\ufeff" if bom else "") + _original(lines, final)
    text, newline, had_bom = decode(raw.encode())
    assert FileWrite("a.md", text, newline, had_bom).encoded(raw.encode()) == raw.encode()


@settings(max_examples=300, deadline=None)
@given(LF_CRLF_LINES, st.integers(min_value=0, max_value=11), st.sampled_from(["edited", ""]))
def test_an_edited_line_leaves_every_other_line_ending_alone(
    lines: list[tuple[str, str]], at: int, replacement: str
) -> None:
    raw = _original(lines, True)
    read = _split(raw)  # "\r" then "\n" read as one CRLF, as every reader does
    text, newline, _ = decode(raw.encode())
    pieces = text.split("\n")
    if at >= len(pieces) - 1 or pieces[at] == replacement:
        return
    pieces[at] = replacement
    written = FileWrite("a.md", "\n".join(pieces), newline).encoded(raw.encode()).decode()
    assert [line for k, line in enumerate(_split(written)) if k != at] == [
        line for k, line in enumerate(read) if k != at
    ]


def _split(text: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    body = ""
    i = 0
    while i < len(text):
        if text.startswith("\r\n", i):
            found.append((body, "\r\n"))
            body, i = "", i + 2
        elif text[i] in "\r\n":
            found.append((body, text[i]))
            body, i = "", i + 1
        else:
            body, i = body + text[i], i + 1
    return found + ([(body, "")] if body else [])


def test_fix_on_a_file_with_mixed_line_endings_changes_only_the_paragraph(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "repo")
    raw = b"# Title\r\n\r\nHard\nwrapped\r\nparagraph.\n\nKept as it is.\r\n"
    (repo.root / "doc.md").write_bytes(raw)
    repo.commit("mixed")
    run_fix(repo.root)
    assert (repo.root / "doc.md").read_bytes() == (
        b"# Title\r\n\r\nHard wrapped paragraph.\n\nKept as it is.\r\n"
    )
