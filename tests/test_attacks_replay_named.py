"""A file git does not list (ignored) is checked when named on the command line; its edits
must reach the warm report replay's key (:mod:`docsync.commandline.replay_key`), or the
next run replays the report of the file as it was, findings and exit code.

Generated: every way a file is kept out of git's listing (``.gitignore`` at the root, in
its folder, ``.git/info/exclude``) and every spelling of its name (as given, absolute,
through ``..``), each value of each once (a run is a process: the suite's budget).
"""

from __future__ import annotations

import os
from pathlib import Path

from docsync.commandline import replay_key
from tests.forked import docsync
from tests.gitutil import GitRepo

IGNORERS = {
    "root .gitignore": (".gitignore", "{folder}/\n"),
    "its folder's .gitignore": ("{folder}/.gitignore", "*.md\n"),
    ".git/info/exclude": (".git/info/exclude", "/{folder}/\n"),
}
SPELLINGS = {
    "as given": lambda root, path: path,
    "absolute": lambda root, path: str(root / path),
    "through ..": lambda root, path: f"{path.split('/')[0]}/../{path}",
}
BROKEN = "# Notes\n\n[x](../READMX.md)\n"
FIXED = "# Notes\n\n[x](../README.md)\n"  # the same size: only the stat's times tell


def test_an_ignored_file_named_is_in_the_replay_key(tmp_path: Path) -> None:
    repo = GitRepo.holding(tmp_path / "repo", {"README.md": "# R\n"})
    for number, (ignorer, spelling) in enumerate(zip(IGNORERS, SPELLINGS, strict=True)):
        folder = f"scratch{number}"
        where, rule = IGNORERS[ignorer]
        file = repo.root / where.format(folder=folder)
        file.parent.mkdir(parents=True, exist_ok=True)
        with file.open("a") as handle:
            handle.write(rule.format(folder=folder))
        page = repo.write(f"{folder}/notes.md", BROKEN)
        assert f"{folder}/notes.md" not in repo.git("ls-files", "-o", "--exclude-standard"), ignorer
        argv = ["check", "--format", "concise", SPELLINGS[spelling](repo.root, f"{folder}/notes.md")]
        first = docsync(repo.root, *argv)
        assert first.returncode == 1 and "READMX" in first.stdout, (ignorer, spelling, first.stderr)
        page.write_text(FIXED)
        kept = replay_key.slot_file(repo.root / ".git", argv, os.path.realpath(repo.root))
        later = os.stat(kept).st_mtime_ns + 10**10  # the report's run came well after the edit
        os.utime(kept, ns=(later, later))
        again = docsync(repo.root, *argv)
        assert again.returncode == 0 and "READMX" not in again.stdout, (ignorer, spelling, again.stdout)
