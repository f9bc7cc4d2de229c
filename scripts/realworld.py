#!/usr/bin/env python3
"""Run docsync on real repositories as a new user would, and check what it promises.

For each repository of the corpus (a local mirror or clone), in a scratch
clone under ``/tmp/realworld/<name>``:

1. ``docsync init``; the overlay ``scripts/realworld/<name>/config.toml`` (what a
   user would decide: sources, ``[statuses]`` words) replaces init's keys; the
   config is committed.
2. The dry run (``docsync migrate --format json`` and ``--write-plan``); the
   overlay ``scripts/realworld/<name>/plan.toml`` answers the plan's questions
   (``[topic."<legacy path>"]`` keys are written into the topic that has that
   source).
3. ``docsync migrate --apply --commit`` with that plan.
4. A second ``docsync migrate --apply --commit``.

Then it checks every invariant with code of its own (nothing here imports
docsync):

* lost: no non-blank line of a legacy record is missing from its new record
  (the title and the status construct excepted; words are compared, so a
  re-wrap or a rewritten link destination is not a loss, and a former id that
  became a link is not either);
* dates: each record's date equals an oracle computed from one
  ``git log --raw -M`` pass (see :func:`oracle_dates` for the rule);
* links: lychee ``--offline --include-fragments`` before and after; a link
  broken after that was not broken before (mapped through the moves) is one
  the migration broke;
* rerun: the second apply makes no commit and changes no file;
* findings: ``docsync check`` findings inside the tree, before and after,
  counted per file (mapped through the moves) and rule code: none may be new;
* wall time of the dry run and the apply, and the peak memory (max RSS) of
  any docsync process.

It prints one row per repository (``--json`` for programs) and exits 1 when
an invariant fails. It is not part of pytest: it needs the mirrors.

    python scripts/realworld.py                  # the whole corpus
    python scripts/realworld.py adr-tools rfcs   # some of it
    python scripts/realworld.py --keep           # keep the scratch clones
    REALWORLD_SCRATCH=/tmp/x python scripts/realworld.py   # scratch clones under /tmp/x
    python scripts/realworld.py --mirror-root DIR  # mirrors at DIR/<owner>+<name>/repo
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OVERLAYS = HERE / "realworld"
SCRATCH = Path(os.environ.get("REALWORLD_SCRATCH", "/tmp/realworld"))
MIRRORS = Path("/work/.mirror")

# name → "owner/name" of the public repository (mirrored at <root>/<owner>+<name>/repo).
CORPUS: dict[str, str] = {
    "adr-tools": "npryce/adr-tools",
    "log4brains": "thomvaill/log4brains",
    "govuk-aws": "alphagov/govuk-aws",
    "rfcs": "rust-lang/rfcs",
    "EIPs": "ethereum/EIPs",
    "architecture-decision-record": "joelparkerhenderson/architecture-decision-record",
    # issue 37: chosen for variety, none of them used to build docsync
    "madr": "adr/madr",  # MADR's own decisions, front matter, a template folder
    "arachne": "arachne-framework/architecture",  # adr-tools style, at the repository root
    "home-assistant": "home-assistant/architecture",  # adr/, a template at the root
    "react-rfcs": "reactjs/rfcs",  # text/NNNN-*.md, no front matter, 0000-template.md
    "vue-rfcs": "vuejs/rfcs",  # active-rfcs/, a template at the root
    "ember-rfcs": "emberjs/rfcs",  # text/, front matter with a `stage:` key
    "nix-rfcs": "NixOS/rfcs",  # rfcs/, front matter, a template at the root
    "swift-evolution": "apple/swift-evolution",  # proposals/, `* Status:` lines, 400+ records
    "go-proposal": "golang/proposal",  # design/NNNNN-*.md: 5-digit issue numbers, date names
    "tf-community": "tensorflow/community",  # rfcs/YYYYMMDD-*.md: date-named
    "bazel-proposals": "bazelbuild/proposals",  # designs/YYYY-MM-DD-*.md: date-named
    "grpc-proposal": "grpc/proposal",  # A1-*.md, L1-*.md …: root level, letter kinds
    "oteps": "open-telemetry/oteps",  # text/<area>/NNNN-*.md: nested by area
    "cips": "cardano-foundation/CIPs",  # CIP-NNNN/README.md: one folder per record
    "keps": "kubernetes/enhancements",  # keps/sig-x/NNNN-name/README.md
    "cometbft": "cometbft/cometbft",  # ADRs and RFCs side by side, moved folders
}

GIT_ENV_CLEAR = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY")


# --------------------------------------------------------------------------- processes


@dataclass
class Run:
    """One finished command: exit code, output, wall time, max RSS in MiB."""

    argv: list[str]
    code: int
    out: str
    err: str
    seconds: float
    peak_mib: float


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in GIT_ENV_CLEAR}
    env.update(
        GIT_AUTHOR_NAME="realworld", GIT_AUTHOR_EMAIL="realworld@example.invalid",
        GIT_COMMITTER_NAME="realworld", GIT_COMMITTER_EMAIL="realworld@example.invalid",
        NO_COLOR="1", COLUMNS="200", GIT_CONFIG_NOSYSTEM="1",
    )  # fmt: skip
    return env


def run(argv: Sequence[str], cwd: Path, stdin: bytes | None = None) -> Run:
    """Run ``argv``; its own max RSS comes from ``wait4`` (children it waited for count)."""
    out_path, err_path = cwd.parent / f".{cwd.name}.out", cwd.parent / f".{cwd.name}.err"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            list(argv), cwd=cwd, stdout=out, stderr=err, env=_env(),
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        )  # fmt: skip
        if stdin is not None and proc.stdin is not None:
            proc.stdin.write(stdin)
            proc.stdin.close()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
    result = Run(
        list(argv), proc.returncode, out_path.read_text(errors="replace"),
        err_path.read_text(errors="replace"), seconds, usage.ru_maxrss / 1024,
    )  # fmt: skip
    out_path.unlink()
    err_path.unlink()
    return result


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=_env(), capture_output=True, check=True)
    return done.stdout.decode("utf-8", errors="replace")


def docsync(cwd: Path, *args: str) -> Run:
    exe = shutil.which("docsync") or "docsync"
    return run([exe, *args], cwd)


# --------------------------------------------------------------------------- scratch clone


def scratch_clone(mirror: Path, into: Path) -> str:
    """Clone ``mirror`` into ``into``; rewrite history without missing blobs when needed.

    Returns a note: "" or how many blobs were missing and replaced.
    """
    shutil.rmtree(into, ignore_errors=True)
    into.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["git", "clone", "-q", "--no-checkout", str(mirror), str(into)], check=True, env=_env()
    )
    missing = missing_blobs(into)
    if not missing:
        subprocess.run(["git", "checkout", "-q", "-f", "HEAD"], cwd=into, check=True, env=_env())
        return ""
    rewrite_without(into, missing)
    return f"{len(missing)} missing blobs replaced by placeholders"


def missing_blobs(repo: Path) -> set[str]:
    listing = git(repo, "rev-list", "--objects", "--missing=print", "HEAD")
    return {line[1:].strip() for line in listing.splitlines() if line.startswith("?")}


def rewrite_without(repo: Path, missing: set[str]) -> None:
    """Rewrite HEAD's history with each missing blob replaced by a short placeholder.

    ``fast-export --no-data`` names blobs by id; ids of present blobs resolve
    through an alternate, and each missing one becomes an inline placeholder.
    Author names, dates and time zones are kept.
    """
    branch = git(repo, "symbolic-ref", "--short", "HEAD").strip()
    fresh = repo.with_name(repo.name + ".rewritten")
    shutil.rmtree(fresh, ignore_errors=True)
    subprocess.run(["git", "init", "-q", "-b", branch, str(fresh)], check=True, env=_env())
    alternates = fresh / ".git" / "objects" / "info" / "alternates"
    alternates.write_text(str((repo / ".git" / "objects").resolve()) + "\n")
    exported = subprocess.run(
        ["git", "fast-export", "--no-data", "--signed-tags=strip", "--reencode=yes", branch],
        cwd=repo, env=_env(), capture_output=True, check=True,
    ).stdout  # fmt: skip
    stream = b"".join(_replace_missing(exported, missing))
    subprocess.run(
        ["git", "fast-import", "--quiet"], cwd=fresh, input=stream, env=_env(), check=True
    )
    subprocess.run(["git", "repack", "-a", "-d", "-q"], cwd=fresh, env=_env(), check=True)
    alternates.unlink()
    subprocess.run(["git", "checkout", "-q", "-f", branch], cwd=fresh, env=_env(), check=True)
    shutil.rmtree(repo)
    fresh.rename(repo)


def _replace_missing(stream: bytes, missing: set[str]) -> Iterator[bytes]:
    """``stream`` with each ``M <mode> <missing id> <path>`` made an inline placeholder."""
    pos = 0
    while pos < len(stream):
        end = stream.index(b"\n", pos) + 1
        line = stream[pos:end]
        pos = end
        if line.startswith(b"data "):
            size = int(line[5:].strip())
            yield line + stream[pos : pos + size]
            pos += size
            continue
        parts = line.split(b" ", 3)
        if len(parts) == 4 and parts[0] == b"M" and parts[2].decode() in missing:
            body = f"placeholder: blob {parts[2].decode()} was missing\n".encode()
            yield b"M " + parts[1] + b" inline " + parts[3]
            yield b"data %d\n" % len(body) + body
            continue
        yield line


# --------------------------------------------------------------------------- overlays


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }"
    raise TypeError(f"no TOML for {value!r}")


def toml_dumps(doc: dict[str, Any]) -> str:
    """TOML text for ``doc``: scalars first, then tables, then arrays of tables."""
    scalars = {k: v for k, v in doc.items() if not _is_table(v) and not _is_table_array(v)}
    lines = [f"{json.dumps(k)} = {toml_value(v)}" for k, v in scalars.items()]
    for key, value in doc.items():
        if _is_table(value):
            lines.append(f"\n[{json.dumps(key)}]")
            lines.extend(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items())
    for key, value in doc.items():
        if _is_table_array(value):
            for item in value:
                lines.append(f"\n[[{json.dumps(key)}]]")
                lines.extend(f"{json.dumps(k)} = {toml_value(v)}" for k, v in item.items())
    return "\n".join(lines) + "\n"


def _is_table(value: Any) -> bool:
    return isinstance(value, dict)


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def overlay_config(repo: Path, overlay: Path) -> int:
    """Replace init's config keys with the overlay's (``statuses`` merged).

    Returns how many keys a user wrote by hand beyond init's output: each
    overlay key whose value init did not already write (one per entry of a
    table, one per field of each element of an array of tables).
    """
    if not overlay.is_file():
        return 0
    config_path = repo / ".docsync.toml"
    config = tomllib.loads(config_path.read_text()) if config_path.is_file() else {}
    extra = tomllib.loads(overlay.read_text())
    written = hand_keys(config, extra)
    for key, value in extra.items():
        if key == "statuses" and isinstance(config.get(key), dict):
            config[key] = {**config[key], **value}
        else:
            config[key] = value
    config_path.write_text(toml_dumps(config))
    return written


def hand_keys(init: dict[str, Any], overlay: dict[str, Any]) -> int:
    """The keys of ``overlay`` that differ from ``init`` (see :func:`overlay_config`)."""
    count = 0
    for key, value in overlay.items():
        was = init.get(key)
        if _is_table(value):
            was = was if isinstance(was, dict) else {}
            count += sum(1 for k, v in value.items() if was.get(k) != v)
        elif _is_table_array(value):
            olds = was if isinstance(was, list) else []
            for i, item in enumerate(value):
                old = olds[i] if i < len(olds) and isinstance(olds[i], dict) else {}
                count += sum(1 for k, v in item.items() if old.get(k) != v)
        elif was != value:
            count += 1
    return count


def overlay_plan(plan_path: Path, overlay: Path) -> int:
    """Write the overlay's answers into the plan file; the number of keys answered."""
    if not overlay.is_file():
        return 0
    plan = tomllib.loads(plan_path.read_text())
    answers = tomllib.loads(overlay.read_text())
    applied = 0
    for source, keys in answers.get("topic", {}).items():
        for topic in plan.get("topic", []):
            if source in topic.get("sources", []):
                topic.update(keys)
                applied += len(keys)
    rest = {k: v for k, v in answers.items() if k != "topic"}
    plan.update(rest)
    applied += sum(len(v) if isinstance(v, dict) else 1 for v in rest.values())
    plan_path.write_text(toml_dumps(plan))
    return applied


