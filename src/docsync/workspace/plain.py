"""docsync's state on disk as plain JSON: nothing read back can run code or blow the C stack.

Everything under ``<git dir>/docsync/`` is untrusted input: a repository
unpacked from an archive, shared over a network disk or restored from a CI
cache brings its own. So the caches and the stat index hold JSON, read with
the standard library's parser (a nesting too deep for it is a
``RecursionError``, caught, not a crash), and every value is checked for
its shape before it becomes anything else:

* a :class:`~docsync.model.Document` is one array of fixed shape whose every
  field is checked by type and range (:func:`encode_document`,
  :func:`decode_document`); spans are pairs of numbers in a flat array;
* the gates' findings are a table of strings and rows of eight numbers
  (:func:`encode_findings`);
* other results (the summaries the parse workers make) are tagged plain data
  (:func:`to_plain`, :func:`from_plain`): tuples, lists, string-keyed maps,
  frozensets and findings, at most :data:`MAX_DEPTH` deep, a map's keys
  plain scalars, so no hash of a deep value is ever taken.

A file is read only when it is a regular file (never through a symlink, a
FIFO or a device) of at most :data:`MAX_FILE` bytes. Anything that fails a
check reads as nothing, and the caller starts afresh.

This replaced pickle, whose restricted unpicklers could still be made to
build a deeply nested tuple as a dictionary key: hashing it overflowed the C
stack (a segmentation fault on every run until the file was deleted).
"""

from __future__ import annotations

import json
from itertools import chain
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import Any

from .. import model
from ..model import (
    Finding,
    Severity,
)
from . import cache_key, notes
from .state_file import read_state_file

MAX_DEPTH = 24
"""How deep :func:`from_plain` follows nested values."""
MAX_FILE = 1 << 31
"""Bytes past which a file under ``.git/docsync/`` is not one docsync wrote."""

ignored = notes.ignored
ignored_notes = notes.ignored_notes


_dumps = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), check_circular=False).encode


def dumps(value: object) -> bytes:
    """JSON bytes (ASCII: a name that is not UTF-8 keeps its escapes)."""
    return _dumps(value).encode("ascii")


def loads(data: bytes | str) -> object:
    """JSON back; ``ValueError`` for anything else (too deep included)."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("nested too deep") from None


def read_file(file: Path, limit: int = MAX_FILE, *, sealed: bool = True) -> bytes | None:
    """A state file's bytes: None when missing, not a regular file (a symlink, a FIFO,
    a device, a folder), larger than ``limit`` or unreadable; and, ``sealed``, unless its
    tag is that of the folder's cache key (:mod:`.cache_key`), which is cut off."""
    data = _read_file(file, limit + (cache_key.TAG if sealed else 0))
    if data is None or not sealed:
        return data
    secret = cache_key.key(file.parent)
    if secret is None:
        return None
    body, tag = data[: -cache_key.TAG], data[-cache_key.TAG :]
    if len(data) < cache_key.TAG or not cache_key.holds(secret, body, tag):
        unsigned(file)
        return None
    return body


def unsigned(file: Path) -> None:
    """``file`` is not signed by its folder's key: a line, unless that key was just made
    (then the key's own line says every cache is ignored)."""
    if not cache_key.fresh(file.parent):
        ignored(file, "not signed by this repository's cache key: planted or damaged")


def sealed(file: Path, data: bytes) -> bytes | None:
    """``data`` with the tag of ``file``'s folder's key; None when there is no key."""
    secret = cache_key.key(file.parent)
    return None if secret is None else data + cache_key.tag(secret, data)


def _read_file(file: Path, limit: int) -> bytes | None:
    found = read_state_file(file, limit, ignored)
    return None if found is None else found[0]


def read_json(file: Path, limit: int = MAX_FILE) -> object | None:
    """A state file's JSON; None for anything that is not (see :func:`read_file`)."""
    data = read_file(file, limit)
    if data is None:
        return None
    try:
        return loads(data)
    except ValueError:
        if not cache_key.fresh(file.parent):
            ignored(file, "not JSON docsync wrote")
        return None


def write_json(file: Path, payload: object) -> None:
    """Replace ``file`` atomically (through the guarded writer) with ``payload`` as JSON;
    a cache that cannot be written only costs speed."""
    write_sealed(file, dumps(payload))


def write_sealed(file: Path, data: bytes) -> None:
    """Replace ``file`` with ``data`` and its tag (see :func:`read_file`); a cache that
    cannot be written only costs speed."""
    from ..write.writer import write_cache

    signed = sealed(file, data)
    if signed is None:
        return
    try:
        write_cache(file, lambda handle: handle.write(signed))
    except OSError:
        return


# --------------------------------------------------------------------------- tagged plain data

_TUPLE, _LIST, _MAP, _FROZENSET, _FINDING = "t", "l", "m", "f", "F"
_KEYS = (str, int, bool, type(None))
_finding_fields = attrgetter("gate", "rule", "path", "line", "column", "message", "suggestion")


def to_plain(value: object) -> object:
    """``value`` as JSON-able data that :func:`from_plain` makes again: scalars as they are,
    a tuple, list, frozenset, map (scalar keys) or finding as a one-key object."""
    if value is None or type(value) in (str, int, bool, float):
        return value
    if type(value) is tuple:
        return {_TUPLE: [to_plain(v) for v in value]}
    if type(value) is list:
        return {_LIST: [to_plain(v) for v in value]}
    if type(value) is frozenset:
        return {_FROZENSET: [to_plain(v) for v in value]}
    if type(value) is dict:
        if not all(type(k) in _KEYS for k in value):
            raise TypeError("a map's keys must be plain scalars")
        return {_MAP: [[k, to_plain(v)] for k, v in value.items()]}
    if type(value) is Finding:
        return {_FINDING: [*_finding_fields(value), value.severity.value]}
    raise TypeError(f"not plain data: {type(value).__name__}")


