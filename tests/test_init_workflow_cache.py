"""The workflow ``docsync init --hooks`` writes restores and saves docsync's cache.

``actions/cache`` keeps ``.git/docsync`` between CI runs, keyed on docsync's
version and the runner's OS, with a fresh key each commit (a cache entry is
never overwritten) and the newest earlier one restored. docsync's caches are
keyed by content and config inside, so whatever is restored is safe.
"""

from __future__ import annotations

import yaml

from docsync import __version__
from docsync.adopt.hooks import workflow


def test_the_cache_is_restored_before_docsync_runs() -> None:
    steps = yaml.safe_load(workflow())["jobs"]["docsync"]["steps"]
    uses = [step.get("uses", step.get("run")) for step in steps]
    assert uses.index("actions/cache@v5") == uses.index("actions/checkout@v6") + 1
    assert uses.index("actions/cache@v5") < uses.index("docsync check --format github")
    cache = steps[uses.index("actions/cache@v5")]["with"]
    prefix = f"docsync-{__version__}-${{{{ runner.os }}}}-"
    assert cache == {
        "path": ".git/docsync",
        "key": prefix + "${{ github.sha }}",
        "restore-keys": prefix,
    }
