#!/usr/bin/env python3
"""Compare ``docsync check --gate links`` with GitHub's rendering on real documentation trees.

The truth is computed here, independently of docsync (nothing here imports it):

* the files: ``git ls-files -s`` of a fresh clone (a link to anything else,
  or out of the repository, is broken; a symlink counts when what it points
  at is tracked);
* the links: every ``href`` of an ``<a>``, every ``src`` and ``srcset``
  candidate of an ``<img>`` or ``<source>`` in cmark-gfm's HTML of each
  Markdown file (GitHub's extensions, footnotes, raw HTML kept, YAML front
  matter set aside as GitHub shows it as a table);
* the anchors: GitHub's heading slugs (github-slugger: the heading's visible
  text, lower case, letters, marks, digits, ``_``, ``-`` and spaces kept,
  each space a ``-``, a counter for repeats), the ``id`` and ``name`` of
  ``<a>`` elements and cmark-gfm's footnote ids, all reached through
  GitHub's ``user-content-`` prefix, case-insensitively; ``#`` and ``#top``
  always; a folder has its README's anchors and ``readme``; ``#L10`` only on
  a file that is not Markdown (or with ``?plain=1``). See
  ``tests/cases/links/SEMANTICS.md``.

Each broken link of the truth is matched with a docsync finding of the links
gate (L009 and L010 excepted: they are not broken links) in the same file,
on a line of the same block (cmark-gfm's source positions), preferring the
finding that names the link's destination. What is left is a false negative
(truth broken, no finding) or a false positive (a finding, nothing broken).

    python scripts/links_oracle.py                      # the four default trees
    python scripts/links_oracle.py book spec --details  # some, listing FP and FN
    python scripts/links_oracle.py --tree /path/to/clone  # any git work tree
    python scripts/links_oracle.py --mirror-root DIR    # mirrors at DIR/<owner>+<name>/repo
    python scripts/links_oracle.py --json               # rows for programs
    python scripts/links_oracle.py book --config site.toml  # that .docsync.toml in the tree
    python scripts/links_oracle.py -- --strict-fragments  # after --: passed to docsync check

Mirrors are cloned to ``$LINKS_SCRATCH`` (default ``/tmp/links-oracle``).
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import cmarkgfm
from cmarkgfm.cmark import Options

MIRRORS = Path("/work/.mirror")
SCRATCH = Path(os.environ.get("LINKS_SCRATCH", "/tmp/links-oracle"))

# name → "owner/name" (mirrored at <root>/<owner>+<name>/repo)
TREES: dict[str, str] = {
    "book": "rust-lang/book",  # an mdBook book: chapters link ch01-00.html
    "spec": "open-telemetry/opentelemetry-specification",  # a specification
    "community": "kubernetes/community",  # a community and governance repository
    "docs-site": "squidfunk/mkdocs-material",  # a docs site (MkDocs), docs/ of its own
}

MARKDOWN_EXT = (".md", ".markdown", ".mdown", ".mkdn", ".mkd", ".mdwn")
BROKEN_RULES_EXCLUDED = {"L009", "L010"}  # unused and duplicate definitions
OPTIONS = Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_SOURCEPOS | Options.CMARK_OPT_FOOTNOTES
_FRONT = re.compile(r"\A---[ \t]*\r?\n(?:.*?\r?\n)?---[ \t]*(?:\r?\n|\Z)", re.S)
_LINE_ANCHOR = re.compile(r"L\d+(?:C\d+)?(?:-L\d+(?:C\d+)?)?")


def is_markdown(path: str) -> bool:
    return path.lower().endswith(MARKDOWN_EXT)


# --------------------------------------------------------------------------- the files


@dataclass(frozen=True)
class Tree:
    """What ``git ls-files -s`` says: files, folders, symlinks and where they point."""

    files: frozenset[str]
    folders: frozenset[str]
    symlinks: dict[str, str]

    def resolve(self, path: str) -> str | None:
        """``path`` itself when tracked, what a symlink points at, or None."""
        seen = 0
        while path in self.symlinks and seen < 20:
            seen += 1
            pointed = posixpath.normpath(
                posixpath.join(posixpath.dirname(path), self.symlinks[path])
            )
            if pointed.startswith("../") or pointed == "..":
                return None
            path = pointed
        if path in self.files or path in self.folders:
            return path
        return None


def read_tree(repo: Path) -> Tree:
    listing = git(repo, "ls-files", "-s", "-z").split("\0")
    files: set[str] = set()
    links: dict[str, str] = {}
    for entry in filter(None, listing):
        meta, path = entry.split("\t", 1)
        mode, blob = meta.split()[:2]
        files.add(path)
        if mode == "120000":
            links[path] = git(repo, "cat-file", "blob", blob)
    folders = {"."} | {
        "/".join(p.split("/")[:i]) for p in files for i in range(1, p.count("/") + 1)
    }
    return Tree(frozenset(files - set(links)), frozenset(folders), links)


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True)
    return done.stdout.decode("utf-8", errors="surrogateescape")


# --------------------------------------------------------------------------- rendering


@dataclass(frozen=True)
class Link:
    """One destination in the rendered HTML, with the lines of its block (1-based)."""

    source: str
    url: str
    first: int
    last: int


@dataclass
class Page:
    links: list[Link] = field(default_factory=list)
    anchors: set[str] = field(default_factory=set)  # lower case, without user-content-


_HEADING = {"h1", "h2", "h3", "h4", "h5", "h6"}
_WHOLE_FILE = (1, 10**9)


class _Reader(HTMLParser):
    """Links, heading texts and explicit anchors of cmark-gfm's HTML."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.page = Page()
        self.stack: list[tuple[str, tuple[int, int] | None]] = []
        self.heading: list[str] | None = None
        self.slugs: Counter[str] = Counter()
        self.taken: set[str] = set()

    def _lines(self) -> tuple[int, int]:
        for _, span in reversed(self.stack):
            if span is not None:
                return span
        return _WHOLE_FILE

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        span = _sourcepos(values.get("data-sourcepos", ""))
        if tag not in _VOID:
            self.stack.append((tag, span))
        lines = span or self._lines()
        if tag == "a" and "href" in values:
            self._add(values["href"], lines)
        if tag in ("img", "source"):
            if tag == "img" and "src" in values:
                self._add(values["src"], lines)
            for candidate in values.get("srcset", "").split(","):
                if candidate.strip():
                    self._add(candidate.split()[0], lines)
        if tag == "a":
            for key in ("id", "name"):
                if values.get(key):
                    self.page.anchors.add(_strip_prefix(values[key]).lower())
        elif values.get("id", "").startswith(("fn-", "fnref-", "user-content-fn")):
            self.page.anchors.add(_strip_prefix(values["id"]).lower())
        if tag in _HEADING:
            self.heading = []

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        if tag in _HEADING and self.heading is not None:
            self._slug("".join(self.heading))
            self.heading = None

    def handle_data(self, data: str) -> None:
        if self.heading is not None:
            self.heading.append(data)

    def _add(self, url: str, lines: tuple[int, int]) -> None:
        self.page.links.append(Link(self.source, url, *lines))

    def _slug(self, text: str) -> None:
        base = slug(text)
        candidate = base
        while candidate in self.taken:
            self.slugs[base] += 1
            candidate = f"{base}-{self.slugs[base]}"
        self.taken.add(candidate)
        self.page.anchors.add(candidate.lower())


