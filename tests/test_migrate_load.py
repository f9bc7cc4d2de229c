"""The dry run's load takes shortcuts that give exactly what the work they replace gives.

Each is held to the plain form it replaces: a workspace whose documents are
unpickled as the parse workers send them (``eager``) to one that unpickles
them when read, the cited ids read off a match's groups to parsing each
match again, the hashes read through strings to the ones read through
``Path`` (and those the dating child reads to those read here), a remembered record name to the name read again, and the
model's unpickler with its found-classes table to refusing what it refused.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.config import Config
from docsync.config import load as load_config
from docsync.migrate import run
from docsync.migrate.plan.suggest import cited_ids
from docsync.migrate.read import dating, names
from docsync.parse.native import parse
from docsync.records.model import ID_PATTERN, parse_id
from docsync.workspace import document_json
from docsync.workspace.load import load_workspace
from tests.gitutil import GitRepo
from tests.planted import RunsACommand

# --------------------------------------------------------------------------- eager documents


def _tree(repo: GitRepo, count: int) -> None:
    """Enough files that the parse runs in worker processes (64 from the start)."""
    for n in range(1, count + 1):
        body = "".join(f"\nParagraph {k} cites ADR {k} and [the next](000{n + 1}-x.md).\n" for k in range(n % 7))
        repo.write(f"docs/adr/{n:04d}-record-{n}.md", f"# Record {n}\n\nStatus: Accepted\n{body}")
    repo.commit("records")


@pytest.mark.parametrize("jobs", [1, 2])
def test_eager_documents_are_the_documents_read_later(tmp_path: Path, jobs: int) -> None:
    """Cold, each way; then warm (the cache's entries stay packed either way)."""
    repo = GitRepo.init(tmp_path / "repo")
    _tree(repo, 150)
    config = Config(jobs=jobs)
    lazy = dict(load_workspace(repo.root, config=config).documents)
    for cache in (repo.root / ".git" / "docsync").glob("*"):
        cache.unlink()
    cold = load_workspace(repo.root, config=config, eager=True).documents
    warm = load_workspace(repo.root, config=config, eager=True).documents
    assert len(lazy) == 150
    assert list(cold) == list(warm) == list(lazy)
    assert dict(cold) == dict(warm) == lazy
    assert all(cold[p] == parse(p, (repo.root / p).read_text()) for p in list(lazy)[:5])


def test_eager_documents_are_unpickled_as_they_come(tmp_path: Path) -> None:
    """The shortcut is taken: nothing of a cold eager load is left packed."""
    repo = GitRepo.init(tmp_path / "repo")
    _tree(repo, 150)
    documents = load_workspace(repo.root, config=Config(jobs=2), eager=True).documents
    assert documents._packed == {}  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- cited ids

_WORDS = ["ADR", "RFC", "adr", "Rfc", "EIP", "X", "ADRS", "RFCS", "Abcdefghijk", "part", "pt", "pt."]
_SEPARATORS = ["", " ", "-", "  ", "\n", "_", ".", ":", "(", ")", "#"]
_cited_text = st.lists(
    st.one_of(
        st.sampled_from(_WORDS),
        st.sampled_from(_SEPARATORS),
        st.integers(0, 1_000_000).map(str),
        st.sampled_from(["0007", "00001", "123456", "é", "ß", "ADR0001", "RFC-012 part 3", "RFC 5 pt.2"]),
    ),
    max_size=40,
).map("".join)


def _cited_by_parsing(text: str) -> frozenset[tuple[str, int, int | None]]:
    """What suggesting read before: each match parsed again, as a whole record."""
    ids = (parse_id(m.group(0)) for m in ID_PATTERN.finditer(text))
    return frozenset(i.whole().key() for i in ids if i is not None)


@settings(max_examples=600, deadline=None)
@given(_cited_text)
def test_cited_ids_are_the_parsed_matches(text: str) -> None:
    assert cited_ids(text) == _cited_by_parsing(text)


def test_cited_ids_cases() -> None:
    text = "ADR 0007, adr-7, RFC-012 part 3, RFC12, Abcdefghijk 5, EIP-1559 and ADR0001x."
    assert cited_ids(text) == _cited_by_parsing(text)
    assert cited_ids(text) == {("ADR", 7, None), ("RFC", 12, None), ("EIP", 1559, None)}


# --------------------------------------------------------------------------- names and hashes


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["0001", "adr", "-", "_", " ", "x", "2020-01-02", "template", ".md", "é"]), max_size=8))
def test_a_remembered_record_name_is_the_name_read_again(pieces: list[str]) -> None:
    name = "".join(pieces)
    assert names.record_name(name) == names.record_name.__wrapped__(name)


def test_hashes_are_the_files_sha256(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    files = {"docs/a.md": b"# A\r\n", "docs/b.md": "\ufeff# B é\n".encode(), "c.md": b""}
    for path, data in files.items():
        (tmp_path / path).write_bytes(data)
    expected = {p: "sha256:" + hashlib.sha256((tmp_path / p).read_bytes()).hexdigest() for p in files}
    assert {p: dating.source_hash(str(tmp_path), p) for p in files} == expected
    with pytest.raises(FileNotFoundError):
        dating.source_hash(str(tmp_path), "missing.md")


@pytest.mark.parametrize("jobs", [1, 2])  # read here (no child), read by the child
def test_hashes_the_dating_child_reads_are_the_hashes_read_here(migration_repo: GitRepo, jobs: int) -> None:
    for n in (1, 2, 3):
        migration_repo.write(f"docs/adr/{n:04d}-record-{n}.md", f"# Record {n}\n\nStatus: Accepted\n")
    migration_repo.commit("records")
    (migration_repo.root / "docs/adr/0003-record-3.md").unlink()  # tracked, gone: the child cannot read it
    config = replace(run.configured(load_config(migration_repo.root), run.Options()), jobs=jobs)
    base = str(migration_repo.root)
    asked = ["docs/adr/0001-record-1.md", "README.md", "docs/adr/0002-record-2.md"]  # README: no record
    with dating.EarlyDates(migration_repo.root, config, None) as early:
        assert early.forked == (jobs == 2)
        assert early.hashes(asked) == {p: dating.source_hash(base, p) for p in asked}
        with pytest.raises(FileNotFoundError):  # read here, which says why it cannot be
            early.hashes(["docs/adr/0003-record-3.md"])


# --------------------------------------------------------------------------- the unpickler


def test_a_document_round_trips_and_a_pickle_is_not_a_document(tmp_path: Path) -> None:
    doc = parse("docs/a.md", "# A\n\n[b](b.md) and ADR 0001.\n")
    marker = tmp_path / "ran"
    assert document_json.decode_document(document_json.encode_document(doc)) == doc
    assert document_json.decode_document(pickle.dumps(RunsACommand(marker))) is None
    assert not marker.exists()
