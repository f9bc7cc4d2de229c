"""``docsync init``: inspect a repository and plan the files that adopt docsync.

Read-only until :func:`apply`. :func:`plan_init` looks at the repository
once (the legacy record trees and their kinds, the lifecycle tree, the
status words the records use and where each maps, the Markdown files in
scope, the wrap convention the prose already follows) and plans the files:

* the config, ``.docsync.toml`` (or ``[tool.docsync]`` in ``pyproject.toml``
  with ``--pyproject``, or when the config already lives there), every value
  commented (:mod:`docsync.adopt.config_text`);
* with ``--hooks``, the pre-commit hook and the GitHub Actions workflow
  (:mod:`docsync.adopt.hooks`);
* on a tree that is already migrated, the conventions doc
  (:mod:`docsync.records.conventions`).

A file that is already right is left alone, so a second run changes nothing.
An existing config or workflow that differs is kept unless ``--force``;
the result then exits 1 and says which file and why.

The wrap convention: every paragraph is analysed once
(:func:`docsync.gates.wrap.violations.prose_of`, the reading the ``wrap`` gate checks
with), in the parse workers, and reduced to what each candidate's verdict
needs (:mod:`docsync.gates.wrap.count`); the candidate fewest paragraphs break wins. Ties go to ``"none"`` (the default), then ``"sentence"``, then
the narrowest width, since prose wrapped at 72 columns also fits 80, 100 and
120, and the narrowest width that fits is the one it was written to.
"""

from __future__ import annotations

import posixpath
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from ..config import Config, WrapMode
from ..config import load as load_config
from ..errors import ConfigError, DocsyncError
from ..gates.tree import load_tree
from ..gates.wrap.count import CANDIDATES, Breaks, Summarizer, document_breaks
from ..gates.wrap.count_store import CountStore
from ..migrate.discover import (
    find_trees,
    index_paths,
    lifecycle_folders,
    record_paths,
    template_paths,
)
from ..migrate.status import StatusForm, read_status
from ..migrate.tree import RECORD_NAME
from ..model import Document
from ..records import conventions
from ..repository.gitrepo import find_repo
from ..workspace.load import Documents, Progress, Workspace, load_workspace
from ..write.writer import FileWrite, write_all
from . import config_text as adopt_config
from . import hooks as adopt_hooks

_TIE_ORDER: tuple[WrapMode, ...] = ("none", "sentence", 72, 80, 100, 120)


@dataclass(frozen=True, slots=True)
class InitOptions:
    pyproject: bool = False
    hooks: bool = False
    force: bool = False
    hook_repo: str = adopt_hooks.DEFAULT_HOOK_REPO


# --------------------------------------------------------------------------- what init finds


@dataclass(frozen=True, slots=True)
class LegacyTree:
    """A legacy tree: its folder, the kind word of its ids, its numbered records and indexes."""

    path: str
    kind: str
    records: tuple[str, ...]
    indexes: tuple[str, ...]
    templates: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StatusWord:
    """A status word the records use, the state it maps to (None: unknown) and where."""

    word: str
    state: str | None
    paths: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WrapCount:
    """How many paragraphs (in how many files) would break one wrap candidate."""

    mode: WrapMode
    paragraphs: int
    files: int


@dataclass(frozen=True)
class Inspection:
    files: tuple[str, ...]
    trees: tuple[LegacyTree, ...]
    target: str
    tree_records: int
    words: tuple[StatusWord, ...]
    missing: tuple[str, ...]
    wrap: tuple[WrapCount, ...]
    chosen: WrapMode

    @property
    def legacy_records(self) -> int:
        return sum(len(t.records) for t in self.trees)

    @property
    def migrated(self) -> bool:
        """A lifecycle tree with records, and no numbered records left to migrate."""
        return self.tree_records > 0 and not self.legacy_records


def _lifecycle_roots(paths: Sequence[str], states: Mapping[str, str]) -> list[str]:
    """Folders with dated records in lifecycle folders: ``docs/rfc`` for ``docs/rfc/implemented/…``."""
    folders = set(states.values())
    roots = {
        posixpath.dirname(posixpath.dirname(p))
        for p in paths
        if posixpath.basename(posixpath.dirname(p)) in folders
        and RECORD_NAME.match(posixpath.basename(p))
    }
    return sorted(roots)