# --------------------------------------------------------------------------- oracle: dates


@dataclass(frozen=True)
class Born:
    """When a lineage started: unix time and the day in the author's own time zone."""

    stamp: int
    day: str


def oracle_dates(repo: Path, paths: Iterable[str], rev: str = "HEAD") -> dict[str, Born]:
    """The day each path's content first appeared, from one ``git log --raw -M`` pass.

    Every commit has its own state (path → lineage), built from its parents'
    states and its diff against each of them (``-m``), in topological order,
    parents first; a branch never sees a path another branch holds. The rule:

    * an add starts a lineage at the commit's author date (the day in the
      author's own time zone), unless the added content is similar (git's
      measure, at 50%) to content deleted at any path in a commit that is the
      add's own or one of its ancestors (``git merge-base --is-ancestor``),
      and is the same record: still similar once every line a template ever
      held is set aside, or the same title (not a template's) or the same
      number in the file name (not ``0000``, not a date); then it continues
      that lineage;
    * a commit with one parent that adds a Markdown file while it cuts another
      down to a stub (a dozen lines at most, a quarter of the old size at most,
      no longer like the old text), where the added file is like the old text
      (both measures above): the added file continues the old lineage, and the
      stub starts its own at that commit, unless no path asked about holds the
      content at the end (it went to a draft that is no record): then the stub
      keeps the old lineage's day;
    * a rename (git's ``-M``) continues the old path's lineage, also when it is
      a rename against a merge's side parent only;
    * a merge: a file it takes unchanged from its first parent keeps that
      lineage, met by the lineages of the side parents it is also unchanged
      against or renamed from; else a file it takes unchanged from side
      parents has theirs (a stub a side branch wrote at a record's old path is
      the stub); else it has the lineages of every parent that holds it
      (modified or renamed); a file no parent holds is added by the merge, and may
      continue content the same merge leaves out (as any add may).
      Where lineages meet, the earliest wins;
    * a delete ends the path's lineage and remembers its content, and so does a
      merge that leaves a parent's file out, unless that lineage lives on in
      the merge; a delete in a commit with one parent also hands its lineage to
      a live Markdown file of that commit born later whose first content is
      similar and the same record (as above), when the commit that began the
      deleted lineage is an ancestor of the one that began the live file (a
      copy, then the original removed);
    * a template's content (a file named ``template``, ``0000-template``, …, or the
      page of a folder so named, ``NNNN-kep-template/README.md``; not a name numbered
      or dated like a record's) is remembered by no delete, and adding it again
      restores nothing; only
      Markdown content is remembered and restored;
    * copies are adds.
    """
    log = subprocess.run(
        ["git", "-c", "core.quotePath=false", "log", "--topo-order", "--reverse", "-m",
         "--raw", "-M", "--no-abbrev", "--pretty=raw", rev],
        cwd=repo, env=_env(), capture_output=True, check=True,
    ).stdout.decode("utf-8", errors="surrogateescape")  # fmt: skip
    tip = git(repo, "rev-parse", f"{rev}^{{commit}}").strip()
    commits = list(_raw_commits(log))
    blobs = BlobReader(repo)
    templates = {c.new_blob for m in commits for cs in m.diffs.values() for c in cs
                 if _template(c.path) and c.new_blob != _NONE}  # fmt: skip
    kin = _Kin(blobs, Ancestry(repo), templates)
    history = _History(blobs, Counter(p for c in commits for p in c.parents), kin)
    for commit in commits:
        history.replay(commit)
    head = history.states.get(tip, {})
    blobs.close()
    asked = {p: head[p] for p in paths if p in head}
    return {p: history.dated(p, lineage, asked) for p, lineage in asked.items()}


