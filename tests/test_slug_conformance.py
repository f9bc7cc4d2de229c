# ruff: noqa: RUF001  (look-alike characters are the point of these cases)
"""github-slugger's fixture list, as docsync's own table.

github-slugger's fixtures (recorded from GitHub's pages) are the spec of
the slug algorithm: one case per behaviour and one per Unicode general
category. The inputs below are chosen here, a few characters of each
category, and the expected slugs derived from the algorithm (lowercase;
remove symbols, controls, format, private-use, unassigned, separators and
punctuation but connector punctuation, keeping ``-`` and space; add back
every Alphabetic character; spaces become ``-``). The Unicode version is
Python's (``unicodedata.unidata_version``: 14.0.0 on Python 3.11), which
agrees with github-slugger's Unicode 13 on every character here.
"""

from __future__ import annotations

import unicodedata

import pytest

from docsync.parse.native import parse
from docsync.parse.slugs import ALPHABETIC_SYMBOLS, Slugger, slugify

# (behaviour, heading text, slug)
CATEGORIES = [
    ("Uppercase_Letter", "aA Æ Ω Я Ⴀ 𝐀b", "aa-æ-ω-я-ⴀ-𝐀b"),
    ("Lowercase_Letter", "aa ß ə ω я ﬀ 𝐚b", "aa-ß-ə-ω-я-ﬀ-𝐚b"),
    ("Titlecase_Letter", "aǅ ǈ ǋ ᾈb", "aǆ-ǉ-ǌ-ᾀb"),
    ("Modifier_Letter", "aʰ ˆ ー ꜗb", "aʰ-ˆ-ー-ꜗb"),
    ("Other_Letter", "aª א ب 中 가 ᚠb", "aª-א-ب-中-가-ᚠb"),
    ("Nonspacing_Mark", "a\u0301 \u05b0 \u0e31 \u20d0b", "a\u0301-\u05b0-\u0e31-\u20d0b"),
    ("Spacing_Mark", "a\u0903 \u09be \u102bb", "a\u0903-\u09be-\u102bb"),
    ("Enclosing_Mark", "a\u20dd \u20de \u0488b", "a\u20dd-\u20de-\u0488b"),
    ("Decimal_Number", "a0 9 ٣ ९ ０ 𝟎b", "a0-9-٣-९-０-𝟎b"),
    ("Letter_Number", "aⅠ ⅻ ᛮ 〇 𐅀b", "aⅰ-ⅻ-ᛮ-〇-𐅀b"),
    ("Other_Number", "a² ½ ① ⑴ 𝍠b", "a----b"),
    ("Connector_Punctuation", "a_ ‿ ⁀ ＿b", "a_-‿-⁀-＿b"),
    ("Dash_Punctuation", "a- ‐ – — ⸺ －b", "a------b"),
    ("Open_Punctuation", "a( [ { ⁅ 「 （b", "a-----b"),
    ("Close_Punctuation", "a) ] } ⁆ 」 ）b", "a-----b"),
    ("Initial_Punctuation", "a« ‘ “ ‹b", "a---b"),
    ("Final_Punctuation", "a» ’ ” ›b", "a---b"),
    ("Other_Punctuation", "a! . , ; § ¶ ・ ！b", "a-------b"),
    ("Math_Symbol", "a+ < = ∑ ∞ ＋b", "a-----b"),
    ("Currency_Symbol", "a$ ¢ € ₿ ＄b", "a----b"),
    ("Modifier_Symbol", "a^ ` ¨ ˘ ＾b", "a----b"),
    ("Other_Symbol", "a© ® ° ♥ 😄b", "a----b"),
    ("Space_Separator", "a\u00a0 \u2003 \u3000b", "a--b"),
    ("Line_Separator", "a\u2028b", "ab"),
    ("Paragraph_Separator", "a\u2029b", "ab"),
    ("Control", "a\x01 \x7f \x85b", "a--b"),
    ("Format", "a\u200b \u200d \u2060 \ufeffb", "a---b"),
    ("Private_Use", "a\ue000 \uf8ff \U000f0000b", "a--b"),
    ("Unassigned", "a\u0378 \U000e0080b", "a-b"),
    # Other_Symbol but Alphabetic: added back (this is what the issue found)
    ("Alphabetic symbols", "Ⓐ ⓩ 🄰 🅉 🅐 🅩 🅰 🆉", "ⓐ-ⓩ-🄰-🅉-🅐-🅩-🅰-🆉"),
    ("Alphabetic symbols in a heading", "Ⓐ Team", "ⓐ-team"),
]

