"""Every test runs git, in-process (GitPython) or as a subprocess, isolated from the machine.

Inherited ``GIT_*`` variables (set when the suite runs inside a git hook) and
the user's and system's git config would otherwise leak into the
repositories the tests build; see :mod:`tests.gitutil`.
"""

from __future__ import annotations

import pytest

from tests.gitutil import isolate_git_environ


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git_environ(monkeypatch)