def _target(
    config: Config, raw: Mapping[str, Any], trees: Sequence[LegacyTree], paths: Sequence[str]
) -> str:
    """The configured target; else the one lifecycle tree there is; else the one legacy tree."""
    default = config.target.strip("/")
    if "target" in raw:
        return default
    roots = _lifecycle_roots(paths, config.states)
    if roots:
        return default if default in roots else roots[0]
    if len(trees) == 1:
        return trees[0].path
    return default


def _legacy_trees(paths: Sequence[str], config: Config) -> tuple[LegacyTree, ...]:
    roots = {config.target.strip("/"), *_lifecycle_roots(paths, config.states)}
    lifecycle = frozenset(
        folder for root in roots for folder in lifecycle_folders(root, config.states.values())
    )
    return tuple(
        LegacyTree(
            tree.path,
            tree.kind,
            tuple(path for path, _, _ in record_paths(tree, paths)),
            tuple(posixpath.basename(p) for p in index_paths(tree, paths)),
            tuple(template_paths(tree, paths)),
        )
        for tree in find_trees(paths, config.sources, lifecycle)
    )


def _tree_record_paths(target: str, config: Config, paths: Sequence[str]) -> list[str]:
    folders = {posixpath.join(target, f) for f in config.states.values()}
    return [
        p
        for p in paths
        if posixpath.dirname(p) in folders and RECORD_NAME.match(posixpath.basename(p))
    ]


def _status_words(
    documents: Mapping[str, Document], records: Sequence[str], config: Config
) -> tuple[tuple[StatusWord, ...], tuple[str, ...]]:
    seen: dict[str, list[str]] = {}
    missing: list[str] = []
    for path in records:
        doc = documents.get(path)
        reading = read_status(doc, config.statuses) if doc is not None else None
        if reading is None or not reading.word or reading.form == StatusForm.PROSE:
            missing.append(path)
        else:
            seen.setdefault(reading.phrase(config.statuses), []).append(path)
    words = tuple(
        StatusWord(word, config.statuses.get(word), tuple(paths))
        for word, paths in sorted(seen.items(), key=lambda item: (-len(item[1]), item[0]))
    )
    return words, tuple(missing)


MEASURING = "Measuring wrap conventions"


def _counted(per_file: Sequence[Breaks]) -> tuple[WrapCount, ...]:
    return tuple(
        WrapCount(mode, sum(f.counts[i] for f in per_file), sum(1 for f in per_file if f.counts[i]))
        for i, mode in enumerate(CANDIDATES)
    )


def wrap_counts(
    documents: Sequence[Document], config: Config, progress: Progress | None = None
) -> tuple[WrapCount, ...]:
    """For each candidate, the paragraphs (and files) that break it; each paragraph read once."""
    per_file: list[Breaks] = []
    for done, doc in enumerate(documents):
        if progress is not None:
            progress(MEASURING, done, len(documents))
        per_file.append(document_breaks(doc, config))
    if progress is not None:
        progress(MEASURING, len(documents), len(documents))
    return _counted(per_file)


def workspace_wrap_counts(
    workspace: Workspace, progress: Progress | None = None
) -> tuple[WrapCount, ...]:
    """:func:`wrap_counts` of the selected files. A document parsed in a worker
    was counted there (:class:`docsync.gates.wrap.count.Summarizer`) and is not unpickled
    for it; the rest are counted here."""
    documents = workspace.documents
    made = documents.summaries if isinstance(documents, Documents) else {}
    paths = [p for p in workspace.selected if p in made or p in documents]
    per_file: list[Breaks] = []
    kept = CountStore(workspace)  # counts of unchanged documents from an earlier run
    for done, path in enumerate(paths):
        if progress is not None:
            progress(MEASURING, done, len(paths))
        summary = made.get(path)
        breaks = kept.get(path)
        if breaks is None:
            breaks = summary if isinstance(summary, Breaks) else None
            breaks = breaks or document_breaks(documents[path], workspace.config)
            kept.add(path, breaks)
        per_file.append(breaks)
    kept.save()
    if progress is not None:
        progress(MEASURING, len(paths), len(paths))
    return _counted(per_file)


def choose_wrap(counts: Sequence[WrapCount]) -> WrapMode:
    """The candidate the fewest paragraphs break (ties: see the module docstring)."""
    best = min(counts, key=lambda c: (c.paragraphs, _TIE_ORDER.index(c.mode)))
    return best.mode


