"""The conventions doc: how this repository's design records work, generated from the config.

One short page (``conventions`` in the config, ``docs/AGENTS.md`` by default),
read by people and coding agents alike: where records live and what each
lifecycle folder means, the naming and date rule, how to cross-reference
(with one real record as the example), which gates run and the commands, and
the wrap convention in force. ``docsync migrate --apply`` writes it, and so
does ``docsync init`` on a tree that is already migrated.

Only the part between :data:`BEGIN` and :data:`END` is docsync's; text a team
adds around it is kept byte for byte. The generated part follows the wrap
convention it describes, so it passes the gates itself.

The ``layout`` gate reports (``Y011``) a conventions doc whose generated
part no longer matches the config and the tree, and ``docsync fix``
regenerates it. A repository opts in by having the markers: a missing doc,
or one without markers, is never a finding, so a repository that never
asked for the doc is not told about it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..config import Config
from ..gates.wrap.fix import fix_document
from ..model import Document, Finding
from ..parse.native import parse
from ..rewrite.record_links import link_text, relative_destination
from ..write.writer import FileWrite
from .markers import MarkersError, marked_span
from .model import Record
from .relations import label

if TYPE_CHECKING:
    from .tree import Tree

BEGIN = "<!-- docsync:conventions:begin -->"
END = "<!-- docsync:conventions:end -->"
TITLE = "# Documentation conventions"
ADOPTION_SLUG = "adopting-docsync"
"""The slug of the record ``docsync migrate`` writes about the adoption (never the example)."""

RULE = "Y011"

_STATE_MEANINGS = {
    "proposed": "under discussion or planned, not in effect yet",
    "implemented": "decided and in effect",
    "rejected": "declined, withdrawn or superseded, kept for the reasoning",
    "archived": "no longer relevant, kept for the history",
}
_GATE_MEANINGS = {
    "links": "every relative link, image and `#fragment` resolves as GitHub renders it, "
    "against the files git tracks",
    "wrap": "prose follows the wrap convention below",
    "layout": "every record sits directly in a lifecycle folder, is named by the rule above "
    "and has one `Status:` line that matches its folder; every relation is written on both "
    "records; the index and this section are up to date",
    "refs": "no bare former id such as `ADR 0007` in prose, and every path to a record "
    "written in code or CI files exists",
}


class ConventionsMarkersError(MarkersError):
    """The doc's markers are broken, so its generated part cannot be found safely."""


@dataclass(frozen=True, slots=True)
class Conventions:
    """What the conventions doc describes: the config in force and the record tree."""

    path: str
    config: Config
    index_path: str
    example: Record | None


def example_record(records: Sequence[Record]) -> Record | None:
    """The oldest record (the adoption record only when it is the only one).

    The choice does not depend on the state, so moving the example to another
    folder (which rewrites the link to it) leaves the doc current.
    """
    ordered = sorted(records, key=lambda r: (r.slug == ADOPTION_SLUG, r.first_proposed, r.slug))
    return ordered[0] if ordered else None


def conventions_for(
    config: Config, records: Sequence[Record], index_path: str
) -> Conventions | None:
    """The conventions doc of a tree, or None when the config turns it off."""
    if not config.conventions:
        return None
    return Conventions(config.conventions, config, index_path, example_record(records))


# --------------------------------------------------------------------------- the text


def _target(conventions: Conventions) -> str:
    return conventions.config.target.strip("/")


def _link(conventions: Conventions, text: str, path: str) -> str:
    return f"[{link_text(text)}]({relative_destination(conventions.path, path)})"


def _where(conventions: Conventions) -> str:
    tree = _link(conventions, _target(conventions) + "/", conventions.index_path)
    lines = [
        "## Where records live",
        "",
        f"Design records live in {tree}, in one folder per lifecycle state:",
        "",
    ]
    for state, folder in conventions.config.states.items():
        meaning = _STATE_MEANINGS.get(state, f"records in the {state} state")
        lines.append(f"- `{folder}/`: {meaning}.")
    lines += [
        "",
        f"The tree's {_link(conventions, 'index', conventions.index_path)} lists every record "
        "by state, and maps each former id and former path to the record that holds it now.",
    ]
    return "\n".join(lines)


