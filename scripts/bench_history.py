#!/usr/bin/env python3
"""Benchmark docsync's one-pass history reader against the floor and against per-file logs.

Generates a deterministic repository with ``git fast-import``: ``--commits``
commits (a few of them merges of short side branches) and ``--records``
design records under ``docs/``, many renamed several times across folders
(``docs/adr/`` → ``docs/rfc/proposed/`` → ``docs/rfc/implemented/`` →
``docs/archive/``), some edited in the same commit, among source files that
change too. Then it times, each the best of ``--repeat`` runs:

* docsync: ``first_proposed(read_history(root), records, CatFile(root))`` in this
  process (the blob reader is what migrate passes, for similar restores);
* floor: one ``git log --name-status -M`` over the whole repository, to /dev/null;
* per file: one ``git log --follow --diff-filter=A --format=%ad --date=short
  -- <path>`` per record, as a shell script would do (run once).

It prints the table, the ratios docsync/floor (target: within 2x) and per
file/docsync, and how many records the per-file dates agree on.

With ``--repo DIR`` (a real clone, e.g. rust-lang/rfcs, the repository issue
38 names), nothing is generated: the records are the Markdown files git
tracks there (under ``--under``), and the reader and the floor each run as a
command of their own, so that each gets its CPU time (user plus system, git
included) and its peak RSS (GNU time); the reader's time is taken inside its
process, without Python's start-up, as the floor has none.

    python scripts/bench_history.py
    python scripts/bench_history.py --json
    python scripts/bench_history.py --commits 20000 --records 2500 --keep /tmp/big
    python scripts/bench_history.py --repo /tmp/rfcs --under text --per-file-sample 0
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import bench_corpus
from docsync.repository.git_history import CatFile, read_history
from docsync.repository.history import Origin, first_proposed

ZONES = ["-0800", "-0500", "+0000", "+0100", "+0530", "+0900", "+1400"]
FOLDERS = ["docs/adr", "docs/rfc/proposed", "docs/rfc/implemented", "docs/archive"]
SOURCES = 100
_WORD_TEXT = (
    "record decision context status consequence option driver review module service gateway "
    "storage index cache parser schema migration release version policy token request response "
    "client server queue worker thread process boundary contract latency throughput budget owner"
)
WORDS = _WORD_TEXT.split()


@dataclass
class Tree:
    """What a branch holds while the stream is written: path → content."""

    files: dict[str, str] = field(default_factory=dict)

    def records(self) -> list[str]:
        return sorted(p for p in self.files if p.startswith("docs/"))


@dataclass
class Stream:
    """Builds a fast-import stream; marks number commits from 1."""

    rng: random.Random
    chunks: list[str] = field(default_factory=list)
    marks: int = 0
    clock: datetime = datetime(2018, 1, 1, 9, 0)
    next_record: int = 0

    def commit(self, branch: str, parents: list[int], ops: list[str], message: str) -> int:
        self.marks += 1
        self.clock += timedelta(hours=self.rng.randint(1, 30))
        stamp = f"{int(self.clock.timestamp())} {self.rng.choice(ZONES)}"
        lines = [f"commit refs/heads/{branch}", f"mark :{self.marks}"]
        lines += [f"author Bench <bench@example.invalid> {stamp}"]
        lines += [f"committer Bench <bench@example.invalid> {stamp}", _data(message).rstrip("\n")]
        if parents:
            lines.append(f"from :{parents[0]}")
        lines += [f"merge :{p}" for p in parents[1:]]
        self.chunks.append("\n".join([*lines, *ops]) + "\n\n")
        return self.marks


def _data(text: str) -> str:
    return f"data {len(text.encode())}\n{text}\n"


def _put(tree: Tree, path: str, text: str) -> str:
    tree.files[path] = text
    return f"M 100644 inline {path}\n{_data(text)}".rstrip("\n")


def _body(number: int, version: int) -> str:
    """A record distinct enough from the others that only real moves look like renames."""
    words = random.Random(number).choices(WORDS, k=240)
    lines = [f"# Record {number}", "", f"Status: revision {version}", ""]
    lines += [" ".join(words[i : i + 8]) for i in range(0, len(words), 8)]
    return "\n".join(lines) + "\n"


def _new_record(stream: Stream, tree: Tree) -> list[str]:
    number = stream.next_record
    stream.next_record += 1
    folder = stream.rng.choice(FOLDERS[:2])
    return [_put(tree, f"{folder}/{number:04d}-topic-{number}.md", _body(number, 0))]


def _move_record(stream: Stream, tree: Tree) -> list[str]:
    """Move a record one folder on (or rename it in place), sometimes editing it too."""
    old = stream.rng.choice(tree.records())
    folder, name = old.rsplit("/", 1)
    index = FOLDERS.index(folder)
    target = FOLDERS[index + 1] if index + 1 < len(FOLDERS) else folder
    new = f"{target}/{name.removesuffix('.md')}-v{stream.marks}.md"
    text = tree.files.pop(old)
    tree.files[new] = text
    ops = [f"R {old} {new}"]
    if stream.rng.random() < 0.5:
        ops.append(_put(tree, new, text.replace("Status: revision", "Status: moved, revision")))
    return ops


def _edit(stream: Stream, tree: Tree) -> list[str]:
    if stream.rng.random() < 0.5 and tree.records():
        path = stream.rng.choice(tree.records())
        return [_put(tree, path, tree.files[path] + f"Edit {stream.marks}.\n")]
    path = f"src/module_{stream.rng.randrange(SOURCES)}.py"
    return [_put(tree, path, tree.files.get(path, "") + f"x_{stream.marks} = {stream.marks}\n")]


def _step(stream: Stream, tree: Tree, records: int, commits_left: int) -> list[str]:
    """One ordinary commit: add records while some remain due, else move or edit."""
    due = records - stream.next_record
    if due > 0 and stream.rng.random() < max(0.3, due / max(commits_left, 1)):
        return _new_record(stream, tree)
    if tree.records() and stream.rng.random() < 0.25:
        return _move_record(stream, tree)
    return _edit(stream, tree)


def _merge_ops(base: Tree, side: Tree, main: Tree) -> list[str]:
    """The merge commit's file commands: the side branch's net changes applied to main."""
    ops = [f"D {p}" for p in base.files if p not in side.files and p in main.files]
    for path, text in side.files.items():
        if base.files.get(path) != text:
            ops.append(_put(main, path, text))
    for op in ops:
        if op.startswith("D "):
            main.files.pop(op[2:], None)
    return ops


def generate(root: Path, commits: int, records: int, seed: int) -> None:
    stream = Stream(random.Random(seed))
    main, tip = Tree(), 0
    while stream.marks < commits:
        left = commits - stream.marks
        if tip and left > 8 and stream.rng.random() < 0.03:
            tip = _side_branch(stream, main, tip, records, left)
            continue
        tip = stream.commit(
            "main", [tip] if tip else [], _step(stream, main, records, left), "change"
        )
    _run(["git", "init", "-q", "-b", "main", str(root)])
    _run(["git", "fast-import", "--quiet"], cwd=root, stdin="".join(stream.chunks))
    _run(["git", "reset", "-q", "--hard"], cwd=root)


def _side_branch(stream: Stream, main: Tree, tip: int, records: int, left: int) -> int:
    """A short branch (older-dated work included) merged back with a merge commit."""
    base, side = Tree(dict(main.files)), Tree(dict(main.files))
    side_tip = tip
    for _ in range(3):
        side_tip = stream.commit("side", [side_tip], _step(stream, side, records, left), "side")
    for _ in range(2):
        path = f"src/module_{stream.rng.randrange(SOURCES)}.py"
        ops = [_put(main, path, main.files.get(path, "") + f"m_{stream.marks} = 1\n")]
        tip = stream.commit("main", [tip], ops, "main meanwhile")
    return stream.commit("main", [tip, side_tip], _merge_ops(base, side, main), "merge side")


def _run(args: list[str], cwd: Path | None = None, stdin: str | None = None) -> str:
    done = subprocess.run(args, cwd=cwd, input=stdin, capture_output=True, text=True, check=True)
    return done.stdout


# --------------------------------------------------------------------------- timing


def best_of(repeat: int, action: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def per_file_dates(root: Path, records: list[str]) -> dict[str, str]:
    """What a shell script does: one ``git log --follow`` per record; the oldest add it prints."""
    found = {}
    for path in records:
        out = _run(["git", "log", *PER_FILE, "--", path], cwd=root).split()
        found[path] = out[-1] if out else ""
    return found


PER_FILE = ["--follow", "--diff-filter=A", "--format=%ad", "--date=short"]


def followed_a_copy(root: Path, path: str) -> bool:
    """Whether ``git log --follow`` reached ``path``'s origin through copy detection."""
    out = _run(["git", "log", "--follow", "--name-status", "--format=", "--", path], cwd=root)
    return any(line.startswith("C") for line in out.splitlines())


