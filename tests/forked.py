"""Real ``docsync`` processes without paying Python's start-up for each: a parent that has
imported docsync once forks a child per run.

The kill tests run docsync dozens of times per test, each run a process of its own,
SIGKILLed at its k-th guarded mutation. Starting a fresh interpreter and importing
docsync costs more than most of these runs. So one parent process per test process
(started on first use) imports docsync, then for each run forks a child that takes the
run's folder, environment and arguments, and runs ``docsync`` as ``python -m docsync``
does (:func:`docsync.__main__.run`; a counting run calls :func:`docsync.cli.main`, as the
kill tests' own script did, to report its count once the command has ended). The child is a real process: it ends with its own
exit code, or is killed by a real SIGKILL at mutation k, and its stderr is what the run
wrote. The parent never runs a command, so every child starts from the same state.
"""

from __future__ import annotations

import atexit
import json
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from tests.gitutil import git_environ

_PARENT = r"""
import json, os, signal, sys, traceback

from docsync.write import writer

count = {"at": 0, "seen": 0}


def point(kind, path):
    count["seen"] += 1
    if count["seen"] == count["at"]:
        os.kill(os.getpid(), signal.SIGKILL)


writer.mutation_point = point
from docsync.__main__ import run
from docsync.cli import main  # the import each child would otherwise pay

for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:
        try:
            out = os.open(job["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            err = os.open(job["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(out, 1)
            os.dup2(err, 2)
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # not the parent's job stream
            signal.alarm(job["timeout"])  # a run that hangs ends, as subprocess.run's timeout ends it
            os.chdir(job["cwd"])
            os.environ.clear()
            os.environ.update(job["env"])
            count["at"] = job["kill_at"]
            sys.argv = ["docsync", *job["args"]]
            code = 0
            try:
                # counting, the run must come back here: run() ends the process itself
                main() if job["count"] else run()
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 1
            if job["count"]:
                sys.stderr.write(f"mutations={count['seen']}\n")
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            traceback.print_exc()
            code = 1
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    print(json.dumps(os.waitstatus_to_exitcode(status)), flush=True)
"""

_lock = threading.Lock()
_parent: list[subprocess.Popen[str]] = []


def _stop() -> None:
    """At the end of the test process: the parent reads the end of its input, and is waited
    for (so its children's CPU time is counted with the tests')."""
    for parent in _parent:
        if parent.stdin is not None:
            parent.stdin.close()
        parent.wait(timeout=60)


atexit.register(_stop)


def _started() -> subprocess.Popen[str]:
    if not _parent or _parent[0].poll() is not None:
        _parent[:] = [
            subprocess.Popen(
                [sys.executable, "-c", _PARENT],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=git_environ(),
                text=True,
            )
        ]
    return _parent[0]


def docsync(
    cwd: Path, *args: str, kill_at: int = 0, count: bool = False, timeout: int = 120
) -> subprocess.CompletedProcess[str]:
    """``python -m docsync *args`` in ``cwd`` with the isolated git environment, as a forked
    process; SIGKILLed at its ``kill_at``-th guarded mutation (0: never). With ``count``,
    stderr ends with ``mutations=N``, the number of mutation points the run passed. Its
    stdin is empty; a run still going after ``timeout`` seconds ends by SIGALRM (its
    return code ``-14``), where ``subprocess.run`` would raise ``TimeoutExpired``."""
    with (
        tempfile.NamedTemporaryFile("r", suffix=".stdout") as stdout,
        tempfile.NamedTemporaryFile("r", suffix=".stderr") as stderr,
        _lock,
    ):
        job = {
            "cwd": str(cwd), "args": list(args), "env": git_environ(), "kill_at": kill_at,
            "count": count, "stdout": stdout.name, "stderr": stderr.name, "timeout": timeout,
        }
        parent = _started()
        assert parent.stdin is not None and parent.stdout is not None
        parent.stdin.write(json.dumps(job) + "\n")
        parent.stdin.flush()
        answer = parent.stdout.readline()
        assert answer, "the forking parent ended"
        code = json.loads(answer)
        return subprocess.CompletedProcess(["docsync", *args], code, stdout.read(), stderr.read())