def _naming(conventions: Conventions) -> str:
    return (
        "## Naming\n\n"
        f"A record is a file `{_target(conventions)}/<state folder>/yyyy-mm-dd-topic-title.md`. "
        "The date is the day the topic was first proposed, and it stays when the record is "
        "edited, merged or moved to another state. "
        "The slug is the title in lowercase ASCII words joined by `-`. "
        "A record starts with its `# Title` and one `Status:` line whose first word is its "
        "state (or a status word that maps to it), with any detail in parentheses, for example "
        "`Status: implemented (pts 1-2; pt 3 deferred)`."
    )


def _cross_references(conventions: Conventions) -> str:
    example = conventions.example
    if example is None:
        shown = f"`[Plugin API]({_target(conventions)}/implemented/2026-01-05-plugin-api.md)`"
    else:
        shown = _link(conventions, example.title, example.path)
    return (
        "## Cross-references\n\n"
        "Refer to another record with a relative link to its file, never with a bare number "
        "such as `ADR 0007` or `RFC 12`. "
        "A link is checked by the links gate and rewritten when the record moves. "
        f"For example: {shown}."
    )


def _superseding(conventions: Conventions) -> str:
    config = conventions.config
    state = config.statuses.get("superseded")
    folder = config.states.get(state or "", state or "rejected")
    others = [k for k in config.relations if k != "supersedes"]
    relations = ", ".join(
        f"`{label(kind)}` and `{label(config.relations[kind])}`" for kind in others
    )
    other = (
        f" `--relation {others[0]}` writes another relation instead: {relations}." if others else ""
    )
    return (
        "## Superseding a record\n\n"
        "A record that replaces another says so, and the other says it back. "
        '`docsync new "Title" --supersedes <old record>` creates the new record, and '
        "`docsync move <old record> superseded --by <new record>` relates two that exist. "
        "The new record gets `Supersedes: [Old title](path)` under its status; the old one moves "
        f"to `{folder}/` with `Status: {state or 'rejected'} (superseded by [New title](path) on <date>)`."
        f"{other} A relation written by hand on one record is enough: `docsync fix` adds the "
        "reverse, and the layout gate checks both sides."
    )


def _gates(conventions: Conventions) -> str:
    gates = [g for g in conventions.config.gates if g in _GATE_MEANINGS]
    lines = ["## Gates and commands", ""]
    if gates:
        lines += ["`docsync check` runs these gates, in pre-commit and in CI:", ""]
        lines += [f"- `{gate}`: {_GATE_MEANINGS[gate]}." for gate in gates]
    else:
        lines.append("No gate is enabled, so `docsync check` checks nothing.")
    lines += [
        "",
        "The commands:",
        "",
        "- `docsync check`: run the gates; it exits 1 when something is off.",
        "- `docsync fix`: repair what is safe to repair (re-wrap prose, link bare ids, "
        "regenerate the index and this section).",
        '- `docsync new "Title"`: create a proposed record from the template, dated today.',
        "- `docsync move <record> <state>`: move a record to another lifecycle folder with git, "
        "and rewrite its `Status:` line, every link to it and the index.",
    ]
    return "\n".join(lines)


def wrap_sentence(config: Config) -> str:
    """The wrap convention in force, in one sentence."""
    mode = config.wrap
    if "wrap" not in config.gates or mode == "off":
        return "Line wrapping is not checked."
    if isinstance(mode, int):
        return f"Prose is wrapped at {mode} columns (`wrap = {mode}`)."
    if mode == "sentence":
        return 'Each sentence starts on a new line of its own (`wrap = "sentence"`).'
    return 'Prose is not hard-wrapped: one physical line per paragraph (`wrap = "none"`).'


