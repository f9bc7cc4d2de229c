#!/usr/bin/env python3
"""Benchmark docsync beside rumdl and lychee in one run, with every run's peak memory.

On each corpus (the synthetic one ``bench.py`` generates, and any real trees
named with ``--tree``, each a git work tree), ``--repeat`` times, interleaved
so that drift hits every command alike, with every cache removed first:

* docsync cold ``check --gate links --gate wrap`` under ``wrap = "none"``, then
  the same command a second and a third time (the third is warm);
* the same under ``wrap = 80`` (the width mode; a real tree breaks it often),
* the same with no ``--config`` (a newcomer's tree), cold, second and third run,
* docsync warm ``check`` (every gate, unchanged tree, after one cold run): the kept
  report replayed (``docsync.commandline.replay``),
* the same with one file touched first (its stat changed, its bytes not): the report
  cannot be replayed, so this is the warm run behind it, every gate's findings read
  from the result caches and the report kept again,
* rumdl ``check --no-cache`` with MD057, MD051 and MD013 (its links,
  fragments and line length), and rumdl again with its cache warm,
* lychee ``--offline --include-fragments``,
* the floor (``bench_floor.py``): pyromark's events alone, every one iterated
  in Python, across as many processes as docsync's cold check uses,
  markdown-it-py's whole parse for comparison, and pulldown-cmark's parse
  with nothing handed to Python per event (the floor of a native pass).

Every command is a subprocess, so each time includes start-up; the peak RSS
is the largest resident set of the command's largest process (GNU time). The
staged pre-commit run and the 100,000 broken links come from ``bench.py
staged`` and ``bench.py broken`` in the same run. The table prints each
target beside its figure (the issue's targets, #14).

    python scripts/bench.py peers --tree /tmp/PowerShell-Docs   # a real tree too
    python scripts/bench.py peers --files 2500 --repeat 3 --json
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
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import bench_corpus
import bench_floor
import bench_links

DOCSYNC = [sys.executable, "-m", "docsync", "check", "--format", "json"]
GATES = ["--gate", "links", "--gate", "wrap"]
RUMDL = ["rumdl", "check", "--no-config", "--enable", "MD057,MD051,MD013"]
RUMDL_OUT = ["--output-format", "json-lines", "."]
FLOOR = [sys.executable, str(Path(__file__).with_name("bench_floor.py")), "."]


@dataclass(frozen=True)
class Run:
    seconds: float
    findings: int
    peak_rss_mb: float
    cpu_seconds: float  # user plus system, the command's children included


def timed(command: Sequence[str], cwd: Path, count: Callable[[str], int]) -> Run:
    """Wall time, findings and the peak RSS (of the process tree) of one command."""
    with tempfile.TemporaryFile("w+") as out, tempfile.NamedTemporaryFile("r") as rss:
        # GNU time, a small process, reports the command's own peak: measured from
        # here, a child's peak would start at this (larger) Python process's.
        timed_command = ["/usr/bin/time", "-f", "%M %U %S", "-o", rss.name, *command]
        start = time.perf_counter()
        done = subprocess.run(
            timed_command, cwd=cwd, env=bench_corpus.git_env(), stdout=out, stderr=subprocess.DEVNULL
        )
        seconds = time.perf_counter() - start
        out.seek(0)
        stdout = out.read()
        # the last line: GNU time writes "Command exited with non-zero status 1" before it
        peak_kb, user, system = rss.read().splitlines()[-1].split()
    if done.returncode not in (0, 1, 2) or not stdout.strip():  # lychee: 2 on errors
        raise SystemExit(f"bench: {' '.join(command)} failed ({done.returncode})")
    cpu = round(float(user) + float(system), 3)
    return Run(round(seconds, 3), count(stdout), round(int(peak_kb) / 1024, 1), cpu)


def _docsync(stdout: str) -> int:
    return len(json.loads(stdout)["findings"])


def _rumdl(stdout: str) -> int:
    return sum(1 for line in stdout.splitlines() if line.startswith("{"))


def _lychee(stdout: str) -> int:
    return int(json.loads(stdout)["errors"])


def _floor(stdout: str) -> int:
    return int(json.loads(stdout)["files"])  # the files parsed, in the findings column


def measure(root: Path, repeat: int, scratch: Path) -> dict[str, list[Run]]:
    """Every command on one corpus, ``repeat`` times, interleaved. A ``cold`` command runs
    with no cache, a ``warm`` one after an untimed run of itself, a ``next`` one right
    after the command before it (a second run, then a third: warm by then)."""
    none, width = scratch / "none.toml", scratch / "width.toml"
    none.write_text('wrap = "none"\n')
    width.write_text("wrap = 80\n")
    cache, rumdl_cache = bench_corpus.git_dir(root) / "docsync", scratch / "rumdl-cache"
    rumdl_warm = [*RUMDL, "--cache-dir", str(rumdl_cache), *RUMDL_OUT]
    config, bare = [*DOCSYNC, *GATES, "--config", str(none)], [*DOCSYNC, *GATES]
    commands: dict[str, tuple[list[str], Callable[[str], int], str]] = {
        "docsync_none": (config, _docsync, "cold"),
        "docsync_second": (config, _docsync, "next"),  # the same command again
        "docsync_again": (config, _docsync, "next"),  # and a third time: warm
        "docsync_width": ([*DOCSYNC, *GATES, "--config", str(width)], _docsync, "cold"),
        # a newcomer's runs: no config at all (the tree's own, if it has one)
        "docsync_noconfig": (bare, _docsync, "cold"),
        "docsync_noconfig_second": (bare, _docsync, "next"),
        "docsync_noconfig_again": (bare, _docsync, "next"),
        "rumdl_cold": ([*RUMDL, "--no-cache", *RUMDL_OUT], _rumdl, "cold"),
        "lychee": (bench_links.LYCHEE, _lychee, "cold"),
        # the native parser's events alone across docsync's processes (bench_floor.py)
        "floor": (FLOOR, _floor, "cold"),
        "floor_library": ([*FLOOR, "--library"], _floor, "cold"),
        # the same parse with nothing handed to Python per event: a native pass's floor
        "floor_native": ([*FLOOR, "--native"], _floor, "cold"),
        "docsync_warm": ([*DOCSYNC, "--config", str(none)], _docsync, "warm"),
        "docsync_touched": ([*DOCSYNC, "--config", str(none)], _docsync, "touched"),
        "rumdl_warm": (rumdl_warm, _rumdl, "warm"),
    }
    runs: dict[str, list[Run]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, (command, count, mode) in commands.items():
            if mode == "cold":
                shutil.rmtree(cache, ignore_errors=True)
            elif mode in ("warm", "touched"):
                timed(command, root, count)  # fill the cache first, as an earlier run would
            if mode == "touched":
                _touch_one(root)  # its stat changes, its bytes do not: no report to replay
            runs[name].append(timed(command, root, count))
    return runs


def _touch_one(root: Path) -> None:
    listed = subprocess.run(["git", "ls-files", "-z", "*.md"], cwd=root, capture_output=True, text=True)
    first = next(p for p in listed.stdout.split("\0") if p)
    os.utime(root / first)


def _median(runs: list[Run], field: str) -> float:
    return round(statistics.median(getattr(r, field) for r in runs), 3)


def summarise(name: str, root: Path, runs: dict[str, list[Run]]) -> dict[str, object]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "*.md", "*.markdown"], cwd=root, capture_output=True, text=True
    )
    files = listed.stdout.split("\0")
    seconds = {k: _median(v, "seconds") for k, v in runs.items()}
    cpu = {k: _median(v, "cpu_seconds") for k, v in runs.items()}
    peaks = {k: _median(v, "peak_rss_mb") for k, v in runs.items()}
    return {
        "corpus": name,
        "files": len([f for f in files if f]),
        "markdown_bytes": sum((root / f).stat().st_size for f in files if f),
        "floor_processes": bench_floor.processes(len([f for f in files if f]), os.cpu_count()),
        "seconds": seconds,
        "peak_rss_mb": peaks,
        "cpu_seconds": {k: _median(v, "cpu_seconds") for k, v in runs.items()},
        "findings": {k: sorted({r.findings for r in v}) for k, v in runs.items()},
        "runs": {k: [asdict(r) for r in v] for k, v in runs.items()},
        "ratios": _ratios(seconds),
        "cpu_ratios": _ratios(cpu),
        "peak_ratios": {"cold_peak_over_rumdl": round(peaks["docsync_none"] / peaks["rumdl_cold"], 2)},
    }


def _ratios(figure: dict[str, float]) -> dict[str, float]:
    return {key: round(figure[mine] / figure[theirs], 2) for key, mine, theirs, _, _ in _TARGETS + _FLOORS}


def _subbench(form: str, *args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("bench.py")), form, *args, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return {"error": (done.stderr or done.stdout).strip()[-400:]}
    result: dict[str, object] = json.loads(done.stdout)
    return result


# (key, mine, theirs, label, target): issue 38's targets, each a ratio of two runs
_TARGETS = (
    ("cold_links_wrap_over_rumdl", "docsync_none", "rumdl_cold", "cold check links+wrap / rumdl --no-cache", 1.0),
    ("width_over_none", "docsync_width", "docsync_none", 'wrap = 80 / wrap = "none" (docsync cold)', 1.3),
    ("warm_over_rumdl_cached", "docsync_warm", "rumdl_warm", "warm check / rumdl cached", 0.5),
    ("second_over_warm", "docsync_second", "docsync_again", "second run after a cold one / warm (config)", 1.2),
    ("noconfig_second_over_warm", "docsync_noconfig_second", "docsync_noconfig_again",
     "second run / warm, no config", 1.2),
    ("noconfig_over_config", "docsync_noconfig", "docsync_none", "cold without config / cold with config", 1.1),
)
_FLOORS = (
    ("floor_over_rumdl", "floor", "rumdl_cold", "floor: the native parse alone / rumdl --no-cache", None),
    ("floor_library_over_rumdl", "floor_library", "rumdl_cold", "markdown-it-py's whole parse / rumdl", None),
    ("floor_native_over_rumdl", "floor_native", "rumdl_cold", "the parse with nothing per event in Python / rumdl", None),
)


def print_table(corpora: list[dict[str, object]], extra: dict[str, object]) -> None:
    lines = [f"machine: {os.cpu_count()} CPUs; versions {extra['versions']}; median of {extra['repeat']}"]
    for c in corpora:
        seconds, rss, found, cpu = c["seconds"], c["peak_rss_mb"], c["findings"], c["cpu_seconds"]
        assert isinstance(seconds, dict) and isinstance(rss, dict) and isinstance(found, dict)
        assert isinstance(cpu, dict)
        lines.append(f"corpus {c['corpus']}: {c['files']} files, {c['markdown_bytes']:,} bytes")
        for name in seconds:
            lines.append(
                f"  {name:14} {seconds[name]:7.2f} s  {cpu[name]:7.2f} s CPU  "
                f"peak RSS {rss[name]:7.1f} MB  findings {found[name]}"
            )
        ratios, cpu_ratios = c["ratios"], c["cpu_ratios"]
        assert isinstance(ratios, dict) and isinstance(cpu_ratios, dict)
        for key, _, _, label, target in _TARGETS:
            verdict = "met" if ratios[key] <= target else "NOT met"
            lines.append(
                f"  {label:44} {ratios[key]:5.2f}x ({cpu_ratios[key]:5.2f}x in CPU)  "
                f"target <= {target}x: {verdict}"
            )
        peak = c["peak_ratios"]["cold_peak_over_rumdl"]  # type: ignore[index]
        lines.append(f"  {'cold peak RSS / rumdl cold peak':44} {peak:5.2f}x  target <= 1.0x: "
                     f"{'met' if peak <= 1.0 else 'NOT met'}")
        for key, _, _, label, _ in _FLOORS:
            lines.append(f"  {label:44} {ratios[key]:5.2f}x ({cpu_ratios[key]:5.2f}x in CPU)")
    for key, label, target in (("staged", "staged pre-commit run", 0.6), ("broken", "100,000 broken links", 5.0)):
        result = extra[key]
        assert isinstance(result, dict)
        median = result.get("median")
        if isinstance(median, int | float):
            verdict = "met" if median < target else "NOT met"
            lines.append(f"{label:46} {median:7.2f} s  target < {target} s: {verdict}")
        else:
            lines.append(f"{label:46} failed: {result.get('error')}")
    lines.append(f"load average before/after: {extra['load_before']} / {extra['load_after']}")
    print("\n".join(lines))


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench.py peers", description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=2500, help="synthetic files (default 2500)")
    parser.add_argument("--tree", type=Path, action="append", default=[], help="a real git work tree")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-extremes", action="store_true", help="skip the staged and broken runs")
    parser.add_argument("--json", action="store_true")
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    args = _arguments(argv)
    for tool in ("rumdl", "lychee", "/usr/bin/time"):  # GNU time: apt-get install time
        if shutil.which(tool) is None:
            print(f"bench: {tool} not found on PATH (pip install -e '.[test]')", file=sys.stderr)
            return 2
    bench_corpus.byte_compiled()  # as an installed docsync is
    load_before = bench_corpus.load_average()
    corpora: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="docsync-bench-peers-") as tmp:
        scratch = Path(tmp)
        synthetic = scratch / "synthetic"
        synthetic.mkdir()
        bench_corpus.generate(synthetic, args.files, 20, 1)
        trees = [("synthetic", synthetic), *((t.resolve().name, t.resolve()) for t in args.tree)]
        for name, root in trees:
            print(f"bench: timing {name}", file=sys.stderr)
            corpora.append(summarise(name, root, measure(root, args.repeat, scratch)))
    extra: dict[str, object] = {"versions": {**bench_links.versions(), "rumdl": _version()}, "repeat": args.repeat}
    if not args.no_extremes:
        print("bench: staged and broken", file=sys.stderr)
        extra["staged"] = _subbench("staged", "--files", "2500", "--repeat", str(max(3, args.repeat)))
        extra["broken"] = _subbench("broken", "--repeat", str(args.repeat))
    else:
        extra["staged"] = extra["broken"] = {"error": "skipped (--no-extremes)"}
    extra["load_before"], extra["load_after"] = load_before, bench_corpus.load_average()
    if args.json:
        print(json.dumps({"corpora": corpora, **extra}, indent=2))
    else:
        print_table(corpora, extra)
    return 0


def _version() -> str:
    done = subprocess.run(["rumdl", "--version"], capture_output=True, text=True, check=False)
    return done.stdout.strip().removeprefix("rumdl ")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
