#!/usr/bin/env python3
"""The synthetic corpus every docsync benchmark runs on, and what the benchmarks share.

:func:`generate` writes a deterministic corpus (nested folders of Markdown
files with prose, headings and relative links, a few of them deliberately
broken) and commits it with git. Beside it: git's environment for the
benchmarks' own repositories, the git directory of a tree, the load
average, and markdown-it-py's parse of a tree in one process (a floor).

    python scripts/bench_corpus.py DIR [--files 3000] [--links 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import posixpath
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
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
    commit(root)
    return Corpus(
        root, len(pages), writer.links, writer.broken_paths, writer.broken_fragments, size
    )


def git_env(extra: dict[str, str] | None = None) -> dict[str, str]:
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


def commit(root: Path) -> None:
    env = git_env()
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "corpus"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True)


def git_dir(root: Path) -> Path:
    out = subprocess.run(
        ["git", "rev-parse", "--absolute-git-dir"],
        cwd=root,
        env=git_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(out.stdout.strip())


# One parse of every Markdown file, in one process: markdown-it-py as docsync
# configured it (CommonMark, tables, strikethrough, HTML), the yardstick of the
# links bench, or (``native``) pyromark's events as docsync asks for them, the
# parser of the document model since issue 38.
_PARSE_ALONE = """
import subprocess, sys, time
if sys.argv[1] == "native":
    from docsync.parse.native import events as parse
else:
    from markdown_it import MarkdownIt
    parse = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).parse
paths = subprocess.run(["git", "ls-files", "-z", "*.md"], capture_output=True, text=True,
                       check=True).stdout.split("\\0")
texts = [open(p, encoding="utf-8").read() for p in paths if p]
start = time.perf_counter()
for text in texts:
    parse(text)
print(time.perf_counter() - start)
"""


def parse_command(root: Path, native: bool = False) -> tuple[float, float]:
    """The parse of every Markdown file in ``root``, as one command: the command's
    whole wall time (Python's start-up, the parser's import, ``git ls-files`` and
    reading every file included, as a timed command includes them) and the time
    of its parse loop alone."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _PARSE_ALONE, "native" if native else "library"],
        cwd=root,
        env=git_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    return time.perf_counter() - start, float(done.stdout)


def gnu_timed(command: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float, float, str, int]:
    """Wall seconds, CPU seconds (user plus system, children included), peak RSS in MB
    (GNU time: the command's own largest process), stdout and exit code of ``command``."""
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        done = subprocess.run(
            ["/usr/bin/time", "-f", "%M %U %S", "-o", report.name, *command],
            cwd=cwd, env=env or git_env(), capture_output=True, text=True, check=False,
        )
        seconds = time.perf_counter() - start
        peak, user, system = report.read().splitlines()[-1].split()
    return seconds, float(user) + float(system), int(peak) / 1024, done.stdout, done.returncode


def parse_alone(root: Path) -> float:
    """The parse loop alone: no start-up, no import, no reading."""
    return parse_command(root)[1]


def byte_compiled() -> None:
    """Byte-compile docsync's modules, as installing it does (pip compiles each one).

    An editable install run with ``PYTHONDONTWRITEBYTECODE`` set (as on this
    project's machines) would otherwise compile every module it imports again
    in every timed run: about 0.2 s of CPU that no installed docsync spends
    (a quarter of a warm check on PowerShell-Docs).
    """
    import compileall

    import docsync

    compileall.compile_dir(str(Path(docsync.__file__).parent), quiet=1)


def load_average() -> list[float]:
    """Other work on the machine skews wall times; the report says how much there was."""
    return [round(x, 2) for x in os.getloadavg()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", type=Path, help="an empty or new folder")
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--links", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    args.root.mkdir(parents=True, exist_ok=True)
    if any(args.root.iterdir()):
        parser.error(f"{args.root} is not empty")
    corpus = generate(args.root.resolve(), args.files, args.links, args.seed)
    print(f"{corpus.files} files, {corpus.links} links, {corpus.broken} broken, in {corpus.root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
