"""A links-only check keeps its summaries in the parse cache, in place of the documents.

When every per-file summarizer of a run says what besides the document its
result depends on (:class:`docsync.workspace.summaries.Kept`), the parse
workers pickle no document: the cache keeps each file's link summary and
suppressions, keyed by its content and that context. These tests prove that
such a run reports exactly what a run parsed in the main process without any
cache reports, cold and warm, in every output format; that a kept summary is
read only under the context it was made in; that a corrupt or foreign entry
is parsed again rather than believed; and that a later command needing the
documents parses them.
"""

from __future__ import annotations

import pickle
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from docsync.check.check import CheckResult, run_check
from docsync.config import Config
from docsync.config import load as load_config
from docsync.parse import native
from docsync.workspace import cache, parsing, plain
from docsync.workspace import documents as documents_module
from docsync.workspace.load import load_workspace
from tests import forked
from tests.gitutil import git
from tests.planted import RunsACommand
from tests.test_links_two_phase import _bench
from tests.test_worker_gates import SUPPRESSED

FORMATS = ["text", "concise", "json", "json-lines", "github", "gitlab", "sarif", "junit"]


@pytest.fixture
def parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two parse workers however few the files are."""
    monkeypatch.setattr(parsing, "_workers", lambda config, pending: 2)


def _corpus(root: Path, files: int = 90) -> Path:
    root.mkdir(parents=True)
    _bench().generate(root, files, 12, 5)  # commits
    case = "# Case\n\n## Mixed Case\n\n[here](#Mixed-Case) and [there](../quiet/file.md#File)\n"
    for path, text in {**SUPPRESSED, "cased/case.md": case}.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "suppressions")
    return root


def _cache_dir(repo: Path) -> Path:
    return repo / ".git" / "docsync"


def _links(repo: Path, config: Config | None = None) -> CheckResult:
    return run_check(repo, gates=["links"], config=config, report_unused=True)


def _reference(repo: Path, monkeypatch: pytest.MonkeyPatch) -> CheckResult:
    """Parsed in the main process (no summaries), no cache read or written."""
    with monkeypatch.context() as here:
        here.setattr(parsing, "_workers", lambda config, pending: 1)
        return _links(repo, replace(load_config(repo), cache=False))


def _same(a: CheckResult, b: CheckResult) -> None:
    assert a.findings == b.findings
    assert (a.silenced, a.files, a.gates) == (b.silenced, b.files, b.gates)


def _entries(repo: Path) -> dict[str, cache.Blob]:
    found = cache.indexed.read(cache.cache_file(repo / ".git"), cache._MAGIC)
    assert found is not None
    return dict(found[1])


def _kept_keys(repo: Path) -> list[str]:
    return [key for key in _entries(repo) if "/summaries/" in key]


def _unpickled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    read: list[str] = []
    real = documents_module._unpickled

    def counting(path: str, blob: cache.Blob, source: object, key: str | None) -> object:
        read.append(path)
        return real(path, blob, source, key)  # type: ignore[arg-type]

    monkeypatch.setattr(documents_module, "_unpickled", counting)
    return read


def test_a_links_only_check_keeps_summaries_and_reports_the_same(
    tmp_path: Path, parallel: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _corpus(tmp_path / "corpus")
    expected = _reference(repo, monkeypatch)
    assert expected.findings and expected.silenced
    assert {f.rule for f in expected.findings} >= {"L001", "L006", "S001"}
    cold = _links(repo)
    _same(cold, expected)
    entries = _entries(repo)
    assert entries and all("/summaries/" in key for key in entries)  # no document pickled
    read = _unpickled(monkeypatch)
    _same(_links(repo), expected)  # warm: the result cache
    (_cache_dir(repo) / "links-results").unlink()
    (_cache_dir(repo) / "anchors.json").unlink()
    _same(_links(repo), expected)  # from the kept summaries alone
    assert read == []  # and no document was read to do it


def _cli(repo: Path, form: str) -> str:
    """A real ``docsync`` process, forked from one that has imported docsync (32 runs)."""
    done = forked.docsync(repo, "check", "--gate", "links", "--format", form)
    assert done.returncode == 1, done.stderr
    return done.stdout


def test_every_output_format_is_the_same_cold_warm_and_without_summaries(tmp_path: Path) -> None:
    """Byte for byte, through the command line: 90 files are enough for the parse
    workers. ``jobs = 1`` parses in the main process, where no summary is made."""
    repo = _corpus(tmp_path / "corpus")
    by_workers: dict[str, list[str]] = {}
    for form in FORMATS:
        shutil.rmtree(_cache_dir(repo), ignore_errors=True)
        by_workers[form] = [_cli(repo, form), _cli(repo, form)]
        (_cache_dir(repo) / "links-results").unlink()
        by_workers[form].append(_cli(repo, form))
    assert _kept_keys(repo)
    (repo / ".docsync.toml").write_text("jobs = 1\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one process")
    for form in FORMATS:
        shutil.rmtree(_cache_dir(repo), ignore_errors=True)
        alone = _cli(repo, form)
        assert by_workers[form] == [alone, alone, alone], form
    assert not _kept_keys(repo)


def test_kept_summaries_are_not_read_under_another_listing_or_config(
    tmp_path: Path, parallel: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link summary depends on what git lists and on the config: a change to either
    makes every kept summary unread (the files are parsed again)."""
    repo = _corpus(tmp_path / "corpus")
    cold = _links(repo)
    missing = next(f for f in cold.findings if f.rule == "L001")
    target = (repo / missing.path).parent / missing.message.split("'")[1]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("# Now here\n", encoding="utf-8")  # untracked: L002, not L001
    (_cache_dir(repo) / "links-results").unlink()
    untracked = _links(repo)
    assert untracked.findings != cold.findings
    assert any(f.rule == "L002" and (f.path, f.line) == (missing.path, missing.line) for f in untracked.findings)
    _same(untracked, _reference(repo, monkeypatch))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the target")
    (_cache_dir(repo) / "links-results").unlink()
    _same(_links(repo), _reference(repo, monkeypatch))
    strict = replace(load_config(repo), strict_fragments=True)
    (_cache_dir(repo) / "links-results").unlink()
    reference = _links(repo, replace(strict, cache=False))
    _same(_links(repo, strict), reference)
    assert any(f.rule == "L007" for f in reference.findings)


