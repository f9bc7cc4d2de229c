"""The plugin pre-check says "no lexer plugin" only where Pygments' own scan finds none.

:func:`docsync.parse.lexer_plugins.none_declared` stands in for
``importlib.metadata``'s scan of every distribution. Each case below is a
real folder on ``sys.path``, holding distributions as installers lay them
out; where the pre-check says none, Pygments' ``find_plugin_lexers`` (run on
the same path, its cache cleared) must find none and raise nothing; where a
distribution declares a lexer, the lexer docsync picks for a file name is
the plugin's, as ``get_lexer_for_filename`` picks it.
"""

from __future__ import annotations

import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pygments import plugin
from pygments.lexers import get_lexer_for_filename

from docsync.parse import lexer_plugins, lexing

PLUGIN_MODULE = '''
from pygments.lexer import RegexLexer
from pygments.token import Comment, Text

class PlugLexer(RegexLexer):
    name = "Plug"
    aliases = ["plug"]
    filenames = ["*.plugtest", "*.py"]
    priority = 5
    tokens = {"root": [(r"%.*", Comment), (r"[^%]+", Text)]}
'''
PLUGIN_ENTRY = "[pygments.lexers]\nplug = docsync_test_plug:PlugLexer\n"


def _dist(folder: Path, name: str, entry_points: str | bytes | None) -> None:
    info = folder / name
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name.partition('-')[0]}\nVersion: 1.0\n")
    if isinstance(entry_points, bytes):
        (info / "entry_points.txt").write_bytes(entry_points)
    elif entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points)


def _zip(folder: Path) -> str:
    archive = folder / "dists.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("zipped-1.0.dist-info/METADATA", "Name: zipped\nVersion: 1.0\n")
    return str(archive)


# Each case: what it lays out in its folder (returning the path entries to read, before
# sys.path's own), and whether the pre-check may call it plugin-free.
CASES: dict[str, tuple[Callable[[Path], list[str]], bool]] = {
    "empty folder": (lambda d: [str(d)], True),
    "no entry points": (lambda d: (_dist(d, "plain-1.0.dist-info", None), [str(d)])[1], True),
    "console scripts only": (
        lambda d: (_dist(d, "tool-2.0.dist-info", "[console_scripts]\ntool = tool:main\n"), [str(d)])[1],
        True,
    ),
    "an egg-info folder": (lambda d: (_dist(d, "old-0.1.egg-info", "# none\n"), [str(d)])[1], True),
    "a missing folder": (lambda d: [str(d / "absent")], True),
    "a lexer plugin": (lambda d: (_dist(d, "plug-1.0.dist-info", PLUGIN_ENTRY), [str(d)])[1], False),
    "the group named in a value": (
        lambda d: (_dist(d, "x-1.0.dist-info", "[a]\nb = pygments.lexers.x:Y\n"), [str(d)])[1],
        False,
    ),
    "a line the scan fails on": (lambda d: (_dist(d, "bad-1.0.dist-info", "[a]\nno equals\n"), [str(d)])[1], False),
    "not UTF-8": (lambda d: (_dist(d, "latin-1.0.dist-info", b"[a]\nb = \xe9:c\n"), [str(d)])[1], False),
    "a name read from its metadata": (lambda d: (_dist(d, "-1.0.dist-info", None), [str(d)])[1], False),
    "an upper-case suffix": (lambda d: (_dist(d, "Up-1.0.DIST-INFO", None), [str(d)])[1], False),
    "an egg": (lambda d: (_dist(d / "thing-1.0.egg", "EGG-INFO", None), [str(d / "thing-1.0.egg")])[1], False),
    "a zip file": (lambda d: [_zip(d)], False),
    "a file that is no folder": (lambda d: ((d / "f.txt").write_text("x"), [str(d / "f.txt")])[1], False),
}


@pytest.fixture
def fresh_scans() -> Iterator[None]:
    """Pygments' entry points and docsync's pattern table read anew, before and after."""

    def clear() -> None:
        plugin.iter_entry_points.cache_clear()
        for cached in (lexing._globs, lexing._by_tail, lexing._lexer):
            cached.cache_clear()
        lexing._MADE.clear()

    clear()
    yield
    clear()
    sys.modules.pop("docsync_test_plug", None)


@pytest.mark.parametrize("case", list(CASES))
def test_plugin_free_only_where_the_scan_finds_no_lexer(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_scans: None
) -> None:
    lay_out, plugin_free = CASES[case]
    (tmp_path / "docsync_test_plug.py").write_text(PLUGIN_MODULE)
    (tmp_path / "dists").mkdir()
    monkeypatch.setattr(sys, "path", [*lay_out(tmp_path / "dists"), str(tmp_path), *sys.path])
    assert lexer_plugins.none_declared() is plugin_free
    if plugin_free:
        assert list(plugin.find_plugin_lexers()) == []


def test_a_lexer_plugin_is_found_and_chosen_as_pygments_chooses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_scans: None
) -> None:
    (tmp_path / "docsync_test_plug.py").write_text(PLUGIN_MODULE)
    _dist(tmp_path, "plug-1.0.dist-info", PLUGIN_ENTRY)
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    assert not lexer_plugins.none_declared()
    for name in ("a.plugtest", "a.py", "a.c"):
        assert lexing.lexer_class(name) is type(get_lexer_for_filename(name))
    chosen = lexing.lexer_class("a.plugtest")
    assert chosen is not None and chosen.__name__ == "PlugLexer"
    assert lexing.comment_spans("a.plugtest", "x %note\n") is not None


def test_without_plugins_the_table_is_pygments_builtin_one(fresh_scans: None) -> None:
    assert lexer_plugins.none_declared()  # this environment declares none
    assert list(plugin.find_plugin_lexers()) == []
    for name in ("a.py", "a.c", "Makefile", "a.txt"):
        assert lexing.lexer_class(name) is type(get_lexer_for_filename(name))


def test_a_second_distribution_finder_leaves_it_to_the_scan() -> None:
    class Finder:
        @staticmethod
        def find_distributions(*args: object, **kwargs: object) -> list[object]:
            return []

    assert lexer_plugins.none_declared(finders=[*sys.meta_path])
    assert not lexer_plugins.none_declared(finders=[Finder, *sys.meta_path])
    assert not lexer_plugins.none_declared(finders=[])
