"""Configuration: ``[tool.docsync]`` in ``pyproject.toml`` or ``.docsync.toml``.

Every key has a default, so a repository without config works. When both
files exist, ``.docsync.toml`` wins (it is the more specific, docsync-only
file) and ``pyproject.toml`` is not read for docsync keys. An unknown key or a
value of the wrong type is a :class:`ConfigError` naming the file and the key.
"""

from __future__ import annotations

import os
import posixpath
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import config_values, globs
from .config_paths import lexically_contained
from .errors import ConfigError
from .regular_file import read_regular
from .suggest import did_you_mean

WrapMode = str | int  # "none" | "sentence" | "off" | width

DEFAULT_STATUSES: Mapping[str, str] = {
    # Phrases: the longest one a status starts with decides, before its first word.
    "in progress": "proposed",
    "last call": "proposed",
    "under review": "proposed",
    "in review": "proposed",
    "ready for implementation": "implemented",
    "implementation in progress": "implemented",
    "partially accepted": "implemented",
    "partially implemented": "implemented",
    "moved": "rejected",
    **dict.fromkeys(
        ["implemented", "accepted", "adopted", "approved", "done", "complete", "completed", "final", "active", "living", "shipped",
         "implementable"],
        "implemented",
    ),
    **dict.fromkeys(
        ["proposed", "draft", "open", "review", "discussion", "pending", "deferred", "postponed", "planned", "wip",
         "provisional"],
        "proposed",
    ),
    **dict.fromkeys(
        ["rejected", "declined", "withdrawn", "abandoned", "superseded", "deprecated", "obsolete", "replaced", "retired", "stagnant",
         "inactive"],
        "rejected",
    ),
}
DEFAULT_STATES: Mapping[str, str] = {
    "proposed": "proposed",
    "implemented": "implemented",
    "rejected": "rejected",
}
GATES = ("links", "wrap", "layout", "refs")
DEFAULT_INCLUDE = ("**/*.[mM][dD]", "**/*.[mM][aA][rR][kK][dD][oO][wW][nN]")
GLOB_KEYS = ("include", "exclude", "refs_exclude")
DEFAULT_TARGET = "docs/rfc"
FILES_GATE = "files"
"""The file rules (F001-F004): always on, as a file that cannot be read cannot be checked;
``--gate files`` runs them alone, ``ignore``/``--ignore`` silences them."""
DEFAULT_RELATIONS: Mapping[str, str] = {"supersedes": "superseded by", "amends": "amended by"}
"""Relation pairs between records: what the newer record says → what the older one says."""


@dataclass(frozen=True, slots=True)
class Source:
    """A legacy record tree, the kind word of its ids (``ADR``, ``RFC``) and default statuses.

    ``status`` is the state of its records that have no status construct;
    ``folders`` maps a subfolder to the state of the records in it;
    ``status_key`` is the front-matter key its records keep their status under
    (``stage: accepted``), when it is not ``status``.
    """

    path: str
    kind: str
    status: str = ""
    folders: Mapping[str, str] = field(default_factory=dict)
    status_key: str = ""


@dataclass(frozen=True, slots=True)
class Config:
    # extensions in either case: GitHub renders README.MD as Markdown
    include: tuple[str, ...] = DEFAULT_INCLUDE
    exclude: tuple[str, ...] = ()
    gates: tuple[str, ...] = ("links", "wrap", "layout", "refs")
    # links
    strict_fragments: bool = False
    site: str = "github"  # or a docs generator (site.py): links are also read as it builds them
    site_root: str | None = None  # the site's source folder ("" the root); None: from its config
    html_to_md: bool | None = None  # a link to x.html means x.md; None: the generator's way
    # wrap
    wrap: WrapMode = "none"
    wrap_lists: bool = True
    wrap_blockquotes: bool = True
    wrap_strict: bool = False
    # files
    max_file_size: int = 2_000_000
    cache: bool = True
    jobs: int = 0
    # migrate and the record tree
    target: str = DEFAULT_TARGET
    sources: tuple[Source, ...] = ()
    states: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_STATES))
    statuses: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_STATUSES))
    code_refs: str = "path"
    refs_exclude: tuple[str, ...] = ("tests/**",)  # files the refs gate does not read (fixtures)
    relations: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_RELATIONS))
    template: str | None = None
    conventions: str | None = "docs/AGENTS.md"
    # which rule codes are reported (see selection.py); validated against the rules there
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # where the config came from (for messages)
    origin: str = "(defaults)"


def _gates(value: Any) -> tuple[str, ...] | None:
    names = config_values.strings(value)
    if names is None or any(n not in GATES for n in names):
        return None
    return names


def _sources(value: Any) -> tuple[Source, ...] | None:
    if not isinstance(value, list):
        return None
    out: list[Source] = []
    for item in value:
        if isinstance(item, str):
            out.append(Source(item.rstrip("/"), ""))
        elif isinstance(item, dict) and (source := _source_table(item)) is not None:
            out.append(source)
        else:
            return None
    return tuple(out)


