#!/usr/bin/env python3
"""Benchmark the pre-commit hook's command, ``docsync check --staged``, on a staged rename.

Generates the corpus ``bench_corpus.py`` writes (``--files`` Markdown files,
default 2,500), commits it, warms docsync's cache with one ``docsync check``, then,
``--repeat`` times: stages ``git mv`` of a file that other files link to,
times ``docsync check --staged --format json`` (every gate, as the hook runs
it; a subprocess, start-up included), checks that it reports the links the
rename broke, and puts the file back. Target: under 0.6 s (the median). The
CPU time (user plus system, the command's children included) is the steady
figure on a shared machine; the load average is printed beside the wall time.

    python scripts/bench.py staged
    python scripts/bench_staged.py --files 2500 --repeat 5 --json   # the same, on its own
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import bench_corpus

CHECK = [sys.executable, "-m", "docsync", "check", "--format", "json"]
STAGED = [*CHECK, "--staged"]
TARGET = 0.6  # seconds, the median (issue #14)


def _env() -> dict[str, str]:
    """bench's environment, with bytecode written and read: an installed docsync has its
    .pyc files (pip compiles them), and compiling every module costs ~0.3 s a run."""
    env = bench_corpus.git_env()
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=root, env=bench_corpus.git_env(), capture_output=True, text=True, check=True
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


def _children_cpu() -> float:
    """User plus system time of this process's finished children (the command, its workers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(root: Path, command: Sequence[str]) -> tuple[float, int, float, float]:
    seconds, cpu, peak, stdout, code = bench_corpus.gnu_timed(command, root, _env())
    if code not in (0, 1):
        raise SystemExit(f"bench: {' '.join(command)} failed ({code})")
    return seconds, len(json.loads(stdout)["findings"]), cpu, peak


def measure(root: Path, repeat: int) -> dict[str, object]:
    _timed(root, CHECK)  # warm the cache, as a developer's earlier runs have
    moved = _linked_file(root)
    renamed = str(Path(moved).with_name("renamed-" + Path(moved).name))
    runs: list[tuple[float, int, float, float]] = []
    for _ in range(repeat):
        _git(root, "mv", moved, renamed)
        try:
            runs.append(_timed(root, STAGED))
        finally:
            _git(root, "mv", renamed, moved)
    seconds = statistics.median(s for s, _, _, _ in runs)
    return {
        "renamed": moved,
        "seconds": [round(s, 3) for s, _, _, _ in runs],
        "median": round(seconds, 3),
        "cpu_seconds": [round(c, 3) for _, _, c, _ in runs],
        "median_cpu": round(statistics.median(c for _, _, c, _ in runs), 3),
        "median_peak_mb": round(statistics.median(p for _, _, _, p in runs), 1),
        "findings": sorted({n for _, n, _, _ in runs}),
        "target_seconds": TARGET,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=2500, help="Markdown files (default 2500)")
    parser.add_argument("--repeat", type=int, default=5, help="runs (default 5)")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="docsync-bench-staged-"))
    try:
        corpus = bench_corpus.generate(root, args.files, 20, 1)
        result = {"files": corpus.files, "load_before": bench_corpus.load_average(), **measure(root, args.repeat)}
        result["load_after"] = bench_corpus.load_average()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"docsync check --staged after a staged rename of {result['renamed']} "
            f"({result['files']} files): median {result['median']} s of {result['seconds']}, "
            f"{result['median_cpu']} s CPU, findings {result['findings']}, "
            f"target < {TARGET} s: {'met' if result['median'] < TARGET else 'NOT met'}; "
            f"load average {result['load_before']} / {result['load_after']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
