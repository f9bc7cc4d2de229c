"""Helpers for the threat-model tests (``tests/test_untrusted_*.py``): a small legacy
repository, a byte-exact picture of a folder tree, and the one-line-error check.

See ``docs/rfc/implemented/2026-12-06-threat-model-untrusted-repository.md``.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection
from pathlib import Path

from typer.testing import CliRunner, Result

from tests.gitutil import GitRepo

runner = CliRunner()
RECORDS = {
    "docs/adr/0001-use-postgres.md": "# ADR 0001: Use Postgres\n\nStatus: accepted\n\nSee ADR 0002.\n",
    "docs/adr/0002-use-redis.md": "# ADR 0002: Use Redis\n\nStatus: proposed\n\nAfter ADR 0001.\n",
    "README.md": "# Project\n\nRead [the first decision](docs/adr/0001-use-postgres.md).\n",
}
HOOK = b"#!/bin/sh\necho the hook of the user\n"


def legacy_repo(root: Path) -> GitRepo:
    """Two ADRs, a README linking one, and an executable pre-commit hook of the user's."""
    repo = GitRepo.init(root)
    for path, text in RECORDS.items():
        repo.write(path, text)
    repo.commit("records", when="2022-02-02 10:00:00", tz="+0100")
    hook = root / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_bytes(HOOK)
    hook.chmod(0o755)
    return repo


Entry = tuple[str, bytes | str | int]


def picture(folder: Path, *, git: Collection[str] | None = None) -> dict[str, Entry]:
    """Every name under ``folder``: a file's bytes and mode, a symlink's target, a folder,
    and any other kind (a FIFO, a device) by its kind only: never read.

    ``git`` names the folders of ``folder/.git`` to look into (``("hooks",)``; ``()``: none,
    ``.git`` itself is still listed); ``None``, the default, looks into all of ``.git``.
    The one tree walk of the tests that compare a repository before and after a run."""
    found: dict[str, Entry] = {}
    inside_git = os.path.join(folder, ".git")
    for top, folders, files in os.walk(folder):
        if git is not None and top == inside_git:
            folders[:] = [name for name in folders if name in git]
            files = []
        for name in [*folders, *files]:
            full = os.path.join(top, name)
            shown = os.path.relpath(full, folder)
            info = os.lstat(full)
            if stat.S_ISLNK(info.st_mode):
                found[shown] = ("link", os.readlink(full))
            elif stat.S_ISDIR(info.st_mode):
                found[shown] = ("folder", 0)
            elif stat.S_ISREG(info.st_mode):
                found[shown] = (f"file {stat.S_IMODE(info.st_mode):o}", Path(full).read_bytes())
            else:
                found[shown] = ("other", stat.S_IFMT(info.st_mode))
    return found


def one_line(result: Result) -> str:
    """The one line on stderr of a command that failed cleanly: no traceback, no second line."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output + result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]