@dataclass(frozen=True)
class _Change:
    """One line of ``--raw``: status letter, paths (old, new) and blobs (before, after)."""

    kind: str
    path: str
    old_path: str
    old_blob: str
    new_blob: str


@dataclass
class _Commit:
    sha: str
    parents: list[str] = field(default_factory=list)
    when: Born = Born(0, "")
    diffs: dict[str, list[_Change]] = field(default_factory=dict)  # parent → changes ("" root)


def _raw_commits(log: str) -> Iterator[_Commit]:
    """Commits of ``git log -m --raw --pretty=raw``; a merge's blocks (one per parent) join."""
    commit: _Commit | None = None
    against, header, repeat = "", False, False
    for line in log.split("\n"):
        if line.startswith("commit "):
            sha, _, rest = line[7:].partition(" ")
            repeat = commit is not None and commit.sha == sha
            if not repeat:
                if commit is not None:
                    yield commit
                commit = _Commit(sha)
            against, header = rest.removeprefix("(from ").removesuffix(")"), True
        elif commit is None:
            continue
        elif header and not line:
            header = False
            if not against and commit.parents:
                against = commit.parents[0]
        elif header and line.startswith("parent ") and not repeat:
            commit.parents.append(line[7:])
        elif header and line.startswith("author "):
            stamp, tz = line.rsplit(" ", 2)[1:]
            commit.when = Born(int(stamp), _day(int(stamp), tz))
        elif line.startswith(":"):
            commit.diffs.setdefault(against, []).append(_change(line))
    if commit is not None:
        yield commit


def _change(line: str) -> _Change:
    meta, *names = line.split("\t")
    _, _, old_blob, new_blob, status = meta.split(" ")
    old, new = _unquote(names[0]), _unquote(names[-1])
    return _Change(status[0], new, old, old_blob, new_blob)


def _unquote(name: str) -> str:
    """A path as git prints it: C-quoted (``"tab\\there.md"``) when it holds odd bytes."""
    if not name.startswith('"'):
        return name
    raw = codecs.escape_decode(name[1:-1].encode())[0]
    return raw.decode("utf-8", errors="surrogateescape")


def _day(stamp: int, tz: str) -> str:
    """The calendar day at ``stamp`` on the author's clock (``tz`` as ``+0530``)."""
    sign = -1 if tz.startswith("-") else 1
    offset = timedelta(hours=int(tz[1:3]), minutes=int(tz[3:5])) * sign
    return datetime.fromtimestamp(stamp, timezone(offset)).date().isoformat()


_TEMPLATE_NAME = re.compile(r"(?:^|[-_ .])template(?:[-_ .]|$)", re.IGNORECASE)


def _markdown(path: str) -> bool:
    return path.lower().endswith((".md", ".markdown"))


def _template(path: str) -> bool:
    """A file named ``template`` (``0000-template.md``), or the page of a folder so named
    (``keps/NNNN-kep-template/README.md``: every KEP starts as a copy of that folder); a
    name numbered or dated like a record (``0114-template-compiler``) is a record's."""
    if not _markdown(path):
        return False
    folder, _, name = path.rpartition("/")
    if name.lower() in ("readme.md", "index.md"):
        name = folder.rpartition("/")[2]
    numbered = _NUMBERED_NAME.match(name)
    return bool(_TEMPLATE_NAME.search(name)) and (numbered is None or not int(numbered.group(1)))


State = dict[str, int]  # path → lineage id
_EMPTY = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"  # the empty blob: no content, no identity
_NONE = "0" * 40  # the blob of a side that has no file


class Ancestry:
    """Whether one commit is another or one of its ancestors, as git answers it."""

    def __init__(self, repo: Path) -> None:
        self._repo = repo
        self._known: dict[tuple[str, str], bool] = {}

    def __call__(self, older: str, newer: str) -> bool:
        if older == newer:
            return True
        if (older, newer) not in self._known:
            done = subprocess.run(
                ["git", "merge-base", "--is-ancestor", older, newer],
                cwd=self._repo, env=_env(), capture_output=True,
            )  # fmt: skip
            self._known[(older, newer)] = done.returncode == 0
        return self._known[(older, newer)]


_NUMBERED_NAME = re.compile(r"(?i)^(?:[a-z]+[-_ ]?)?(\d+)(?:[-_ .]|$)")
_DATE_NAME = re.compile(r"^(?:\d{4}[-_]?\d\d|\d\d[-_]\d\d[-_]\d\d)(?:\D|$)")


_NUMBER_PART = re.compile(r"^(?:[a-z]+[-_ ]?)?\d+\s*[-_ .:]+\s*", re.IGNORECASE)


def name_number(path: str) -> int | None:
    """The number a file name starts with (``0042-x``, ``adr-7``, ``eip-3``): not 0, no date."""
    name = path.rpartition("/")[2]
    found = None if _DATE_NAME.match(name) else _NUMBERED_NAME.match(name)
    return (int(found.group(1)) or None) if found else None


def heading_title(data: bytes) -> str | None:
    """The front matter's ``title:`` or the first ``# `` heading, case and spaces folded."""
    lines = data[:4096].decode("utf-8", errors="replace").splitlines()
    if lines and lines[0].strip() == "---":
        for line in lines[1:]:
            if line.strip() == "---":
                break
            if line.lower().startswith("title:"):
                return " ".join(line[6:].strip().strip("'\"").casefold().split()) or None
    for line in lines:
        if line.startswith("# "):
            return " ".join(line[2:].strip().strip("#").casefold().split()) or None
    return None


