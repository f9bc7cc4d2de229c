"""The parse cache under ``<git dir>/docsync/``: used when it is right, never trusted.

Every test runs on a real git repository. A cached document is detectable:
tests plant a doctored copy (its links removed) under the real key and check
whether a run sees it, so "ignored" is proven, not assumed.
"""

from __future__ import annotations

import json
import pickle
import struct
from dataclasses import replace
from pathlib import Path

import pytest

import docsync
from docsync import model
from docsync.check.check import run_check
from docsync.config import load as load_config
from docsync.gates.links import check as links
from docsync.gates.wrap import check as wrap
from docsync.model import Finding, Severity
from docsync.workspace import cache, document_json, plain, results
from docsync.workspace.load import Workspace, load_workspace
from tests import forked
from tests.gitutil import GitRepo
from tests.planted import RunsACommand
from tests.signed_cache import read_indexed, write_indexed

PAGES = {
    "README.md": "# Project\n\nSee [the guide](docs/guide.md#install) and [gone](docs/gone.md).\n",
    "docs/guide.md": "# Guide\n\n## Install\n\nBack to [the top](../README.md#project).\n",
    "docs/faq.md": "# FAQ\n\n[Broken anchor](guide.md#uninstall) and [a folder](./).\n\n[unused]: x.md\n",
}



@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo.init(tmp_path / "repo")
    for path, text in PAGES.items():
        repo.write(path, text)
    repo.commit("pages")
    return repo


def _cache_file(repo: GitRepo) -> Path:
    return cache.cache_file(repo.root / ".git")


def _findings(workspace: Workspace) -> list[Finding]:
    return sorted(links.check_workspace(workspace), key=Finding.sort_key)


_MAGIC = b"docsync-parse-cache 5\n"


def _payload(repo: GitRepo) -> dict[str, object]:
    """The cache file read back: its header, and each entry (last used, bytes) by key."""
    header, blobs = read_indexed(_cache_file(repo), _MAGIC)
    used = header.pop("used")
    assert isinstance(used, dict)
    return {**header, "entries": {key: (used[key], blob) for key, blob in blobs.items()}}


def _write_payload(repo: GitRepo, payload: dict[str, object]) -> None:
    """What :func:`_payload` read, written back in the cache's own layout, signed."""
    entries = payload["entries"]
    assert isinstance(entries, dict)
    rest = {k: v for k, v in payload.items() if k != "entries"}
    header = rest | {"used": {k: e[0] for k, e in entries.items()}}
    write_indexed(_cache_file(repo), _MAGIC, header, {k: e[1] for k, e in entries.items()})


def _plant_doctored(repo: GitRepo, **header: object) -> None:
    """Replace every cached document by a copy without links, keeping the keys."""
    payload = _payload(repo)
    entries = payload["entries"]
    assert isinstance(entries, dict) and entries
    for key, (saves, blob) in list(entries.items()):
        document = cache.loads(blob)
        assert document is not None
        entries[key] = (saves, document_json.encode_document(replace(document, links=())))
    payload.update(header)
    _write_payload(repo, payload)


def test_cache_lives_in_the_git_dir_and_is_used(repo: GitRepo) -> None:
    cold = load_workspace(repo.root)
    assert _cache_file(repo).is_file()
    assert repo.git("status", "--porcelain") == ""
    _plant_doctored(repo)
    doctored = load_workspace(repo.root)
    # the control for the tests below: a planted entry is what a run sees
    assert all(doc.links == () for doc in doctored.documents.values())
    assert any(doc.links for doc in cold.documents.values())


def test_warm_run_matches_cold_run(repo: GitRepo) -> None:
    cold = load_workspace(repo.root)
    warm = load_workspace(repo.root)
    assert warm.documents == cold.documents
    assert list(warm.documents) == list(cold.documents)
    assert _findings(warm) == _findings(cold)
    assert [(f.path, f.rule) for f in _findings(cold)] == [
        ("README.md", "L001"),
        ("docs/faq.md", "L006"),
        ("docs/faq.md", "L009"),  # an unused definition renders no link: its target is not checked
    ]


