"""The lexer docsync picks for a file name is the one Pygments' own lookup picks.

:func:`docsync.parse.lexing.lexer_class` skips compiling every pattern
Pygments knows (most of the cost of a first lookup); these tests hold it to
``get_lexer_for_filename`` for a name made from each of those patterns, for
names near them, and for arbitrary names.
"""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.lexers import LEXERS, get_lexer_for_filename
from pygments.util import ClassNotFound

from docsync.parse.lexing import _lexer, lexer_class


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
