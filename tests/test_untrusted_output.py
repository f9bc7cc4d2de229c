"""Classes 6 and 7 of the threat model: never a traceback, and no repository text
printed raw.

Generated: every output of docsync (each ``check`` format, ``fix``, the ``migrate``
dry run as text and JSON, ``graph`` in each format) over a repository whose file
names, titles, link targets and config values carry each kind of hostile text:
terminal escapes, C1 controls, bidirectional overrides and isolates, line
separators, carriage returns, newlines that would forge a finding, and bytes that
are not UTF-8. Nothing that would act on a terminal reaches the output, the
machine formats still parse, no traceback escapes; and a ``--config`` that is a
device, a FIFO or a folder is one line and exit 2, at once.
"""

from __future__ import annotations

import json
import os
import re
import xml.dom.minidom
from pathlib import Path

import pytest

from docsync.cli import app
from docsync.commandline.output import Color, Format, use_color
from docsync.untrusted_text import TERMINAL_UNSAFE, shown, visible
from tests import forked
from tests.gitutil import GitRepo
from tests.untrusted import legacy_repo, one_line, runner

# Each kind of text a repository can carry that would act on a terminal.
HOSTILE = {
    "csi": "\x1b[2J",
    "osc-title": "\x1b]0;owned\x07",
    "c1-csi": "\x9b31m",
    "bidi-override": "\u202e",
    "bidi-isolate": "\u2066",
    "line-separator": "\u2028",
    "carriage-return": "\rFORGED",
    "newline-forges-a-finding": "\nFORGED.md:1:1: L001 forged",
    "delete": "\x7f",
}
_UNSAFE_BUT_LAYOUT = re.compile(f"[{TERMINAL_UNSAFE.replace(chr(10), '')}]".replace("\x00-\x1f", "\x00-\x09\x0b-\x1f"))
NOT_UTF8 = b"\xff\xfe"


def _raw_unsafe(text: str) -> list[str]:
    """The characters in ``text`` that would act on a terminal, a layout newline aside."""
    return _UNSAFE_BUT_LAYOUT.findall(text)


def _forged(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("FORGED")]


def _hostile_repo(root: Path, hostile: str) -> GitRepo:
    """Hostile text in a file name (with bytes that are not UTF-8 too), a title, a link
    target and a heading; a migrated record tree whose titles carry it, with a relation."""
    repo = legacy_repo(root)
    os.chdir(root)
    assert runner.invoke(app, ["migrate", "--apply", "--commit"]).exit_code == 0
    assert runner.invoke(app, ["new", "Use Mysql", "--supersedes", "use-postgres"]).exit_code == 0
    for record in (root / "docs" / "rfc").rglob("*.md"):
        text = record.read_text()
        if text.startswith("# "):
            record.write_text(text.replace("\n", f" {hostile}\n", 1) if "\n" not in hostile else
                              text.replace("\n", f" {hostile.strip()}\n", 1))
    repo.write("docs/guide.md", f"# Guide {hostile.strip()}\n\nSee [x](<missing{hostile.strip()}.md>) and [y](#nowhere).\n")
    name = f"docs/bad{hostile}.md".replace("\n", "_") if False else f"docs/bad{hostile}.md"
    (root / name).write_text(f"# Bad\n\nSee [x](missing{hostile.strip()}.md).\n")
    (root / os.fsdecode(b"docs/not-utf8-" + NOT_UTF8 + b".md")).write_text("# Not UTF-8\n")
    repo.git("add", "-A")
    repo.commit("hostile")
    return repo