class _Kin:
    """The oracle's tests that two contents are one record, beyond git's measure: alike
    without the lines templates held, or the same title or number; and line of history."""

    def __init__(self, blobs: BlobReader, ancestry: Ancestry, templates: set[str]) -> None:
        self.blobs, self.before = blobs, ancestry
        self._boiler = {c for t in templates for c in _chunks(blobs.read(t))}
        self._titles = {heading_title(blobs.read(t)) for t in templates} - {None}

    def alike(self, a: str, b: str) -> bool:
        """Similar by git's measure once every template line is set aside."""
        mine = [c for c in _chunks(self.blobs.read(a)) if c not in self._boiler]
        theirs = [c for c in _chunks(self.blobs.read(b)) if c not in self._boiler]
        return bool(mine and theirs) and similar(b"".join(mine), b"".join(theirs))

    def same(self, path_a: str, a: str, path_b: str, b: str) -> bool:
        """The same record: the same number, the same title (not a template's), or alike."""
        number = name_number(path_a)
        if number is not None and number == name_number(path_b):
            return True
        title = heading_title(self.blobs.read(a))
        if (
            title is not None
            and title not in self._titles
            and title == heading_title(self.blobs.read(b))
        ):
            return True
        return self.alike(a, b)

    def renumbered(self, path_a: str, a: str, path_b: str, b: str) -> bool:
        """Given another number in its folder: the same name and title but for the number."""
        folder_a, _, name_a = path_a.rpartition("/")
        folder_b, _, name_b = path_b.rpartition("/")
        rest_a, rest_b = _NUMBER_PART.sub("", name_a, 1), _NUMBER_PART.sub("", name_b, 1)
        if folder_a != folder_b or rest_a == name_a or rest_a.lower() != rest_b.lower():
            return False
        title_a, title_b = heading_title(self.blobs.read(a)), heading_title(self.blobs.read(b))
        if title_a is None or title_b is None:
            return False
        bare = _NUMBER_PART.sub("", title_a, 1)
        return bool(bare) and bare == _NUMBER_PART.sub("", title_b, 1)

    def stub(self, old: str, new: str) -> bool:
        """``new`` is what a file was cut down to: a few lines, small, unlike ``old``."""
        before, after = self.blobs.read(old), self.blobs.read(new)
        return (
            after.count(b"\n") <= 12 and 4 * len(after) <= len(before)
            and not similar(before, after)
        )  # fmt: skip