def _source_table(item: dict[str, Any]) -> Source | None:
    """``{ path = "text", kind = "RFC", status = "implemented" }``; ``status`` may also be a
    table of subfolder = state (``{ active = "proposed", complete = "implemented" }``);
    ``status_key = "stage"`` reads each record's status from that front-matter key."""
    if not set(item) <= {"path", "kind", "status", "status_key"} or not isinstance(item.get("path"), str):
        return None
    kind, status, key = item.get("kind", ""), item.get("status", ""), item.get("status_key", "")
    if not isinstance(kind, str) or not isinstance(key, str) or not _FRONT_MATTER_KEY.fullmatch(key or "status"):
        return None
    path = item["path"].rstrip("/")
    if isinstance(status, str):
        return Source(path, kind, status.lower(), status_key=key)
    folders = config_values.string_table(status)
    return None if folders is None else Source(path, kind, "", folders, key)


_FRONT_MATTER_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


_Parser = Callable[[Any], Any]
_KEYS: dict[str, tuple[_Parser, str]] = {
    "include": (config_values.strings, "a list of glob strings"),
    "exclude": (config_values.strings, "a list of glob strings"),
    "gates": (_gates, f"a list of gate names from {', '.join(GATES)}"),
    "strict_fragments": (config_values.boolean, "true or false"),
    "site": (config_values.site, '"github", "mdbook", "mkdocs", "docusaurus" or "vitepress"'),
    "site_root": (config_values.site_root, 'a folder path inside the repository ("." for the root)'),
    "html_to_md": (config_values.boolean, "true or false"),
    "wrap": (config_values.wrap_mode, '"none", "sentence", "off" or a positive width'),
    "wrap_lists": (config_values.boolean, "true or false"),
    "wrap_blockquotes": (config_values.boolean, "true or false"),
    "wrap_strict": (config_values.boolean, "true or false"),
    "max_file_size": (config_values.file_size, f"a number of bytes, at most {config_values.FILE_SIZE_CEILING}"),
    "cache": (config_values.boolean, "true or false"),
    "jobs": (config_values.count, "a number of worker processes (0: one per core)"),
    "target": (config_values.folder, "a folder path inside the repository"),
    "sources": (
        _sources,
        'a list of folder paths or { path = "…", kind = "ADR", status = "…", status_key = "…" } tables',
    ),
    "states": (config_values.states, "a table of lifecycle state = folder name (one name, no '/')"),
    "statuses": (config_values.string_table, "a table of status word = lifecycle state"),
    "code_refs": (config_values.code_refs, '"path", "all" or "off"'),
    "refs_exclude": (config_values.strings, "a list of glob strings"),
    "relations": (
        config_values.relations,
        'a table of relation = reverse phrase in lowercase words, all distinct (amends = "amended by")',
    ),
    "template": (config_values.string, "a file path inside the repository"),
    "conventions": (config_values.optional_path, "a file path inside the repository, or false"),
    "select": (config_values.strings, "a list of rule codes, prefixes or gate names"),
    "ignore": (config_values.strings, "a list of rule codes, prefixes or gate names"),
    "per-file-ignores": (config_values.per_file, 'a table of glob = ["rule code, prefix or gate", …]'),
}
_FIELDS = {"per-file-ignores": "per_file_ignores"}


def _shown(raw: Any) -> str:
    text = repr(raw)
    return text if len(text) <= 80 else f"{text[:77]}..."


def parse_table(table: Mapping[str, Any], origin: str) -> Config:
    """Validate one ``[tool.docsync]`` table into a :class:`Config`."""
    values: dict[str, Any] = {}
    for key, raw in table.items():
        if key not in _KEYS:
            hint = did_you_mean(key, _KEYS) or f" (known keys: {', '.join(_KEYS)})"
            raise ConfigError(f"{origin}: unknown key {key!r}{hint}")
        parser, expected = _KEYS[key]
        value = parser(raw)
        if value is None:
            raise ConfigError(f"{origin}: key {key!r} must be {expected}, got {_shown(raw)}{_gate_hint(key, raw)}")
        values[_FIELDS.get(key, key)] = value
    _check_globs(values, origin)
    if "statuses" in values:
        values["statuses"] = {**DEFAULT_STATUSES, **values["statuses"]}
    states = values.get("states", DEFAULT_STATES)
    for word, state in values.get("statuses", {}).items():
        if state not in states:
            raise ConfigError(
                f"{origin}: key 'statuses' maps {word!r} to unknown state {state!r} "
                f"(states: {', '.join(states)})"
            )
    if "sources" in values:
        statuses = values.get("statuses", DEFAULT_STATUSES)
        values["sources"] = tuple(
            _source_states(s, states, statuses, origin) for s in values["sources"]
        )
    if "relations" in values:
        values["relations"] = _merged_relations(values["relations"], origin)
    if values.get("conventions") == "":
        values["conventions"] = None
    elif "conventions" not in values:
        values["conventions"] = conventions_beside(values.get("target", DEFAULT_TARGET))
    config = Config(**values, origin=origin)
    lexically_contained(config)
    return config


