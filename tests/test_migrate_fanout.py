"""The migration's rewrites across cores: forked workers make exactly what one process makes.

:mod:`docsync.migrate.rewrite.fanout` runs tasks in forked processes, or here when a
fork is not safe; :func:`docsync.migrate.rewrite.changes.compute` hands it the rewrite
of every record and every other file. These tests prove the tasks really run
elsewhere, that the change set (writes, their order, stats, problems, the
parsed documents) is the same with one process and with two, and that a dry
run, which keeps no text it does not show, shows byte for byte what an
apply's computation would.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

from docsync.config import Config
from docsync.config import load as load_config
from docsync.errors import GitError
from docsync.migrate import run as migration
from docsync.migrate.model import ChangeSet
from docsync.migrate.read.dating import EarlyDates, candidates, read_origins
from docsync.migrate.rewrite.assemble import Assembled, Mispredicted, assemble
from docsync.migrate.rewrite.changes import Computing
from docsync.migrate.rewrite.fanout import Fanout, workers_for
from docsync.migrate.rewrite.markdown_rewrite import topic_text
from docsync.migrate.rewrite.routes import Routes
from docsync.migrate.rewrite.stats import Tally
from docsync.migrate.show import as_json, rendered, report
from docsync.workspace.forked import fork_safe
from tests.gitutil import GitRepo, git
from tests.migrate_memory import changes, inputs, plan_of
from tests.migrate_repos import mission_repo

# --------------------------------------------------------------------------- the fan-out


def _pid() -> int:
    return os.getpid()


def _fails() -> int:
    raise ValueError("task 1 failed")


_FORK = multiprocessing.get_context("fork")
_PATIENCE = 60  # seconds a rendezvous waits for its other half before the test fails


def _rendezvous(then: Callable[[bool], object]) -> list[Callable[[], object]]:
    """Two tasks that each wait for the other to start: they end only when two processes run
    them at once, one each; each then returns ``then(in_a_child)``."""
    parent, started = os.getpid(), (_FORK.Event(), _FORK.Event())

    def half(mine: int) -> object:
        started[mine].set()
        assert started[1 - mine].wait(_PATIENCE), "both tasks ran in one process"
        return then(os.getpid() != parent)

    return [lambda: half(0), lambda: half(1)]


def _read_all(fanout: Fanout[object], count: int) -> list[object]:
    """Each result, or the exception reading it raised."""
    results: list[object] = []
    for k in range(count):
        try:
            results.append(fanout.result(k))
        except Exception as error:
            results.append(error)
    return results


def test_tasks_run_here_and_in_a_forked_process_and_come_back_in_order() -> None:
    tasks = [*_rendezvous(lambda _: os.getpid()), _pid, lambda: "last"]
    with Fanout(tasks, 2) as fanout:
        assert fanout.forked
        results = [fanout.result(k) for k in range(len(tasks))]
    assert results[-1] == "last"  # a lambda: never pickled, the child inherited it
    assert os.getpid() in results[:2] and len(set(results[:2])) == 2


@pytest.mark.parametrize("workers", [0, 1])
def test_without_a_fork_each_task_runs_here_when_read(workers: int) -> None:
    ran: list[int] = []
    tasks = [lambda: ran.append(0) or 0, lambda: ran.append(1) or os.getpid()]
    with Fanout(tasks, workers) as fanout:
        assert ran == [] and not fanout.forked
        assert fanout.result(0) == 0 and ran == [0]
        assert fanout.result(1) == os.getpid()


def _stamp(k: int) -> Callable[[], tuple[int, int, int]]:
    return lambda: (k, os.getpid(), time.monotonic_ns())


def test_each_process_takes_the_tasks_in_the_order_given_and_results_are_read_by_index() -> None:
    order = [5, 2, 7, 0, 3, 6, 1, 4]
    with Fanout([_stamp(k) for k in range(8)], 2, order) as fanout:
        results = [fanout.result(k) for k in range(8)]
    assert [k for k, _, _ in results] == list(range(8))
    for pid in {pid for _, pid, _ in results}:  # one after another within a process
        ran = sorted((when, k) for k, by, when in results if by == pid)
        assert [k for _, k in ran] == [k for k in order if results[k][1] == pid]
    with pytest.raises(ValueError, match="not an order"):
        Fanout([_pid, _pid], 2, [0, 0])


@pytest.mark.parametrize("workers", [0, 2])
def test_a_task_that_raises_raises_where_its_result_is_read(workers: int) -> None:
    with Fanout([_pid, _fails], workers) as fanout:
        fanout.result(0)
        with pytest.raises(ValueError, match="task 1 failed"):
            fanout.result(1)


def _raise_where(in_child: bool) -> object:
    raise ValueError(f"raised in {'a child' if in_child else 'this process'}")


class _Unpicklable(Exception):
    def __init__(self) -> None:
        super().__init__("holds a lambda")
        self.hook = lambda: None


def _unpicklable_in_a_child(in_child: bool) -> object:
    if in_child:
        raise _Unpicklable()
    return "here"


def test_what_a_child_raises_is_raised_here_as_what_this_process_raises() -> None:
    with Fanout(_rendezvous(_raise_where), 2) as fanout:
        raised = _read_all(fanout, 2)
    assert sorted(str(e) for e in raised if isinstance(e, ValueError)) == [
        "raised in a child", "raised in this process",
    ]
    with Fanout(_rendezvous(_unpicklable_in_a_child), 2) as fanout:
        raised = _read_all(fanout, 2)
    assert "here" in raised
    assert any(isinstance(e, RuntimeError) and "holds a lambda" in str(e) for e in raised)


def _die_in_a_child(in_child: bool) -> object:
    if in_child:
        os._exit(3)
    return "here"


def test_a_task_whose_child_died_runs_here() -> None:
    with Fanout(_rendezvous(_die_in_a_child), 2) as fanout:
        children = list(fanout._children)
        assert _read_all(fanout, 2) == ["here", "here"]
    assert [child.exitcode for child in children] == [3]


def test_a_run_that_stops_early_stops_its_children() -> None:
    started = _FORK.Event()

    def forever_in_a_child() -> object:
        if os.getpid() != parent:
            started.set()
            threading.Event().wait()
        return "here"

    parent = os.getpid()
    with pytest.raises(RuntimeError), Fanout([forever_in_a_child] * 2, 2) as fanout:
        children = list(fanout._children)
        assert started.wait(_PATIENCE)
        raise RuntimeError("a misprediction, say")
    assert children and not any(child.is_alive() for child in children)


def test_no_fork_with_one_job_one_task_or_another_thread() -> None:
    assert workers_for(2, 10) == 2
    assert workers_for(1, 10) == 0
    assert workers_for(2, 1) == 0
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert workers_for(2, 10) == 0  # a fork would copy the thread's locks, not the thread
    finally:
        release.set()
        other.join()


# --------------------------------------------------------------------------- the change set


def _files(records: int, pages: int) -> dict[str, str]:
    """Records linking each other, pages linking and naming them, code naming them; one
    record whose title holds a link, so that rewriting a link text to it fails verification
    (a plan problem), and ids no record holds (unresolved) and links to nowhere (broken before)."""
    files: dict[str, str] = {}
    for n in range(1, records + 1):
        title = '<a href="x.md">pg</a>' if n == 3 else f"Decision {n}"
        other = (n % records) + 1
        files[f"docs/adr/{n:04d}-decision-{n}.md"] = (
            f"# ADR {n:04d}: {title}\n\nStatus: {'accepted' if n % 2 else 'proposed'}\n\n"
            f"## Context\n\nSee ADR {other:04d} and [the next](./{other:04d}-decision-{other}.md), "
            f"not ADR 9999.\n"
        )
    for k in range(pages):
        n = k % records + 1
        files[f"guide/area{k % 3}/page{k}.md"] = (
            f"# Page {k}\n\nRead [ADR {n:04d}](../../docs/adr/{n:04d}-decision-{n}.md) "
            f"and ADR {(k + 1) % records + 1:04d}, and [a gone page](../../docs/adr/gone.md).\n"
        )
    files["src/app.py"] = '# Per ADR 0002.\nRECORD = "docs/adr/0001-decision-1.md"\n'
    return files


def _computed(files: dict[str, str], options: Computing) -> ChangeSet:
    return changes(files, plan_of(files), options=options)


def test_two_processes_compute_the_change_set_one_computes() -> None:
    files = _files(records=40, pages=60)
    assert workers_for(2, 100) == 2  # else the comparison below would compare one path twice
    alone = _computed(files, Computing(jobs=1))
    forked = _computed(files, Computing(jobs=2))
    assert forked == alone
    assert [w.path for w in forked.writes] == [w.path for w in alone.writes]
    assert any("cannot rewrite safely" in p.message for p in alone.problems)
    assert alone.stats.unresolved and alone.stats.already_broken and alone.stats.code_paths
    assert set(alone.parsed) >= {w.path for w in alone.writes if w.path.startswith("guide/")}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_dry_run_keeps_no_parse_it_need_not_make(jobs: int) -> None:
    """Without ``keep_parsed`` only a record that gains a reverse relation line is parsed
    (here, where the reverses are added); every write is the same."""
    files = _files(records=12, pages=20)
    files["docs/adr/0005-decision-5.md"] += "\nSuperseded by [ADR 0006](0006-decision-6.md)\n"
    kept = _computed(files, Computing(jobs=jobs))
    lean = _computed(files, Computing(jobs=jobs, keep_parsed=False))
    assert (lean.moves, lean.removals, lean.writes, lean.stats, lean.problems) == (
        kept.moves, kept.removals, kept.writes, kept.stats, kept.problems,
    )
    assert set(kept.parsed) == {w.path for w in kept.writes if w.path.endswith(".md")} - {
        "docs/rfc/README.md"
    }
    assert list(lean.parsed) == ["docs/rfc/proposed/2020-01-01-decision-6.md"]
    assert {p: d for p, d in kept.parsed.items() if p in lean.parsed} == lean.parsed


def test_the_dry_run_shows_what_the_apply_computes(tmp_path: Path) -> None:
    """The dry run re-wraps nothing and keeps fewer parses: what it prints is the same."""
    mission_repo(tmp_path)
    shown = []
    for texts in (True, False):
        _, outcome = migration.run(tmp_path, migration.Options(texts=texts))
        assert outcome.changes.writes
        shown.append((_text(outcome), _text(outcome, verbose=True), as_json(outcome)))
    assert shown[0] == shown[1]


def _text(outcome: migration.Outcome, *, verbose: bool = False) -> str:
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(rendered(report(outcome, width=80, verbose=verbose)))
    return out.getvalue()


# --------------------------------------------------------------------------- dates, read meanwhile


def _dated_repo(tmp_path: Path) -> GitRepo:
    """Records added on different days and zones, one renamed, one deleted and restored."""
    repo = GitRepo.init(tmp_path / "repo")
    repo.write("docs/adr/0001-first.md", "# First\n\nStatus: accepted\n\nThe first one.\n")
    repo.write("docs/adr/0002-second.md", "# Second\n\nStatus: proposed\n\nThe second one.\n")
    repo.commit("two", when="2021-03-04 23:30:00", tz="-0800")
    repo.move("docs/adr/0002-second.md", "docs/adr/0002-second-renamed.md")
    repo.write("docs/adr/0003-third.md", "# Third\n\nStatus: proposed\n\nThe third one, longer.\n")
    repo.commit("rename, third", when="2021-05-06 01:00:00", tz="+0900")
    repo.remove("docs/adr/0003-third.md")
    repo.commit("gone", when="2021-06-01 09:00:00")
    repo.write("docs/adr/0003-third.md", "# Third\n\nStatus: proposed\n\nThe third one, longer!\n")
    repo.commit("back", when="2021-07-01 09:00:00")
    return repo


def _config(root: Path) -> Config:
    return migration.configured(load_config(root), migration.Options())


def test_dates_read_by_a_child_while_parsing_are_the_dates_read_here(tmp_path: Path) -> None:
    repo = _dated_repo(tmp_path)
    config = _config(repo.root)
    assert fork_safe()  # else the comparison below would compare one path twice
    session = migration.load_session(repo.root, migration.Options())
    records = list(session.records)
    assert candidates(sorted(git(repo.root, "ls-files").split()), config) == records
    with EarlyDates(repo.root, config, None) as early:
        assert early.forked
        got = early.origins(records)
        head = early.head_commit()
    assert early.answered and head == git(repo.root, "rev-parse", "HEAD").strip()
    assert got == read_origins(repo.root, records, None, records) == dict(session.inputs.origins)
    days = {path: d.date.isoformat() for path, d in got.items()}
    assert days == {
        "docs/adr/0001-first.md": "2021-03-04",  # the author's day, not UTC's
        "docs/adr/0002-second-renamed.md": "2021-03-04",  # renamed: its lineage goes on
        "docs/adr/0003-third.md": "2021-05-06",  # restored, edited: its lineage goes on
    }


def test_records_the_child_did_not_date_are_dated_here(tmp_path: Path) -> None:
    repo = _dated_repo(tmp_path)
    with EarlyDates(repo.root, _config(repo.root), None) as early:
        got = early.origins(["docs/adr/0001-first.md", "README.md"])  # not a record: read here
    assert early.forked and not early.answered
    asked = ["docs/adr/0001-first.md", "README.md"]
    assert got == read_origins(repo.root, asked, None, candidates(asked, _config(repo.root)))


def test_no_child_with_one_job_or_a_progress_bar(tmp_path: Path) -> None:
    repo = _dated_repo(tmp_path)
    config = _config(repo.root)
    for early in (
        EarlyDates(repo.root, replace(config, jobs=1), None),
        EarlyDates(repo.root, config, lambda what, done, total: None),
    ):
        with early:
            assert not early.forked
            assert early.origins(["docs/adr/0001-first.md"])["docs/adr/0001-first.md"].date.year == 2021


def test_a_child_that_fails_leaves_the_error_to_the_reading_here(tmp_path: Path) -> None:
    repo = _dated_repo(tmp_path)
    shallow = repo.clone(tmp_path / "shallow", "--depth", "1")
    with EarlyDates(shallow.root, _config(shallow.root), None) as early:
        assert early.forked
        with pytest.raises(GitError, match="shallow clone"):
            early.origins(["docs/adr/0001-first.md"])
    assert not early.answered


def test_a_run_that_stops_early_stops_the_child(tmp_path: Path) -> None:
    repo = _dated_repo(tmp_path)
    with pytest.raises(RuntimeError), EarlyDates(repo.root, _config(repo.root), None) as early:
        child = early._child
        raise RuntimeError("the parse failed")
    assert child is not None and not child.is_alive() and early._child is None


# --------------------------------------------------------------------------- predicted headings


def _assembled_both_ways(files: dict[str, str], slug: str) -> tuple[Assembled, Assembled]:
    given, plan = inputs(files), plan_of(files)
    topic = next(t for t in plan.topics if t.slug == slug)
    assert not any(p.section for t in plan.topics for p in t.parts)  # no section taken
    return assemble(topic, given.records, {}, predict=True), assemble(topic, given.records, {})


# Its status paragraph holds "[x]: …" as text; without the status line it is a definition,
# and the heading's text, "[Foo][x]" before, becomes "Foo": not what its own parse said.
_MISLEADING = "# ADR 0013: Seven\n\nStatus: accepted\n[x]: https://example.com\n\n## [Foo][x]\n\nText.\n"


def test_a_records_headings_are_predicted_from_its_own_and_checked_where_it_is_parsed() -> None:
    files = _files(records=6, pages=2)
    predicted, parsed = _assembled_both_ways(files, "decision-2")
    assert predicted.parsed is None and predicted.predicted == ("decision-2", "context")
    assert parsed.parsed is not None and predicted.predicted == tuple(h.slug for h in parsed.parsed.headings)
    assert (predicted.chunks, predicted.title_slug) == (parsed.chunks, parsed.title_slug)
    wrong = replace(predicted, predicted=("decision-2", "background"))
    with pytest.raises(Mispredicted):
        topic = next(t for t in plan_of(files).topics if t.slug == "decision-2")
        topic_text(topic, wrong, Routes({}, {}, {}, {}, frozenset()), Tally())


def test_a_wrong_prediction_computes_the_change_set_again_from_parsed_texts() -> None:
    files = {**_files(records=12, pages=20), "docs/adr/0013-seven.md": _MISLEADING}
    predicted, parsed = _assembled_both_ways(files, "seven")
    assert parsed.parsed is not None
    assert predicted.predicted is not None
    assert predicted.predicted != tuple(h.slug for h in parsed.parsed.headings)  # really wrong
    assert workers_for(2, 100) == 2  # the forked path predicts; one process parses
    assert _computed(files, Computing(jobs=2)) == _computed(files, Computing(jobs=1))
