"""Where a line may start and where a sentence ends, word by word."""

from __future__ import annotations

import re

# --------------------------------------------------------------------------- words that must not start a line

_HTML_BLOCK_NAMES = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|"
    "details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|"
    "h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|"
    "noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|"
    "thead|title|tr|track|ul"
)
# Each alternative is a word that, at the start of a continuation line, would
# open or end a block (CommonMark and GFM block starts that can interrupt a
# paragraph, plus a few that cannot but are cheap to avoid).
_STARTER = re.compile(
    r"""(?: \#{1,6}$                         # ATX heading
          | >                                # block quote
          | [-+*]$                           # bullet list item
          | [-*_=+]+$                        # thematic break, setext underline
          | \d{1,9}[.)]$                     # ordered list item
          | `{3} | ~{3}                      # code fence
          | <(?: /?(?:"""
    + _HTML_BLOCK_NAMES
    + r""")(?:[\s/>]|$)                      # HTML block, type 6
               | (?:script|pre|style|textarea)(?:[\s>]|$)
               | !-- | \? | ![A-Za-z] | !\[CDATA\[ )
          | \[\^[^\]]+\]:                    # footnote definition
          | [|:-]*[|-][|:-]*$                # table delimiter row
          | :{3}                             # ::: container (VitePress, Docusaurus)
          | !!!(?:\s|$) | \?{3}\+?(?:\s|$)    # MkDocs admonition
          | \$\$                             # display math
          | \{\{[<%] | \{%                    # Hugo shortcode, Liquid tag
          | \[\[_TOC_\]\] | \[TOC\]           # table-of-contents marker
        )""",
    re.VERBOSE | re.IGNORECASE,
)


def starts_block(word: str) -> bool:
    """Whether ``word`` would start a block if a line began with it."""
    return _STARTER.match(word) is not None


# --------------------------------------------------------------------------- sentences

# Abbreviations that are not sentence ends even before a capital letter.
# ("etc." and "Inc." often end a sentence, so they are not here.)
_ABBREVIATIONS = frozenset(
    {
        *("e.g.", "i.e.", "cf.", "vs.", "viz.", "approx.", "ca.", "al.", "resp.", "incl."),
        *("esp.", "fig.", "figs.", "eq.", "eqs.", "no.", "nos.", "vol.", "vols.", "pp."),
        *("p.", "ch.", "sec.", "sect.", "ref.", "refs.", "dept.", "op.", "ed.", "eds."),
        *("mr.", "mrs.", "ms.", "mx.", "dr.", "prof.", "st.", "jr.", "sr.", "gen.", "gov."),
        *("sen.", "rep.", "rev.", "hon.", "capt.", "col.", "lt.", "sgt.", "mt.", "ft.", "tel."),
    }
)
OPENERS = "\"'\u201c\u2018([{*_~"  # quotes, brackets, emphasis
CLOSERS = "\"'\u201d\u2019)]}*_~"
_INITIALS = re.compile(r"(?:[^\W\d_]\.)+")


def is_sentence_end(word: str, following: str) -> bool:
    """Whether a sentence ends after ``word`` when ``following`` comes next.

    A sentence end is ``.``, ``!`` or ``?`` (closing quotes, brackets and
    emphasis may follow) before a word that starts with a capital letter or
    a code span. Listed abbreviations, initials (``J.``, ``U.S.``) and
    decimals (``3.14`` has no space) are not sentence ends.
    """
    core = word.rstrip(CLOSERS)
    if not core or core[-1] not in ".!?":
        return False
    if core[-1] == "." and not core.endswith(".."):
        token = core.lstrip(OPENERS).lower()
        if token in _ABBREVIATIONS or _INITIALS.fullmatch(token):
            return False
    start = following.lstrip(OPENERS)
    return bool(start) and (start[0] == "`" or start[0].isupper())