def test_edited_file_is_parsed_again(repo: GitRepo) -> None:
    load_workspace(repo.root)
    repo.write("docs/guide.md", "# Guide\n\n## Setup\n\nSee [nothing](nothing.md).\n")
    edited = load_workspace(repo.root)
    guide = edited.documents["docs/guide.md"]
    assert [h.slug for h in guide.headings] == ["guide", "setup"]
    assert [(f.path, f.rule, f.line) for f in _findings(edited)] == [
        ("README.md", "L006", 3),  # #install is gone now
        ("README.md", "L001", 3),
        ("docs/faq.md", "L006", 3),
        ("docs/faq.md", "L009", 5),
        ("docs/guide.md", "L001", 5),
    ]


@pytest.mark.parametrize(
    "garbage",
    [
        b"",
        b"not JSON at all",
        _MAGIC + b"\x05\x00",
        json.dumps({"magic": "something else"}).encode(),
        _MAGIC + struct.pack("<Q", 400_000) + b"[" * 200_000 + b"]" * 200_000,
    ],
    ids=["empty", "text", "truncated", "foreign-dict", "deeply-nested"],
)
def test_corrupt_cache_is_ignored_and_rebuilt(repo: GitRepo, garbage: bytes) -> None:
    cold = load_workspace(repo.root)
    _cache_file(repo).write_bytes(garbage)
    again = load_workspace(repo.root)
    assert again.documents == cold.documents
    assert _findings(again) == _findings(cold)
    assert (
        cache.open_cache(repo.root / ".git").get(
            cache.ParseCache.key("README.md", (repo.root / "README.md").read_bytes()), "README.md"
        )
        == cold.documents["README.md"]
    )