def _planted(kind: str, marker: Path) -> bytes:
    if kind == "garbage":
        return b"\x80\x05not JSON at all"
    if kind == "command":  # what a pickle that runs a command was: not JSON either
        return pickle.dumps({"links": RunsACommand(marker)})
    if kind == "shape":
        return _packed({"links": ("x.md", ("not a finding",), {})})
    if kind == "pending":  # a pending check whose line is not a number
        return _packed({"links": ("x.md", (("x", "1", 1, "y.md", "z"),), {})})
    if kind == "anchors":
        return _packed({"links": ("x.md", (), {"a": 1})})
    if kind == "suppressions":
        return _packed({"suppressions": ((("disable-file", (), "one", 1),), ())})
    if kind == "deep":
        return _laid_out({"links": b'{"t":[' * 100_000 + b"]}" * 100_000})
    if kind == "lengths":  # the members' lengths are not the bytes that follow
        return _packed({"links": ("x.md", (), {})})[:-1]
    if kind == "old-layout":  # one JSON map of every member, as before the lengths
        return plain.dumps(plain.to_plain({"links": ("x.md", (), {})}))
    return _packed({"another-gate": 1})


def _packed(value: dict[str, object]) -> bytes:
    return _laid_out({name: plain.dumps(plain.to_plain(member)) for name, member in value.items()})


def _laid_out(parts: dict[str, bytes]) -> bytes:
    """Members as :meth:`~docsync.workspace.summaries.Combined.pack` lays them out."""
    return plain.dumps({name: len(part) for name, part in parts.items()}) + b"\n" + b"".join(parts.values())


