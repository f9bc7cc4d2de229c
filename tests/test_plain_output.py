"""The dry run's shortcuts around rich: its report written as it is where rich would print
each line so, and no console made to learn that stderr is no terminal. Each is checked
against rich itself."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from docsync.commandline import output
from docsync.migrate.show import _AS_IS, Line, as_printed, rendered
from tests.gitutil import git_environ


def _rich(lines: list[Line], width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, soft_wrap=True, highlight=False).print(rendered(lines))
    return out.getvalue()


def test_every_character_written_as_it_is_is_one_column_that_rich_keeps() -> None:
    for char in _AS_IS:
        assert cell_len(char) == 1, hex(ord(char))
        assert Text(char).plain == char, hex(ord(char))


# Plain characters, and each kind rich treats otherwise: tabs, the control codes it
# strips, escapes, wide and zero-width characters, a soft hyphen, a no-break space.
_CHARS = st.sampled_from("abc -./?→…é~\u2019") | st.sampled_from("\t\r\x07\x08\x0b\x0c\x1b\n漢\u0301\u00ad\u00a0\u200b")
_LINES = st.lists(
    st.builds(
        Line,
        st.text(_CHARS, max_size=30),
        st.sampled_from(["", "bold", "dim", "yellow", "bold red"]),
        st.booleans(),
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=300, deadline=None)
@given(_LINES, st.integers(min_value=0, max_value=40))
def test_lines_written_as_they_are_are_what_rich_prints(lines: list[Line], width: int) -> None:
    text = as_printed(lines, width)
    if text is not None:
        assert text == _rich(lines, width)


_PLAIN = st.lists(
    st.builds(Line, st.text(st.sampled_from("ab -→…é\u2019"), max_size=30), st.just("dim"), st.booleans()),
    min_size=1,
    max_size=6,
)


@settings(max_examples=200, deadline=None)
@given(_PLAIN, st.integers(min_value=2, max_value=40))
def test_plain_lines_are_always_written_as_they_are(lines: list[Line], width: int) -> None:
    text = as_printed(lines, width)
    if any(len(line.text) > width and line.text.endswith(" ") for line in lines):
        assert text is None
    else:
        assert text == _rich(lines, width)


@pytest.mark.parametrize(
    ("lines", "width"),
    [
        ([Line("Migration plan → docs/rfc", "bold"), Line("  0001-a.md → accepted/2020-01-01-a.md", clip=True)], 80),
        ([Line("  0001-a-long-name.md → accepted/2020-01-01-….md", clip=True)], 20),  # cut with …
        ([Line("a question never cut, however long it is", "red")], 10),
        ([Line("")], 80),
        ([Line("Nothing to migrate: no legacy record trees with numbered records were found.")], 80),
    ],
)
def test_plain_lines_are_written_as_rich_prints_them(lines: list[Line], width: int) -> None:
    assert as_printed(lines, width) == _rich(lines, width)


@pytest.mark.parametrize(
    ("lines", "width"),
    [
        ([Line("tab\there")], 80),  # rich expands it
        ([Line("wide 漢")], 80),  # two columns
        ([Line("bell\x07")], 80),  # rich strips it
        ([Line("past the width, then spaces   ")], 10),  # rich crops them
        ([Line("two\nlines", clip=True)], 80),
    ],
)
def test_lines_rich_changes_are_left_to_rich(lines: list[Line], width: int) -> None:
    assert as_printed(lines, width) is None


def _streams() -> list[tuple[str, object]]:
    primary, secondary = os.openpty()
    terminal = open(secondary, "w", closefd=True)  # noqa: SIM115 - closed by the fixture below
    os.close(primary)
    closed = io.StringIO()
    closed.close()
    return [("terminal", terminal), ("pipe", io.StringIO()), ("closed", closed), ("none", None)]


@pytest.mark.parametrize("compatible", [None, "0", "1", "yes"])
@pytest.mark.parametrize("force_color", [None, "", "1"])
@pytest.mark.parametrize("color", list(output.Color))
def test_stderr_is_called_no_terminal_only_where_rich_says_so(
    monkeypatch: pytest.MonkeyPatch, compatible: str | None, force_color: str | None, color: output.Color
) -> None:
    for name, value in (("TTY_COMPATIBLE", compatible), ("FORCE_COLOR", force_color)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    output.use_color(color)
    try:
        for kind, stream in _streams():
            monkeypatch.setattr(sys, "stderr", stream)
            console = Console(stderr=True, force_terminal=True if color is output.Color.always else None)
            if output._not_a_terminal(stream):
                assert not console.is_terminal, kind
            elif kind == "terminal" or compatible == "1" or force_color == "1" or color is output.Color.always:
                assert console.is_terminal, kind  # answered by rich, and rightly not called no terminal
            if stream is not None and kind == "terminal":
                stream.close()  # type: ignore[attr-defined]
    finally:
        output.use_color(output.Color.auto)


def test_a_piped_dry_run_imports_no_rich_before_its_files_parse(tmp_path: Path) -> None:
    """rich is a tenth of the dry run's start-up: it is imported while the workers parse."""
    root = tmp_path / "repo"
    (root / "docs" / "adr").mkdir(parents=True)
    env = git_environ()
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    for number in range(1, 71):  # enough files for the parse workers
        (root / "docs" / "adr" / f"{number:04d}-record-{number}.md").write_text(
            f"# {number}. Record {number}\n\nStatus: Accepted\n"
        )
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    subprocess.run(["git", "commit", "-qm", "records"], cwd=root, check=True, env=env)
    seen = tmp_path / "seen.txt"
    watch = (
        "import sys, docsync.workspace.load as load\n"
        "real = load.parse_files\n"
        "def parse_files(*args, **kwargs):\n"
        f"    open({str(seen)!r}, 'a').write(' '.join(sorted(m for m in sys.modules if m.startswith('rich'))) + '|')\n"
        "    return real(*args, **kwargs)\n"
        "load.parse_files = parse_files\n"
        "from docsync.__main__ import run\n"
        "sys.argv = ['docsync', 'migrate']\n"
        "run()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", watch], cwd=root, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "→ docs/rfc" in done.stdout  # the report, written plain
    assert seen.read_text().split("|")[0] == ""


