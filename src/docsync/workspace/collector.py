"""The cyclic garbage collector kept off what docsync loads: one policy, for every stage.

Documents, tokens and findings are trees of small objects that hold no
reference cycles, made by the hundred thousand and alive to the end of the
run. The collector can free none of them, yet walks them again and again as
they are made and as they age through its generations. So it is off while
they are made (:func:`collector_off`), and for a large repository's
documents they are frozen out of its reach once loaded (:func:`collector_paused`).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

PAUSE_COLLECTOR_FROM = 500  # files; see collector_paused


@contextmanager
def collector_off() -> Iterator[None]:
    """The collector off meanwhile, and back on after if it was on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Keep the cyclic garbage collector off the documents of a large repository.

    Loading thousands of documents makes half a million small objects that
    all live on. Left alone, the collector walks them again and again as
    they age through its generations: more than a third of loading a cached
    repository. So: collect the young garbage now (the two younger
    generations: cheap; a full collection walks every module and class
    imported so far, tens of milliseconds), pause while the documents load,
    then freeze (``gc.freeze``): everything alive joins the permanent
    generation, which collections never walk.
    Documents hold no cycles, so nothing they own needs the collector; freed
    objects are still freed as their references go. The freeze is
    process-wide, which suits a command-line run that loads once and exits.
    Parse workers forked meanwhile inherit the paused collector and need it
    no more: parsing leaves no reference cycles behind (markdown-it's tokens
    and our documents are trees).
    """
    if not gc.isenabled():
        yield
        return
    gc.collect(1)
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()
