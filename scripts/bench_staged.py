#!/usr/bin/env python3
"""Benchmark the pre-commit hook's command, ``docsync check --staged``, on a staged rename.

Generates the corpus ``bench.py`` uses (``--files`` Markdown files, default
2,000), commits it, warms docsync's cache with one ``docsync check``, then,
``--repeat`` times: stages ``git mv`` of a file that other files link to,
times ``docsync check --staged --format json`` (every gate, as the hook runs
it; a subprocess, start-up included), checks that it reports the links the
rename broke, and puts the file back. Target: under 1 s (the median).

    python scripts/bench.py staged
    python scripts/bench.py staged --files 2000 --repeat 5 --json
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import bench

CHECK = [sys.executable, "-m", "docsync", "check", "--format", "json"]
STAGED = [*CHECK, "--staged"]


def _env() -> dict[str, str]:
    """bench's environment, with bytecode written and read: an installed docsync has its
    .pyc files (pip compiles them), and compiling every module costs ~0.3 s a run."""
    env = bench._git_env()
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=root, env=bench._git_env(), capture_output=True, text=True, check=True
    )
    return done.stdout


def _linked_file(root: Path) -> str:
    """The file the most others link to by its name (so the rename breaks the most)."""
    counts: dict[str, int] = {}
    names = {Path(p).name: p for p in _git(root, "ls-files", "*.md").split()}
    for path in names.values():
        for target in re.findall(r"\]\(([^)#\s]+\.md)", (root / path).read_text(encoding="utf-8")):
            name = Path(target).name
            if name in names:
                counts[names[name]] = counts.get(names[name], 0) + 1
    return max(counts, key=lambda p: counts[p])


def _timed(root: Path, command: Sequence[str]) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=root, env=_env(), capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"bench: {' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return seconds, len(json.loads(done.stdout)["findings"])


def measure(root: Path, repeat: int) -> dict[str, object]:
    _timed(root, CHECK)  # warm the cache, as a developer's earlier runs have
    moved = _linked_file(root)
    renamed = str(Path(moved).with_name("renamed-" + Path(moved).name))
    runs: list[tuple[float, int]] = []
    for _ in range(repeat):
        _git(root, "mv", moved, renamed)
        try:
            runs.append(_timed(root, STAGED))
        finally:
            _git(root, "mv", renamed, moved)
    seconds = statistics.median(s for s, _ in runs)
    return {
        "renamed": moved,
        "seconds": [round(s, 3) for s, _ in runs],
        "median": round(seconds, 3),
        "findings": sorted({n for _, n in runs}),
        "under_1s": seconds < 1.0,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=2000, help="Markdown files (default 2000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs (default 5)")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="docsync-bench-staged-"))
    try:
        corpus = bench.generate(root, args.files, 20, 1)
        result = {"files": corpus.files, "load_before": bench._load_average(), **measure(root, args.repeat)}
        result["load_after"] = bench._load_average()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"docsync check --staged after a staged rename of {result['renamed']} "
            f"({result['files']} files): median {result['median']} s of {result['seconds']}, "
            f"findings {result['findings']}, target < 1 s: {'met' if result['under_1s'] else 'NOT met'}; "
            f"load average {result['load_before']} / {result['load_after']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
