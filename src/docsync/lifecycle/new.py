"""``docsync new``: a record from the template, dated today, listed in the index (and, with
``--supersedes``, the relation on both records). Planning (:func:`plan_new`) is read-only;
:func:`create` plans and applies."""

from __future__ import annotations

import posixpath
import re
from datetime import date
from pathlib import Path

from ..errors import DocsyncError
from ..gates.wrap import check as wrap
from ..records.relations import (
    SUPERSEDES,
    kind_of,
)
from ..records.tree import load_tree
from ..repository.plumbing import RepoPaths, find_repo
from ..workspace.load import (
    Workspace,
    load_workspace,
)
from ..write import writer
from ..write.writer import FileWrite
from .change import Change, apply, finish, with_reads, workspace_after
from .find import find_record, from_here
from .move import plan_move
from .relation import Relating
from .status import resolve_status, single_line, slug_of, state_folder, tree_target, written_word
from .template import Template, fill_template, read_template


def _same_slug(workspace: Workspace, slug: str) -> list[str]:
    """Files under the tree (any folder, any date) whose name carries ``slug``."""
    prefix = tree_target(workspace.config) + "/"
    present = set(workspace.listing.tracked) | workspace.listing.untracked
    pattern = re.compile(r"\d{4}-\d{2}-\d{2}-" + re.escape(slug) + r"\.md")
    return sorted(
        p for p in present if p.startswith(prefix) and pattern.fullmatch(posixpath.basename(p))
    )


def plan_new(
    workspace: Workspace,
    title: str,
    status: str,
    template: Template,
    today: date,
    relates_to: Relating | None = None,
) -> Change:
    """A new record ``<target>/<state folder>/<today>-<slug>.md`` and the index that lists it.

    With ``relates_to`` (``--supersedes``), the new record supersedes (or
    amends …) that record: both get the relation, and a superseded record
    moves to the superseded state.
    """
    config = workspace.config
    title = single_line(title, "title")
    slug = slug_of(title)
    if not slug:
        raise DocsyncError(f"the title {title!r} has no ASCII letters or digits to make a file name")
    resolved = resolve_status(config, status)
    taken = _same_slug(workspace, slug)
    if taken:
        raise DocsyncError(
            f"a record with the slug {slug!r} already exists: {taken[0]}; "
            "choose a more specific title"
        )
    path = f"{state_folder(config, resolved.state)}/{today.isoformat()}-{slug}.md"
    if (workspace.root / path).exists():  # an ignored file git does not list
        raise DocsyncError(f"{path} already exists")
    text = fill_template(
        template, path, title, written_word(config, resolved), config.relations
    )
    record = wrap.keep_wrapped(None, FileWrite(path, text, template.newline, template.bom), config)
    if relates_to is not None:
        return _new_relating(workspace, record, resolved.state, relates_to, today)
    writes, created = finish(workspace, {}, {path: record})
    return Change(path, path, resolved.state, (), writes, created)


def _new_relating(
    workspace: Workspace, record: FileWrite, state: str, older: Relating, today: date
) -> Change:
    """The new record, and the relation to ``older`` written on both (moving it when superseded)."""
    after = workspace_after(workspace, {}, {record.path: record})
    tree = load_tree(after)
    if tree is None:
        raise DocsyncError(f"there is no record tree under {tree_target(workspace.config)}/ yet")
    file = find_record(tree, older.record, older.record_path)
    kind = kind_of(workspace.config, older.kind)
    target = "superseded" if kind == SUPERSEDES else (file.state or "")
    related = plan_move(
        after, older.record, target, "", today, older.record_path, Relating(record.path, kind)
    )
    created = tuple(dict.fromkeys([record.path, *related.created]))
    return Change(
        record.path, record.path, state, related.moves, related.writes, created, related.warnings
    )


def create(
    start: Path,
    title: str,
    status: str,
    template: Path | None,
    today: date,
    supersedes: str | None = None,
    relation: str = SUPERSEDES,
    repo: RepoPaths | None = None,
) -> Change:
    """``docsync new``: plan and apply a new record from where the user stands."""
    repo = repo or find_repo(start)  # asked once (``repo``: by the command line), for the plan and the transaction
    workspace = load_workspace(start, repo=repo)
    chosen = read_template(workspace.root, workspace.config, template)
    older = (
        Relating(supersedes, relation, from_here(workspace, start, supersedes))
        if supersedes is not None
        else None
    )
    change = plan_new(workspace, title, status, chosen, today, older)
    writer.remove_stale_temps(workspace.root, workspace.listing.untracked)
    redo = {
        "title": title,
        "status": status,
        "template": None if template is None else str(template.absolute()),
        "today": today.isoformat(),
        "supersedes": supersedes,
        "relation": relation,
    }
    apply(workspace.root, with_reads(workspace, change), "new", redo, workspace.listing, repo)
    return change