def describe(root: Path, records: list[str]) -> str:
    commits = len(_run(["git", "rev-list", "HEAD"], cwd=root).split())
    merges = len(_run(["git", "rev-list", "--merges", "HEAD"], cwd=root).split())
    log = _run(["git", "log", "-M", "--name-status", "--format=", "--", "docs"], cwd=root)
    renames = sum(line.startswith("R") for line in log.splitlines())
    return (
        f"repository: {commits} commits ({merges} merges), {len(records)} records, "
        f"{renames} record renames"
    )


def _dates(root: Path, records: list[str]) -> dict[str, Origin]:
    with CatFile(root) as read_blob:
        return first_proposed(read_history(root), records, read_blob, read_ahead=read_blob.read_ahead)


def bench(root: Path, repeat: int, sample: int, quiet: bool = False) -> dict[str, object]:
    """Time the three; print the table unless ``quiet``; the figures as plain data."""
    say = (lambda *_: None) if quiet else print
    records = _run(["git", "ls-files", "docs"], cwd=root).split()
    say(describe(root, records))
    ours = _dates(root, records)
    t_docsync = best_of(repeat, lambda: _dates(root, records))
    floor = ["git", "log", "--name-status", "-M"]
    t_floor = best_of(
        repeat, lambda: subprocess.run(floor, cwd=root, stdout=subprocess.DEVNULL, check=True)
    )
    sampled = records[:: max(1, -(-len(records) // sample))] if sample else []
    start = time.perf_counter()
    theirs = per_file_dates(root, sampled)
    t_per_file = (time.perf_counter() - start) * len(records) / max(len(sampled), 1)
    label = "per file: git log --follow x records"
    if len(sampled) < len(records):
        label += f" (from {len(sampled)})"
    rows = [("docsync: first_proposed(read_history())", t_docsync)]
    rows += [("floor: git log --name-status -M", t_floor)]
    rows += [(label, t_per_file)] if sampled else []
    for name, seconds in rows:
        say(f"  {name:<48} {seconds * 1000:10.1f} ms")
    say(f"  docsync / floor     {t_docsync / t_floor:7.2f}x  (target <= 2x)")
    if sampled:
        say(f"  per file / docsync  {t_per_file / t_docsync:7.1f}x")
        if not quiet:
            report_agreement(root, ours, theirs)
    return {
        "records": len(records),
        "docsync_seconds": round(t_docsync, 4),
        "floor_seconds": round(t_floor, 4),
        "per_file_seconds": round(t_per_file, 3) if sampled else None,
        "docsync_over_floor": round(t_docsync / t_floor, 2),
        "target": 2.0,
    }


def report_agreement(root: Path, ours: dict[str, Origin], theirs: dict[str, str]) -> None:
    differ = [path for path, day in theirs.items() if str(ours[path].date) != day]
    copies = sum(followed_a_copy(root, path) for path in differ)
    print(
        f"  per-file dates agree on {len(theirs) - len(differ)}/{len(theirs)} records; "
        f"of the {len(differ)} others, `--follow` went through copy detection in {copies}"
    )


def _reader(root: Path, under: str) -> None:
    """One timed read (the ``--reader`` form): seconds and CPU, git's included, as JSON."""
    records = markdown(root, under)
    start, cpu = time.perf_counter(), time.process_time()
    _dates(root, records)
    seconds, own = time.perf_counter() - start, time.process_time() - cpu
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({"seconds": seconds, "cpu": own + children.ru_utime + children.ru_stime}))


def markdown(root: Path, under: str) -> list[str]:
    listed = _run(["git", "ls-files", "-z", "--", f"{under}*.md" if under else "*.md"], cwd=root)
    return [path for path in listed.split("\0") if path]


def bench_repo(root: Path, under: str, repeat: int, quiet: bool) -> dict[str, object]:
    """The reader and the floor on a real repository, each its own command, medians."""
    say = (lambda *_: None) if quiet else print
    reader = [sys.executable, __file__, "--reader", str(root), "--under", under]
    floor = ["git", "log", "--name-status", "-M"]
    # what the reader's merge rules ask of git, in one command: every merge diffed against every
    # parent (the reader runs a log that diffs no merge and a diff-tree for the merges, at once)
    merges = ["git", "-c", "log.diffMerges=separate", "log", "-m", "--raw", "-M", "-r", "--topo-order", "--root"]
    runs: dict[str, list[tuple[float, float, float]]] = {"docsync": [], "floor": [], "git -m": []}
    for _ in range(repeat):
        _, _, peak, out, _ = bench_corpus.gnu_timed(reader, root)
        inside = json.loads(out)
        runs["docsync"].append((inside["seconds"], inside["cpu"], peak))
        runs["floor"].append(bench_corpus.gnu_timed(floor, root)[:3])
        runs["git -m"].append(bench_corpus.gnu_timed(merges, root)[:3])
    med = {k: [sorted(r[i] for r in v)[len(v) // 2] for i in range(3)] for k, v in runs.items()}
    (t_docsync, c_docsync, p_docsync), (t_floor, c_floor, p_floor) = med["docsync"], med["floor"]
    commits = len(_run(["git", "rev-list", "HEAD"], cwd=root).split())
    merges = len(_run(["git", "rev-list", "--merges", "HEAD"], cwd=root).split())
    say(f"repository {root.name}: {commits} commits ({merges} merges), {len(markdown(root, under))} records")
    say(f"  docsync reader  {t_docsync:6.2f} s  {c_docsync:6.2f} s CPU  {p_docsync:6.1f} MB")
    say(f"  git log floor   {t_floor:6.2f} s  {c_floor:6.2f} s CPU  {p_floor:6.1f} MB")
    t_m, c_m, _ = med["git -m"]
    say(f"  git log -m      {t_m:6.2f} s  {c_m:6.2f} s CPU  (every merge diffed against every parent, as the reader's log and diff-tree do between them)")
    say(f"  docsync / floor {t_docsync / t_floor:5.2f}x ({c_docsync / c_floor:.2f}x CPU)  (target <= 2x)")
    return {"repository": root.name, "commits": commits, "merges": merges, "records": len(markdown(root, under)),
            "docsync_seconds": round(t_docsync, 4), "floor_seconds": round(t_floor, 4), "docsync_cpu": round(c_docsync, 3),
            "floor_cpu": round(c_floor, 3), "docsync_peak_mb": round(p_docsync, 1), "floor_peak_mb": round(p_floor, 1),
            "docsync_over_floor": round(t_docsync / t_floor, 2), "docsync_over_floor_cpu": round(c_docsync / c_floor, 2),
            "git_m_seconds": round(t_m, 4), "git_m_cpu": round(c_m, 3), "target": 2.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repo", type=Path, help="a real clone to time instead of a generated one")
    parser.add_argument("--under", default="", help="with --repo: the records' folder (e.g. text/)")
    parser.add_argument("--reader", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--records", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="build the repository here and keep it")
    parser.add_argument(
        "--per-file-sample",
        type=int,
        default=300,
        help="run the per-file logs on at most this many records and extrapolate (0: skip)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    args = parser.parse_args(argv)
    under = args.under and args.under.rstrip("/") + "/"
    if args.reader is not None:
        _reader(args.reader.resolve(), under)
        return 0
    if args.repo is not None:
        result = bench_repo(args.repo.resolve(), under, args.repeat, args.json)
        if args.json:
            print(json.dumps(result, indent=2))
        return 0
    with _workdir(args.keep) as root:
        if not (root / ".git").exists():
            generate(root, args.commits, args.records, args.seed)
        result = bench(root, args.repeat, args.per_file_sample, quiet=args.json)
    if args.json:
        print(json.dumps(result, indent=2))
    return 0


@contextlib.contextmanager
def _workdir(keep: Path | None) -> Iterator[Path]:
    """``--keep DIR`` (reused if it already holds a repository) or a temporary folder."""
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        yield keep
        return
    with tempfile.TemporaryDirectory(prefix="bench-history-") as temp:
        yield Path(temp) / "repo"


if __name__ == "__main__":
    sys.exit(main())
