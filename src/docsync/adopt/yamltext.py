"""``.pre-commit-config.yaml`` read by ruamel.yaml's round-trip loader: the one module that
imports it. It gives what init needs to add its hook without touching any other byte:
where the ``repos:`` list is and ends, how its items are indented, and whether a docsync
hook is there already; and it checks the edited text reads as the old one plus the hook.

The edit itself stays a splice of lines: ruamel's round-trip dump keeps comments but
re-indents a file to one style, and a user's file should change by the added lines only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.error import YAMLError


class NotYaml(ValueError):
    """The text is not YAML, or not a mapping at its top."""


@dataclass(frozen=True, slots=True)
class Repos:
    """The ``repos:`` list: the line of its key, whether it is written in flow style
    (``[...]``), the line after its last item's last line, and its items' dash column
    and the gap after the dash (None without items)."""

    line: int
    flow: bool
    end: int
    dash: int | None
    gap: int | None


def _load(text: str) -> Any:
    try:
        return YAML(typ="rt").load(text)
    except YAMLError as exc:
        raise NotYaml(str(exc).splitlines()[0] if str(exc) else "not YAML") from None
    except (ValueError, TypeError, RecursionError) as exc:  # ``date: 2019-13-01`` (a KEP's kep.yaml)
        raise NotYaml(f"not YAML: {exc}") from None


def read(text: str) -> tuple[Repos | None, bool]:
    """The ``repos:`` list (None when there is no such key), and whether any hook in it is
    docsync's (an id ``docsync-check``/``docsync-fix`` or an entry running ``docsync``)."""
    data: Any = _load(text)
    if data is None:
        return None, False
    if not isinstance(data, CommentedMap):
        raise NotYaml("the top is not a mapping")
    if "repos" not in data:
        return None, False
    repos = data["repos"]
    keys = list(data)
    line = data.lc.key("repos")[0]
    following = keys[keys.index("repos") + 1 :]
    lines = text.replace("\r\n", "\n").split("\n")
    stop = data.lc.key(following[0])[0] if following else len(lines)
    end = line + 1
    for number in range(line + 1, stop):
        stripped = lines[number].strip()
        if stripped and not stripped.startswith("#"):
            end = number + 1
    written = lines[line].split(":", 1)[1].split("#", 1)[0].strip() if ":" in lines[line] else ""
    flow = written.startswith("[") or (hasattr(repos, "fa") and repos.fa.flow_style())
    dash = gap = None
    if repos and not flow and hasattr(repos[0], "lc"):
        dash = repos.lc.col
        gap = repos[0].lc.col - dash - 1
    return Repos(line, bool(flow), end, dash, gap), _has_docsync(repos)


def _has_docsync(repos: Any) -> bool:
    for repo in repos or ():
        for hook in (repo.get("hooks") or ()) if isinstance(repo, dict) else ():
            if not isinstance(hook, dict):
                continue
            entry = str(hook.get("entry", ""))
            if hook.get("id") in ("docsync-check", "docsync-fix") or entry.split()[:1] == ["docsync"]:
                return True
    return False


def appended_only(before: str | None, after: str) -> bool:
    """Whether ``after`` reads as ``before`` with one more item at the end of ``repos``.
    Raises :class:`NotYaml` for a text whose aliases expand past :data:`MAX_VALUES`."""
    old = _plain(_load(before), [MAX_VALUES]) if before else None
    new = _plain(_load(after), [MAX_VALUES])
    if not isinstance(new, dict) or not new.get("repos"):
        return False
    old = old if isinstance(old, dict) else {}
    expected = {**old, "repos": [*(old.get("repos") or []), new["repos"][-1]]}
    return bool(new == expected)


MAX_VALUES = 100_000
"""How many values a YAML text may expand to. Aliases let a few hundred bytes name a
billion values ("billion laughs"): the loader shares them, a copy would not."""


def _plain(value: Any, budget: list[int]) -> Any:
    """``value`` as plain dicts and lists, counting each value against ``budget[0]``."""
    budget[0] -= 1
    if budget[0] < 0:
        raise NotYaml(f"its aliases expand to more than {MAX_VALUES:,} values")
    if isinstance(value, dict):
        return {str(k): _plain(v, budget) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v, budget) for v in value]
    return value


def top_scalar(text: str, key: str) -> tuple[str, int] | None:
    """The text of a top-level scalar ``key`` of a YAML mapping and its 1-based line, or None
    (no such key, not a scalar, or not YAML): ``status: implementable`` of a KEP's ``kep.yaml``."""
    try:
        data: Any = _load(text)
    except NotYaml:
        return None
    if not isinstance(data, CommentedMap):
        return None
    found = next((k for k in data if isinstance(k, str) and k.lower() == key.lower()), None)
    value = data.get(found) if found is not None else None
    if value is None or isinstance(value, list | dict):
        return None
    return str(value).strip(), data.lc.key(found)[0] + 1