def test_truncated_cache_is_ignored(repo: GitRepo) -> None:
    cold = load_workspace(repo.root)
    data = _cache_file(repo).read_bytes()
    _cache_file(repo).write_bytes(data[: len(data) // 2])
    assert load_workspace(repo.root).documents == cold.documents


def test_an_entry_placed_beyond_the_file_makes_the_cache_ignored(repo: GitRepo) -> None:
    cold = load_workspace(repo.root)
    payload = _payload(repo)
    _write_payload(repo, payload)
    data = _cache_file(repo).read_bytes()
    _cache_file(repo).write_bytes(data[:-1])  # the index claims one byte more than there is
    assert cache.open_cache(repo.root / ".git").get_blob(cold.documents.content_keys["README.md"]) is None
    assert load_workspace(repo.root).documents == cold.documents


def test_an_entry_is_read_from_the_disk_only_when_its_document_is(repo: GitRepo) -> None:
    """A warm run reads the index, not the documents: an entry is read when its document
    is, and believed only when its bytes have the digest the signed header names (a
    slug changed in place is not); bytes cut off are parsed again."""
    cold = load_workspace(repo.root)
    warm = load_workspace(repo.root)
    data = _cache_file(repo).read_bytes()
    assert data.count(b'"install"') == 1
    with open(_cache_file(repo), "r+b") as handle:  # the same file, changed in place
        handle.write(data.replace(b'"install"', b'"instal1"'))
    # read now, from the disk: its digest is not the one the signed header names (issue #35)
    assert [h.slug for h in warm.documents["docs/guide.md"].headings] == ["guide", "install"]
    with open(_cache_file(repo), "r+b") as handle:
        handle.truncate(len(data) // 2)
    for path in ("README.md", "docs/faq.md"):  # short reads: parsed again, as they are
        assert warm.documents[path] == cold.documents[path]


def test_foreign_pickle_file_is_refused(repo: GitRepo, tmp_path: Path) -> None:
    cold = load_workspace(repo.root)
    marker = tmp_path / "pwned"
    _cache_file(repo).write_bytes(pickle.dumps(RunsACommand(marker)))
    again = load_workspace(repo.root)
    assert not marker.exists()
    assert again.documents == cold.documents


def test_foreign_pickle_entry_is_refused(repo: GitRepo, tmp_path: Path) -> None:
    cold = load_workspace(repo.root)
    marker = tmp_path / "pwned"
    payload = _payload(repo)
    entries = payload["entries"]
    assert isinstance(entries, dict)
    for key, (saves, _) in list(entries.items()):
        entries[key] = (saves, pickle.dumps(RunsACommand(marker)))
    _write_payload(repo, payload)
    again = load_workspace(repo.root)
    assert not marker.exists()
    assert again.documents == cold.documents


def test_cache_of_another_docsync_version_is_ignored(repo: GitRepo) -> None:
    cold = load_workspace(repo.root)
    fingerprint = cache.fingerprint()
    assert fingerprint.startswith(f"{docsync.__version__}|")
    _plant_doctored(repo, fingerprint=fingerprint.replace(docsync.__version__, "0.0.0-other", 1))
    again = load_workspace(repo.root)
    assert again.documents == cold.documents
    assert _findings(again) == _findings(cold)


def test_parser_versions_are_read_without_importing_the_parser() -> None:
    """The fingerprint names the versions the parser module names, read from the
    libraries' sources (a warm run imports no markdown-it)."""
    from docsync.parse.native import PARSER_VERSIONS

    cache.parser_versions.cache_clear()
    assert cache.parser_versions() == PARSER_VERSIONS


def test_cache_made_under_another_markdown_it_is_ignored(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = load_workspace(repo.root)
    before = cache.fingerprint()
    assert cache.open_cache(repo.root / ".git").get_blob(cold.documents.content_keys["README.md"])
    monkeypatch.setattr(cache, "parser_versions", lambda: "markdown-it-py 99.0.0, mdit-py-plugins 0.7.0")
    cache.fingerprint.cache_clear()
    try:
        assert cache.fingerprint() != before
        assert cache.open_cache(repo.root / ".git").get_blob(cold.documents.content_keys["README.md"]) is None
    finally:
        monkeypatch.undo()
        cache.fingerprint.cache_clear()


def test_new_docsync_version_misses_every_entry(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = load_workspace(repo.root)
    _plant_doctored(repo)
    cache.fingerprint()  # the header stays acceptable: only the keys change
    monkeypatch.setattr(cache, "__version__", "9.9.9")
    again = load_workspace(repo.root)
    assert again.documents == cold.documents


def _cli(root: Path) -> str:
    done = forked.docsync(root, "check", "--gate", "links", "--format", "json")
    assert done.returncode == 1, done.stderr
    return done.stdout


def test_warm_cli_run_matches_cold_on_a_repository_parsed_in_parallel(tmp_path: Path) -> None:
    """Enough files for the worker processes, so their pickles are what the cache holds."""
    repo = GitRepo.init(tmp_path / "many")

    def page(i: int) -> str:
        return f"part-{i % 120 % 7}/page-{i % 120}.md"

    for i in range(120):
        repo.write(
            f"docs/{page(i)}",
            f"# Page {i}\n\n## Part {i % 5}\n\n"
            f"Next: [page](../{page(i + 1)}#part-{(i + 1) % 5}), "
            f"[wrong](../{page(i + 2)}#part-{i % 5 + 9}), "
            f"[folder](../part-{i % 3}/) and [missing](missing-{i % 4}.md).\n",
        )
    repo.commit("pages")
    cold = _cli(repo.root)
    assert _cache_file(repo).is_file()
    warm = _cli(repo.root)
    assert warm == cold
    findings = json.loads(cold)["findings"]
    assert len(findings) == 240
    assert {f["rule"] for f in findings} == {"L001", "L006"}


# --------------------------------------------------------------------------- the links gate's results


def _uncached(repo: GitRepo) -> list[Finding]:
    workspace = load_workspace(repo.root)
    return _findings(replace(workspace, config=replace(workspace.config, cache=False)))


def _cached(repo: GitRepo) -> list[Finding]:
    return _findings(load_workspace(repo.root))


def test_unchanged_repository_answers_from_the_result_cache(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = _cached(repo)
    assert (repo.root / ".git" / "docsync" / "links-results").is_file()
    unpickled: list[bytes] = []
    monkeypatch.setattr(cache, "loads", lambda blob: unpickled.append(blob))
    monkeypatch.setattr(links, "check", lambda *_: pytest.fail("checked again"))
    workspace = load_workspace(repo.root)
    assert _findings(workspace) == cold
    assert unpickled == []  # not one cached document was unpickled


def _rename_heading(repo: GitRepo) -> None:
    repo.write("docs/guide.md", "# Guide\n\n## Setup\n\nBack to [the top](../README.md#project).\n")


def _untracked_target(repo: GitRepo) -> None:
    repo.write("docs/notes.txt", "not Markdown, so only git's listing changes\n")


def _tracked_target(repo: GitRepo) -> None:
    _untracked_target(repo)
    repo.git("add", "docs/notes.txt")


def _dangle_symlink(repo: GitRepo) -> None:
    (repo.root / "real.txt").unlink()  # on disk only: git still tracks both


def _edit_excluded_target(repo: GitRepo) -> None:
    repo.write("excluded/notes.md", "# Notes\n\n## Moved\n")


def _strict_fragments(repo: GitRepo) -> None:
    repo.write(".docsync.toml", "strict_fragments = true\nexclude = ['excluded/**']\n")


@pytest.mark.parametrize(
    "change",
    [
        _rename_heading,
        _untracked_target,
        _tracked_target,
        _dangle_symlink,
        _edit_excluded_target,
        _strict_fragments,
    ],
)
def test_result_cache_sees_every_input_change(repo: GitRepo, change: object) -> None:
    """Each change alters the findings; the cached run must find exactly what a fresh one does."""
    repo.write(".docsync.toml", "exclude = ['excluded/**']\n")
    repo.write("real.txt", "not Markdown, so only the symlink's resolution changes\n")
    (repo.root / "link.md").symlink_to("real.txt")
    repo.write("excluded/notes.md", "# Notes\n\n## Kept\n")
    repo.write(
        "docs/more.md",
        "# More\n\n[in](../excluded/notes.md#kept) [link](../link.md) [Case](guide.md#INSTALL)"
        " [text](notes.txt)\n",
    )
    repo.commit("more")
    before = _cached(repo)
    assert before == _uncached(repo)
    assert callable(change)
    change(repo)
    after = _cached(repo)
    assert after == _uncached(repo)
    assert after != before


def test_result_cache_serves_a_narrower_run(repo: GitRepo) -> None:
    everything = _cached(repo)
    narrowed = links.check_workspace(load_workspace(repo.root, paths=["docs/faq.md"]))
    assert narrowed == [f for f in everything if f.path == "docs/faq.md"]


def test_corrupt_result_cache_is_ignored(repo: GitRepo, tmp_path: Path) -> None:
    cold = _cached(repo)
    results = repo.root / ".git" / "docsync" / "links-results"
    marker = tmp_path / "pwned"
    for garbage in (b"junk", pickle.dumps(RunsACommand(marker))):
        results.write_bytes(garbage)
        assert _cached(repo) == cold
    _cached(repo)
    magic = b"docsync-gate-results 5\n"
    header, blobs = read_indexed(results, magic)
    planted = pickle.dumps(RunsACommand(marker))
    write_indexed(results, magic, header, dict.fromkeys(blobs, planted))  # every run's findings
    assert _cached(repo) == cold
    assert not marker.exists()


_FOUND = Finding("wrap", "W001", "a.md", 3, 1, "joined", "docsync fix")
_STRINGS: list[object] = ["wrap", "W001", "a.md", "joined", "docsync fix", "error"]
_ROW: list[object] = [1, 2, 3, 3, 1, 4, 5, 6]  # strings by their place in the table, from 1


def _entry(strings: object = _STRINGS, findings: object = None) -> dict[str, object]:
    return {"strings": strings, "findings": {"key": _ROW} if findings is None else findings}


@pytest.mark.parametrize(
    "entry",
    [
        [_ROW],
        {"findings": {"key": _ROW}},
        {**_entry(), "more": 1},
        _entry(strings="wrap"),
        _entry(strings=[*_STRINGS[:5], 7]),  # a string that is not one
        _entry(findings=[_ROW]),
        _entry(findings={"key": [*_ROW, 1]}),  # not a whole number of rows
        _entry(findings={"key": [[*_ROW]]}),
        _entry(findings={"key": [*_ROW[:3], "3", *_ROW[4:]]}),  # a line that is not a number
        _entry(findings={"key": [*_ROW[:3], True, *_ROW[4:]]}),
        _entry(findings={"key": [*_ROW[:3], 3.0, *_ROW[4:]]}),
        _entry(findings={"key": [0, *_ROW[1:]]}),  # a gate that is None
        _entry(findings={"key": [*_ROW[:5], 0, *_ROW[6:]]}),  # a message that is None
        _entry(findings={"key": [*_ROW[:2], 7, *_ROW[3:]]}),  # past the table's end
        _entry(findings={"key": [-1, *_ROW[1:]]}),  # from its end
        _entry(findings={"key": [*_ROW[:6], -1, _ROW[7]]}),
        _entry(findings={"key": [*_ROW[:7], 4]}),  # a severity docsync has not ("joined")
        _entry(findings={"key": [*_ROW[:7], 0]}),  # a severity that is None
    ],
)
def test_a_result_entry_of_another_shape_is_not_served(tmp_path: Path, entry: object) -> None:
    """An entry that is JSON but not key → rows of findings reads as no entry: the gate
    computes its findings again."""
    file = tmp_path / "wrap-results"
    good = results.ResultCache(file, {})
    good.put("run", (), {"key": (_FOUND,)})
    assert results.ResultCache(file, results._load_runs(file)).get("run") == ((), {"key": (_FOUND,)})
    assert plain.decode_findings(json.dumps(_entry()).encode()) == {"key": (_FOUND,)}  # one change away
    spoilt = results.ResultCache(file, {"run": ((), json.dumps(entry).encode())})
    assert spoilt.get("run") is None


def test_findings_by_key_round_trip_sharing_their_strings() -> None:
    """Every field comes back, a missing suggestion and every severity too, a key without
    findings stays, and equal strings are one string (a warm run's memory)."""
    found = {
        f"key-{n}": tuple(
            replace(_FOUND, line=n, column=i, suggestion=None if i % 2 else "docsync fix", severity=severity)
            for i, severity in enumerate(Severity)
        )
        for n in range(3)
    }
    found["empty"] = ()
    back = plain.decode_findings(plain.encode_findings(found))
    assert back == found
    assert back is not None and len({id(f.message) for group in back.values() for f in group}) == 1


def test_a_large_result_entry_is_left_alone_by_the_collector_from_then_on(tmp_path: Path) -> None:
    """Tens of thousands of findings live to the end of a run: once unpickled, they are
    frozen (``gc.freeze``), so no later collection walks them again. A small entry is not."""
    import gc

    file = tmp_path / "wrap-results"
    many = {f"key-{n}": (replace(_FOUND, line=n, message=f"joined {n}"),) for n in range(30_000)}
    store = results.ResultCache(file, {})
    store.put("small", (), {"key": (_FOUND,)})
    store.put("large", (), many)
    assert len(store._runs["large"][1]) >= results._FREEZE_FROM > len(store._runs["small"][1])
    gc.unfreeze()
    try:
        assert store.get("small") == ((), {"key": (_FOUND,)})
        assert gc.get_freeze_count() == 0
        assert store.get("large") == ((), many)
        assert gc.get_freeze_count() > len(many)
    finally:
        gc.unfreeze()


def test_a_run_reads_only_its_own_results(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each kept run's findings are an entry of their own: another run's, spoilt in
    place, neither stop this run being served from the cache nor are served themselves."""
    first = _cached(repo)
    repo.write(".docsync.toml", "exclude = ['docs/faq.md']\n")
    second = _cached(repo)
    assert second != first
    results = repo.root / ".git" / "docsync" / "links-results"
    data = results.read_bytes()
    with open(results, "r+b") as handle:  # the older run's entry lies last: spoil its end
        handle.seek(len(data) - 16)
        handle.write(b"\0" * 16)
    unpickled: list[object] = []
    with monkeypatch.context() as patched:
        patched.setattr(cache, "loads", lambda blob: unpickled.append(blob))
        assert _cached(repo) == second
    assert unpickled == []  # served from its own entry: not one document read
    (repo.root / ".docsync.toml").unlink()
    assert _cached(repo) == first == _uncached(repo)


# --------------------------------------------------------------------------- the wrap gate's results

WRAPPED = {
    "notes/a.md": "# A\n\nHard\nwrapped.\n",
    "notes/b.md": "# B\n\nOne line.\n\nTwo\nlines.\n",
}


def _wrap_findings(repo: GitRepo, cache_on: bool = True) -> list[Finding]:
    workspace = load_workspace(repo.root)
    if not cache_on:
        workspace = replace(workspace, config=replace(workspace.config, cache=False))
    return wrap.check_workspace(workspace)


@pytest.fixture
def wrapped(repo: GitRepo) -> GitRepo:
    for path, text in WRAPPED.items():
        repo.write(path, text)
    repo.commit("hard-wrapped notes")
    return repo


def test_unchanged_repository_answers_wrap_from_the_result_cache(
    wrapped: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = _wrap_findings(wrapped)
    assert [(f.path, f.rule, f.line) for f in cold] == [
        ("notes/a.md", "W001", 3),
        ("notes/b.md", "W001", 5),
    ]
    assert (wrapped.root / ".git" / "docsync" / "wrap-results").is_file()
    unpickled: list[bytes] = []
    monkeypatch.setattr(cache, "loads", lambda blob: unpickled.append(blob))
    monkeypatch.setattr(wrap, "check", lambda *_: pytest.fail("checked again"))
    assert _wrap_findings(wrapped) == cold
    assert unpickled == []  # not one cached document was unpickled


def test_an_edit_rechecks_only_the_edited_file(
    wrapped: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    _wrap_findings(wrapped)
    wrapped.write("notes/b.md", "# B\n\nOne line.\n\nNow one line too.\n")
    checked: list[str] = []
    real = wrap.check
    monkeypatch.setattr(wrap, "check", lambda doc, config: checked.append(doc.path) or real(doc, config))
    found = _wrap_findings(wrapped)
    assert checked == ["notes/b.md"]
    assert [(f.path, f.rule) for f in found] == [("notes/a.md", "W001")]
    assert found == _wrap_findings(wrapped, cache_on=False)


@pytest.mark.parametrize("convention", ['"sentence"', "10", '"off"'])
def test_a_new_convention_is_not_served_old_wrap_results(wrapped: GitRepo, convention: str) -> None:
    before = _wrap_findings(wrapped)
    wrapped.write(".docsync.toml", f"wrap = {convention}\n")
    after = _wrap_findings(wrapped)
    assert after == _wrap_findings(wrapped, cache_on=False)
    assert after != before


def test_corrupt_wrap_result_cache_is_ignored(wrapped: GitRepo, tmp_path: Path) -> None:
    cold = _wrap_findings(wrapped)
    results = wrapped.root / ".git" / "docsync" / "wrap-results"
    marker = tmp_path / "pwned"
    for garbage in (b"junk", pickle.dumps(RunsACommand(marker))):
        results.write_bytes(garbage)
        assert _wrap_findings(wrapped) == cold
    assert not marker.exists()


def test_a_narrow_run_unpickles_only_the_documents_it_reads(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(12):
        repo.write(f"other/page-{n}.md", f"# Page {n}\n\nNothing links here.\n")
    repo.commit("unrelated pages")
    run_check(repo.root)  # everything cached
    repo.write("docs/faq.md", PAGES["docs/faq.md"] + "\nEdited.\n")
    loaded = _recording_loads(monkeypatch)
    result = run_check(repo.root, paths=["docs/faq.md"])
    assert {f.path for f in result.findings} == {"docs/faq.md"}
    # faq.md is parsed again; guide.md, the one file it links into, answers from its kept anchors
    assert loaded == []
    (repo.root / ".git" / "docsync" / "anchors.json").unlink()
    repo.write("docs/faq.md", PAGES["docs/faq.md"] + "\nEdited again.\n")
    assert run_check(repo.root, paths=["docs/faq.md"]).findings == result.findings
    assert sorted(loaded) == ["docs/guide.md"]  # without them, the one file it links into


def _recording_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    loaded: list[str] = []
    real = cache.loads

    def recording(blob: bytes) -> model.Document | None:
        document = real(blob)
        loaded.append(document.path if document else "?")
        return document

    monkeypatch.setattr(cache, "loads", recording)
    # a document the cache keeps only the summaries of is parsed when read: read all the same
    from docsync.workspace import documents as documents_module

    parse_one = documents_module.parse_one

    def parsing(path: str, data: bytes) -> object:
        loaded.append(path)
        return parse_one(path, data)

    monkeypatch.setattr(documents_module, "parse_one", parsing)
    return loaded


def test_a_staged_rename_reads_only_the_documents_it_reports_on(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pre-commit run after a rename checks the renamed file and those linking to
    it against every other file's anchors, kept by content: no other document is read."""
    for n in range(80):  # more than Documents unpickles one at a time
        repo.write(f"pages/p-{n}.md", f"# P {n}\n\n## Part\n\n[next](p-{(n + 1) % 80}.md#part) [guide](../docs/guide.md#install)\n")
    repo.commit("pages")
    run_check(repo.root)
    run_check(repo.root, staged=True)  # nothing staged: the hook's first run keeps every file's link targets
    repo.git("mv", "pages/p-5.md", "pages/p-five.md")
    loaded = _recording_loads(monkeypatch)
    staged = run_check(repo.root, staged=True)
    assert [(f.path, f.rule) for f in staged.findings] == [("pages/p-4.md", "L001")]
    # at most the one file linking to the old name and the renamed file (whose content the
    # cache keeps as summaries only) are read: no other document
    assert set(loaded) <= {"pages/p-4.md", "pages/p-five.md"} and len(loaded) == len(set(loaded))
    monkeypatch.undo()
    uncached = replace(load_config(repo.root), cache=False)
    assert run_check(repo.root, staged=True, config=uncached).findings == staged.findings


def test_kept_anchors_are_used_by_content(repo: GitRepo) -> None:
    """A planted anchor is believed while the file's bytes are the ones it was kept for,
    and not once they change (the key is the content)."""
    run_check(repo.root)
    anchors_file = repo.root / ".git" / "docsync" / "anchors.json"
    payload = json.loads(plain.read_file(anchors_file) or b"")
    key = load_workspace(repo.root).documents.content_keys["docs/guide.md"]
    payload["entries"][key] = {**payload["entries"][key], "uninstall": "uninstall"}
    plain.write_json(anchors_file, payload)  # signed with the repository's key: believed
    repo.write("README.md", PAGES["README.md"] + "\nTouched, so links are checked again.\n")
    planted = {(f.path, f.rule) for f in run_check(repo.root).findings}
    assert ("docs/faq.md", "L006") not in planted  # guide.md#uninstall "exists": the plant is read
    repo.write("docs/guide.md", PAGES["docs/guide.md"] + "\nEdited.\n")
    assert ("docs/faq.md", "L006") in {(f.path, f.rule) for f in run_check(repo.root).findings}