_VOID = {"img", "br", "hr", "input", "source", "meta", "link", "wbr", "area", "col", "embed"}


def _sourcepos(value: str) -> tuple[int, int] | None:
    found = re.fullmatch(r"(\d+):\d+-(\d+):\d+", value)
    return (int(found[1]), int(found[2])) if found else None


def _strip_prefix(anchor: str) -> str:
    return anchor.removeprefix("user-content-")


def slug(text: str) -> str:
    """github-slugger's slug of a heading's visible text (without the repeat counter)."""
    kept = []
    for char in text.lower():
        category = unicodedata.category(char)
        if char in "- " or category[0] in "LM" or category in ("Nd", "Nl", "Pc"):
            kept.append(char)
    return "".join(kept).replace(" ", "-")


def render(source: str, text: str) -> Page:
    front = _FRONT.match(text)
    if front:  # GitHub shows front matter as a table: no link, no heading
        text = "\n" * front.group(0).count("\n") + text[front.end() :]
    html = cmarkgfm.github_flavored_markdown_to_html(text, options=OPTIONS)
    reader = _Reader(source)
    reader.feed(html)
    reader.close()
    return reader.page


# --------------------------------------------------------------------------- the truth


@dataclass(frozen=True)
class Verdict:
    link: Link
    why: str  # "" when it works


