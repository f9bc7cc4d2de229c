"""TOML values are written by tomlkit and ``.pre-commit-config.yaml`` is read by
ruamel.yaml's round-trip loader (issue #36, item 15). The cases are the classes the
hand-written code got wrong: a string TOML requires escaped (DEL, controls), a quoted
``"repos":`` key, and ``docsync`` written only inside a string; and generated configs in
every list style, which must change by the added lines alone."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.adopt import hooks as adopt_hooks
from docsync.adopt.config_text import toml_key, toml_value
from docsync.errors import DocsyncError
from docsync.migrate.plan.planfile import toml_string

_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20)
_SCALARS = st.one_of(_TEXT, st.integers(-(2**40), 2**40), st.booleans())
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(_TEXT, _VALUES)
def test_every_value_init_writes_reads_back_as_itself(key: str, value: Any) -> None:
    assert tomllib.loads(f"{toml_key(key)} = {toml_value(value)}\n") == {key: value}


@pytest.mark.parametrize("text", ["DEL \x7f here", "bell \x07", "esc \x1b[31m", 'quote " and \\'])
def test_strings_toml_requires_escaped(text: str) -> None:
    assert tomllib.loads(f"x = {toml_value(text)}\ny = {toml_string(text)}\n") == {"x": text, "y": text}
    assert "\x7f" not in toml_value(text)


def test_inline_tables_keep_docsyncs_layout() -> None:
    assert toml_value({"path": "docs/adr", "kind": "ADR"}) == '{ path = "docs/adr", kind = "ADR" }'
    assert toml_value(["a", 1, True]) == '["a", 1, true]'
    assert toml_key("RFC 005") == '"RFC 005"'


# --------------------------------------------------------------------------- YAML


def _hooks(text: str) -> list[dict[str, Any]]:
    return [h for repo in yaml.safe_load(text)["repos"] for h in repo["hooks"]]


@pytest.mark.parametrize("key", ['"repos"', "'repos'"])
def test_a_quoted_repos_key_gets_the_hook(key: str) -> None:
    text = f"{key}:\n- repo: local\n  hooks:\n  - id: x\n    name: x\n    entry: x\n    language: system\n"
    added = adopt_hooks.with_hook(text, "local")
    assert added is not None and added.startswith(text)
    assert [h["id"] for h in _hooks(added)] == ["x", "docsync-check"]


def test_docsync_named_only_inside_a_string_is_not_a_hook() -> None:
    text = (
        "repos:\n- repo: local\n  hooks:\n  - id: notes\n    name: notes\n    language: system\n"
        "    entry: |\n      echo\n      entry: docsync check\n      id: docsync-check\n"
    )
    added = adopt_hooks.with_hook(text, "local")
    assert added is not None
    assert [h["id"] for h in _hooks(added)] == ["notes", "docsync-check"]


def test_a_file_that_is_not_yaml_is_refused_not_appended_to() -> None:
    with pytest.raises(DocsyncError, match="cannot read it as YAML"):
        adopt_hooks.with_hook("repos:\n- repo: local\n  hooks: [\n", "local")


_HOOK = "id: {name}\n{pad}name: {name}\n{pad}entry: {name}\n{pad}language: system\n"


@st.composite
def _configs(draw: st.DrawFn) -> str:
    """A pre-commit config in one of the list styles people write, with comments, blank
    lines and keys around the list."""
    dash, gap = draw(st.sampled_from([0, 2, 4])), draw(st.sampled_from([1, 3]))
    item, key = " " * dash + "-" + " " * gap, " " * (dash + 1 + gap)
    lines = []
    if draw(st.booleans()):
        lines.append("# The team's hooks.")
    if draw(st.booleans()):
        lines.append("default_language_version:\n  python: python3")
    lines.append("repos:" + draw(st.sampled_from(["", "  # the list"])))
    for number in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            lines.append(key + "# a comment")
        lines.append(f"{item}repo: local\n{key}hooks:")
        pad = key + "  " + " " * (1 + gap)
        lines.append(f"{key}  -{' ' * gap}" + _HOOK.format(name=f"h{number}", pad=pad).rstrip("\n"))
        if draw(st.booleans()):
            lines.append("")
    if draw(st.booleans()):
        lines.append("# The next key is not a repo.\nfail_fast: true")
    text = "\n".join(lines) + "\n"
    return text.replace("\n", "\r\n") if draw(st.booleans()) else text


@settings(max_examples=150, deadline=None)
@given(_configs())
def test_the_hook_is_added_and_nothing_else_changes(text: str) -> None:
    added = adopt_hooks.with_hook(text, "local")
    assert added is not None
    before, after = yaml.safe_load(text), yaml.safe_load(added)
    assert after == {**before, "repos": [*before["repos"], after["repos"][-1]]}
    assert after["repos"][-1]["hooks"][0]["id"] == "docsync-check"
    newline = "\r\n" if "\r\n" in text else "\n"
    old, new = text.split(newline), added.split(newline)
    inserted = len(new) - len(old)
    start = next(i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b)
    assert new[:start] + new[start + inserted :] == old
    assert adopt_hooks.with_hook(added, "local") is None
