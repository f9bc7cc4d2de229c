"""Parse workers forked with every batch made give what the one-process parse gives.

Held to the plain forms they replace: :func:`forked.run` reports each batch's
work once (and nothing of a worker that died), the parse in forked workers
gives each file's document and problem as parsing it here does, and a batch no
worker reported is parsed here, as if there were no workers.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.config import Config
from docsync.model import Document, Finding
from docsync.workspace import files, forked, parsing
from docsync.workspace.cache import ParseCache
from docsync.workspace.documents import unpickled
from docsync.workspace.load import load_workspace
from docsync.workspace.stat_index import MARKER
from tests.gitutil import GitRepo

_batches = st.lists(
    st.lists(st.tuples(st.text(max_size=4), st.binary(max_size=6)), min_size=1, max_size=3), max_size=7
)


def _sizes(batch: forked.Batch) -> list[int]:
    return [len(data) for _, data in batch]


@settings(max_examples=15, deadline=None)
@given(_batches, st.integers(1, 3))
def test_each_batch_is_reported_once_with_its_work(batches: list[forked.Batch], workers: int) -> None:
    heard: list[int] = []
    reported = list(forked.run(batches, workers, _sizes, lambda: heard.append(1)))
    assert sorted(index for index, _ in reported) == list(range(len(batches)))
    assert all(made == _sizes(batches[index]) for index, made in reported)
    assert heard == [1]


def _dies_on_a_b(batch: forked.Batch) -> list[int]:
    if any(path == "b" for path, _ in batch):
        os._exit(3)
    return _sizes(batch)


def _raises_on_a_c(batch: forked.Batch) -> list[int]:
    if any(path == "c" for path, _ in batch):
        raise RuntimeError("c")
    return _sizes(batch)


@pytest.mark.parametrize("work", [_dies_on_a_b, _raises_on_a_c])
def test_a_batch_whose_worker_ended_is_not_reported(work: forked.Batch) -> None:
    batches = [[("a", b"1")], [("b", b"22")], [("c", b"333")], [("d", b"4444")], [("e", b"")]]
    reported = dict(forked.run(batches, 2, work, lambda: None))  # type: ignore[arg-type]
    failing = 1 if work is _dies_on_a_b else 2
    assert failing not in reported
    assert reported == {k: _sizes(b) for k, b in enumerate(batches) if k != failing}


_ODD_FILES = {
    "docs/nul.md": b"# A\0B\n",
    "docs/latin1.md": "# caf\xe9\n".encode("latin-1"),
    "docs/crlf.md": b"# Head\r\n\r\nSee [x](y.md).\r\n",
    "docs/bom.md": "\ufeff# Bom [z](#bom)\n".encode(),
    "docs/empty.md": b"",
}


def _repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo.init(tmp_path / "repo")
    for n in range(120):
        body = "".join(f"\nParagraph {k}: [next](page{n + 1}.md#p-{k}) `code {k}`.\n" for k in range(n % 9))
        repo.write(f"docs/page{n}.md", f"# Page {n}\n\n<a name='p-{n}'></a>\n{body}")
    for path, data in _ODD_FILES.items():
        (repo.root / path).write_bytes(data)
    repo.commit("pages")
    return repo


def test_forked_workers_parse_as_one_process_does(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    assert forked.can_fork()  # so jobs = 2 parses in forked workers
    one = load_workspace(repo.root, config=Config(jobs=1, cache=False))
    two = load_workspace(repo.root, config=Config(jobs=2, cache=False), eager=True)
    assert len(one.documents) == 124  # the NUL file is a problem; latin-1 is a problem and a document
    assert dict(two.documents) == dict(one.documents)
    assert two.problems == one.problems and len(one.problems) == 2


def _pending(repo: GitRepo) -> list[str]:
    files = [f"docs/{p}" for p in os.listdir(repo.root / "docs")]
    return sorted(files, key=lambda path: -(repo.root / path).stat().st_size)


def _fails_on_page7(document: Document) -> int:
    if document.path == "docs/page7.md":
        raise RuntimeError("a summarizer that fails")
    return len(document.links)


def _expected(repo: GitRepo, path: str) -> tuple[str, str, bool, Document | None, object]:
    data = (repo.root / path).read_bytes()
    parsed = parsing.parse_one(path, data)
    return path, ParseCache.key(path, data), MARKER in data, parsed.document, parsed.problem


def test_a_batch_no_worker_reported_is_parsed_here(tmp_path: Path) -> None:
    """Its files come back as documents parsed here, without summaries; the rest as the workers' pickles."""
    repo = _repo(tmp_path)
    pending = _pending(repo)
    reader = parsing.Reader(str(repo.root), 1 << 21)
    results = list(parsing.parse_pending(pending, reader, Config(jobs=2), _fails_on_page7))
    assert sorted(path for path, *_ in results) == sorted(pending)
    here = {path for path, _, _, made, _, _ in results if isinstance(made, Document)}
    assert "docs/page7.md" in here and 0 < len(here) <= 32
    for path, key, marker, made, problem, summary in results:
        document = made if isinstance(made, Document) or made is None else unpickled(path, made)
        assert (path, key, marker, document, problem) == _expected(repo, path)
        assert summary == (None if path in here or document is None else len(document.links))