BEHAVIOUR = [
    ("Basic usage", "alpha", "alpha"),
    ("Camel case", "bravoCharlieDelta", "bravocharliedelta"),
    ("Prototype names", "__proto__", "__proto__"),
    ("Own-property name", "hasOwnProperty", "hasownproperty"),
    ("a dash", "heading with a - dash", "heading-with-a---dash"),
    ("an underscore", "heading with an _ underscore", "heading-with-an-_-underscore"),
    ("a dot", "heading with a period.txt", "heading-with-a-periodtxt"),
    ("dots, parentheses, brackets", "call.fn(x, y [, z])", "callfnx-y--z"),
    ("only a space", " ", "-"),
    ("initial and final spaces", " a ", "-a-"),
    ("initial and final dashes", "-a-", "-a-"),
    ("apostrophe", "apostrophe’s gone", "apostrophes-gone"),
    ("a heart", "I ♥ unicode", "i--unicode"),
    ("an en dash", "en–dash", "endash"),
    ("an emoji", "😄 unicode emoji", "-unicode-emoji"),
    ("emoji around a dash", "😄-😄 unicode emoji", "--unicode-emoji"),
    ("emoji around an underscore", "😄_😄 unicode emoji", "_-unicode-emoji"),
    ("gemoji shortcode", ":smile: - a gemoji", "smile---a-gemoji"),
    ("gemoji with underscore", ":ok_hand: Single", "ok_hand-single"),
    ("two gemoji, no space", ":ok_hand::hatched_chick: Two", "ok_handhatched_chick-two"),
    ("Cyrillic", "Профили пользователей", "профили-пользователей"),
    ("Cyrillic and Han", "Привет non-latin 你好", "привет-non-latin-你好"),
]


@pytest.mark.parametrize(("name", "text", "slug"), CATEGORIES + BEHAVIOUR, ids=lambda v: v)
def test_slug(name: str, text: str, slug: str) -> None:
    assert slugify(text) == slug, name


# Duplicates, in document order: the counter belongs to the base slug and
# skips slugs already taken.
SEQUENCES = [
    (["alpha", "alpha"], ["alpha", "alpha-1"]),
    (["__proto__", "__proto__"], ["__proto__", "__proto__-1"]),
    (
        ["echo", "echo", "echo 1", "echo-1", "echo"],
        ["echo", "echo-1", "echo-1-1", "echo-1-2", "echo-2"],
    ),
    (["foxtrot-1", "foxtrot", "foxtrot"], ["foxtrot-1", "foxtrot", "foxtrot-2"]),
    (["golf", "golf", "golf"], ["golf", "golf-1", "golf-2"]),
    (["-a-", "-a-"], ["-a-", "-a--1"]),
]


@pytest.mark.parametrize(("texts", "slugs"), SEQUENCES)
def test_duplicates(texts: list[str], slugs: list[str]) -> None:
    slugger = Slugger()
    assert [slugger.slug(t) for t in texts] == slugs


@pytest.mark.parametrize(
    ("markdown", "slug"),
    [("# &#x20;", "-"), ("# &#x20;a", "-a"), ("# a&#x20;", "a-"), ("## Ⓐ Team", "ⓐ-team")],
)
def test_through_the_parser(markdown: str, slug: str) -> None:
    # spaces at a heading's ends only survive as character references
    assert [h.slug for h in parse("a.md", markdown + "\n").headings] == [slug]


def test_the_unicode_version_the_cases_are_read_with() -> None:
    assert unicodedata.unidata_version >= "13.0.0"
    for low, high in ALPHABETIC_SYMBOLS:
        assert {unicodedata.category(chr(c)) for c in range(low, high + 1)} == {"So"}
