"""The configuration ``docsync init`` writes, as commented TOML text.

Every value is written with a comment saying what it means and what init
found. The text goes to ``.docsync.toml``, or into ``pyproject.toml`` as a
``[tool.docsync]`` table: appended at the end, or (with ``--force``) put in
place of the existing table, every other byte of the file kept
(:mod:`docsync.adopt.pyproject_text`). Whatever is
written is read back through :func:`docsync.config.parse_table` before it
is returned, so ``docsync init`` never leaves a config that does not load.

Keys init does not decide (``jobs``, ``cache``, ``code_refs`` …) are kept
from the existing config with their values.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import tomltext
from ..config import DEFAULT_INCLUDE as CONFIG_INCLUDE
from ..config import DEFAULT_STATES, GATES, Config, Source, conventions_beside, parse_table
from ..errors import ConfigError
from ..migrate.read.discover import source_of
from .inspection import Inspection

DEDICATED = ".docsync.toml"
PYPROJECT = "pyproject.toml"
PYPROJECT_ORIGIN = "pyproject.toml [tool.docsync]"
MANAGED = (
    "include",
    "exclude",
    "gates",
    "wrap",
    "target",
    "sources",
    "states",
    "conventions",
    "statuses",
    "site",
)
DEFAULT_INCLUDE = list(CONFIG_INCLUDE)
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


# --------------------------------------------------------------------------- TOML values


def toml_key(key: str) -> str:
    return tomltext.key(key)


def toml_value(value: Any) -> str:
    """TOML source for a string, number, boolean, list or table (inline), by tomlkit."""
    return tomltext.value(value)


# --------------------------------------------------------------------------- the draft


@dataclass(frozen=True, slots=True)
class Entry:
    """One key: the comment lines above it and the TOML source of its value."""

    key: str
    value: str
    comment: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StatusEntry:
    """One line of the statuses table; ``state`` None writes it commented out, to decide."""

    word: str
    state: str | None
    note: str


@dataclass(frozen=True)
class Draft:
    """The config init writes: top-level entries, then the statuses table."""

    entries: tuple[Entry, ...]
    statuses: tuple[StatusEntry, ...]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _scope_summary(files: Sequence[str]) -> str:
    """``README.md, docs/ (14), src/ (1)``: files at the root by name, folders by count."""
    groups: dict[str, int] = {}
    for path in files:
        head, sep, _ = path.partition("/")
        key = head + "/" if sep else head
        groups[key] = groups.get(key, 0) + 1
    shown = [k if not k.endswith("/") else f"{k} ({n})" for k, n in sorted(groups.items())]
    if len(shown) > 8:
        shown = [*shown[:8], f"and {len(shown) - 8} more"]
    return ", ".join(shown) if shown else "none yet"


def _wrap_comment(inspection: Inspection) -> tuple[str, ...]:
    counts = ", ".join(f"{_mode(c.mode)} {c.paragraphs}" for c in inspection.wrap)
    chosen = next(c for c in inspection.wrap if c.mode == inspection.chosen)
    return (
        '"none" (one physical line per paragraph), a width such as 80, "sentence" (one sentence',
        'per line) or "off". Paragraphs that break each candidate now:',
        f"  {counts}.",
        f"{_mode(inspection.chosen)} breaks the fewest (ties: none, sentence, then the narrowest "
        "width);",
        f"`docsync fix` would rewrite {_plural(chosen.paragraphs, 'paragraph')}.",
    )


def _mode(mode: str | int) -> str:
    return str(mode) if isinstance(mode, int) else f'"{mode}"'


def _sources(inspection: Inspection, raw: Mapping[str, Any]) -> Entry:
    comment = (
        "The legacy record trees `docsync migrate` merges into the target, and the kind word",
        'their ids start with ("ADR", "RFC"); status_key: the front-matter key their records',
        "keep the status under, when it is not status (unknown words: [statuses] below).",
    )
    # A tree below another is that source's (its status and kind reach it): not written again.
    trees = [t for t in inspection.trees if source_of(t.path, [Source(o.path, "") for o in inspection.trees]) is None]
    detected = tuple(Source(t.path, t.kind if t.kind_told else "", status_key=t.status_key) for t in trees)
    if "sources" in raw and parse_table({"sources": raw["sources"]}, "").sources != detected:
        kept = (*comment, "Kept from the existing configuration.")
        return Entry("sources", toml_value(raw["sources"]), kept)
    if not inspection.trees:
        none = (
            "None found: no folder holds numbered (0001-x.md, adr-12-x.md) or date-named",
            "(20200924-x.md) records. Empty means: look again each time.",
        )
        return Entry("sources", "[]", none)
    items = []
    for tree in trees:
        fields = {"path": tree.path, "kind": tree.kind} if tree.kind_told else {"path": tree.path}
        value = toml_value({**fields, "status_key": tree.status_key} if tree.status_key else fields)
        below = [t for t in inspection.trees if t.path.startswith(tree.path + "/") and tree.path]
        found = _plural(len(tree.records) + sum(len(t.records) for t in below), "record")
        index = f", index {', '.join(tree.indexes)}" if tree.indexes else ""
        guess = "" if tree.kind_told else '; kind: untold (add kind = "RFC", or the word your ids use)'
        items.append(f"  {value},  # {found}{index}{guess}")
    return Entry("sources", "[\n" + "\n".join(items) + "\n]", comment)


def _template(inspection: Inspection, raw: Mapping[str, Any]) -> Iterator[Entry]:
    """The legacy tree's own template, for `docsync new` (a template is not a record)."""
    found = [p for t in inspection.trees for p in t.templates]
    if "template" in raw or not found:
        return
    comment = (
        "The template `docsync new` fills in: the legacy tree's own (not a record, so",
        "`docsync migrate` leaves it where it is).",
    )
    yield Entry("template", toml_value(found[0]), comment)


