#!/usr/bin/env python3
"""docsync's benchmarks, one module each, all run from here (or each on its own).

    python scripts/bench.py                      # links: check --gate links vs lychee (bench_links.py)
    python scripts/bench.py --files 500 --json   # the same, machine-readable
    python scripts/bench.py peers --tree DIR     # beside rumdl and lychee, peak RSS, real trees (bench_peers.py)
    python scripts/bench.py staged               # the hook: check --staged (bench_staged.py)
    python scripts/bench.py broken               # one file with 100,000 broken links (bench_broken.py)
    python scripts/bench.py history --repo RFCS  # the history reader vs one git log pass (bench_history.py)
    python scripts/bench.py migrate              # migrate and init at scale (bench_migrate.py)
    python scripts/bench.py all --tree DIR --history-repo RFCS   # every target of issue 38 (bench_all.py)
    python scripts/bench.py all --files 50       # the same on small corpora: checks the harness

Every form takes ``--help``. Each module also runs alone (``python
scripts/bench_staged.py``); the corpus they share is :mod:`bench_corpus`.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from pathlib import Path

FORMS = {
    "links": "bench_links",
    "peers": "bench_peers",
    "staged": "bench_staged",
    "broken": "bench_broken",
    "history": "bench_history",
    "migrate": "bench_migrate",
    "all": "bench_all",
}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    form = argv[0] if argv and argv[0] in FORMS else "links"
    rest = argv[1:] if argv and argv[0] in FORMS else argv
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    module = importlib.import_module(FORMS[form])
    code: int = module.main(rest)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