@dataclass
class _History:
    """The oracle's replay: one state per commit still needed, lineages joined as they meet.

    A lineage is an id; ``born`` holds when each began, and ``link`` joins a
    lineage to an earlier one it continues (a similar re-add, a copy whose
    original is deleted), so every path holding it sees the earlier date.
    """

    blobs: BlobReader
    children: Counter[str]
    kin: _Kin
    states: dict[str, State] = field(default_factory=dict)
    born: list[Born] = field(default_factory=list)
    start: list[str] = field(default_factory=list)  # lineage → the commit that began it
    link: list[int] = field(default_factory=list)
    first_blob: dict[int, str] = field(default_factory=dict)  # Markdown lineage → first content
    held: dict[tuple[str, str], int] = field(default_factory=dict)  # (path, blob) → lineage
    # (blob, lineage, path, commit) of each Markdown content deleted
    graveyard: list[tuple[str, int, str, str]] = field(default_factory=list)
    template_blobs: set[str] = field(default_factory=set)
    stub_of: dict[int, int] = field(default_factory=dict)  # a stub's lineage → its content's

    def born_of(self, lineage: int) -> Born:
        return self.born[self._root(lineage)]

    def dated(self, path: str, lineage: int, asked: dict[str, int]) -> Born:
        """The day of ``path``: a stub whose content no other asked path holds is the
        content's (the proposal stayed at its own path; its text went to a draft)."""
        content = self.stub_of.get(lineage)
        if content is None:
            return self.born_of(lineage)
        home = self._root(content)
        if any(q != path and self._root(mine) == home for q, mine in asked.items()):
            return self.born_of(lineage)
        return min(self.born_of(lineage), self.born_of(content), key=lambda b: b.stamp)

    def replay(self, commit: _Commit) -> None:
        for changes in commit.diffs.values():
            self.template_blobs.update(c.new_blob for c in changes if _template(c.path))
        merge = len(commit.parents) > 1
        self.states[commit.sha] = self._merge(commit) if merge else self._step(commit)

    # -- one parent

    def _step(self, commit: _Commit) -> State:
        parent = commit.parents[0] if commit.parents else ""
        state = self._take(parent) if parent else {}
        changes = commit.diffs.get(parent, [])
        moved: dict[str, int] = {}
        dead: list[tuple[_Change, int]] = []
        for change in changes:
            if change.kind == "D" and (lineage := state.pop(change.path, None)) is not None:
                dead.append((change, lineage))
                self._bury(change, lineage, commit.sha)
            elif change.kind == "R" and (lineage := state.pop(change.old_path, None)) is not None:
                moved[change.old_path] = lineage
        for change in changes:
            if change.kind != "D":
                lineage = (
                    moved.get(change.old_path) if change.kind == "R" else state.get(change.path)
                )
                self._place(state, change, None if change.kind == "A" else lineage, commit)
        for change, lineage in dead:
            if _markdown(change.path) and not _template(change.path):
                self._copied_before(change, lineage, state)
        self._cut_to_stubs(state, changes, commit)
        return state

    def _cut_to_stubs(self, state: State, changes: list[_Change], commit: _Commit) -> None:
        """A file cut down to a stub while a new one takes its text: the text moved."""
        added = [c for c in changes if c.kind == "A" and _markdown(c.path)
                 and not _template(c.path) and c.new_blob not in self.template_blobs
                 and c.new_blob != _EMPTY]  # fmt: skip
        if not added:
            return
        for cut in changes:
            if cut.kind != "M" or not _markdown(cut.path) or _template(cut.path):
                continue
            if cut.path not in state or not self.kin.stub(cut.old_blob, cut.new_blob):
                continue
            took = [c for c in added if self._took_text(cut.old_blob, c.new_blob)]
            if not took:
                continue
            content = state[cut.path]
            for change in took:
                self._join(state[change.path], content)
            stub = state[cut.path] = self._new(commit)
            self.stub_of[stub] = content
            self.held[(cut.path, cut.new_blob)] = stub

    def _took_text(self, old: str, new: str) -> bool:
        return similar(self.blobs.read(old), self.blobs.read(new)) and self.kin.alike(old, new)

    # -- merges

    def _merge(self, commit: _Commit) -> State:
        first, *sides = commit.parents
        views = [(self._peek(p), _by_path(commit.diffs.get(p, []))) for p in sides]
        state = self._take(first)
        changes = commit.diffs.get(first, [])
        index = _by_path(changes)
        before = {c.path: state.get(c.path) for c in changes if c.kind in "MT"}
        before |= {c.path: state.get(c.old_path) for c in changes if c.kind == "R"}
        gone = {c.path: state.get(c.path) for c in changes if c.kind == "D"}
        for change in changes:
            if change.kind in "DR":
                state.pop(change.old_path if change.kind == "R" else change.path, None)
        for path, change in index.items():
            lineage = self._side_or_first(path, before.get(path), views)
            self._place(state, change, lineage, commit)
        for side, side_index in views:
            self._meet_unchanged(state, index, side, side_index)
        buried = len(self.graveyard)
        self._bury_left_out(state, gone, views, commit)
        self._restore_from_left_out(state, index, commit, buried)
        for parent in sides:
            self._release(parent)
        return state

    def _side_or_first(
        self, path: str, mine: int | None, views: list[tuple[State, dict[str, _Change]]]
    ) -> int | None:
        """A path the merge changed against its first parent: from whom it has its file."""
        unchanged: list[int] = []
        held = [mine] if mine is not None else []
        for side, side_index in views:
            change = side_index.get(path)
            if change is None and (lineage := side.get(path)) is not None:
                unchanged.append(lineage)
            elif change is not None and change.kind in "MT" and path in side:
                held.append(side[path])
            elif change is not None and change.kind == "R" and change.old_path in side:
                held.append(side[change.old_path])
        pool = unchanged or held + unchanged
        return min(pool, key=self._key) if pool else None

    def _meet_unchanged(
        self, state: State, index: dict[str, _Change], side: State, side_index: dict[str, _Change]
    ) -> None:
        """A file taken unchanged from the first parent meets the side's lineage when it is
        unchanged against the side too, or a rename of the side's file."""
        for path, lineage in side.items():
            mine = state.get(path)
            if mine is None or mine == lineage or path in index or path in side_index:
                continue
            state[path] = min(mine, lineage, key=self._key)
        for change in side_index.values():
            if change.kind != "R" or change.path in index or change.old_path not in side:
                continue
            if (mine := state.get(change.path)) is not None:
                state[change.path] = min(mine, side[change.old_path], key=self._key)

    def _bury_left_out(
        self,
        state: State,
        gone: dict[str, int | None],
        views: list[tuple[State, dict[str, _Change]]],
        commit: _Commit,
    ) -> None:
        left = [(c, lineage) for c in commit.diffs.get(commit.parents[0], []) if c.kind == "D"
                if (lineage := gone.get(c.path)) is not None]  # fmt: skip
        for parent, (side, _) in zip(commit.parents[1:], views, strict=True):
            left += [(c, side[c.path]) for c in commit.diffs.get(parent, [])
                     if c.kind == "D" and c.path in side]  # fmt: skip
        if not left:
            return
        alive = {self._root(lineage) for lineage in state.values()}
        for change, lineage in left:
            if self._root(lineage) not in alive:
                self._bury(change, lineage, commit.sha)

    def _restore_from_left_out(
        self, state: State, index: dict[str, _Change], commit: _Commit, buried: int
    ) -> None:
        """A file the merge adds continues content the same merge leaves out of a parent
        (a branch's ``0000-x.md`` landed as ``0534-x.md``, rewrapped below git's 50%): the
        adds were placed before the merge's graves were dug, so they look again."""
        graves = self.graveyard[buried:]
        if not graves:
            return
        for path, change in index.items():
            lineage = state.get(path)
            if lineage is None or self.start[lineage] != commit.sha or not _markdown(path):
                continue
            if lineage not in self.first_blob:
                continue  # a template's text, or nothing: no restore
            restored = self._resurrect(change, commit.sha, graves)
            if restored is not None:
                self._join(lineage, restored)

    # -- lineages

    def _new(self, commit: _Commit) -> int:
        self.born.append(commit.when)
        self.start.append(commit.sha)
        self.link.append(len(self.link))
        return len(self.born) - 1

    def _root(self, lineage: int) -> int:
        while self.link[lineage] != lineage:
            self.link[lineage] = self.link[self.link[lineage]]
            lineage = self.link[lineage]
        return lineage

    def _key(self, lineage: int) -> tuple[int, int]:
        root = self._root(lineage)
        return (self.born[root].stamp, root)

    def _join(self, later: int, earlier: int) -> None:
        """``later`` continues ``earlier``: both now begin when the earlier of the two began."""
        a, b = self._root(later), self._root(earlier)
        if a != b:
            first, second = sorted((a, b), key=self._key)
            self.link[second] = first

    def _place(self, state: State, change: _Change, lineage: int | None, commit: _Commit) -> None:
        """Put ``change.path`` in ``state``: ``lineage``, or a new one (an add) when ``None``."""
        if lineage is None:
            lineage = self._added(change, commit)
        state[change.path] = lineage
        self.held.setdefault((change.path, change.new_blob), lineage)

    def _added(self, change: _Change, commit: _Commit) -> int:
        lineage = self._new(commit)
        if change.new_blob in self.template_blobs or change.new_blob == _EMPTY:
            return lineage  # a template's text, or nothing, restores nothing
        held = self.held.get((change.path, change.new_blob))
        if held is not None:  # the same bytes this path held before: a restore
            self._join(lineage, held)
        if _markdown(change.path):
            self.first_blob[lineage] = change.new_blob
        restored = self._resurrect(change, commit.sha) if _markdown(change.path) else None
        if restored is not None:
            self._join(lineage, restored)
        return lineage

    def _bury(self, change: _Change, lineage: int, sha: str) -> None:
        # a template leaves none; only Markdown is remembered (records are Markdown, and a
        # code repository's thousands of deleted sources made every add a long search)
        if _markdown(change.path) and not _template(change.path) and change.old_blob != _EMPTY:
            self.graveyard.append((change.old_blob, lineage, change.path, sha))

    def _resurrect(
        self, change: _Change, sha: str, graves: list[tuple[str, int, str, str]] | None = None
    ) -> int | None:
        """The earliest lineage among contents deleted on this add's line of history that
        are similar to its content and the same record."""
        found: int | None = None
        blob = change.new_blob
        for dead, lineage, path, killed in self.graveyard if graves is None else graves:
            if found is not None and self._key(lineage) >= self._key(found):
                continue
            if killed == sha and self.kin.renumbered(path, dead, change.path, blob):
                found = lineage
                continue
            if dead != blob and not similar(self.blobs.read(dead), self.blobs.read(blob)):
                continue
            if self.kin.same(path, dead, change.path, blob) and self.kin.before(killed, sha):
                found = lineage
        return found

    def _copied_before(self, change: _Change, lineage: int, state: State) -> None:
        """A live file born after ``lineage``, on its line, whose first content is like the
        deleted one: a copy, then the original removed."""
        blob = change.old_blob
        for path, mine in state.items():
            first = self.first_blob.get(mine)
            if first is None or first in self.template_blobs or not _markdown(path):
                continue
            if self._key(mine) <= self._key(lineage):
                continue
            if first != blob and not similar(self.blobs.read(blob), self.blobs.read(first)):
                continue
            if not self.kin.same(change.path, blob, path, first):
                continue
            if self.kin.before(self.start[lineage], self.start[mine]):
                self._join(mine, lineage)

    # -- states

    def _peek(self, sha: str) -> State:
        return self.states.get(sha, {})

    def _take(self, sha: str) -> State:
        """The parent's state to build on: its own dict when no other child needs it."""
        self.children[sha] -= 1
        if self.children[sha] > 0:
            return dict(self.states.get(sha, {}))
        return self.states.pop(sha, {})

    def _release(self, sha: str) -> None:
        self.children[sha] -= 1
        if self.children[sha] <= 0:
            self.states.pop(sha, None)