def _latin1() -> object:
    return io.TextIOWrapper(io.BytesIO(), encoding="latin-1")


@pytest.mark.parametrize("columns", [None, "64", "0", "wide"])
@pytest.mark.parametrize("compatible", [None, "0", "1"])
@pytest.mark.parametrize("force_color", [None, "", "1"])
@pytest.mark.parametrize("color", list(output.Color))
def test_the_plain_stdout_width_is_the_consoles_where_it_prints_plain(
    monkeypatch: pytest.MonkeyPatch, columns: str | None, compatible: str | None, force_color: str | None, color: output.Color
) -> None:
    """Where :func:`output.plain_stdout_width` answers, the stdout console the command
    makes has that width and prints plain characters as they are; on a pipe it answers."""
    for name, value in (("COLUMNS", columns), ("TTY_COMPATIBLE", compatible), ("FORCE_COLOR", force_color)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    try:
        for kind, stream in [*_streams(), ("latin-1", _latin1())]:
            monkeypatch.setattr(sys, "stdout", stream)
            output.use_color(color)
            width = output.plain_stdout_width()
            console = output._console(False)
            if width is not None:
                assert (console.width, output.uncoloured(console)) == (width, True), kind
            forced = compatible == "1" or force_color == "1" or color is output.Color.always
            if kind in ("pipe", "closed") and not forced:
                assert width is not None, kind  # the shortcut is taken where it can be
            if kind == "terminal" and stream is not None:
                stream.close()  # type: ignore[attr-defined]
    finally:
        output.use_color(output.Color.auto)


# Runs the dry run as `python -m docsync migrate` does; "plain" as the command is, "console"
# without the width told before a console is made (the way before), "rich" with every line
# printed by rich. Writes the rich modules imported by the end to the file it is given.
_WRAPPED = """
import os, sys
from docsync.commandline import output
from docsync.migrate import show
mode, seen = sys.argv[1:]
if mode != "plain":
    output.plain_stdout_width = lambda: None
if mode == "rich":
    show.as_printed = lambda lines, width: None
from docsync.cli import main
try:
    main(["migrate"])
except SystemExit as done:
    code = done.code
sys.stdout.flush()
open(seen, "w").write(" ".join(sorted(m for m in sys.modules if m.split(".")[0] == "rich")))
os._exit(code or 0)
"""


def _terminal_of(columns: int) -> tuple[int, int]:
    """A pseudo-terminal of ``columns`` columns: its two ends (the second is the terminal)."""
    import fcntl
    import struct
    import termios

    primary, secondary = os.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    return primary, secondary


@pytest.mark.parametrize(
    ("width_from", "width"), [("stdin a terminal of 57 columns", 57), ("COLUMNS=64", 64), ("nothing", 80)]
)
def test_a_piped_dry_run_writes_what_rich_prints_and_never_imports_rich(
    tmp_path: Path, width_from: str, width: int
) -> None:
    """Its record lines fitted to the width rich finds, written byte for byte as rich prints them."""
    root = tmp_path / "repo"
    (root / "docs" / "adr").mkdir(parents=True)
    env = git_environ()
    env.pop("COLUMNS", None)
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    for number in range(1, 71):  # enough files for the parse workers; long names are shortened
        long = "-with-a-name-long-enough-to-be-cut" * (number % 3)
        (root / "docs" / "adr" / f"{number:04d}-record-{number}{long}.md").write_text(
            f"# {number}. Record {number}\n\nStatus: Accepted\n\nSee ADR-{max(1, number - 1)}.\n"
        )
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    subprocess.run(["git", "commit", "-qm", "records"], cwd=root, check=True, env=env)
    ends = _terminal_of(57) if width_from.startswith("stdin") else ()
    stdin = ends[1] if ends else subprocess.DEVNULL
    if width_from.startswith("COLUMNS"):
        env["COLUMNS"] = "64"
    printed: dict[str, str] = {}
    imported: dict[str, str] = {}
    try:
        for mode in ("plain", "console", "rich"):
            seen = tmp_path / f"{mode}.txt"
            done = subprocess.run(
                [sys.executable, "-c", _WRAPPED, mode, str(seen)],
                cwd=root, env=env, stdin=stdin, capture_output=True, text=True, check=False,
            )
            assert done.returncode == 0, done.stderr
            printed[mode], imported[mode] = done.stdout, seen.read_text()
    finally:
        for end in ends:
            os.close(end)
    assert "→ docs/rfc" in printed["plain"]
    assert max(len(line) for line in printed["plain"].splitlines() if line.startswith("  00")) == width
    assert printed["plain"] == printed["console"] == printed["rich"]
    assert imported["plain"] == ""
    assert "rich.console" in imported["console"].split()  # the wrapper sees rich where it is there