def test_without_a_memory_file_every_file_is_parsed_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path)
    pending = _pending(repo)
    heard: list[int] = []
    batch = [(path, b"") for path in pending[:2]]
    assert list(forked.run([batch], 2, _sizes, lambda: heard.append(1))) == [(0, _sizes(batch))]

    def refused(name: str, flags: int = 0) -> int:
        raise OSError(24, "Too many open files")  # what the system says when none can be made

    monkeypatch.setattr(os, "memfd_create", refused)
    assert list(forked.run([batch], 2, _sizes, lambda: heard.append(1))) == []  # and no error
    assert heard == [1, 1]
    results = list(parsing.parse_pending(pending, parsing.Reader(str(repo.root), 1 << 21), Config(jobs=2), None))
    expected = [(*_expected(repo, path), None) for path in pending]
    assert sorted(results, key=lambda r: r[0]) == sorted(expected, key=lambda r: r[0])


def test_a_file_the_cache_holds_is_read_and_not_parsed(tmp_path: Path) -> None:
    """The worker sends its key and marker, no document and no problem; a file gone
    before it was read is its F004; any other is parsed."""
    repo = _repo(tmp_path)
    pending = _pending(repo)
    held = {_expected(repo, path)[1] for path in pending[::3]}
    (repo.root / pending[1]).unlink()
    results = list(parsing.parse_pending(pending, parsing.Reader(str(repo.root), 1 << 21, frozenset(held)), Config(jobs=2), None))
    assert sorted(path for path, *_ in results) == sorted(pending)
    for path, key, marker, made, problem, _ in results:
        if path == pending[1]:
            assert (key, made) == (None, None) and problem is not None and problem.rule == "F004"
        elif key in held:
            assert (made, problem) == (None, None) and (path, key, marker) == _expected(repo, path)[:3]
        else:
            assert made is not None or problem is not None


def test_the_workers_read_their_own_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The main process stats the files and never reads one a worker parses: it does not
    hold the tree's bytes (its peak memory), and the results are a one-process parse's."""
    repo = _repo(tmp_path)
    readers = tmp_path / "readers"
    read = files.bytes_of

    def noted(root: str | Path, path: str, cap: int) -> bytes | Finding:
        with open(readers, "a") as out:
            out.write(f"{os.getpid()}\n")
        return read(root, path, cap)

    monkeypatch.setattr(files, "bytes_of", noted)
    monkeypatch.setattr(parsing, "bytes_of", noted)
    one = load_workspace(repo.root, config=Config(jobs=1, cache=False))
    here = set(readers.read_text().split())
    readers.unlink()
    two = load_workspace(repo.root, config=Config(jobs=2), eager=True)
    pids = readers.read_text().split()
    assert here == {str(os.getpid())} and len(pids) == 125 and str(os.getpid()) not in pids
    assert dict(two.documents) == dict(one.documents) and two.problems == one.problems