class Truth:
    """Which rendered links are broken on GitHub."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self.tree = read_tree(repo)
        self.pages: dict[str, Page] = {}

    def page(self, path: str) -> Page:
        if path not in self.pages:
            raw = (self.repo / path).read_bytes()
            self.pages[path] = render(path, raw.decode("utf-8", errors="replace"))
        return self.pages[path]

    def sources(self) -> list[str]:
        return sorted(p for p in self.tree.files if is_markdown(p))

    def verdicts(self) -> Iterator[Verdict]:
        for source in self.sources():
            for link in self.page(source).links:
                yield Verdict(link, self.why_broken(link))

    def why_broken(self, link: Link) -> str:
        parts = urlsplit(link.url)
        if parts.scheme or parts.netloc or link.url.startswith("//"):
            return ""
        path, fragment = unquote(parts.path), unquote(parts.fragment)
        if not path:
            target: str | None = link.source
        else:
            base = "" if path.startswith("/") else posixpath.dirname(link.source)
            joined = posixpath.normpath(posixpath.join(base, path.lstrip("/")))
            if joined == ".." or joined.startswith("../"):
                return "outside the repository"
            target = self.tree.resolve(joined)
            if target is None:
                return f"no file {joined}"
        if not fragment or fragment.lower() == "top":
            return ""
        return self._fragment(target, fragment, parts.query)

    def _fragment(self, target: str, fragment: str, query: str) -> str:
        if target in self.tree.folders:
            readme = self._readme(target)
            anchors = {"readme"} | (self.page(readme).anchors if readme else set())
        elif is_markdown(target):
            if "plain=1" in query and _LINE_ANCHOR.fullmatch(fragment):
                return ""
            anchors = self.page(target).anchors
        else:
            return ""  # line anchors and the like on a file GitHub does not render
        return "" if fragment.lower() in anchors else f"no anchor #{fragment} in {target}"

    def _readme(self, folder: str) -> str | None:
        prefix = "" if folder == "." else folder + "/"
        names = sorted(
            p for p in self.tree.files
            if p.startswith(prefix) and "/" not in p[len(prefix):]
            and p[len(prefix):].lower().rsplit(".", 1)[0] == "readme" and is_markdown(p)
        )  # fmt: skip
        return names[0] if names else None


# --------------------------------------------------------------------------- docsync


@dataclass(frozen=True)
class Claim:
    path: str
    line: int
    rule: str
    message: str


def docsync_claims(
    repo: Path, extra: Sequence[str]
) -> tuple[list[Claim], Counter[str], int, set[tuple[str, int]]]:
    """docsync's broken-link findings (one per position) as it runs by default, the
    counts of its L009 and L010 findings, its file count, and the lines of its L009
    findings (unused definitions). L009 and L010 are asked for by name: they may be
    opt-in rules, off by default."""
    report = _check(repo, extra)
    seen: set[tuple[str, int, int]] = set()
    claims = []
    for f in report["findings"]:
        if f["gate"] != "links" or f["rule"] in BROKEN_RULES_EXCLUDED:
            continue
        key = (f["path"], f["line"], f["column"])
        if key not in seen:
            seen.add(key)
            claims.append(Claim(f["path"], f["line"], f["rule"], f["message"]))
    definitions = _check(repo, [*extra, "--select", ",".join(sorted(BROKEN_RULES_EXCLUDED))])
    rules = Counter(
        str(f["rule"]) for f in definitions["findings"] if f["rule"] in BROKEN_RULES_EXCLUDED
    )
    unused = {(f["path"], f["line"]) for f in definitions["findings"] if f["rule"] == "L009"}
    return claims, rules, int(report.get("files", 0)), unused


def _check(repo: Path, extra: Sequence[str]) -> dict[str, Any]:
    exe = shutil.which("docsync") or "docsync"
    done = subprocess.run(
        [exe, "check", "--gate", "links", "--format", "json", *extra],
        cwd=repo, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode not in (0, 1):
        raise SystemExit(f"docsync check exit {done.returncode}: {done.stderr.strip()[:500]}")
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def match(
    broken: list[Link], claims: list[Claim]
) -> tuple[list[tuple[Link, Claim]], list[Link], list[Claim]]:
    """Pair broken links with claims: same file, a line of the link's block, the
    destination named when it can be; returns (pairs, false negatives, false positives)."""
    left = list(claims)
    pairs: list[tuple[Link, Claim]] = []
    todo = list(broken)
    in_block = lambda c, link: link.first <= c.line <= link.last  # noqa: E731
    # a reference link's finding is on its definition, which every use shares
    definitions: list[Claim] = []
    for test, shared in (
        (lambda c, link: in_block(c, link) and _names(c, link, exact=True), False),
        (lambda c, link: not in_block(c, link) and _names(c, link, exact=True), True),
        (lambda c, link: in_block(c, link) and _names(c, link, exact=False), False),
        (lambda c, link: not in_block(c, link) and _names(c, link, exact=False), True),
        (in_block, False),
    ):
        missed = []
        for link in todo:
            pool = left + definitions if shared else left
            pick = next((c for c in pool if c.path == link.source and test(c, link)), None)
            if pick is None:
                missed.append(link)
                continue
            if pick in left:
                left.remove(pick)
                if shared:
                    definitions.append(pick)
            pairs.append((link, pick))
        todo = missed
    return pairs, todo, left


def _names(claim: Claim, link: Link, exact: bool) -> bool:
    """Whether the finding's message names the link: its quoted destination is the link's
    (``exact``), or the message holds the destination, its path or its fragment."""
    path, _, fragment = unquote(link.url).partition("#")
    if exact:
        quoted = re.match(r"'([^']*)'", claim.message)
        whole = (link.url, unquote(link.url), f"#{fragment}" if fragment else "")
        return quoted is not None and quoted[1] in whole
    wanted = [w for w in (link.url, unquote(link.url), path, fragment) if w]
    return any(w in claim.message for w in wanted)


# --------------------------------------------------------------------------- one tree


@dataclass
class Row:
    tree: str
    files: int = 0
    docsync_files: int = 0
    links: int = 0
    broken: int = 0
    found: int = 0
    false_pos: int = 0
    false_neg: int = 0
    fp_unused: int = 0
    l009: int = 0
    l010: int = 0
    details: dict[str, list[str]] = field(default_factory=dict)


def measure(name: str, repo: Path, extra: Sequence[str]) -> Row:
    truth = Truth(repo)
    verdicts = list(truth.verdicts())
    broken = [v.link for v in verdicts if v.why]
    why = {id(v.link): v.why for v in verdicts}
    claims, rules, checked, unused = docsync_claims(repo, extra)
    pairs, missed, extra_claims = match(broken, claims)
    on_unused = [c for c in extra_claims if (c.path, c.line) in unused]
    return Row(
        name, len(truth.sources()), checked, len(verdicts), len(broken), len(pairs),
        len(extra_claims), len(missed), len(on_unused), rules["L009"], rules["L010"],
        {
            "false positive": [f"{c.path}:{c.line} {c.rule} {c.message}" for c in extra_claims],
            "false negative": [
                f"{link.source}:{link.first} {link.url} ({why[id(link)]})" for link in missed
            ],
        },
    )  # fmt: skip


def checkout(mirror: Path, name: str) -> Path:
    into = SCRATCH / name
    shutil.rmtree(into, ignore_errors=True)
    into.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(mirror), str(into)], check=True)
    git(into, "read-tree", "HEAD")
    # a snapshot can lack its largest blobs: check out the rest, an empty file for each
    subprocess.run(
        ["git", "-C", str(into), "checkout-index", "-a", "-f", "-q"], capture_output=True
    )
    for path in filter(None, git(into, "ls-files", "-z").split("\0")):
        placeholder = into / path
        if not placeholder.exists() and not placeholder.is_symlink():
            placeholder.parent.mkdir(parents=True, exist_ok=True)
            placeholder.write_bytes(b"")
    return into


# --------------------------------------------------------------------------- table

COLUMNS = [
    ("tree", "tree"), ("md files", "files"), ("docsync files", "docsync_files"),
    ("links", "links"), ("broken (truth)", "broken"), ("found", "found"),
    ("false pos", "false_pos"), ("false neg", "false_neg"),
    ("FP on an unused definition", "fp_unused"), ("L009", "l009"), ("L010", "l010"),
]  # fmt: skip


def table(rows: list[Row]) -> str:
    head = "| " + " | ".join(c for c, _ in COLUMNS) + " |"
    rule = "|" + " --- |" * len(COLUMNS)
    body = ["| " + " | ".join(str(getattr(r, a)) for _, a in COLUMNS) + " |" for r in rows]
    return "\n".join([head, rule, *body])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"trees (default: all): {', '.join(TREES)}")
    parser.add_argument("--mirror-root", type=Path, default=MIRRORS)
    parser.add_argument("--tree", type=Path, action="append", default=[], help="a work tree")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--details", action="store_true", help="list every FP and FN")
    parser.add_argument(
        "--config", type=Path, help="a .docsync.toml to put in each tree (a `site` setting)"
    )
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    args = parser.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    unknown = [n for n in args.names if n not in TREES]
    if unknown:
        parser.error(f"unknown: {', '.join(unknown)}; known: {', '.join(TREES)}")
    jobs = [(p.name, p) for p in args.tree]
    if not args.tree or args.names:
        for name in args.names or list(TREES):
            mirror = args.mirror_root / TREES[name].replace("/", "+") / "repo"
            jobs.append((name, checkout(mirror, name)))
    rows = []
    for name, repo in jobs:
        if args.config is not None:
            shutil.copyfile(args.config, repo / ".docsync.toml")
        print(f"{name} …", file=sys.stderr, flush=True)
        rows.append(measure(name, repo, extra))
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=2))
        return 0
    print(table(rows))
    for r in rows:
        for what, items in r.details.items():
            for item in items if args.details else items[:5]:
                print(f"{r.tree}: {what}: {item}")
            if not args.details and len(items) > 5:
                print(f"{r.tree}: {what}: … {len(items) - 5} more (--details)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