def _check_globs(values: Mapping[str, Any], origin: str) -> None:
    """Every glob of the config readable by the matcher (:mod:`docsync.globs`), or a ConfigError."""
    for key in GLOB_KEYS:
        globs.checked(values.get(key, ()), f"{origin}: key {key!r}")
    for glob, _ in values.get("per_file_ignores", ()):
        globs.checked((glob,), f"{origin}: key 'per-file-ignores'")


def _source_states(
    source: Source, states: Mapping[str, str], statuses: Mapping[str, str], origin: str
) -> Source:
    """A source's default statuses as states: a status word (``accepted``) maps through statuses."""

    def state(word: str) -> str:
        found = word if word in states else statuses.get(word.lower())
        if found is None:
            raise ConfigError(
                f"{origin}: key 'sources': the status {word!r} of {source.path!r} is neither a "
                f"state ({', '.join(states)}) nor a status word in [statuses]"
            )
        return found

    folders = {name: state(word) for name, word in source.folders.items()}
    return replace(source, status=state(source.status) if source.status else "", folders=folders)


def conventions_beside(target: str) -> str:
    """The default conventions doc: ``AGENTS.md`` in the target's parent folder
    (``docs/rfc`` → ``docs/AGENTS.md``, ``doc/adr`` → ``doc/AGENTS.md``)."""
    return posixpath.join(posixpath.dirname(target.strip("/")), "AGENTS.md")


def _gate_hint(key: str, raw: Any) -> str:
    if key != "gates" or not isinstance(raw, list):
        return ""
    wrong = [g for g in raw if isinstance(g, str) and g not in GATES]
    return did_you_mean(wrong[0], GATES) if wrong else ""


def _merged_relations(configured: Mapping[str, str], origin: str) -> dict[str, str]:
    merged = {**DEFAULT_RELATIONS, **configured}
    phrases = [*merged, *merged.values()]
    if len(set(phrases)) != len(phrases):
        raise ConfigError(f"{origin}: key 'relations' reuses a phrase of another relation: {merged}")
    return merged


CONFIG_CAP = 1 << 20
"""The most bytes a config file may hold: a config is a page of settings, and a
device or a planted giant file must not be read without end."""


def _read_toml(path: Path, shown: str | None = None) -> dict[str, Any]:
    try:
        data = read_regular(path, CONFIG_CAP, shown or path.name)
        return tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path.name}: not valid TOML: {exc}") from None
    except ValueError as exc:  # an integer too long to convert
        raise ConfigError(f"{path.name}: a value is out of range: {str(exc)[:80]}") from None
    except RecursionError:  # arrays or tables nested thousands deep (issue #35, class 6)
        raise ConfigError(f"{path.name}: not valid TOML: nested too deep") from None
    except OSError as exc:
        raise ConfigError(f"{path.name}: cannot read: {exc.strerror}") from None


def _present(path: Path, root: Path, shown: str) -> bool:
    """Whether a config file is at ``path``: a name there that leads out of the repository
    (a symlink) or is no regular file (a FIFO, a device) is refused, not read nor passed over."""
    if not os.path.lexists(path):
        return False
    real = os.path.realpath(path)
    if not real.startswith(str(root).rstrip("/") + "/"):
        raise ConfigError(f"{shown}: a symlink that leads out of the repository; not read")
    return not os.path.isdir(real)  # a folder of that name is no config: left alone


def _in_folder(folder: Path, shown: str, root: Path) -> Config | None:
    """The config kept in ``folder`` (``shown`` is how messages name the folder), if any."""
    dedicated = folder / ".docsync.toml"
    if _present(dedicated, root, f"{shown}.docsync.toml"):
        return parse_table(_read_toml(dedicated), f"{shown}.docsync.toml")
    pyproject = folder / "pyproject.toml"
    if _present(pyproject, root, f"{shown}pyproject.toml"):
        tool = _read_toml(pyproject).get("tool", {})
        table = tool.get("docsync") if isinstance(tool, dict) else None
        if table is not None:
            if not isinstance(table, dict):
                raise ConfigError(f"{shown}pyproject.toml: [tool.docsync] must be a table")
            return parse_table(table, f"{shown}pyproject.toml [tool.docsync]")
    return None


def load(root: Path, start: Path | None = None) -> Config:
    """The configuration of the repository at ``root``: the nearest ``.docsync.toml``, or
    ``pyproject.toml`` with a ``[tool.docsync]`` table, from ``start`` (default: ``root``)
    up to ``root``. Paths in it stay relative to the repository root."""
    root = root.resolve()
    folder = (start or root).resolve()
    if folder != root and root not in folder.parents:
        folder = root
    while True:
        shown = folder.relative_to(root).as_posix() + "/" if folder != root else ""
        found = _in_folder(folder, shown, root)
        if found is not None or folder == root:
            return found or Config()
        folder = folder.parent


def load_file(path: Path) -> Config:
    """The configuration in ``path`` (``--config``): a ``.docsync.toml``-style file, or a
    ``pyproject.toml`` whose ``[tool.docsync]`` table is read."""
    data = _read_toml(path, str(path))
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        table = tool.get("docsync", {}) if isinstance(tool, dict) else {}
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: [tool.docsync] must be a table")
        return parse_table(table, f"{path} [tool.docsync]")
    return parse_table(data, str(path))