def _by_path(changes: list[_Change]) -> dict[str, _Change]:
    return {c.path: c for c in changes if c.kind != "D"}


def similar(a: bytes, b: bytes, threshold: float = 0.5) -> bool:
    """Git's rename score, estimated: bytes of ``a``'s lines found in ``b`` over the larger size.

    Git hashes lines (split at newlines or every 64 bytes) and counts the
    bytes of the source that survive into the destination; a score of 50% or
    more is a rename.
    """
    big, small = max(len(a), len(b)), min(len(a), len(b))
    if big == 0:
        return True
    if small < big * threshold:
        return False
    have = Counter(_chunks(b))
    common = 0
    for chunk in _chunks(a):
        if have[chunk] > 0:
            have[chunk] -= 1
            common += len(chunk)
    return common >= big * threshold


def _chunks(data: bytes) -> Iterator[bytes]:
    start = 0
    while start < len(data):
        newline = data.find(b"\n", start, start + 64)
        end = newline + 1 if newline >= 0 else min(start + 64, len(data))
        yield data[start:end]
        start = end


class BlobReader:
    """Blob contents through one ``git cat-file --batch``, cached."""

    def __init__(self, repo: Path) -> None:
        self._proc = subprocess.Popen(
            ["git", "cat-file", "--batch"], cwd=repo, env=_env(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )  # fmt: skip
        self._cache: dict[str, bytes] = {}

    def read(self, blob: str) -> bytes:
        if blob not in self._cache:
            assert self._proc.stdin is not None and self._proc.stdout is not None
            self._proc.stdin.write(blob.encode() + b"\n")
            self._proc.stdin.flush()
            header = self._proc.stdout.readline().split()
            if len(header) < 3 or header[1] == b"missing":
                self._cache[blob] = b""
            else:
                self._cache[blob] = self._proc.stdout.read(int(header[2]))
                self._proc.stdout.read(1)
        return self._cache[blob]

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait()


# --------------------------------------------------------------------------- oracle: lost lines

_LINK_DEST = re.compile(r"\]\((?:[^()\s]|\([^()\n]*\))*(?:\s+\"[^\"\n]*\")?\)")
_REF_DEF = re.compile(r"^([ \t]{0,3}\[[^\]\n]+\]:)[ \t]*\S+.*$", re.M)
_WORD = re.compile(r"\w+")
_FRONT = re.compile(r"\A---\n.*?\n---\n", re.S)


def words(text: str, kinds: Iterable[str]) -> list[str]:
    """The words of ``text`` as a reader sees them (:func:`visible`), lower case."""
    return _WORD.findall(visible(text, kinds).lower())


def visible(text: str, kinds: Iterable[str]) -> str:
    """``text`` as a reader compares it: no link destinations, no former ids.

    Definitions are cut before inline destinations (``[x](y): z`` must not
    then read as a definition), and destinations before ids (an id inside a
    destination would split it). Line breaks are kept, so old and new text
    go through the same steps and their lines keep their numbers.
    """
    text = _LINK_DEST.sub("]", _REF_DEF.sub(r"\1", text))
    return drop_ids(text, kinds)


def drop_ids(text: str, kinds: Iterable[str]) -> str:
    """``text`` without its former ids (``RFC 1560``, also split over two lines).

    An id becomes a space and the line breaks it spanned, so the lines keep
    their numbers: an id that starts at a line's end (``[RFC`` then
    ``1560](…)``) is dropped from both lines, as it is from the new text.
    The numbers after it that name more records go with it, in every shape of
    a list: ``EIP-2929/2930``, ``CIP-25, 26, 27``, ``ADR 12 and 13``, ``RFC 3 & 4``,
    ``PEP 8 or 9``. A word of a path or address (``/rfc2119``, ``x.rfc66``) is not an id.
    """
    kinds = sorted(set(kinds), key=len, reverse=True)
    if not kinds:
        return text
    alternatives = "|".join(re.escape(k) for k in kinds)
    return re.sub(
        rf"(?i)(?<![/.])\b(?:{alternatives})[\s_-]*\d+(?:(?:/|,[ \t]*|[ \t]+(?:and|&|or)[ \t]+)\d+)*\b",
        lambda m: " " + "\n" * m[0].count("\n"),
        text,
    )


def lost_lines(old: str, new: str, kinds: Iterable[str]) -> list[str]:
    """The non-blank lines of ``old`` whose words are not in ``new``, in order.

    Both texts are first made :func:`visible` the same way. The title (first
    heading or front matter ``title:``) and the status construct (a
    ``Status`` line, the short paragraph under a Status heading, front
    matter ``status:``) are replaced by docsync's header, so they are not
    counted. A line's words must appear in ``new`` in order, each at most a
    few words after the previous one (a rewritten id inserts a title).
    """
    kinds = list(kinds)
    stream = words(new, kinds)
    positions: dict[str, list[int]] = {}
    for i, w in enumerate(stream):
        positions.setdefault(w, []).append(i)
    return [
        line for line in _checked_lines(visible(old, kinds))
        if not _found_in_order(_WORD.findall(line.lower()), positions)
    ]  # fmt: skip


def _checked_lines(text: str) -> Iterator[str]:
    front = _FRONT.match(text)
    if front:
        for line in front.group(0).splitlines()[1:-1]:
            if line.strip() and not re.match(r"(?i)\s*(title|status)\s*:", line):
                yield line
        text = text[front.end() :]
    seen_title = False
    under_status = False
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        heading = re.match(r"#{1,6}\s+(.*)", stripped)
        if heading and not seen_title:
            seen_title = True
            continue
        if heading:
            under_status = bool(re.fullmatch(r"(?i)status\W*", heading.group(1).strip()))
            continue
        if re.match(r"(?i)^[\s*_>|-]*status\b", stripped):
            continue
        if under_status and len(stripped.split()) <= 4:
            under_status = False
            continue
        under_status = False
        if re.fullmatch(r"[=-]{3,}", stripped) and not seen_title:
            seen_title = True
            continue
        yield line


def _found_in_order(ws: list[str], positions: dict[str, list[int]], gap: int = 40) -> bool:
    if not ws:
        return True
    for start in positions.get(ws[0], []):
        at = start
        for w in ws[1:]:
            nxt = next((p for p in positions.get(w, []) if at < p <= at + gap), None)
            if nxt is None:
                break
            at = nxt
        else:
            return True
    return False


# --------------------------------------------------------------------------- oracle: links


def broken_links(repo: Path) -> tuple[set[tuple[str, str]], str]:
    """lychee's broken local links: (source file, target path#fragment), and any error.

    A tracked symbolic link is a link too (keps' ``sig-release/20190331-release-notes.md``
    points at ``1733-release-notes/README.md``): it is broken when what it points at is not
    there, and lychee, which cannot read a dangling one, is given regular files only."""
    files, found = _markdown_files(repo)
    if not files:
        return found, ""
    exe = shutil.which("lychee") or "lychee"
    done = run(
        [exe, "--offline", "--include-fragments", "--no-progress", "--format", "json",
         "--root-dir", str(repo), *files],
        repo,
    )  # fmt: skip
    try:
        report = json.loads(done.out)
    except json.JSONDecodeError:
        return found, f"lychee: {done.err.strip()[:200]}"
    prefix = "file://" + str(repo.resolve()) + "/"
    for source, fails in (report.get("error_map") or report.get("fail_map") or {}).items():
        for fail in fails:
            url = str(fail.get("url", ""))
            found.add((_relative(source, repo), url.removeprefix(prefix)))
    return found, ""


def _markdown_files(repo: Path) -> tuple[list[str], set[tuple[str, str]]]:
    """The tracked Markdown files that are regular files, and (link, target) of each tracked
    symbolic link whose target is missing, as a path from the repository's root."""
    files: list[str] = []
    dangling: set[tuple[str, str]] = set()
    for entry in git(repo, "ls-files", "-s", "-z", "*.md", "*.markdown").split("\0"):
        if not entry:
            continue
        meta, _, path = entry.partition("\t")
        if not meta.startswith("120000"):
            files.append(path)
            continue
        target = os.path.normpath(os.path.join(os.path.dirname(path), os.readlink(repo / path)))
        if not (repo / target).exists():
            dangling.add((path, target))
    return files, dangling


def _relative(path: str, repo: Path) -> str:
    p = Path(path)
    return str(p.resolve().relative_to(repo.resolve())) if p.is_absolute() else path


_EMAIL_LIKE = re.compile(r"[^/@\s]+@[^/@\s]+\.[A-Za-z]{2,}")


def newly_broken(
    before: set[tuple[str, str]], after: set[tuple[str, str]], moves: dict[str, str]
) -> list[tuple[str, str]]:
    """The links broken after the migration that were not broken before it.

    A link broken before counts as the same link after the move whether the
    rewrite kept its target (the target mapped through the moves) or left it
    as written (the same relative destination, read from the moved source).
    """

    def mapped(link: tuple[str, str]) -> set[tuple[str, str]]:
        source, target = link
        path, hash_, fragment = target.partition("#")
        # a query stays with the path it follows (keps: ``[Test Plan](?tab=t.0#bookmark=…)``,
        # a link to the page itself that lychee reads as ``README.md?tab=t.0``)
        path, mark, query = path.partition("?")
        fragment = f"{mark}{query}{hash_}{fragment}" if mark else fragment
        hash_ = "" if mark else hash_
        new_source = moves.get(source, source)
        # no normpath: it would make lychee's "(https://…)" read "(https:/…)"
        folder, new_folder = posixpath.dirname(source), posixpath.dirname(new_source)
        inside = not folder or path.startswith(folder + "/")
        rest = path[len(folder) + 1 :] if folder else path
        kept = (f"{new_folder}/{rest}" if new_folder else rest) if inside else path
        if not inside and "://" not in path and not path.startswith("("):
            # ``../../spec/x.md`` from a deeper folder: the same steps up from the new one
            up = posixpath.relpath(path, folder)
            kept = posixpath.normpath(posixpath.join(new_folder or ".", up))
        return {
            (new_source, moves.get(path, path) + hash_ + fragment),
            (new_source, kept + hash_ + fragment),
        }

    was = set().union(*(mapped(link) for link in before)) if before else set()
    # lychee reads a bare address (``[Ian](iant@golang.org)``) as mail before the move; a
    # rewrite that keeps naming the same (missing) path makes it a path it then checks
    was |= {(s, t) for s, t in after if _EMAIL_LIKE.fullmatch(t.rpartition("/")[2])}
    was_paths = {(s, t.partition("#")[0]) for s, t in was}
    return sorted(
        link for link in after
        if link not in was and (link[0], link[1].partition("#")[0]) not in was_paths
    )  # fmt: skip


@dataclass
class Row:
    name: str
    records: int = 0
    topics: int = 0
    questions: int = 0
    hand_keys: int = 0
    answers: int = 0
    dry_s: float = 0.0
    apply_s: float = 0.0
    peak_mib: float = 0.0
    lost: int = 0
    misdated: int = 0
    broken: int = 0
    rerun_noop: bool = False
    new_findings: int = 0
    notes: list[str] = field(default_factory=list)
    details: dict[str, list[str]] = field(default_factory=dict)
    expect_empty: bool = False

    @property
    def ok(self) -> bool:
        if self.expect_empty:
            return self.records == 0 and self.rerun_noop
        return (
            self.records > 0 and self.questions == 0 and self.lost == 0 and self.misdated == 0
            and self.broken == 0 and self.rerun_noop and self.new_findings == 0
        )  # fmt: skip


def check_repository(name: str, mirror: Path, keep: bool) -> Row:
    row = Row(name)
    repo = SCRATCH / name
    note = scratch_clone(mirror, repo)
    if note:
        row.notes.append(note)
    overlay = OVERLAYS / name
    peaks: list[float] = []

    init = docsync(repo, "init")
    peaks.append(init.peak_mib)
    if init.code not in (0, 1):
        row.notes.append(f"init exit {init.code}: {init.err.strip()[:300]}")
        if not (overlay / "config.toml").is_file():
            return row
        # init wrote nothing: the user writes the config by hand, every key of it
        (repo / ".docsync.toml").unlink(missing_ok=True)
    row.hand_keys = overlay_config(repo, overlay / "config.toml")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "Adopt docsync")
    base = git(repo, "rev-parse", "HEAD").strip()

    plan_path = repo.parent / f"{name}.plan.toml"
    dry = docsync(repo, "migrate", "--write-plan", str(plan_path))
    row.dry_s = dry.seconds
    peaks.append(dry.peak_mib)
    if dry.code == 2 or not plan_path.is_file():
        row.notes.append(f"dry run exit {dry.code}: {(dry.err or dry.out).strip()[:300]}")
        return row
    answers = row.answers = overlay_plan(plan_path, overlay / "plan.toml")
    shown = docsync(repo, "migrate", "--plan", str(plan_path), "--format", "json")
    if shown.code == 2:
        row.notes.append(f"plan refused: {shown.err.strip()[:300]}")
        return row
    plan = json.loads(shown.out)
    row.topics = len(plan["topics"])
    row.records = sum(len(t["sources"]) for t in plan["topics"])
    row.questions = len(plan["problems"])
    row.details["questions"] = [str(p) for p in plan["problems"]][:20]
    if answers:
        row.notes.append(f"{answers} answers from the overlay")
    if row.records == 0:
        row.notes.append("no records found")
        row.expect_empty = _expected(overlay).get("records") == 0
        head = git(repo, "rev-parse", "HEAD").strip()
        applied = docsync(repo, "migrate", "--apply", "--commit")
        peaks.append(applied.peak_mib)
        row.peak_mib = max(peaks)
        row.rerun_noop = (
            applied.code == 0
            and git(repo, "rev-parse", "HEAD").strip() == head
            and not git(repo, "status", "--porcelain")
        )
        row.notes.append(f"apply: exit {applied.code}: {applied.out.strip()[:120]}")
        return row

    links_before, error = broken_links(repo)
    if error:
        row.notes.append(error)
    findings_before = findings(repo)

    applied = docsync(repo, "migrate", "--apply", "--commit", "--plan", str(plan_path))
    row.apply_s = applied.seconds
    peaks.append(applied.peak_mib)
    if applied.code != 0:
        row.notes.append(f"apply exit {applied.code}: {(applied.err or applied.out).strip()[:300]}")
        row.peak_mib = max(peaks)
        return row
    moves = plan_moves(plan)

    row.details["lost"] = lost_in(repo, base, plan)
    row.lost = len(row.details["lost"])
    row.details["misdated"] = misdated(repo, base, plan)
    row.misdated = len(row.details["misdated"])
    links_after, error = broken_links(repo)
    if error:
        row.notes.append(error)
    broken = newly_broken(links_before, links_after, moves)
    row.broken = len(broken)
    row.details["broken"] = [f"{s} -> {t}" for s, t in broken][:30]
    new = new_findings(findings_before, findings(repo), moves, plan["target"])
    row.new_findings = sum(new.values())
    row.details["new findings"] = [f"{f} {c} x{n}" for (f, c), n in sorted(new.items())][:30]

    head = git(repo, "rev-parse", "HEAD").strip()
    again = docsync(repo, "migrate", "--apply", "--commit")
    peaks.append(again.peak_mib)
    status = git(repo, "status", "--porcelain")
    row.rerun_noop = (
        again.code == 0 and git(repo, "rev-parse", "HEAD").strip() == head and not status
    )
    if not row.rerun_noop:
        changed = git(repo, "diff", "--stat", head, "HEAD").strip().splitlines()[-1:]
        row.details["rerun"] = [f"exit {again.code}", *changed, *status.splitlines()[:10]]
    row.peak_mib = max(peaks)
    if not keep:
        shutil.rmtree(repo, ignore_errors=True)
        plan_path.unlink(missing_ok=True)
    return row


