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
* ``history``: the history reader (first-proposed dates) against one ``git
  log --name-status -M``, on ``--history-repo`` (rust-lang/rfcs) or a
  generated history;
* ``migrate``: ``migrate`` (dry run) against its floor (git log plus
  pyromark's parse), and ``init``.

Every row gives its target (issue 38's) and met or not met, and every figure
its peak RSS (GNU time), the peers' too.

Wall times are medians; on a shared machine the CPU time (user plus system,
children included) is the steadier figure, and the load average before and
after is printed. Run it once on an idle machine and paste the table.

    python scripts/bench.py all --tree /tmp/PowerShell-Docs --tree /tmp/windows-powershell-docs \\
        --history-repo /tmp/rfcs
    python scripts/bench.py all --quick       # small corpora, one run each: checks the harness
    python scripts/bench.py all --files 50    # the same, 50 synthetic files
    python scripts/bench.py all --suite ...   # and the test suite, timed (issue 38: 180 s)
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

from bench_corpus import gnu_timed, load_average

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

    def row(what: str, mine: str, peer: str, theirs: str, target: float) -> list[str]:
        return [what, name, cell(mine), f"{peer}: {cell(theirs)}", ratio(mine, theirs), _verdict(s[mine] / s[theirs], target)]

    rows = [
        row('cold `check --gate links --gate wrap`, `wrap = "none"`', "docsync_none", "rumdl `--no-cache`", "rumdl_cold", 1.0),
        ["the same: peak RSS", name, f"{rss['docsync_none']:.0f} MB", f"rumdl `--no-cache`: {rss['rumdl_cold']:.0f} MB",
         _ratio(rss["docsync_none"], rss["rumdl_cold"]), _verdict(rss["docsync_none"] / rss["rumdl_cold"], 1.0)],
        row("the same with `wrap = 80`", "docsync_width", 'docsync under `"none"`', "docsync_none", 1.3),
        row("warm `check` (every gate, unchanged tree: the report replayed)", "docsync_warm", "rumdl with its cache", "rumdl_warm", 0.5),
    ]
    if "docsync_touched" in s:
        rows.append(["warm `check`, one file touched (the result caches; for reference)", name, cell("docsync_touched"),
                     f"rumdl with its cache: {cell('rumdl_warm')}", ratio("docsync_touched", "rumdl_warm"), ""])
    if "docsync_second" in s:
        rows += [
            row("second run of the cold command, with config", "docsync_second", "its third run (warm)", "docsync_again", 1.2),
            row("second run without config", "docsync_noconfig_second", "its third run (warm)", "docsync_noconfig_again", 1.2),
            row("cold without config", "docsync_noconfig", "cold with config", "docsync_none", 1.1),
        ]
    rows.append(["lychee `--offline --include-fragments` (for reference)", name, "", cell("lychee"), "", ""])
    if "floor" not in s:
        return rows
    return [
        *rows,
        [f"floor: the native parser's events alone (pyromark), {processes}", name,
         f"pyromark: {floor('floor')}; markdown-it-py's whole parse: {floor('floor_library')}",
         f"rumdl `--no-cache`: {s['rumdl_cold']:.2f} s",
         f"{ratio('floor', 'rumdl_cold')}; {ratio('floor_library', 'rumdl_cold')}",
         "the part of the 1.0x the parse alone takes"],
        [f"floor: the same parse with nothing handed to Python per event (rendered in Rust), {processes}", name,
         f"pyromark: {floor('floor_native')}", f"rumdl `--no-cache`: {s['rumdl_cold']:.2f} s",
         ratio("floor_native", "rumdl_cold"), "what a native pass returning only gate data would start from"],
    ]


def _history_row(history: dict[str, Any]) -> list[str]:
    if "docsync_cpu" not in history:  # the generated repository: wall times only
        return ["first-proposed dates (generated history)", f"{history['records']} records",
                f"{history['docsync_seconds'] * 1000:.0f} ms",
                f"one `git log --name-status -M`: {history['floor_seconds'] * 1000:.0f} ms",
                f"{history['docsync_over_floor']:.2f}x", _verdict(history["docsync_over_floor"], 2.0)]
    h = history
    return [f"the history reader (first-proposed dates), {h['repository']}",
            f"{h['commits']:,} commits ({h['merges']:,} merges), {h['records']} records",
            f"{h['docsync_seconds']:.2f} s, {h['docsync_cpu']:.2f} s CPU, {h['docsync_peak_mb']:.0f} MB",
            f"one `git log --name-status -M`: {h['floor_seconds']:.2f} s, {h['floor_cpu']:.2f} s CPU, "
            f"{h['floor_peak_mb']:.0f} MB (every merge diffed, `git log -m`: {h.get('git_m_seconds', 0):.2f} s, "
            f"{h.get('git_m_cpu', 0):.2f} s CPU)", f"{h['docsync_over_floor']:.2f}x ({h['docsync_over_floor_cpu']:.2f}x CPU)",
            _verdict(h["docsync_over_floor"], 2.0)]


def _migrate_rows(migrate: dict[str, Any]) -> list[list[str]]:
    s, cpu, peak, c = migrate["seconds"], migrate["cpu_seconds"], migrate["peak_mb"], migrate["corpus"]
    name = f"{c['records']} records, {c['markdown_files']:,} Markdown files"
    return [
        ["`migrate` (dry run), cold", name, f"{s['dry run']:.2f} s, {cpu['dry run']:.2f} s CPU, {peak['dry run']:.0f} MB",
         f"git log plus pyromark's parse, as commands: {s['floor']:.2f} s "
         f"(the log plus the parse loop alone: {s['strict floor']:.2f} s)",
         f"{migrate['dry_run_over_floor']:.2f}x ({migrate['dry_run_over_strict_floor']:.2f}x)",
         _verdict(migrate["dry_run_over_floor"], 2.0)],
        ["`init` on a fresh clone", name, f"{s['init']:.2f} s, {cpu['init']:.2f} s CPU, {peak['init']:.0f} MB",
         "", "", _verdict(s["init"], 3.0, within=False)],
    ]


def _rows(results: dict[str, dict[str, Any]]) -> list[list[str]]:
    rows: list[list[str]] = []
    for corpus in results["peers"].get("corpora", []):
        rows += _peer_rows(corpus)
    links = results["links"]
    if "seconds" in links:
        s, cpu, rss = links["seconds"], links.get("cpu_seconds", {}), links.get("peak_rss_mb", {})

        def run(key: str) -> str:
            return f"{s[key]:.2f} s, {cpu.get(key, 0):.2f} s CPU, {rss.get(key, 0):.0f} MB ({links['findings'][key]} findings)"

        rows.append(["cold `check --gate links`", f"links corpus, {links['files']:,} files, {links['links']:,} links",
                     run("cold"), f"lychee `--offline --include-fragments`: {run('lychee')}",
                     _ratio(s["cold"], s["lychee"]), _verdict(s["cold"] / s["lychee"], 1.0)])
    staged = results["staged"]
    if "median" in staged:
        rows.append(["`check --staged` after a staged rename", f"synthetic, {staged['files']:,} files",
                     f"{staged['median']:.2f} s, {staged['median_cpu']:.2f} s CPU, {staged.get('median_peak_mb', 0):.0f} MB",
                     "", "", _verdict(staged["median"], 0.6, within=False)])
    broken = results["broken"]
    if "median" in broken:
        rows.append(["one file with many broken links", f"{broken['files']:,} files, {broken['broken_links']:,} broken",
                     f"{broken['median']:.2f} s, {broken['median_cpu']:.2f} s CPU, {broken.get('median_peak_mb', 0):.0f} MB",
                     "", "", _verdict(broken["median"], 5.0, within=False)])
    if "docsync_seconds" in results["history"]:
        rows.append(_history_row(results["history"]))
    if "seconds" in results["migrate"]:
        rows += _migrate_rows(results["migrate"])
    suite = results.get("suite")
    if suite and "seconds" in suite:
        rows.append(["the test suite, `pytest -q`", f"{suite['passed']}", f"{suite['seconds']:.0f} s, "
                     f"{suite['cpu_seconds']:.0f} s CPU, {suite['peak_rss_mb']:.0f} MB", "", "",
                     _verdict(suite["seconds"], 180.0, within=False)])
    for form, result in results.items():
        if "error" in result:
            rows.append([f"`bench.py {form}` failed", "", result["error"].replace("\n", " ")[:200], "", "", ""])
    return rows


def suite() -> dict[str, Any]:
    """The whole test suite, timed as one command (issue 38: at most 180 s on two idle cores)."""
    print("bench all: the test suite (pytest -q)", file=sys.stderr)
    root = BENCH.resolve().parents[1]
    seconds, cpu, peak, out, code = gnu_timed([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], root, dict(os.environ))
    summary = out.strip().splitlines()[-1] if out.strip() else f"exit {code}"
    if code != 0:
        return {"error": f"pytest: {summary}"}
    return {"seconds": seconds, "cpu_seconds": cpu, "peak_rss_mb": peak, "passed": summary}


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
    parser.add_argument("--tree", type=Path, action="append", default=[],
                        help="a real git work tree, e.g. PowerShell-Docs (repeatable; read locally, no network)")
    parser.add_argument("--history-repo", type=Path,
                        help="a full clone to time the history reader on (rust-lang/rfcs); else a generated one")
    parser.add_argument("--history-under", default="text", help="its records' folder (default: text)")
    parser.add_argument("--files", type=int, help="synthetic files for peers, links and staged (a quick run)")
    parser.add_argument("--quick", action="store_true", help="small corpora, one run each")
    parser.add_argument("--suite", action="store_true", help="time the whole test suite too (minutes)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    plan = {form: list(extra) for form, extra in (_QUICK if args.quick or args.files else _FULL).items()}
    if args.files:
        for form in ("peers", "links", "staged"):
            plan[form][plan[form].index("--files") + 1] = str(args.files)
    if args.history_repo is not None:
        plan["history"] = ["--repo", str(args.history_repo.resolve()), "--under", args.history_under,
                           "--repeat", "1" if args.quick or args.files else "5"]
    for tree in args.tree:
        plan["peers"] += ["--tree", str(tree.resolve())]
    before = load_average()
    results = {form: run(form, extra) for form, extra in plan.items()}
    if args.suite:
        results["suite"] = suite()
    after = load_average()
    if args.json:
        print(json.dumps({"results": results, "load_before": before, "load_after": after}, indent=2))
    else:
        print(table(results, before, after))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
