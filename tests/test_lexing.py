"""The lexer docsync picks for a file name is the one Pygments' own lookup picks.

:func:`docsync.parse.lexing.lexer_class` skips compiling every pattern
Pygments knows (most of the cost of a first lookup); these tests hold it to
``get_lexer_for_filename`` for a name made from each of those patterns, for
names near them, and for arbitrary names.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.lexers import LEXERS, get_lexer_for_filename
from pygments.util import ClassNotFound

from docsync.model import Span
from docsync.parse.lexing import _lexer, _python_comments, comment_spans, lexer_class


def _pygments(name: str) -> type | None:
    try:
        return type(get_lexer_for_filename(name))
    except ClassNotFound:
        return None


def _named(glob: str) -> str:
    """A file name the pattern matches: each wildcard filled in, each bracket set's first member."""
    name = re.sub(r"\[!?(.)[^\]]*\]", r"\1", glob)
    return name.replace("*", "x").replace("?", "q")


def _sample() -> list[str]:
    """Patterns two lexers share (where priority decides), every pattern that is not a plain
    ``*.suffix`` (wildcards inside, brackets, whole names), and every twentieth of the rest:
    a lexer module loads on first match, and loading all of them takes seconds."""
    counts = Counter(glob for entry in LEXERS.values() for glob in entry[3])
    plain = re.compile(r"\*[^*?\[\]]+")
    odd = {g for g in counts if counts[g] > 1 or not plain.fullmatch(g)}
    return sorted(odd | set(sorted(set(counts) - odd)[::20]))


GLOBS = _sample()
NAMES = sorted({_named(g) for g in GLOBS} | {"x" + _named(g) for g in GLOBS} | {_named(g) + ".bak" for g in GLOBS})


def test_every_pattern_gets_pygments_choice() -> None:
    assert len(GLOBS) > 150
    wrong = [(n, lexer_class(n), _pygments(n)) for n in NAMES if lexer_class(n) is not _pygments(n)]
    assert wrong == []


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="abcx.-_ABC*?[]159", min_size=1, max_size=14)
    | st.sampled_from(NAMES).flatmap(lambda n: st.sampled_from([n, n[1:], n[:-1], n.upper()]))
)
def test_any_name_gets_pygments_choice(name: str) -> None:
    assert lexer_class(name) is _pygments(name)


_SHARED = ["a.py", "b.py", "run.sh", "x.c", "y.h", "app.js", "cfg.yaml", "tool.rb"]


def test_one_lexer_of_a_class_reads_every_file_of_it() -> None:
    assert _lexer("a.py") is _lexer("b.py") is _lexer("other.py")
    assert _lexer("x.c") is not _lexer("a.py")


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(_SHARED),
            st.text(alphabet="ab #/*'\"\\\n\t=(){}<>$`-", max_size=60),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_a_shared_lexer_reads_each_text_as_a_new_one_would(texts: list[tuple[str, str]]) -> None:
    """One after another, in one lexer per class, each text gets a fresh lexer's tokens."""
    for name, text in texts:
        fresh = type(_lexer(name))(stripnl=False, ensurenl=False)
        assert list(_lexer(name).get_tokens_unprocessed(text)) == list(
            fresh.get_tokens_unprocessed(text)
        )


# --------------------------------------------------------------------------- Python sources

_PYTHON_CASES = [
    "x = 1  # ADR 3\n",
    "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n# one\n# two\ns = '# not one'\n",
    "def f():\n    '''a docstring # not one'''\n    return 1 # one\r\n",
    "a = (1,\n  2)  # inside brackets\n",
    "x = f'{a} # in the string' # after\n",
    'x = b"#" + rb"\\#"  # bytes\n',
    "  # indented, then a tab\n\tpass\n",
    "s = '''\n# inside a string\n'''\n#at the end",
    "print 'a' # Python 2 reads as words and a string\n",
    "x = 'é' # ADR 0007 and more é\n",
    "",
    "\n\n",
]
_NOT_PYTHON_3 = [
    "s = 'unclosed # x\n",  # an error token: Pygments reads it
    "x = $y # z\n",
    "if x:\n  y\n z # dedent to nowhere\n",  # the tokenizer raises
    "x = [\n# open at the end\n",
    "x = 1 # a lone \r in it\n",  # a line end to the tokenizer, not to Pygments
    "\r# after a lone \r\n",
]


def _pygments_python(text: str) -> tuple[Span, ...]:
    from pygments.lexers import PythonLexer

    return _spans(PythonLexer(stripnl=False, ensurenl=False), text)


def _spans(lexer: object, text: str) -> tuple[Span, ...]:
    """What :func:`comment_spans` made of Pygments' tokens before Python sources were tokenized."""
    from pygments.token import Comment

    spans: list[Span] = []
    for index, kind, value in lexer.get_tokens_unprocessed(text):  # type: ignore[attr-defined]
        if kind not in Comment or kind in Comment.Preproc or not value:
            continue
        if spans and spans[-1].end == index:
            spans[-1] = Span(spans[-1].start, index + len(value))
        else:
            spans.append(Span(index, index + len(value)))
    return tuple(spans)


@pytest.mark.parametrize("text", _PYTHON_CASES + _NOT_PYTHON_3)
@pytest.mark.parametrize("name", ["a.py", "pkg/b.pyi", "c.pyw"])
def test_a_python_source_has_the_comments_pygments_finds(name: str, text: str) -> None:
    assert comment_spans(name, text) == _pygments_python(text)


@pytest.mark.parametrize("text", _PYTHON_CASES)
def test_python_sources_are_read_by_the_tokenizer(text: str) -> None:
    """Python's own tokenizer reads them (no Pygments lexer is compiled for them)."""
    assert _python_comments(text) == _pygments_python(text)


@pytest.mark.parametrize("text", _NOT_PYTHON_3)
def test_a_source_the_tokenizer_rejects_is_left_to_pygments(text: str) -> None:
    assert _python_comments(text) is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab #'\"\\\n\r\t\x0c\x00=(){}[]:;$`f-é\u2028", max_size=80))
def test_any_text_gets_pygments_comments_where_the_tokenizer_reads_it(text: str) -> None:
    read = _python_comments(text)
    assert read is None or read == _pygments_python(text)
    assert comment_spans("x.py", text) == (read if read is not None else _pygments_python(text))