@pytest.mark.parametrize("kind", HOSTILE)
def test_no_output_prints_repository_text_raw(kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    repo = _hostile_repo(tmp_path / "repo", HOSTILE[kind])
    monkeypatch.chdir(repo.root)
    runs: list[tuple[list[str], str]] = [(["check", "--format", f.value], f.value) for f in Format]
    runs += [(["graph", "--format", f], f) for f in ("mermaid", "dot", "json")]
    runs += [(["fix", "--diff"], "text"), (["fix"], "text"), (["migrate"], "text")]
    runs += [(["check", "--format", "text", "--color", "always"], "text")]  # last: the colour stays chosen
    for args, form in runs:
        result = runner.invoke(app, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
        out = result.stdout + result.stderr
        if "always" in args:
            out = re.sub(r"\x1b\[[0-9;]*m", "", out)  # rich's own colours
        assert "Traceback" not in out, args
        assert _raw_unsafe(out) == [], (args, _raw_unsafe(out), out)
        assert _forged(out) == [], args
        if form in ("json", "sarif", "gitlab"):
            json.loads(result.stdout)
        elif form == "json-lines":
            for line in result.stdout.splitlines():
                json.loads(line)
        elif form == "junit":
            xml.dom.minidom.parseString(result.stdout)
    use_color(Color.auto)  # the process-wide choice --color always made
    check = runner.invoke(app, ["check", "--format", "concise"]).stdout
    assert "docs/not-utf8-\\xff\\xfe.md:1:1: F001" in check  # the name, escaped


def test_the_migrate_dry_run_escapes_names_titles_and_config_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for kind, hostile in HOSTILE.items():
        repo = legacy_repo(tmp_path / kind)
        repo.write(f"docs/adr/0003-third{hostile}.md", f"# ADR 0003: Third {hostile.strip()}\n\nStatus: {hostile.strip()}\n")
        repo.write(".docsync.toml", "sources = [{ path = \"docs/adr\", kind = " + json.dumps(f"ADR{hostile}") + " }]\n"
                   "[statuses]\n" + json.dumps(f"odd{hostile}") + ' = "proposed"\n')
        repo.commit("hostile")
        monkeypatch.chdir(repo.root)
        for args in (["migrate"], ["migrate", "--verbose"], ["migrate", "--format", "json"], ["migrate", "--apply"]):
            result = runner.invoke(app, args)
            out = result.stdout + result.stderr
            assert result.exception is None or isinstance(result.exception, SystemExit), (kind, args, result.exception)
            assert "Traceback" not in out
            assert _raw_unsafe(out) == [], (kind, args, _raw_unsafe(out))
            assert _forged(out) == [], (kind, args)
            if "json" in args:
                json.loads(result.stdout)


@pytest.mark.parametrize("value", [f"docs/rfc{h}" for h in HOSTILE.values()], ids=list(HOSTILE))
def test_a_config_path_holding_a_control_character_is_refused(
    value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = legacy_repo(tmp_path / "repo")
    repo.write(".docsync.toml", f"target = {json.dumps(value)}\n")
    monkeypatch.chdir(repo.root)
    result = runner.invoke(app, ["migrate"])
    assert result.exit_code == 2
    line = one_line(result)
    assert "'target'" in line and _raw_unsafe(line) == []


def test_names_that_are_not_utf8_are_findings_in_check_fix_and_migrate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = legacy_repo(tmp_path / "repo")
    for name in (b"docs/adr/0003-third-" + NOT_UTF8 + b".md", b"notes-\xc3.md", b"a\x80b/c.md"):
        path = repo.root / os.fsdecode(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# Named\n\nA hard\nwrapped line.\n")
    repo.git("add", "-A")
    repo.commit("names")
    monkeypatch.chdir(repo.root)
    for form in Format:
        result = runner.invoke(app, ["check", "--format", form.value])
        assert result.exit_code == 1, (form, result.stdout + result.stderr)
        assert "Traceback" not in result.stdout + result.stderr
    concise = runner.invoke(app, ["check", "--format", "concise"]).stdout
    for name in ("docs/adr/0003-third-\\xff\\xfe.md", "notes-\\xc3.md", "a\\x80b/c.md"):
        assert f"{name}:1:1: F001 the file name is not valid UTF-8" in concise
    fixed = runner.invoke(app, ["fix"])
    assert fixed.exit_code == 1 and "Traceback" not in fixed.stdout + fixed.stderr
    migrated = runner.invoke(app, ["migrate", "--apply", "--commit"])
    assert migrated.exit_code == 1, migrated.stdout + migrated.stderr
    assert "0003-third-\\xff\\xfe.md" in migrated.stdout
    assert repo.git("status", "--porcelain") == ""  # refused: nothing changed
    assert runner.invoke(app, ["check", "--format", "concise", os.fsdecode(b"notes-\xc3.md")]).exit_code == 1


def test_visible_spells_each_byte_of_a_name_that_is_not_utf8() -> None:
    for byte in range(0x80, 0x100):
        name = os.fsdecode(b"a" + bytes([byte]) + b".md")
        if name.isascii() or all(ord(c) < 0xD800 for c in name):
            continue
        assert visible(name) == shown(name) == f"a\\x{byte:02x}.md"


# --------------------------------------------------------------------------- --config that cannot be read


def _config_forms(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * (2 << 20) + b"\n")
    return {"dev-zero": "/dev/zero", "fifo": str(fifo), "folder": str(folder), "symlink-to-device": str(link),
            "too-large": str(big), "dev-tty-like": "/dev/null/x"}


@pytest.mark.parametrize("command", [("check",), ("fix", "--check"), ("migrate",), ("fix",)])
def test_a_config_that_is_a_device_fifo_or_folder_is_one_line_at_once(command: tuple[str, ...], tmp_path: Path) -> None:
    repo = legacy_repo(tmp_path / "repo")
    for form, path in _config_forms(tmp_path).items():
        if command[0] == "migrate":
            continue  # migrate reads the repository's own config only
        done = forked.docsync(repo.root, *command, "--config", path, timeout=60)
        assert done.returncode == 2, (form, done.stderr)
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and "Traceback" not in done.stderr, (form, done.stderr)


@pytest.mark.parametrize("form", ["fifo", "symlink-to-device", "folder"])
def test_a_repository_config_that_is_a_fifo_or_device_is_one_line_at_once(form: str, tmp_path: Path) -> None:
    repo = legacy_repo(tmp_path / "repo")
    config = repo.root / ".docsync.toml"
    if form == "fifo":
        os.mkfifo(config)
    elif form == "symlink-to-device":
        config.symlink_to("/dev/zero")
    else:
        config.mkdir()
    for command in (("check",), ("migrate",)):
        done = forked.docsync(repo.root, *command, timeout=60)
        if form == "folder":  # a folder of that name is no config file: the defaults apply
            assert "Traceback" not in done.stderr and done.returncode in (0, 1), done.stderr
            continue
        assert done.returncode == 2, (form, command, done.stderr)
        assert len([line for line in done.stderr.splitlines() if line.strip()]) == 1, done.stderr


def test_a_plan_or_template_that_is_a_device_fifo_or_folder_is_one_line_at_once(tmp_path: Path) -> None:
    repo = legacy_repo(tmp_path / "repo")
    for form, path in _config_forms(tmp_path).items():
        if form not in ("dev-zero", "fifo", "folder"):
            continue  # the reader is the one --config uses, tested with every form above
        for command in (("migrate", "--plan", path), ("new", "A title", "--template", path)):
            done = forked.docsync(repo.root, *command, timeout=60)
            assert done.returncode == 2, (form, command, done.stderr)
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            assert len(lines) == 1 and "Traceback" not in done.stderr, (form, command, done.stderr)