def inspect(
    workspace: Workspace, raw: Mapping[str, Any], progress: Progress | None = None
) -> Inspection:
    """What the repository holds, read from the parsed workspace (nothing is written)."""
    config = workspace.config
    paths = sorted(set(workspace.listing.tracked) | workspace.listing.untracked)
    trees = _legacy_trees(paths, config)
    target = _target(config, raw, trees, paths)
    in_tree = _tree_record_paths(target, config, paths)
    legacy = [p for tree in trees for p in tree.records]
    words, missing = _status_words(workspace.documents, [*legacy, *in_tree], config)
    counts = workspace_wrap_counts(workspace, progress)
    return Inspection(
        files=workspace.selected,
        trees=trees,
        target=target,
        tree_records=len(in_tree),
        words=words,
        missing=missing,
        wrap=counts,
        chosen=choose_wrap(counts),
    )


# --------------------------------------------------------------------------- the files


class Action(StrEnum):
    CREATE = "created"
    UPDATE = "updated"
    SAME = "up to date"
    KEPT = "kept"


@dataclass(frozen=True, slots=True)
class FilePlan:
    """One file init looked after: what it does to it, the write if any, and why."""

    path: str
    action: Action
    write: FileWrite | None = None
    note: str = ""


def _read(root: Path, path: str) -> str | None:
    """A file's text, ``\n`` line ends and no BOM (for comparing), or None when it is missing."""
    text = _text_as_is(root, path)
    return None if text is None else text.removeprefix("\ufeff").replace("\r\n", "\n")


def _text_as_is(root: Path, path: str) -> str | None:
    """A file's text with its line endings as they are (edited files keep them)."""
    full = root / path
    if not full.is_file():
        return None
    try:
        return full.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DocsyncError(f"{path}: cannot read it as UTF-8 text ({exc})") from None


def _plain(path: str, text: str, newline: str = "\n") -> FileWrite:
    return FileWrite(path, text, newline)


def _file(root: Path, path: str, wanted: str, force: bool, why: str) -> FilePlan:
    """Create ``path``, leave it when it is ``wanted`` already, overwrite it only with ``force``."""
    current = _read(root, path)
    if current is None:
        return FilePlan(path, Action.CREATE, _plain(path, wanted))
    if current == wanted:
        return FilePlan(path, Action.SAME)
    if force:
        return FilePlan(path, Action.UPDATE, _plain(path, wanted))
    return FilePlan(path, Action.KEPT, note=f"{why}; --force overwrites it")


# ---- the config


@dataclass(frozen=True)
class _ConfigPlan:
    file: FilePlan
    config: Config


def raw_table(root: Path) -> tuple[dict[str, Any], str | None]:
    """The existing config's raw table and its file, as :func:`docsync.config.load` picks them."""
    dedicated = _read(root, adopt_config.DEDICATED)
    if dedicated is not None:
        return _toml(dedicated, adopt_config.DEDICATED), adopt_config.DEDICATED
    pyproject = _read(root, adopt_config.PYPROJECT)
    if pyproject is not None:
        tool = _toml(pyproject, adopt_config.PYPROJECT).get("tool", {})
        table = tool.get("docsync") if isinstance(tool, dict) else None
        if isinstance(table, dict):
            return table, adopt_config.PYPROJECT
    return {}, None


