#!/usr/bin/env python3
"""Benchmark the "did you mean" search: one file with ``--links`` broken links (default 100,000).

Generates a small repository (``--files`` Markdown files, default 400, in four
folders, 20 headings each) and one file whose links are, in turn, relative
links to missing files (``missing-N.md``, each a distinct name), near-misses of
real files (``docs/<real-name>x.md``, suggested) and links to real files with a
missing ``#fragment`` (answered from the target's anchors). Then, ``--repeat``
times, removes docsync's cache and times a cold ``docsync check --gate links``
(a subprocess, start-up included), checking that every broken link is
reported. Target: under 5 s.

    python scripts/bench.py broken
    python scripts/bench_broken.py --links 100000 --repeat 3 --json   # the same, on its own
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import bench_corpus

CHECK = [sys.executable, "-m", "docsync", "check", "--gate", "links"]
_WORDS = ["alpha", "beta", "gamma", "delta", "install", "config", "guide", "release", "notes", "api", "overview", "design", "record", "usage", "faq"]


def generate(root: Path, files: int, links: int, seed: int) -> int:
    """The repository; returns how many broken links ``big.md`` holds (all of them)."""
    rng = random.Random(seed)
    paths: list[str] = []
    folders = ["docs", "docs/guide", "docs/rfc", ""]
    for i in range(files):
        folder = folders[i % len(folders)]
        name = f"{rng.choice(_WORDS)}-{rng.choice(_WORDS)}-{i}.md"
        path = f"{folder}/{name}" if folder else name
        heads = "\n\n".join(f"## {rng.choice(_WORDS)} {rng.choice(_WORDS)} {j}" for j in range(20))
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(f"# {name}\n\n{heads}\n")
        paths.append(path)
    in_docs = [p for p in paths if p.count("/") == 1]
    lines = ["# Broken links", ""]
    for n in range(links):
        kind = n % 20
        if kind == 0:
            lines.append(f"[y]({rng.choice(in_docs)[:-3]}x.md)")
        elif kind == 1:
            lines.append(f"[z]({rng.choice(paths)}#{rng.choice(_WORDS)}-{20 + n % 37})")  # headings are numbered 0 to 19
        else:
            lines.append(f"[x](missing-{n}.md)")
        lines.append("")
    (root / "big.md").write_text("\n".join(lines))
    (root / ".docsync.toml").write_text("max_file_size = 8000000\n")
    bench_corpus.commit(root)
    return links


def _children_cpu() -> float:
    """User plus system time of this process's finished children (the command, its workers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench.py broken", description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--links", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.files < 4 or args.links < 20 or args.repeat < 1:
        parser.error("--files must be >= 4, --links >= 20, --repeat >= 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(sys.argv[1:] if argv is None else argv)
    with tempfile.TemporaryDirectory(prefix="docsync-bench-broken-") as tmp:
        root = Path(tmp)
        expected = generate(root, args.files, args.links, args.seed)
        env = bench_corpus.git_env()
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        seconds: list[float] = []
        cpu: list[float] = []
        peaks: list[float] = []
        for _ in range(args.repeat):
            shutil.rmtree(bench_corpus.git_dir(root) / "docsync", ignore_errors=True)
            wall, used, peak, stdout, code = bench_corpus.gnu_timed(CHECK, root, env)
            seconds.append(wall)
            cpu.append(round(used, 3))
            peaks.append(round(peak, 1))
            summary = stdout.strip().splitlines()[-1] if stdout.strip() else f"exit {code}"
            if code != 1 or f"(links: {expected})" not in summary:
                print(f"bench: expected {expected} link findings, got: {summary}", file=sys.stderr)
                return 2
    result = {
        "broken_links": expected,
        "files": args.files + 1,
        "cold_seconds": seconds,
        "median": statistics.median(seconds),
        "cpu_seconds": cpu,
        "median_cpu": statistics.median(cpu),
        "median_peak_mb": statistics.median(peaks),
        "load_average": list(os.getloadavg()),
        "target_seconds": 5.0,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{expected:,} broken links in one file, cold `docsync check --gate links`: "
              f"median {result['median']:.2f} s of {args.repeat} ({min(seconds):.2f} to {max(seconds):.2f} s), "
              f"{result['median_cpu']:.2f} s CPU; "
              f"load average {result['load_average'][0]:.1f}; target under 5 s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
