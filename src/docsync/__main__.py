"""``python -m docsync`` and the ``docsync`` command.

Ctrl-C while the modules are still being imported (start-up is most of a
short run) ends with one line and exit code 130, not a traceback.
"""

import sys


def run() -> None:
    try:
        from docsync.cli import main
    except KeyboardInterrupt:
        sys.stderr.write("docsync: stopped by Ctrl-C while starting; nothing was changed\n")
        raise SystemExit(130) from None
    main()


if __name__ == "__main__":
    run()
