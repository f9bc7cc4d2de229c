"""The exceptions the core raises for user, config and environment errors.

The CLI maps every :class:`DocsyncError` to exit code 2 with a one-line
message on stderr, in one place; anything else is a bug and keeps its
traceback.
"""

from __future__ import annotations


class DocsyncError(Exception):
    """An error the user can fix: bad config, not a git repository, bad plan."""

    exit_code = 2


class ConfigError(DocsyncError):
    pass


class GitError(DocsyncError):
    pass


class PlanError(DocsyncError):
    pass