def from_plain(data: object, depth: int = 0) -> object:
    """:func:`to_plain`'s data back; ``ValueError`` for anything it does not make."""
    if data is None or type(data) in (str, int, bool, float):
        return data
    if depth >= MAX_DEPTH or type(data) is not dict or len(data) != 1:
        raise ValueError("not plain data")
    ((tag, items),) = data.items()
    if type(items) is not list:
        raise ValueError("not plain data")
    if tag == _FINDING:
        return finding_of(items)
    values = [from_plain(v, depth + 1) for v in items] if tag != _MAP else []
    if tag == _TUPLE:
        return tuple(values)
    if tag == _LIST:
        return values
    if tag == _FROZENSET:
        if not all(type(v) in _KEYS for v in values):
            raise ValueError("a set of values that are not plain scalars")
        return frozenset(values)
    if tag == _MAP:
        made: dict[object, object] = {}
        for pair in items:
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) not in _KEYS:
                raise ValueError("not a map entry")
            made[pair[0]] = from_plain(pair[1], depth + 1)
        return made
    raise ValueError(f"an unknown tag {tag!r}")


_FINDING_TYPES = ((str,), (str,), (str,), (int,), (int,), (str,), (str, type(None)), (str,))
_new_finding = model.constructor(Finding)


def finding_of(row: object) -> Finding:
    """A finding from its row (gate, rule, path, line, column, message, suggestion, severity)."""
    if type(row) is not list or len(row) != len(_FINDING_TYPES):
        raise ValueError("not a finding")
    if not all(type(v) in kinds for v, kinds in zip(row, _FINDING_TYPES, strict=True)):
        raise ValueError("not a finding")
    return _new_finding(*row[:7], Severity(row[7]))


# --------------------------------------------------------------------------- findings by key

_FIELDS = 8
"""A finding's fields in a row: gate, rule, path, line, column, message, suggestion, severity."""
_STRING_FIELDS = (0, 1, 2, 5, 7)
"""The fields that are strings (indexes into the string table, never its 0: None)."""


class _Table(dict[object, int]):
    """Strings numbered as first met; 0 is None (a finding without a suggestion)."""

    def __missing__(self, value: object) -> int:
        number = self[value] = len(self)
        return number


def encode_findings(findings: dict[str, tuple[Finding, ...]]) -> bytes:
    """A gate's findings by key: each distinct string once, in a table, and each finding
    a run of eight numbers (strings by their place in it). A warm run on a hard-wrapped
    tree replays 80,000 findings that share a few hundred messages: decoded, they share
    the strings too, and the numbers are read in C."""
    table = _Table({None: 0})
    number = table.__getitem__
    rows: dict[str, list[int]] = {}
    for key, found in findings.items():
        rows[key] = list(
            chain.from_iterable(
                (number(f.gate), number(f.rule), number(f.path), f.line, f.column, number(f.message),
                 number(f.suggestion), number(f.severity.value))
                for f in found
            )
        )
    return dumps({"strings": list(table)[1:], "findings": rows})


_SEVERITIES = {s.value: s for s in Severity}


def decode_findings(data: bytes) -> dict[str, tuple[Finding, ...]] | None:
    """:func:`encode_findings`'s bytes back; None for anything else. Every number is checked
    column by column, in C: a warm run has tens of thousands of findings."""
    try:
        raw = loads(data)
    except ValueError:
        return None
    if type(raw) is not dict or raw.keys() != {"strings", "findings"}:
        return None
    strings, found = raw["strings"], raw["findings"]
    if type(strings) is not list or type(found) is not dict or not set(map(type, strings)) <= {str}:
        return None
    if not set(map(type, found.values())) <= {list} or any(len(row) % _FIELDS for row in found.values()):
        return None
    numbers = list(chain.from_iterable(found.values()))
    if not set(map(type, numbers)) <= {int}:
        return None
    table: list[object] = [None, *strings]
    if numbers and not _in_table(numbers, len(table)):
        return None
    if not all(table[i] in _SEVERITIES for i in set(numbers[7::_FIELDS])):
        return None
    severity = [_SEVERITIES.get(v) if type(v) is str else None for v in table]
    text = table.__getitem__
    make = _new_finding
    return {
        key: tuple(
            map(make, map(text, row[0::8]), map(text, row[1::8]), map(text, row[2::8]), row[3::8], row[4::8],
                map(text, row[5::8]), map(text, row[6::8]), map(severity.__getitem__, row[7::8]))
        )
        for key, row in found.items()
    }


def _in_table(numbers: list[int], size: int) -> bool:
    """Whether every string field of the rows names a string of the table (never 0, None),
    and a suggestion a string or None."""
    for field in _STRING_FIELDS:
        column = numbers[field::_FIELDS]
        if min(column) < 1 or max(column) >= size:
            return False
    suggestions = numbers[6::_FIELDS]
    return min(suggestions) >= 0 and max(suggestions) < size


def columns(rows: list[Any], kinds: tuple[tuple[type, ...], ...]) -> bool:
    """Whether every row is a list of ``len(kinds)`` values, each column of its types."""
    if not rows:
        return True
    if set(map(type, rows)) != {list} or set(map(len, rows)) != {len(kinds)}:
        return False
    return all(set(map(type, map(itemgetter(i), rows))) <= set(types) for i, types in enumerate(kinds))
