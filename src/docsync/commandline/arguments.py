"""The command line's arguments as the core takes them: paths relative to the repository
root, rule codes as one list, stdin's text, the config file; and the unfinished-run check
every command that changes files makes first."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..errors import DocsyncError
from ..workspace.load import relative_to_root
from ..write.finished import no_journal
from .output import here_repo, say

if TYPE_CHECKING:
    from ..write.transaction import Pending


APP: dict[str, Any] = {
    "name": "docsync",
    "help": "Docs governance for design records: check links and wrapping, migrate ADR/RFC trees.",
    "no_args_is_help": True,
    "add_completion": True,
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
    "context_settings": {"help_option_names": ["-h", "--help"]},
}
"""The command line's settings (:mod:`docsync.cli`, which alone imports typer, makes its apps of them)."""


def command_name(info: Any) -> str:
    """The name typer gives a registered command: its own, or its function's, dashed."""
    return str(info.name or info.callback.__name__.lower().replace("_", "-"))


def paths(raw: list[Path] | None) -> list[str] | None:
    """The paths given, as repository paths; ``None`` for every Markdown file."""
    if not raw:
        return None
    root = here_repo().root
    for path in raw:
        if not path.exists() and not path.is_symlink():
            raise DocsyncError(f"{path}: no such file or folder")
    return [relative_to_root(root, Path.cwd(), str(p)) for p in raw]


def repository_path(path: Path | str) -> str:
    """One path from the current directory, as a repository path."""
    return relative_to_root(here_repo().root, Path.cwd(), str(path))


def codes(raw: list[str] | None) -> list[str]:
    """``--select L001,W --select links`` as one list."""
    return [part.strip() for item in raw or () for part in item.split(",") if part.strip()]


def within(raw: list[Path] | None) -> str | None:
    """Run from a subdirectory without paths: that subdirectory (the whole repository
    is still the link context)."""
    if raw:
        return None
    here = repository_path(".")
    return None if here == "." else here


def stdin(raw: list[Path] | None, filename: str | None) -> tuple[str, str] | None:
    """``-`` as the only path: (repository path, text read from stdin)."""
    if not raw or [str(p) for p in raw] != ["-"]:
        if filename is not None:
            raise DocsyncError("--stdin-filename needs '-' as the path")
        return None
    if filename is None:
        raise DocsyncError("'-' reads stdin: give its path with --stdin-filename")
    data = sys.stdin.buffer.read()  # as bytes: its line ends as they are (text mode makes them LF)
    try:
        return repository_path(filename), data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DocsyncError(f"stdin is not UTF-8 text (byte {error.start})") from None


def fix_request(
    redo: Mapping[str, Any] | None,
    raw: list[Path] | None,
    gates: list[str] | None,
    select: list[str] | None,
    ignore: list[str] | None,
    config_path: Path | None,
) -> dict[str, Any]:
    """``run_fix``'s arguments: those given, or (``redo``) the unfinished run's, its config too."""
    if redo is not None:
        asked = {key: redo[key] for key in ("paths", "gates", "select", "ignore", "within")}
        config_path = Path(redo["config"]) if redo.get("config") else None
    else:
        asked = {
            "paths": paths(raw),
            "gates": gates,
            "select": codes(select) or None,
            "ignore": codes(ignore),
            "within": within(raw),
        }
    return {
        **asked,
        "config": config(config_path),
        "config_file": str(config_path.absolute()) if config_path is not None else None,
    }


def config(path: Path | None) -> Config | None:
    """``--config PATH`` loaded; ``None`` to find the nearest."""
    if path is None:
        return None
    from ..config import load_file

    return load_file(path)


def finish_unfinished(command: str, abort: bool, resume: bool) -> Pending | None:
    """``--abort`` or ``--continue``: put the repository back as it was before the unfinished run;
    the run found, else ``None``. With neither, refuse while a run is unfinished: a run that
    was killed left a journal, and every command that changes files refuses until it is resolved."""
    if abort and resume:
        raise DocsyncError("--abort and --continue exclude each other")
    if not (abort or resume):
        repo = here_repo()
        if not no_journal(repo.git_dir):  # else nothing to refuse: the machinery stays unloaded
            from ..write.run_lock import refuse_busy
            from ..write.transaction import refuse_pending

            refuse_busy(repo.git_dir)  # a live run's journal is no unfinished run's
            refuse_pending(repo.git_dir, repo.root)
        return None
    from ..write.transaction import abort as abort_pending
    found = abort_pending(Path.cwd(), command, "abort" if abort else "continue")
    if found.kept:
        shown = ", ".join(found.kept[:5]) + (f" and {len(found.kept) - 5} more" if len(found.kept) > 5 else "")
        say(
            f"aborted the unfinished `docsync {command}`: HEAD, the index and every file it touched are as "
            f"they were, except these, kept as they are now, since they were saved after it stopped: {shown}"
        )
        return found
    say(f"aborted the unfinished `docsync {command}`: HEAD, the index and every file it touched are as they were")
    return found


HOOK_REPO_HELP = (
    "'package' (default): pre-commit installs docsync from the package index; "
    "'local': runs the installed docsync; else a hooks repository URL."
)
