#!/usr/bin/env python3
"""Every figure of docs/speed.md in one run, printed as one table.

One benchmark after another (never two at once), each a subprocess of
``bench.py FORM --json``:

* ``peers``: on the synthetic corpus and on each ``--tree``, cold ``check
  --gate links --gate wrap`` under ``wrap = "none"`` against rumdl
  ``--no-cache``, the same under ``wrap = 80``, warm ``check`` against rumdl
  with its cache, and lychee; every run's peak RSS and CPU time;
* ``links``: cold ``check --gate links`` against lychee on the links corpus;
* ``staged``: the pre-commit hook, ``check --staged`` after a staged rename;
* ``broken``: one file with 100,000 broken links;
* ``history``: first-proposed dates against one ``git log``;
* ``migrate``: ``migrate`` (dry run) against its floor, and ``init``.

Wall times are medians; on a shared machine the CPU time (user plus system,
children included) is the steadier figure, and the load average before and
after is printed. Run it once on an idle machine and paste the table.

    python scripts/bench.py all --tree /tmp/PowerShell-Docs
    python scripts/bench.py all --quick       # small corpora, one run each: checks the harness
    python scripts/bench_all.py --json        # the same, on its own, machine-readable
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench_corpus import load_average

BENCH = Path(__file__).with_name("bench.py")

_FULL = {
    "peers": ["--files", "2500", "--repeat", "3", "--no-extremes"],
    "links": ["--files", "3000", "--repeat", "3"],
    "staged": ["--files", "2500", "--repeat", "5"],
    "broken": ["--repeat", "3"],
    "history": ["--repeat", "5"],
    "migrate": ["--repeat", "3"],
}
_QUICK = {
    "peers": ["--files", "200", "--repeat", "1", "--no-extremes"],
    "links": ["--files", "200", "--repeat", "1"],
    "staged": ["--files", "200", "--repeat", "1"],
    "broken": ["--links", "2000", "--repeat", "1"],
    "history": ["--commits", "200", "--records", "40", "--repeat", "1", "--per-file-sample", "5"],
    "migrate": ["--records", "40", "--files", "80", "--commits", "10", "--repeat", "1", "--pairs", "1"],
}


def run(form: str, args: Sequence[str]) -> dict[str, Any]:
    print(f"bench all: {form} {' '.join(args)}", file=sys.stderr)
    done = subprocess.run(
        [sys.executable, str(BENCH), form, *args, "--json"], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        return {"error": (done.stderr or done.stdout).strip()[-400:]}
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _ratio(mine: float, theirs: float) -> str:
    return f"{mine / theirs:.2f}x" if theirs else "-"


def _verdict(value: float, target: float, within: bool = True) -> str:
    met = value <= target if within else value < target
    return f"{'within' if within else 'under'} {target:g}{'x' if within else ' s'}: {'met' if met else '**not met**'}"


def _peer_rows(corpus: dict[str, Any]) -> list[list[str]]:
    s, cpu, rss, found = corpus["seconds"], corpus["cpu_seconds"], corpus["peak_rss_mb"], corpus["findings"]
    name = f"{corpus['corpus']}, {corpus['files']:,} files, {corpus['markdown_bytes'] / 1e6:.1f} MB"
    processes = f"{corpus.get('floor_processes', '?')} processes"  # as docsync's check uses

    def cell(key: str) -> str:
        return f"{s[key]:.2f} s, {cpu[key]:.2f} s CPU, {rss[key]:.0f} MB ({found[key][0] if len(found[key]) == 1 else found[key]} findings)"

    def floor(key: str) -> str:  # its findings column counts the files parsed
        return f"{s[key]:.2f} s, {cpu[key]:.2f} s CPU, {rss[key]:.0f} MB"

    def ratio(mine: str, theirs: str) -> str:
        return f"{_ratio(s[mine], s[theirs])} ({_ratio(cpu[mine], cpu[theirs])} CPU)"

    rows = [
        ['cold `check --gate links --gate wrap`, `wrap = "none"`', name, cell("docsync_none"),
         f"rumdl `--no-cache`: {cell('rumdl_cold')}", ratio("docsync_none", "rumdl_cold"),
         _verdict(s["docsync_none"] / s["rumdl_cold"], 2.5)],
        ["the same with `wrap = 80`", name, cell("docsync_width"), f'docsync under `"none"`: {s["docsync_none"]:.2f} s',
         ratio("docsync_width", "docsync_none"), _verdict(s["docsync_width"] / s["docsync_none"], 1.3)],
        ["warm `check` (every gate, unchanged tree)", name, cell("docsync_warm"),
         f"rumdl with its cache: {cell('rumdl_warm')}", ratio("docsync_warm", "rumdl_warm"),
         _verdict(s["docsync_warm"] / s["rumdl_warm"], 1.2)],
        ["lychee `--offline --include-fragments` (for reference)", name, "", cell("lychee"), "", ""],
    ]
    if "floor" not in s:
        return rows
    return [
        *rows,
        [f"floor: the native parser's events alone (pyromark), {processes}", name,
         f"pyromark: {floor('floor')}; markdown-it-py's whole parse: {floor('floor_library')}",
         f"rumdl `--no-cache`: {s['rumdl_cold']:.2f} s",
         f"{ratio('floor', 'rumdl_cold')}; {ratio('floor_library', 'rumdl_cold')}",
         "the part of the 2.5x the parse alone takes"],
    ]


def _rows(results: dict[str, dict[str, Any]]) -> list[list[str]]:
    rows: list[list[str]] = []
    peers = results["peers"]
    for corpus in peers.get("corpora", []):
        rows += _peer_rows(corpus)
    links = results["links"]
    if "seconds" in links:
        s = links["seconds"]
        rows.append(["cold `check --gate links`", f"links corpus, {links['files']:,} files, {links['links']:,} links",
                     f"{s['cold']:.2f} s ({links['findings']['cold']} findings)",
                     f"lychee: {s['lychee']:.2f} s ({links['findings']['lychee']} findings)",
                     _ratio(s["cold"], s["lychee"]), _verdict(s["cold"] / s["lychee"], 1.5)])
    staged = results["staged"]
    if "median" in staged:
        rows.append(["`check --staged` after a staged rename", f"synthetic, {staged['files']:,} files",
                     f"{staged['median']:.2f} s, {staged['median_cpu']:.2f} s CPU", "", "",
                     _verdict(staged["median"], 0.6, within=False)])
    broken = results["broken"]
    if "median" in broken:
        rows.append(["one file with many broken links", f"{broken['files']:,} files, {broken['broken_links']:,} broken",
                     f"{broken['median']:.2f} s, {broken['median_cpu']:.2f} s CPU", "", "",
                     _verdict(broken["median"], 5.0, within=False)])
    history = results["history"]
    if "docsync_seconds" in history:
        rows.append(["first-proposed dates", f"{history['records']} records",
                     f"{history['docsync_seconds'] * 1000:.0f} ms",
                     f"one `git log --name-status -M`: {history['floor_seconds'] * 1000:.0f} ms",
                     f"{history['docsync_over_floor']:.2f}x", _verdict(history["docsync_over_floor"], 2.0)])
    migrate = results["migrate"]
    if "seconds" in migrate:
        s, cpu, peak, c = migrate["seconds"], migrate["cpu_seconds"], migrate["peak_mb"], migrate["corpus"]
        name = f"{c['records']} records, {c['markdown_files']:,} Markdown files"
        rows.append(["`migrate` (dry run), cold", name,
                     f"{s['dry run']:.2f} s, {cpu['dry run']:.2f} s CPU, {peak['dry run']:.0f} MB",
                     f"git log plus the parse, as commands: {s['floor']:.2f} s "
                     f"(the log plus the parse loop alone: {s['strict floor']:.2f} s)",
                     f"{migrate['dry_run_over_floor']:.2f}x ({migrate['dry_run_over_strict_floor']:.2f}x)",
                     _verdict(migrate["dry_run_over_floor"], 3.0)])
        rows.append(["`init` on a fresh clone", name, f"{s['init']:.2f} s, {cpu['init']:.2f} s CPU, {peak['init']:.0f} MB",
                     "", "", _verdict(s["init"], 3.0, within=False)])
    for form, result in results.items():
        if "error" in result:
            rows.append([f"`bench.py {form}` failed", "", result["error"].replace("\n", " ")[:200], "", "", ""])
    return rows


def table(results: dict[str, dict[str, Any]], before: list[float], after: list[float]) -> str:
    header = ["what", "corpus", "docsync", "peer or floor", "ratio", "target"]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in _rows(results)]
    versions = results["peers"].get("versions", {})
    lines.append("")
    lines.append(f"{os.cpu_count()} CPUs; versions {versions}; load average before {before}, after {after}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.py all", description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, action="append", default=[], help="a real git work tree (repeatable)")
    parser.add_argument("--quick", action="store_true", help="small corpora, one run each")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    plan = _QUICK if args.quick else _FULL
    before = load_average()
    trees = [arg for tree in args.tree for arg in ("--tree", str(tree.resolve()))]
    results = {form: run(form, [*extra, *(trees if form == "peers" else [])]) for form, extra in plan.items()}
    after = load_average()
    if args.json:
        print(json.dumps({"results": results, "load_before": before, "load_after": after}, indent=2))
    else:
        print(table(results, before, after))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
