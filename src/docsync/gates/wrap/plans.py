"""Plans: for every gap of a paragraph, whether a line should end there, per convention."""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Span
from .display import advance
from .prose import Gap, Prose, Word

# A plan holds, for each gap, whether a line should end there.
Plan = tuple[bool, ...]


def plan_joined(prose: Prose) -> Plan:
    """``wrap = "none"``: one line per paragraph, except where a line end must stay."""
    return tuple(gap.kept for gap in prose.gaps)


def plan_sentences(prose: Prose) -> Plan:
    """``wrap = "sentence"``: a line ends after each sentence and nowhere else."""
    return tuple(gap.kept or gap.sentence for gap in prose.gaps)


def _joined_gap(text: str, gap: Gap) -> str:
    return " " if gap.newline else text[gap.span.start : gap.span.end]


def _word_text(text: str, word: Word) -> str:
    """A word as it reads once the line ends inside its code spans are joined."""
    if not word.joins:
        return text[word.span.start : word.span.end]
    parts: list[str] = []
    cursor = word.span.start
    for join in word.joins:
        parts.append(text[cursor : join.start])
        parts.append(" ")
        cursor = join.end
    parts.append(text[cursor : word.span.end])
    return "".join(parts)


def _chunk_heads(text: str, prose: Prose) -> list[str]:
    """For each word, the text up to its line's end of the run it starts.

    A run is the words joined by gaps that are neither breakable nor kept:
    they must stay on one line, so the greedy fill places them as one.
    """
    heads = [""] * len(prose.words)
    following = ""
    for i in range(len(prose.words) - 1, -1, -1):
        own = _word_text(text, prose.words[i])
        if i < len(prose.gaps) and not (prose.gaps[i].breakable or prose.gaps[i].kept):
            own += _joined_gap(text, prose.gaps[i]) + following
        heads[i] = own.split("\n", 1)[0]
        following = own
    return heads


def _after_newline(text: str, gap: Gap) -> str:
    gap_text = text[gap.span.start : gap.span.end]
    return gap_text[gap_text.index("\n") + 1 :]


def plan_width(text: str, prose: Prose, width: int) -> Plan:
    """``wrap = <width>``: greedy fill, breaking only at break opportunities.

    A line past ``width`` can only be a single unbreakable run, which is what
    the check exempts, so the result of this plan never fails the check. A
    header field's line is kept as it is: nothing is broken in it, and no word
    is pulled up onto it.
    """
    heads = _chunk_heads(text, prose)
    prefix_width = advance(0, prose.prefix or "")
    column = advance(prose.first_column, _word_text(text, prose.words[0]))
    plan: list[bool] = []
    for i, gap in enumerate(prose.gaps):
        if gap.kept or (gap.ends_field and gap.newline):
            line_ends = True
        elif gap.breakable:
            line_ends = advance(column, _joined_gap(text, gap) + heads[i + 1]) > width
        else:
            line_ends = False
        plan.append(line_ends)
        if not line_ends:
            column = advance(column, _joined_gap(text, gap))
        elif gap.newline:
            column = advance(0, _after_newline(text, gap))
        else:
            column = prefix_width
        column = advance(column, _word_text(text, prose.words[i + 1]))
    return tuple(plan)


def plan_changes(prose: Prose, plan: Plan) -> Iterable[tuple[Gap, bool]]:
    """The gaps where ``plan`` disagrees with the source, with the wanted line end."""
    for gap, line_ends in zip(prose.gaps, plan, strict=True):
        if not gap.kept and line_ends != gap.newline:
            yield gap, line_ends


def code_joins(prose: Prose) -> list[Span]:
    return [join for word in prose.words for join in word.joins]