@pytest.mark.parametrize(
    "kind",
    ["garbage", "command", "shape", "pending", "anchors", "suppressions", "deep", "lengths", "old-layout", "foreign-name"],
)
def test_a_corrupt_or_foreign_kept_entry_is_parsed_again(
    tmp_path: Path, parallel: None, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    repo = _corpus(tmp_path / "corpus", files=70)
    expected = _reference(repo, monkeypatch)
    _links(repo)
    store = cache.open_cache(repo / ".git")
    marker = tmp_path / "pwned"
    kept = _kept_keys(repo)
    assert kept
    for key in kept:
        store.put_blob(key, _planted(kind, marker))
    store.save()
    (_cache_dir(repo) / "links-results").unlink()
    _same(_links(repo), expected)
    assert not marker.exists()


def test_a_command_that_needs_the_documents_parses_them(
    tmp_path: Path, parallel: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a links-only check kept no document: the documents, read, are the parse's,
    and a check of every gate reports what it reports without a cache."""
    repo = _corpus(tmp_path / "corpus", files=70)
    _links(repo)
    documents = load_workspace(repo).documents
    for path in list(documents)[:20]:
        assert documents[path] == native.parse_bytes(path, (repo / path).read_bytes())
    every = run_check(repo, report_unused=True)
    uncached = run_check(repo, config=replace(load_config(repo), cache=False), report_unused=True)
    _same(every, uncached)
    assert {"links", "wrap"} <= set(every.gates)


def _hard_wrapped(repo: Path, files: int = 24) -> None:
    """Files whose prose is wrapped at 60 columns: W001 under ``"none"``, and enough of
    them for the convention hint of a check without config."""
    line = "word " * 11 + "word"
    for k in range(files):
        broken = f"[a broken link](missing-{k}.md) and [a fragment](#wrapped-{k})"
        text = f"# Wrapped {k}\n\n" + "\n".join([line] * 3) + f"\n\n{broken}.\n"
        (repo / "wrapped" / f"w{k}.md").parent.mkdir(parents=True, exist_ok=True)
        (repo / "wrapped" / f"w{k}.md").write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "hard-wrapped")


def _links_and_wrap(repo: Path, config: Config | None = None) -> CheckResult:
    return run_check(repo, gates=["links", "wrap"], config=config, report_unused=True)


@pytest.mark.parametrize("configured", [False, True])
def test_a_links_and_wrap_check_keeps_summaries_with_and_without_config(
    tmp_path: Path, parallel: None, monkeypatch: pytest.MonkeyPatch, configured: bool
) -> None:
    """The wrap gate's rows and the convention hint's counts are kept too: such a check
    keeps no document, reports what a run without workers or cache reports (the hint
    included), and a kept entry that is not what the summarizer packs is parsed again."""
    repo = tmp_path / "wrapped"
    repo.mkdir()
    git(repo, "init", "-q")
    _hard_wrapped(repo)
    config = replace(load_config(repo), origin="test.toml") if configured else None
    with monkeypatch.context() as here:
        here.setattr(parsing, "_workers", lambda config, pending: 1)
        expected = _links_and_wrap(repo, replace(config or load_config(repo), cache=False))
    assert (expected.hint is None) == configured
    assert configured == any(f.rule == "W001" for f in expected.findings)
    assert any(f.rule == "L001" for f in expected.findings)

    def same(result: CheckResult) -> None:
        _same(result, expected)
        assert result.hint == expected.hint

    same(_links_and_wrap(repo, config))
    assert all("/summaries/" in key for key in _entries(repo))  # no document kept
    same(_links_and_wrap(repo, config))  # warm
    store = cache.open_cache(repo / ".git")
    for key in _kept_keys(repo):
        planted = {"wrap": (("W001", "x", 1, 1),), "wrap-hint": ((1, 2), "exact")}
        store.put_blob(key, _packed(planted))
    store.save()
    for results in ("links-results", "wrap-results"):
        (_cache_dir(repo) / results).unlink(missing_ok=True)
    same(_links_and_wrap(repo, config))


class _Member:
    """A kept summarizer that counts what it unpacks."""

    def __init__(self, name: str, unpacked: list[str]) -> None:
        self.context = name
        self._name = name
        self._unpacked = unpacked

    def __call__(self, doc: object) -> object:
        return (self._name, 1)

    def pack(self, result: object) -> object:
        return result

    def unpack(self, data: object) -> object | None:
        self._unpacked.append(self._name)
        return data if type(data) is tuple and data[:1] == (self._name,) else None


def test_kept_summaries_unpack_each_member_only_when_it_is_read() -> None:
    """A warm run's suppressions and convention hint read one member of each file's
    summaries: the others (the wrap gate's rows) are neither parsed nor made. A member
    whose bytes are spoilt reads as absent (its gate reads the document) and the others
    still serve; bytes not laid out as members read as no summaries at all."""
    from docsync.workspace.summaries import Combined

    unpacked: list[str] = []
    combined = Combined({name: _Member(name, unpacked) for name in ("wrap", "hint", "links")})
    blob = combined.pack(combined(object()))  # type: ignore[arg-type]
    summary = combined.unpack(blob)
    assert summary is not None and not unpacked
    assert summary.get("hint") == ("hint", 1) and unpacked == ["hint"]
    assert summary.get("hint") == ("hint", 1) and unpacked == ["hint"]  # made once
    assert dict(summary) == {name: (name, 1) for name in ("hint", "wrap", "links")}
    spoilt = blob.replace(b'["links",1]', b'["linkz",1]')  # the same length: only its member is spoilt
    partly = combined.unpack(spoilt)
    assert partly is not None and partly.get("wrap") == ("wrap", 1) and partly.get("links") is None
    assert set(partly) == {"wrap", "hint"}
    for other in (blob[:-1], blob.replace(b"\n", b" ", 1), b'{"wrap":-1}\n', b'{"other":0}\n', b"[]\n"):
        assert combined.unpack(other) is None