def plan_moves(plan: dict[str, Any]) -> dict[str, str]:
    """Old path → new path: the moves, the records, and each legacy index the migration
    removes, whose prose the new index carries (its links with it)."""
    moves = {m["from"]: m["to"] for m in plan["moves"]}
    for topic in plan["topics"]:
        for source in topic["sources"]:
            moves.setdefault(source.partition("#")[0], topic["path"])
    index = posixpath.join(plan["target"], "README.md")
    if index in plan.get("writes", []):
        for removed in plan.get("removals", []):
            name = posixpath.basename(removed).lower()
            if removed not in moves and name in ("readme.md", "index.md"):
                moves[removed] = index
    return moves


def _expected(overlay: Path) -> dict[str, Any]:
    """``expect.toml``: what the corpus entry must show instead (``records = 0``)."""
    path = overlay / "expect.toml"
    return tomllib.loads(path.read_text()) if path.is_file() else {}


def _blob(repo: Path, commit: str, path: str) -> str:
    return git(repo, "show", f"{commit}:{path}")


def lost_in(repo: Path, base: str, plan: dict[str, Any]) -> list[str]:
    # an id's kind is its leading letters: "RFC 1560", and gRPC's glued "A41"
    kinds = {m.group(0) for t in plan["topics"] for i in t["ids"] if (m := re.match(r"[A-Za-z]+", i))}
    lost: list[str] = []
    for topic in plan["topics"]:
        new = (repo / topic["path"]).read_text(errors="replace")
        for source in topic["sources"]:
            path = source.partition("#")[0]
            old = _blob(repo, base, path)
            lost.extend(f"{path}: {line.strip()[:100]}" for line in lost_lines(old, new, kinds))
    return lost