def _target_comment(inspection: Inspection) -> tuple[str, ...]:
    if inspection.tree_records:
        found = f"It exists: {_plural(inspection.tree_records, 'record')} in its lifecycle folders."
    else:
        found = "It does not exist yet; `docsync migrate --apply` creates it."
    return (
        "The record tree: one folder per lifecycle state, each record named",
        "yyyy-mm-dd-topic-title.md after the day its topic was first proposed.",
        found,
    )


def _kept(raw: Mapping[str, Any], key: str, default: Any) -> tuple[Any, tuple[str, ...]]:
    """The existing config's value (said so when it is not the default), else the default."""
    if key in raw and raw[key] != default:
        return raw[key], ("Kept from the existing configuration.",)
    return default, ()


def _entries(inspection: Inspection, raw: Mapping[str, Any]) -> Iterator[Entry]:
    include, kept = _kept(raw, "include", DEFAULT_INCLUDE)
    summary = _scope_summary(inspection.files)
    scope = f"Markdown files in scope now: {len(inspection.files)} ({summary})."
    yield Entry("include", toml_value(include), ("Which files are Markdown.", scope, *kept))
    exclude, kept = _kept(raw, "exclude", [])
    yield Entry(
        "exclude", toml_value(exclude), ('Globs of files to skip ("**" crosses folders).', *kept)
    )
    gates, kept = _kept(raw, "gates", list(GATES))
    gates_comment = (
        "The gates `docsync check` runs: links (relative links and #fragments resolve), wrap",
        "(the wrap convention below), layout (the record tree's shape), refs (no bare former ids).",
    )
    yield Entry("gates", toml_value(gates), (*gates_comment, *kept))
    yield Entry("wrap", toml_value(inspection.chosen), _wrap_comment(inspection))
    yield from _site(inspection, raw)
    yield Entry("target", toml_value(inspection.target), _target_comment(inspection))
    yield _sources(inspection, raw)
    states, kept = _kept(raw, "states", dict(DEFAULT_STATES))
    states_comment = (
        "Lifecycle state = its folder under the target; a record's folder is its state."
    )
    yield Entry("states", toml_value(states), (states_comment, *kept))
    yield from _template(inspection, raw)
    conventions, kept = _kept(raw, "conventions", conventions_beside(inspection.target))
    conventions_comment = (
        "The conventions doc `docsync migrate --apply` writes (where records live, how to name",
        "and link them, the gates and commands) and `docsync fix` keeps current; false: none.",
    )
    yield Entry("conventions", toml_value(conventions), (*conventions_comment, *kept))
    for key, value in raw.items():
        if key not in MANAGED:
            yield Entry(key, toml_value(value), ("Kept from the existing configuration.",))