def _wrapping(conventions: Conventions) -> str:
    return (
        "## Wrapping\n\n"
        f"{wrap_sentence(conventions.config)} "
        "`docsync fix` re-wraps a paragraph that does not follow it.\n\n"
        "This part of the page is generated from the docsync configuration; "
        "`docsync fix` regenerates it when the configuration changes, and text outside it is kept."
    )


def render_generated(conventions: Conventions) -> str:
    """The generated part, markers included, wrapped by the convention it describes."""
    sections = [
        _where(conventions),
        _naming(conventions),
        _cross_references(conventions),
        _superseding(conventions),
        _gates(conventions),
        _wrapping(conventions),
    ]
    text = f"{BEGIN}\n\n" + "\n\n".join(sections) + f"\n\n{END}\n"
    return fix_document(parse(conventions.path, text), conventions.config).text.removesuffix("\n")


def generated_span(text: str) -> tuple[int, int] | None:
    """Offsets of the generated part (markers included), or None when there are no markers."""
    try:
        return marked_span(text, BEGIN, END)
    except MarkersError as exc:
        raise ConventionsMarkersError(str(exc)) from None


def render(conventions: Conventions, existing: str | None) -> str:
    """The whole doc: ``existing`` with its generated part replaced (or appended), or a new page.

    Raises :class:`ConventionsMarkersError` when ``existing`` has broken markers.
    """
    generated = render_generated(conventions)
    if existing is None:
        return f"{TITLE}\n\n{generated}\n"
    span = generated_span(existing)
    if span is None:
        body = existing.rstrip("\n")
        return (body + "\n\n" if body else "") + generated + "\n"
    return existing[: span[0]] + generated + existing[span[1] :]


# --------------------------------------------------------------------------- gate and fix


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def finding(conventions: Conventions, doc: Document) -> Finding | None:
    """A ``Y011`` finding when ``doc`` has the markers and its generated part is out of date."""
    try:
        span = generated_span(doc.text)
    except ConventionsMarkersError as exc:
        message = f"{exc}; repair the markers so docsync can find its generated part"
        return Finding("layout", RULE, doc.path, 1, 1, message)
    if span is None:
        return None
    wanted = render_generated(conventions)
    current = doc.text[span[0] : span[1]]
    if current == wanted:
        return None
    line = _line_of(doc.text, span[0]) + _first_difference(current, wanted) - 1
    message = (
        "the conventions doc does not match the configuration and the record tree "
        "(for example the wrap convention changed); run 'docsync fix' to regenerate it"
    )
    return Finding("layout", RULE, doc.path, line, 1, message)


def _first_difference(a: str, b: str) -> int:
    for number, (x, y) in enumerate(zip(a.split("\n"), b.split("\n"), strict=False), start=1):
        if x != y:
            return number
    return min(a.count("\n"), b.count("\n")) + 1


def tree_conventions(tree: Tree) -> Conventions | None:
    return conventions_for(tree.config, tree.records, tree.index_path)


def check(tree: Tree) -> list[Finding]:
    """The layout gate's finding for the tree's conventions doc, if it has the markers."""
    conventions = tree_conventions(tree)
    if conventions is None:
        return []
    doc = tree.workspace.documents.get(conventions.path)
    found = finding(conventions, doc) if doc is not None else None
    return [found] if found is not None else []


def fix(tree: Tree) -> FileWrite | None:
    """The regenerated doc, when it has the markers and is out of date (never created here)."""
    conventions = tree_conventions(tree)
    if conventions is None:
        return None
    doc = tree.workspace.documents.get(conventions.path)
    if doc is None:
        return None
    try:
        if generated_span(doc.text) is None:
            return None
        text = render(conventions, doc.text)
    except ConventionsMarkersError:
        return None
    return FileWrite(doc.path, text, doc.newline, doc.bom) if text != doc.text else None


def selected(tree: Tree) -> bool:
    """Whether this run reports on the conventions doc (whole-repository runs, or the doc named)."""
    path = tree.config.conventions
    return bool(path) and (
        path in tree.workspace.selected
        or set(tree.workspace.documents) <= set(tree.workspace.selected)
    )