def _toml(text: str, origin: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{origin}: not valid TOML: {exc}") from None


def _same_values(a: Config, b: Config) -> bool:
    return replace(a, origin="") == replace(b, origin="")


def _differences(a: Config, b: Config) -> str:
    keys = [k for k in a.__dataclass_fields__ if k != "origin" and getattr(a, k) != getattr(b, k)]
    return ", ".join(keys)


def _config_plan(
    root: Path, draft: adopt_config.Draft, existing: Config, where: str | None, options: InitOptions
) -> _ConfigPlan:
    if options.pyproject or where == adopt_config.PYPROJECT:
        return _pyproject_plan(root, draft, existing, where, options)
    text = adopt_config.render(draft)
    config = adopt_config.loaded(text, adopt_config.DEDICATED)
    current = _read(root, adopt_config.DEDICATED)
    if current is not None and current != text and _same_values(config, existing):
        return _ConfigPlan(
            FilePlan(adopt_config.DEDICATED, Action.SAME, note="values already match"), existing
        )
    why = f"its values differ from what init found ({_differences(existing, config)})"
    plan = _file(root, adopt_config.DEDICATED, text, options.force, why)
    return _ConfigPlan(plan, existing if plan.action is Action.KEPT else config)


def _pyproject_plan(
    root: Path, draft: adopt_config.Draft, existing: Config, where: str | None, options: InitOptions
) -> _ConfigPlan:
    path = adopt_config.PYPROJECT
    if where == adopt_config.DEDICATED:
        raise DocsyncError(
            f"{adopt_config.DEDICATED} exists and wins over {path}; "
            "drop --pyproject, or move its keys into pyproject.toml and delete it"
        )
    current = _text_as_is(root, path)
    if current is None:
        raise DocsyncError(
            f"--pyproject: there is no {path}; drop --pyproject to write .docsync.toml"
        )
    block = adopt_config.render(draft, "tool.docsync")
    config = adopt_config.loaded(block, adopt_config.PYPROJECT_ORIGIN, "tool.docsync")
    if not adopt_config.has_table(current):
        text = adopt_config.appended(current, block)
        adopt_config.loaded(text, adopt_config.PYPROJECT_ORIGIN, "tool.docsync")
        return _ConfigPlan(FilePlan(path, Action.UPDATE, _plain(path, text)), config)
    if _same_values(config, existing):
        return _ConfigPlan(FilePlan(path, Action.SAME, note="values already match"), existing)
    if not options.force:
        differ = _differences(existing, config)
        why = f"its [tool.docsync] values differ from what init found ({differ})"
        return _ConfigPlan(
            FilePlan(path, Action.KEPT, note=f"{why}; --force replaces that table"), existing
        )
    text = adopt_config.replaced(current, block)
    return _ConfigPlan(FilePlan(path, Action.UPDATE, _plain(path, text)), config)


# ---- hooks and the conventions doc


def _hook_files(root: Path, options: InitOptions) -> Iterator[FilePlan]:
    path = adopt_hooks.PRE_COMMIT_CONFIG
    current = _text_as_is(root, path)
    text = adopt_hooks.with_hook(current, options.hook_repo)
    if text is None:
        yield FilePlan(path, Action.SAME, note="it runs a docsync hook already")
    else:
        yield FilePlan(
            path, Action.CREATE if current is None else Action.UPDATE, _plain(path, text)
        )
    why = "it differs from the workflow init writes"
    yield _file(root, adopt_hooks.WORKFLOW, adopt_hooks.workflow(), options.force, why)


def _conventions_file(workspace: Workspace, config: Config) -> FilePlan | None:
    tree = load_tree(replace(workspace, config=config))
    wanted = conventions.tree_conventions(tree) if tree is not None else None
    if wanted is None:
        return None
    doc = workspace.documents.get(wanted.path)
    existing = doc.text if doc is not None else _read(workspace.root, wanted.path)
    try:
        text = conventions.render(wanted, existing)
    except conventions.ConventionsMarkersError as exc:
        return FilePlan(wanted.path, Action.KEPT, note=f"{exc}; repair the markers")
    if text == existing:
        return FilePlan(wanted.path, Action.SAME)
    newline, bom = (doc.newline, doc.bom) if doc is not None else ("\n", False)
    action = Action.CREATE if existing is None else Action.UPDATE
    return FilePlan(wanted.path, action, FileWrite(wanted.path, text, newline, bom))


# --------------------------------------------------------------------------- the result


@dataclass(frozen=True)
class InitResult:
    root: Path
    inspection: Inspection
    files: tuple[FilePlan, ...]
    config_path: str

    @property
    def writes(self) -> list[FileWrite]:
        return [f.write for f in self.files if f.write is not None]

    @property
    def changed(self) -> bool:
        return bool(self.writes)

    @property
    def exit_code(self) -> int:
        """1 when a file was kept because it differs (``--force`` overwrites), else 0."""
        return 1 if any(f.action is Action.KEPT for f in self.files) else 0


def plan_init(start: Path, options: InitOptions, progress: Progress | None = None) -> InitResult:
    """Inspect the repository holding ``start`` and plan every file (nothing is written).

    ``progress`` hears the parse (see :func:`load_workspace`) and then
    (:data:`MEASURING`, done, total) per file as the wrap conventions are measured.
    """
    root = find_repo(start).root
    existing = load_config(root)
    raw, where = raw_table(root)
    workspace = load_workspace(root, config=existing, progress=progress, summarizer=Summarizer)
    inspection = inspect(workspace, raw, progress)
    planned = _config_plan(root, adopt_config.draft(inspection, raw), existing, where, options)
    files = [planned.file]
    if options.hooks:
        files.extend(_hook_files(root, options))
    if inspection.migrated:
        doc = _conventions_file(workspace, planned.config)
        files.extend([doc] if doc is not None else [])
    return InitResult(root, inspection, tuple(files), planned.file.path)


def apply(result: InitResult) -> None:
    """Write every planned file (all or none)."""
    write_all(result.root, result.writes)


# --------------------------------------------------------------------------- the report


def _mode(mode: WrapMode) -> str:
    return str(mode)


def _trees_lines(inspection: Inspection) -> Iterator[str]:
    yield "Record trees"
    for tree in inspection.trees:
        index = f", index {', '.join(tree.indexes)}" if tree.indexes else ""
        yield f"  legacy  {tree.path}/  {tree.kind}  {len(tree.records)} numbered records{index}"
    if not inspection.trees:
        yield "  legacy  none found"
    exists = (
        f"{inspection.tree_records} records in its lifecycle folders"
        if inspection.tree_records
        else "created by docsync migrate --apply"
    )
    yield f"  target  {inspection.target}/  {exists}"


def _words_lines(inspection: Inspection) -> Iterator[str]:
    if not inspection.words and not inspection.missing:
        return
    yield ""
    yield "Status words"
    width = max((len(w.word) for w in inspection.words), default=0)
    for word in inspection.words:
        state = word.state or "? unknown: map it under [statuses] in the config"
        where = (
            word.paths[0]
            if len(word.paths) == 1
            else f"{len(word.paths)} records, e.g. {word.paths[0]}"
        )
        yield f"  {word.word:<{width}}  -> {state}  ({where})"
    if inspection.missing:
        more = f" and {len(inspection.missing) - 1} more" if len(inspection.missing) > 1 else ""
        yield f"  no status line: {inspection.missing[0]}{more} (docsync migrate lists them)"


def _wrap_lines(inspection: Inspection) -> Iterator[str]:
    yield ""
    yield f"Wrap convention ({len(inspection.files)} Markdown files in scope)"
    yield "  candidate  paragraphs that break it"
    for count in inspection.wrap:
        mark = "  <- chosen" if count.mode == inspection.chosen else ""
        yield f"  {_mode(count.mode):<9}  {count.paragraphs:>5} in {count.files} files{mark}"
    chosen = _chosen(inspection)
    if chosen.paragraphs:
        yield "  The prose meets none of them yet; this one needs the fewest changes."
    yield f"  docsync fix would rewrite {chosen.paragraphs} paragraphs in {chosen.files} files."


def _chosen(inspection: Inspection) -> WrapCount:
    return next(c for c in inspection.wrap if c.mode == inspection.chosen)


def _files_lines(result: InitResult) -> Iterator[str]:
    yield ""
    yield "Files"
    for file in result.files:
        note = f" ({file.note})" if file.note else ""
        yield f"  {file.action.value:<10}  {file.path}{note}"


def next_steps(result: InitResult) -> list[str]:
    written = [f.path for f in result.files if f.write is not None]
    steps = []
    if written:
        steps.append(f"git add {' '.join(written)} && git commit -m 'Adopt docsync'")
    if result.inspection.legacy_records:
        unknown = [w.word for w in result.inspection.words if w.state is None]
        if unknown:
            steps.append(
                f"map the unknown status words ({', '.join(unknown)}) in {result.config_path}"
            )
        steps += [
            "docsync migrate                    # dry run: the plan; writes nothing",
            "docsync migrate --apply --commit   # move, rewrite, commit",
        ]
    chosen = _chosen(result.inspection)
    if chosen.paragraphs:
        mode = chosen.mode if isinstance(chosen.mode, int) else f'"{chosen.mode}"'
        steps.append(
            f"docsync fix                        # re-wrap the {chosen.paragraphs} paragraphs "
            f"that break wrap = {mode}"
        )
    steps.append("docsync check")
    return steps


def describe(result: InitResult) -> str:
    """The report ``docsync init`` prints: what it found, what it wrote, what to do next."""
    lines = [
        *_trees_lines(result.inspection),
        *_words_lines(result.inspection),
        *_wrap_lines(result.inspection),
        *_files_lines(result),
    ]
    if not result.changed and result.exit_code == 0:
        lines += ["", "Nothing to change: every file is up to date."]
    lines += ["", "Next steps", *(f"  {step}" for step in next_steps(result))]
    return "\n".join(lines) + "\n"
