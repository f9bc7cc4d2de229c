"""The pre-commit hook and the GitHub Actions workflow ``docsync init --hooks`` writes.

``.pre-commit-config.yaml`` is read by ruamel.yaml's round-trip loader
(:mod:`.yamltext`) and edited as text, never dumped: the docsync entry is
appended to the end of the ``repos:`` list in the list's own indentation
style, so every other hook, comment and blank line stays as it was, and the
result is read again to check it is the old file plus the hook. A file that
already runs a docsync hook is left alone.

The hook comes in three forms. By default (``--hook-repo package``) it is a
``repo: local`` hook with ``language: python`` whose
``additional_dependencies`` name the published distribution at the version
running, which pre-commit installs from the package index into its own
environment: no hooks repository or tag has to exist. ``--hook-repo local``
writes a ``language: system`` hook instead, which runs the ``docsync`` already
installed (for repositories that pin docsync among their own dependencies).
Any other value is used as a hooks repository URL at ``rev: v<version>``.

Every form runs ``docsync check --staged`` with ``pass_filenames: false`` and
``always_run: true``: a commit that only renames or deletes a file must still
run the hook, and the files that link into it must be checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import DISTRIBUTION, __version__
from ..errors import DocsyncError

PRE_COMMIT_CONFIG = ".pre-commit-config.yaml"
WORKFLOW = ".github/workflows/docsync.yml"
PACKAGE = "package"
LOCAL = "local"
DEFAULT_HOOK_REPO = PACKAGE
REQUIREMENT = f"{DISTRIBUTION}=={__version__}"
HOOK_ENTRY = "docsync check --staged"

_COMMENT = "docsync: links, wrapping and the record tree (added by docsync init)"


@dataclass(frozen=True, slots=True)
class _Style:
    """How the ``repos:`` list writes its items: ``<indent>-<gap>repo: …``."""

    indent: str = "  "
    gap: str = " "

    @property
    def key(self) -> str:
        """The indentation of an item's keys (they line up after the dash)."""
        return self.indent + " " * (1 + len(self.gap))


def hook_entry(repo: str, style: _Style = _Style()) -> list[str]:
    """The lines of the docsync item of ``repos:``."""
    item, key = f"{style.indent}-{style.gap}", style.key
    hook = f"{key}  -{style.gap}"
    inner = key + "  " + " " * (1 + len(style.gap))
    lines = [f"{style.indent}# {_COMMENT}"]
    if repo not in (LOCAL, PACKAGE):
        return [
            *lines,
            f"{item}repo: {repo}",
            f"{key}rev: v{__version__}",
            f"{key}hooks:",
            f"{hook}id: docsync-check",
        ]
    language = ["language: system"]
    if repo == PACKAGE:
        language = ["language: python", f'additional_dependencies: ["{REQUIREMENT}"]']
    return [
        *lines,
        f"{item}repo: local",
        f"{key}hooks:",
        f"{hook}id: docsync-check",
        f"{inner}name: docsync check",
        f"{inner}entry: {HOOK_ENTRY}",
        *(f"{inner}{line}" for line in language),
        f"{inner}pass_filenames: false",
        f"{inner}always_run: true",
        f"{inner}require_serial: true",
    ]


def has_docsync_hook(text: str) -> bool:
    from . import yamltext  # ruamel.yaml, for init only: the command line imports this module

    try:
        return yamltext.read(text)[1]
    except yamltext.NotYaml:
        return False


def with_hook(text: str | None, repo: str) -> str | None:
    """``.pre-commit-config.yaml`` with the docsync hook added; None when it has one already.

    The file is read by ruamel.yaml (:mod:`.yamltext`): the hook's lines go after the last
    line of the ``repos:`` list, in its items' indentation, and nothing else changes.
    Raises :class:`DocsyncError` for a file that is not YAML, and for a ``repos:`` list
    written in flow style (``repos: [...]``), which cannot be appended to line by line.
    """
    if text is None or not text.strip():
        return "repos:\n" + "\n".join(hook_entry(repo)) + "\n"
    from . import yamltext  # ruamel.yaml, for init only: the command line imports this module

    try:
        repos, has_docsync = yamltext.read(text)
    except yamltext.NotYaml as exc:
        raise DocsyncError(f"{PRE_COMMIT_CONFIG}: cannot read it as YAML ({exc}); add the docsync hook by hand") from None
    if has_docsync:
        return None
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if repos is None:
        lines += ["repos:", *hook_entry(repo)]
    elif repos.flow and not _empty_flow(lines[repos.line]):
        raise DocsyncError(
            f"{PRE_COMMIT_CONFIG}: 'repos:' is written in flow style; add the docsync hook by hand"
        )
    else:
        if repos.flow:  # repos: []
            lines[repos.line] = lines[repos.line].replace("[]", "", 1).rstrip()
        style = _Style() if repos.dash is None or repos.gap is None else _Style(" " * repos.dash, " " * repos.gap)
        lines[repos.end : repos.end] = hook_entry(repo, style)
    result = newline.join(lines) + newline
    try:
        appended = yamltext.appended_only(text, result)
    except yamltext.NotYaml as exc:
        raise DocsyncError(f"{PRE_COMMIT_CONFIG}: cannot read it as YAML ({exc}); add the docsync hook by hand") from None
    if not appended:
        raise DocsyncError(f"{PRE_COMMIT_CONFIG}: cannot add the docsync hook without changing the rest; add it by hand")
    return result


def _empty_flow(line: str) -> bool:
    return line.split("#", 1)[0].replace(" ", "").replace("\t", "") == "repos:[]"


CHECKOUT = "actions/checkout@v6"
CACHE = "actions/cache@v5"
SETUP_PYTHON = "actions/setup-python@v6"
"""The current major versions (node 24) of the actions the workflow uses."""


def workflow(branch: str = "main") -> str:
    """The GitHub Actions workflow: read-only, a shallow checkout (a check reads the work
    tree, not history), the cache, docsync, the gates as annotations. It runs on pushes
    to ``branch`` and on pull requests, so a pull request's branch runs once."""
    return f"""# Runs docsync's gates on pull requests and on pushes to {branch} (written by docsync init).
name: docsync
on:
  push:
    branches: [{_yaml_string(branch)}]
  pull_request:
permissions:
  contents: read
jobs:
  docsync:
    runs-on: ubuntu-latest
    steps:
      # A check reads the work tree: one commit is enough. docsync migrate and
      # check --changed need history (fetch-depth: 0) where you run them.
      - uses: {CHECKOUT}
        with:
          persist-credentials: false
      # docsync's cache is keyed by content and config, so any restored one is safe
      - uses: {CACHE}
        with:
          path: .git/docsync
          key: docsync-{__version__}-${{{{ runner.os }}}}-${{{{ github.sha }}}}
          restore-keys: docsync-{__version__}-${{{{ runner.os }}}}-
      - uses: {SETUP_PYTHON}
        with:
          python-version: "3.12"
      - run: pip install "{REQUIREMENT}"
      - run: docsync check --format github
"""


def _yaml_string(value: str) -> str:
    """A branch name as a YAML flow scalar: plain when YAML reads it back as that string."""
    plain = re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/-]*", value) and not re.fullmatch(r"[0-9._-]+", value)
    if plain and value.lower() not in (
        "true", "false", "yes", "no", "on", "off", "null", "y", "n",
    ):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