def _site(inspection: Inspection, raw: Mapping[str, Any]) -> Iterator[Entry]:
    """``site``: the docs generator whose config file the repository tracks, if any."""
    if "site" in raw:
        yield Entry("site", toml_value(raw["site"]), ("Kept from the existing configuration.",))
        return
    if inspection.site is None:
        return
    name, config_file = inspection.site
    yield Entry(
        "site",
        toml_value(name),
        (
            f"{config_file} builds a {_SITE_NAMES[name]} site: links in its pages are checked as",
            "GitHub shows them, and those that only the built site resolves (ch01.html for",
            'ch01.md, /docs/x from the site\'s root) as the site does. "github": GitHub only.',
        ),
    )


_SITE_NAMES = {
    "mdbook": "mdBook", "mkdocs": "MkDocs", "docusaurus": "Docusaurus", "vitepress": "VitePress",
}


def _statuses(inspection: Inspection, raw: Mapping[str, Any]) -> tuple[StatusEntry, ...]:
    """Words seen (mapped as the config in force maps them), words the config adds, unknowns."""
    custom = {str(k).lower(): v for k, v in raw.get("statuses", {}).items()}
    seen = {w.word for w in inspection.words}
    entries = [StatusEntry(w.word, w.state, _seen(w.paths)) for w in inspection.words if w.state]
    entries += [
        StatusEntry(word, str(state), "kept from the existing configuration")
        for word, state in custom.items()
        if word not in seen
    ]
    states = ", ".join(raw.get("states", DEFAULT_STATES))
    entries += [
        StatusEntry(
            w.word,
            None,
            f"{_seen(w.paths)} (docsync migrate names them); map it to one of {states}",
        )
        for w in inspection.words
        if w.state is None
    ]
    return tuple(entries)


def _seen(paths: Sequence[str]) -> str:
    # Counts, not paths: a record path here would go stale when the record moves,
    # and the refs gate reports stale record paths in tracked files.
    return _plural(len(paths), "record")


def draft(inspection: Inspection, raw: Mapping[str, Any]) -> Draft:
    """What init writes, from what it found and the existing config's raw table."""
    return Draft(tuple(_entries(inspection, raw)), _statuses(inspection, raw))


# --------------------------------------------------------------------------- text


HEADER = (
    "# docsync configuration, written by `docsync init`: each value says what init found.",
    "# Delete a key to get its default; docsync's docs/configuration.md lists every key.",
)
_STATUSES_COMMENT = (
    "# Status words seen in the records, and the lifecycle state each maps to. docsync knows",
    "# the words written as keys and lists them so the mapping is visible; a word it does not",
    "# know is commented out: map it to a state, then uncomment the line.",
)


def _entry_lines(entry: Entry) -> list[str]:
    return [*(f"# {line}" for line in entry.comment), f"{toml_key(entry.key)} = {entry.value}"]


def _status_line(entry: StatusEntry) -> str:
    if entry.state is None:
        return f'# {toml_key(entry.word)} = "?"  # {entry.note}'
    return f"{toml_key(entry.word)} = {toml_value(entry.state)}  # {entry.note}"


def render(config_draft: Draft, table: str = "") -> str:
    """The config as TOML: top level (no ``table``), or in ``[table]`` and ``[table.statuses]``."""
    lines = list(HEADER)
    if table:
        lines.append(f"[{table}]")
    for entry in config_draft.entries:
        lines += ["", *_entry_lines(entry)]
    if config_draft.statuses:
        name = f"{table}.statuses" if table else "statuses"
        lines += ["", *_STATUSES_COMMENT, f"[{name}]"]
        lines += [_status_line(s) for s in config_draft.statuses]
    return "\n".join(lines) + "\n"


def loaded(text: str, origin: str, table: str = "") -> Config:
    """The config ``text`` holds, read as :func:`docsync.config.load` reads it."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{origin}: docsync init wrote TOML that does not parse: {exc}") from None
    for part in table.split(".") if table else ():
        data = data.get(part, {})
    return parse_table(data, origin)
