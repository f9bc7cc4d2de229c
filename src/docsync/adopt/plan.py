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
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from ..config import Config, WrapMode
from ..config import load as load_config
from ..errors import ConfigError, DocsyncError
from ..gates.wrap.count import COUNTS, Summarizer
from ..records import conventions
from ..records.tree import load_tree
from ..repository.plumbing import default_branch, find_repo
from ..workspace.load import Progress, Workspace, load_workspace
from ..write import writer
from ..write.transaction import Transaction
from ..write.writer import FileWrite
from . import config_text as adopt_config
from . import hooks as adopt_hooks
from . import pyproject_text
from .inspection import Inspection, WrapCount, inspect


@dataclass(frozen=True, slots=True)
class InitOptions:
    pyproject: bool = False
    hooks: bool = False
    force: bool = False
    hook_repo: str = adopt_hooks.DEFAULT_HOOK_REPO


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
    read: str | None = None  # the text init planned from; the file must still hold it


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
        return FilePlan(path, Action.UPDATE, _plain(path, wanted), read=current)
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
    if not pyproject_text.has_table(current):
        text = pyproject_text.appended(current, block)
        adopt_config.loaded(text, adopt_config.PYPROJECT_ORIGIN, "tool.docsync")
        return _ConfigPlan(FilePlan(path, Action.UPDATE, _plain(path, text), read=current), config)
    if _same_values(config, existing):
        return _ConfigPlan(FilePlan(path, Action.SAME, note="values already match"), existing)
    if not options.force:
        differ = _differences(existing, config)
        why = f"its [tool.docsync] values differ from what init found ({differ})"
        return _ConfigPlan(
            FilePlan(path, Action.KEPT, note=f"{why}; --force replaces that table"), existing
        )
    text = pyproject_text.replaced(current, block)
    return _ConfigPlan(FilePlan(path, Action.UPDATE, _plain(path, text), read=current), config)


# ---- hooks and the conventions doc


def _hook_files(root: Path, options: InitOptions) -> Iterator[FilePlan]:
    path = adopt_hooks.PRE_COMMIT_CONFIG
    current = _text_as_is(root, path)
    text = adopt_hooks.with_hook(current, options.hook_repo)
    if text is None:
        yield FilePlan(path, Action.SAME, note="it runs a docsync hook already")
    else:
        action = Action.CREATE if current is None else Action.UPDATE
        yield FilePlan(path, action, _plain(path, text), read=current)
    wanted, why = adopt_hooks.workflow(default_branch(root)), "it differs from the workflow init writes"
    yield _file(root, adopt_hooks.WORKFLOW, wanted, options.force, why)


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
    return FilePlan(wanted.path, action, FileWrite(wanted.path, text, newline, bom), read=existing)


# --------------------------------------------------------------------------- the result


@dataclass(frozen=True)
class InitResult:
    root: Path
    inspection: Inspection
    files: tuple[FilePlan, ...]
    config_path: str
    options: InitOptions = InitOptions()

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
    root = (repo := find_repo(start)).root
    existing = load_config(root)
    raw, where = raw_table(root)
    workspace = load_workspace(root, config=existing, progress=progress, summarizers={COUNTS: Summarizer}, repo=repo)
    inspection = inspect(workspace, raw, progress)
    planned = _config_plan(root, adopt_config.draft(inspection, raw), existing, where, options)
    files = [planned.file]
    if options.hooks:
        files.extend(_hook_files(root, options))
    if inspection.migrated:
        doc = _conventions_file(workspace, planned.config)
        files.extend([doc] if doc is not None else [])
    return InitResult(root, inspection, tuple(files), planned.file.path, options)


def apply(result: InitResult) -> None:
    """Write every planned file in one journalled transaction: all or none, also
    after a kill (``docsync init --abort`` puts it back, ``--continue`` plans and
    writes again). A file that changed since init read it is not overwritten."""
    planned = [f for f in result.files if f.write is not None]
    if not planned:
        return
    paths = [f.path for f in planned]
    writer.preflight(result.root, paths)
    with Transaction.begin(result.root, "init", asdict(result.options), paths) as txn:
        txn.announce(f.write for f in planned if f.write is not None)
        for file in planned:
            assert file.write is not None
            txn.write(file.write, read=file.read)


# --------------------------------------------------------------------------- the report


def _mode(mode: WrapMode) -> str:
    return str(mode)


def _trees_lines(inspection: Inspection) -> Iterator[str]:
    yield "Record trees"
    for tree in inspection.trees:
        index = f", index {', '.join(tree.indexes)}" if tree.indexes else ""
        yield f"  legacy  {tree.path}/  {tree.kind}  {len(tree.records)} numbered records{index}"
        for page in tree.kept:
            yield (
                f"  keeps   {page}: {tree.kept_reason}; to remove it, list it in the plan's "
                "[pages] remove"
            )
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
        many = f"{len(word.paths)} records, e.g. {word.paths[0]}"
        where = word.paths[0] if len(word.paths) == 1 else many
        yield f"  {word.word:<{width}}  -> {state}  ({where})"
    if inspection.missing:
        more = f" and {len(inspection.missing) - 1} more" if len(inspection.missing) > 1 else ""
        yield f"  no status line: {inspection.missing[0]}{more} (docsync migrate lists them)"
        yield "    answer: status or status_key of its source in sources, or status in the plan"


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