def misdated(repo: Path, base: str, plan: dict[str, Any]) -> list[str]:
    sources = [s.partition("#")[0] for t in plan["topics"] for s in t["sources"]]
    born = oracle_dates(repo, sources, base)
    wrong: list[str] = []
    for topic in plan["topics"]:
        dates = [born[s.partition("#")[0]] for s in topic["sources"] if s.partition("#")[0] in born]
        if not dates:
            wrong.append(f"{topic['path']}: no history for {topic['sources']}")
            continue
        expected = min(dates, key=lambda b: b.stamp).day
        if topic["date"] != expected:
            wrong.append(f"{topic['path']}: {topic['date']}, oracle {expected}")
    return wrong


def findings(repo: Path) -> Counter[tuple[str, str]]:
    done = docsync(repo, "check", "--format", "json")
    try:
        report = json.loads(done.out)
    except json.JSONDecodeError:
        return Counter({("<check>", f"exit {done.code}"): 1})
    items = report.get("findings", report) if isinstance(report, dict) else report
    return Counter(
        (str(f.get("path") or f.get("file")), str(f.get("code") or f.get("rule"))) for f in items
    )


def new_findings(
    before: Counter[tuple[str, str]], after: Counter[tuple[str, str]],
    moves: dict[str, str], target: str,
) -> Counter[tuple[str, str]]:  # fmt: skip
    was: Counter[tuple[str, str]] = Counter()
    for (path, code), n in before.items():
        was[(moves.get(path, path), code)] += n
    inside = Counter({k: n for k, n in after.items() if k[0].startswith(target.rstrip("/") + "/")})
    return inside - was


# --------------------------------------------------------------------------- table


COLUMNS = [
    ("repository", "name"), ("records", "records"), ("topics", "topics"),
    ("questions", "questions"), ("hand keys", "hand_keys"), ("answers", "answers"),
    ("dry run s", "dry_s"), ("apply s", "apply_s"),
    ("peak MiB", "peak_mib"), ("lost lines", "lost"), ("misdated", "misdated"),
    ("links broken", "broken"), ("re-run no-op", "rerun_noop"), ("new findings", "new_findings"),
]  # fmt: skip


def cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def table(rows: list[Row]) -> str:
    head = "| " + " | ".join(c for c, _ in COLUMNS) + " | ok |"
    rule = "|" + " --- |" * (len(COLUMNS) + 1)
    body = [
        "| " + " | ".join(cell(getattr(r, a)) for _, a in COLUMNS) + f" | {cell(r.ok)} |"
        for r in rows
    ]
    return "\n".join([head, rule, *body])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "names", nargs="*", help=f"corpus names (default: all): {', '.join(CORPUS)}"
    )
    parser.add_argument("--mirror-root", type=Path, default=MIRRORS)
    parser.add_argument("--keep", action="store_true", help="keep the scratch clones")
    parser.add_argument("--json", action="store_true", help="rows as JSON")
    parser.add_argument("--details", action="store_true", help="list what failed")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in CORPUS]
    if unknown:
        parser.error(f"unknown: {', '.join(unknown)}; known: {', '.join(CORPUS)}")
    rows = []
    for name in args.names or list(CORPUS):
        mirror = args.mirror_root / CORPUS[name].replace("/", "+") / "repo"
        print(f"{name} …", file=sys.stderr, flush=True)
        rows.append(check_repository(name, mirror, args.keep))
    if args.json:
        print(json.dumps([{**asdict(r), "ok": r.ok} for r in rows], indent=2))
    else:
        print(table(rows))
        for r in rows:
            for note in r.notes:
                print(f"{r.name}: {note}")
            if args.details or not r.ok:
                for what, items in r.details.items():
                    for item in items:
                        print(f"{r.name}: {what}: {item}")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
