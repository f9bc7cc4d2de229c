#!/usr/bin/env python3
"""Benchmark ``docsync migrate`` and ``docsync init`` on a generated legacy tree.

Generates a deterministic repository: ``--records`` numbered ADRs in
``docs/adr/`` (a status line, prose, bare ids and links naming other
records), added over ``--commits`` dated commits, among other Markdown files
(``--files`` Markdown files in all) that link to records and name their ids,
and source files that name records by path and id. Then it times, each the
median of ``--repeat`` runs, every command a subprocess:

* floor: one whole-repository ``git log --name-status -M`` (to /dev/null)
  plus the native parser's (pyromark's) parse of every Markdown file, both timed the same
  way, from outside, as commands: the log with git's start-up, the parse with
  Python's start-up, the parser's import and the reading of every file, as
  the dry run is timed with its own. Beside it, the strict floor: the log
  plus the parse loop alone, with no start-up, no import and
  no reading, and the dry run's ratio to that as well;
* ``docsync migrate`` (the dry run), cold: no parse cache;
* ``docsync migrate --apply --commit`` on a fresh clone (cold), with peak memory;
* ``docsync init`` on a fresh clone, with peak memory.

docsync's modules are byte-compiled first, as an installed docsync has them.

Targets (the issue's): the dry run within 2x of the floor (issue 38); ``--apply`` on a
270-record, 950-file repository under 10 s; ``init`` on 1,000 files under 3 s
and 150 MB.

    python scripts/bench.py migrate                          # 600 records, 1,000 files
    python scripts/bench.py migrate --records 270 --files 950
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import bench_corpus

_WORD_TEXT = (
    "record decision context status consequence option driver review module service gateway "
    "storage index cache parser schema migration release version policy token request response "
    "client server queue worker thread process boundary contract latency throughput budget owner"
)
WORDS = _WORD_TEXT.split()
STATUSES = ["Accepted", "Proposed", "Rejected", "Superseded", "Draft", "Accepted"]
ZONES = ["-0800", "+0000", "+0100", "+0530", "+0900"]


def _git(root: Path, *args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        ["git", *args], cwd=root, env=env or bench_corpus.git_env(), capture_output=True, text=True, check=True
    )
    return done.stdout


# --------------------------------------------------------------------------- the corpus


@dataclass(frozen=True)
class Corpus:
    root: Path
    records: int
    markdown: int
    code: int
    commits: int


class _Writer:
    def __init__(self, rng: random.Random, records: int) -> None:
        self.rng = rng
        self.records = records

    def words(self, low: int, high: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(low, high)))

    def title(self, number: int) -> str:
        return f"{self.words(2, 5).capitalize()} {number}"

    def name(self, number: int) -> str:
        return f"{number:04d}-" + "-".join(self.title(number).lower().split())

    def mention(self) -> str:
        return f"ADR {self.rng.randint(1, self.records):04d}"

    def paragraph(self, link: str) -> str:
        return f"{self.words(20, 50).capitalize()}, see {self.mention()} and {link}. {self.words(5, 20)}."

    def record(self, number: int, names: list[str]) -> str:
        other = names[self.rng.randrange(len(names))]
        body = [
            f"# ADR {number:04d}: {self.title(number)}",
            f"Status: {self.rng.choice(STATUSES)}",
            "## Context",
            self.paragraph(f"[the related one]({other}.md)"),
            "## Decision",
            self.paragraph(f"[its decision]({other}.md#decision)"),
        ]
        return "\n\n".join(body) + "\n"

    def page(self, depth: int, names: list[str]) -> str:
        up = "../" * depth
        links = [f"[{n}]({up}docs/adr/{n}.md)" for n in self.rng.sample(names, 3)]
        return f"# {self.words(2, 4).capitalize()}\n\n" + "\n\n".join(
            self.paragraph(link) for link in links
        ) + "\n"

    def code(self, names: list[str]) -> str:
        name = self.rng.choice(names)
        return f'# Follows {self.mention()}.\nRECORD = "docs/adr/{name}.md"\n'


def generate(root: Path, records: int, files: int, commits: int, seed: int) -> Corpus:
    """Write the corpus under ``root`` and commit it in ``commits`` dated commits."""
    rng = random.Random(seed)
    writer = _Writer(rng, records)
    names = [writer.name(n) for n in range(1, records + 1)]
    _git(root, "init", "-q", "-b", "main")
    texts: list[tuple[str, str]] = [
        (f"docs/adr/{name}.md", writer.record(n, names)) for n, name in enumerate(names, 1)
    ]
    others = max(0, files - records)
    for index in range(others):
        depth = 1 + index % 3
        folder = "/".join(f"area{(index + k) % 7}" for k in range(depth))
        texts.append((f"{folder}/page{index}.md", writer.page(depth, names)))
    code = max(1, files // 20)
    texts += [(f"src/module{i}.py", writer.code(names)) for i in range(code)]
    clock = datetime(2019, 1, 1, 9, 0)
    batch = -(-len(texts) // commits)
    done = 0
    for start in range(0, len(texts), batch):
        for path, text in texts[start : start + batch]:
            full = root / path
            full.parent.mkdir(parents=True, exist_ok=True)
            full.write_text(text, encoding="utf-8")
        clock += timedelta(days=rng.randint(1, 9), hours=rng.randint(0, 23))
        stamp = f"{clock.isoformat()} {rng.choice(ZONES)}"
        env = bench_corpus.git_env({"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp})
        _git(root, "add", "-A", env=env)
        _git(root, "commit", "-q", "-m", f"batch {done}", env=env)
        done += 1
    return Corpus(root, records, records + others, code, done)


# --------------------------------------------------------------------------- timing


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mb: float
    cpu: float = 0.0
    """User plus system CPU seconds of the command and the children it waited for (its
    parse workers, git): on a shared machine, what the wall time is made of at best."""


def _timed(command: Sequence[str], cwd: Path, ok: Sequence[int] = (0,)) -> Run:
    """Wall time, peak resident memory (GNU time's %M) and CPU time of one subprocess."""
    report = cwd.parent / f".time-{os.getpid()}"
    start = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%U %S %M", "-o", str(report), *command],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=bench_corpus.git_env(),
    )
    seconds = time.perf_counter() - start
    if done.returncode not in ok:
        raise SystemExit(f"bench: {' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    user, system, peak = (float(x) for x in report.read_text().split()[-3:])
    report.unlink()
    return Run(seconds, peak / 1024, user + system)


DOCSYNC = [sys.executable, "-m", "docsync"]
FLOORS = ("floor", "strict floor")  # timed without GNU time: no CPU time, no peak

@dataclass(frozen=True)
class Floor:
    log: float  # git log as a command
    parse: float  # the parse as a command
    loop: float  # the parse loop alone, inside that command

    @property
    def command(self) -> float:
        return self.log + self.parse

    @property
    def strict(self) -> float:
        return self.log + self.loop


def floor(root: Path) -> Floor:
    """One whole-repository ``git log --name-status -M`` plus the parse of every file."""
    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        subprocess.run(
            ["git", "log", "--name-status", "-M", "--format=%H %aI"],
            cwd=root,
            stdout=sink,
            env=bench_corpus.git_env(),
            check=True,
        )
    log = time.perf_counter() - start
    parse, loop = bench_corpus.parse_command(root, native=True)  # the parser of the model
    return Floor(log, parse, loop)


def _fresh(corpus: Corpus, scratch: Path, name: str) -> Path:
    target = scratch / name
    shutil.rmtree(target, ignore_errors=True)
    _git(scratch, "clone", "-q", str(corpus.root), str(target))
    return target


byte_compiled = bench_corpus.byte_compiled


def measure(corpus: Corpus, scratch: Path, repeat: int, pairs: int = 0) -> dict[str, list[Run]]:
    """``repeat`` rounds of the floor, a cold dry run, ``init`` and ``--apply --commit``, then
    more floor and dry-run pairs up to ``pairs`` of them in all: the ratio's two medians
    rest on runs taken in turn, so a machine that speeds up or slows down moves both."""
    byte_compiled()
    runs: dict[str, list[Run]] = {
        "floor": [], "strict floor": [], "dry run": [], "apply": [], "init": []
    }
    for done in range(max(repeat, pairs)):
        measured = floor(corpus.root)
        runs["floor"].append(Run(measured.command, 0.0))
        runs["strict floor"].append(Run(measured.strict, 0.0))
        shutil.rmtree(corpus.root / ".git" / "docsync", ignore_errors=True)
        runs["dry run"].append(_timed([*DOCSYNC, "migrate"], corpus.root, ok=(0, 1)))
        if done >= repeat:
            continue
        initialised = _fresh(corpus, scratch, "init")
        runs["init"].append(_timed([*DOCSYNC, "init"], initialised))
        applied = _fresh(corpus, scratch, "apply")
        runs["apply"].append(_timed([*DOCSYNC, "migrate", "--apply", "--commit"], applied))
    return runs


def summarise(corpus: Corpus, runs: dict[str, list[Run]]) -> dict[str, object]:
    median = {k: statistics.median(r.seconds for r in v) for k, v in runs.items()}
    peak = {k: max(r.peak_mb for r in v) for k, v in runs.items()}
    return {
        "corpus": {
            "records": corpus.records,
            "markdown_files": corpus.markdown,
            "code_files": corpus.code,
            "commits": corpus.commits,
        },
        "seconds": {k: round(v, 3) for k, v in median.items()},
        "peak_mb": {k: round(v, 1) for k, v in peak.items() if k not in FLOORS},
        "cpu_seconds": {
            k: round(statistics.median(r.cpu for r in v), 3)
            for k, v in runs.items()
            if k not in FLOORS
        },
        "dry_run_over_floor": round(median["dry run"] / median["floor"], 2),
        "dry_run_over_strict_floor": round(median["dry run"] / median["strict floor"], 2),
        "pairs": len(runs["dry run"]),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def print_summary(summary: dict[str, object]) -> None:
    corpus = summary["corpus"]
    seconds = summary["seconds"]
    peak = summary["peak_mb"]
    assert isinstance(corpus, dict) and isinstance(seconds, dict) and isinstance(peak, dict)
    print(
        f"corpus: {corpus['records']} records, {corpus['markdown_files']} Markdown files, "
        f"{corpus['code_files']} code files, {corpus['commits']} commits"
    )
    cpu = summary["cpu_seconds"]
    assert isinstance(cpu, dict)
    print(f"{'what':<12} {'seconds':>8} {'cpu s':>8} {'peak MB':>8}")
    for name, value in seconds.items():
        mb = f"{peak[name]:8.1f}" if name in peak else f"{'':>8}"
        used = f"{cpu[name]:8.3f}" if name in cpu else f"{'':>8}"
        print(f"{name:<12} {value:8.3f} {used} {mb}")
    print(
        f"dry run / floor: {summary['dry_run_over_floor']}x (target: within 2x; "
        f"medians of {summary['pairs']} of each, taken in turn)"
    )
    print(
        f"dry run / strict floor (the parse loop alone, no start-up): "
        f"{summary['dry_run_over_strict_floor']}x"
    )
    print(f"load average: {summary['load_average']}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=600)
    parser.add_argument("--files", type=int, default=1000, help="Markdown files in all")
    parser.add_argument("--commits", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--pairs", type=int, default=9, help="floor and dry-run pairs, in turn (at least --repeat)"
    )
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--keep", type=Path, help="generate here and keep it")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="docsync-bench-migrate-") as tmp:
        scratch = Path(tmp)
        root = args.keep or scratch / "corpus"
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        corpus = generate(root, args.records, args.files, args.commits, args.seed)
        summary = summarise(corpus, measure(corpus, scratch, args.repeat, args.pairs))
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print_summary(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
