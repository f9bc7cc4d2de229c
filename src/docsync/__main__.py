"""``python -m docsync`` and the ``docsync`` command.

Ctrl-C while the modules are still being imported (start-up is most of a
short run) ends with one line and exit code 130, not a traceback.

A ``check`` whose every input is what it was when its report was kept writes that
report again and ends, before the command line is built (:mod:`docsync.commandline.replay`).

Once the command has finished and its output is flushed, the process ends
at once (``os._exit``): tearing down the interpreter would free every object
a run made one by one (a migration's dry run holds a thousand parsed
documents), which takes longer than many commands. Nothing is left to do by
then: every file is written and closed, and every worker process has been
joined. A code that is not a number (or a failed flush) ends the ordinary way.

A standard stream that was closed before the process started (``>&-``, a daemon's
``<&-``) reads as empty and writes nowhere: the run does its work and ends with its
own exit code, as it would with ``/dev/null`` there, never with a traceback.
"""

import os
import sys


def run() -> None:
    _closed_streams_to_nowhere()
    try:
        from docsync.commandline.replay import replayed

        replay = replayed(sys.argv[1:])  # a warm check's report, kept: before typer is imported
        if replay is not None:
            _end(replay)
        from docsync.cli import main
    except KeyboardInterrupt:
        sys.stderr.write("docsync: stopped by Ctrl-C while starting; nothing was changed\n")
        raise SystemExit(130) from None
    try:
        main()
    except SystemExit as finished:
        code = finished.code
        if code is None or isinstance(code, int):
            _end(code or 0)
        raise


def _closed_streams_to_nowhere() -> None:
    """Give a stream Python found closed at start-up (it is None) ``os.devnull``; the
    descriptor it opens takes the closed one's number, so git's children get it too."""
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:  # /dev/null: no file is changed by what is written there
            setattr(sys, name, os.fdopen(os.open(os.devnull, os.O_RDWR), mode, encoding="utf-8"))


def _end(code: int) -> None:
    """Flush what the command wrote and end the process with ``code``, without teardown."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return  # a closed pipe or stream: the ordinary exit reports it as before
    os._exit(code)


if __name__ == "__main__":
    run()
