#!/usr/bin/env python3
"""The floor under docsync's cold check: the native parser's events alone.

Every Markdown file of a git work tree (``git ls-files '*.md' '*.markdown'``),
read, decoded and parsed by pyromark (pulldown-cmark) with docsync's options,
every event iterated in Python, spread over as many processes as docsync's cold
check uses on that many files. No model is built, no gate runs, nothing is
cached or sent back but a count. Timed from outside as one command, start-up
and imports included, it is what any check that parses natively pays before it
has read one link: ``bench.py peers`` prints it beside rumdl.

``--library`` takes markdown-it-py's whole parse of the same dialect instead
(the parser the model was built from before 2026-12-06), for comparison.
``--native`` takes pulldown-cmark's parse with nothing handed to Python per
event (pyromark renders each file to HTML in Rust): what a native pass that
returned only the gates' data would pay for its parse, the design limit the
event loop sits above.

    python scripts/bench_floor.py /tmp/PowerShell-Docs
    python scripts/bench_floor.py /tmp/PowerShell-Docs --library
    python scripts/bench_floor.py /tmp/PowerShell-Docs --native
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence, Sized
from pathlib import Path

# docsync.workspace.parsing: one process below this many files, and at least
# this many files a worker
_PARALLEL_THRESHOLD = 64
_FILES_PER_WORKER = 32


def processes(files: int, cores: int | None) -> int:
    """How many processes docsync's cold check parses ``files`` files in
    (``jobs`` unset, ``cores`` CPUs), as ``docsync.workspace.parsing`` decides."""
    if files < _PARALLEL_THRESHOLD:
        return 1
    return max(1, min(cores or 1, files // _FILES_PER_WORKER))


def markdown_files(root: Path) -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "*.md", "*.markdown"], cwd=root, capture_output=True, text=True, check=True
    )
    return [path for path in listed.stdout.split("\0") if path]


def _rendered(text: str) -> str:
    import pyromark  # the parse in Rust, rendered there: nothing crosses per event

    from docsync.parse.native import _OPTIONS

    return str(pyromark.html(text, options=_OPTIONS))


def parse_files(root: str, paths: Sequence[str], library: bool | str) -> tuple[int, int]:
    """Parse each file under ``root``: (files parsed, events or tokens made; for
    ``"native"``, characters of HTML). A file that is not Markdown text (docsync
    reports it, F001/F002) is skipped."""
    from docsync.parse.source import SourceError, decode

    count_of: Callable[[str], Sized]
    if library == "native":
        count_of = _rendered
    elif library:
        from docsync.parse.markdown import tokens as count_of
    else:
        from docsync.parse.native import events as count_of

    parsed = tokens = 0
    for path in paths:
        try:
            text, _, _ = decode(Path(root, path).read_bytes())
        except (OSError, SourceError):
            continue
        tokens += len(count_of(text))
        parsed += 1
    return parsed, tokens


def floor(root: Path, library: bool | str, jobs: int | None = None) -> dict[str, int]:
    """Parse every Markdown file of ``root`` across ``jobs`` processes
    (default: as many as docsync would use). Largest files first, in batches,
    as docsync deals them out."""
    paths = markdown_files(root)
    sizes = {path: (root / path).stat().st_size if (root / path).is_file() else 0 for path in paths}
    paths.sort(key=sizes.__getitem__, reverse=True)
    workers = jobs or processes(len(paths), os.cpu_count())
    if workers == 1:
        parsed, tokens = parse_files(str(root), paths, library)
    else:
        from concurrent.futures import ProcessPoolExecutor

        size = max(8, min(32, len(paths) // (workers * 8)))
        batches = [paths[i : i + size] for i in range(0, len(paths), size)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            done = list(pool.map(parse_files, [str(root)] * len(batches), batches, [library] * len(batches)))
        parsed, tokens = sum(d[0] for d in done), sum(d[1] for d in done)
    return {"files": parsed, "tokens": tokens, "processes": workers}


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_floor.py", description=__doc__.split("\n")[0])
    parser.add_argument("root", type=Path, help="a git work tree")
    parser.add_argument("--library", action="store_true", help="markdown-it-py's whole parse instead")
    parser.add_argument("--native", action="store_true", help="pulldown-cmark's parse with nothing per event in Python")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: as docsync's check)")
    args = parser.parse_args(argv)
    print(json.dumps(floor(args.root.resolve(), "native" if args.native else args.library, args.jobs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
