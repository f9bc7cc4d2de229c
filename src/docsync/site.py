"""Docs sites: where a generator's source folder is, and how it resolves a link
written for the built site.

GitHub stays the reader by default. With ``site`` set (``"mdbook"``,
``"mkdocs"``, ``"docusaurus"``, ``"vitepress"``), or ``site_root`` and
``html_to_md`` for another generator, a link in a file under the site's source
folder that does not resolve on GitHub is tried as the site resolves it:
``ch01.html`` as ``ch01.md`` (``html_to_md``), ``/docs/x`` from the site's root,
and for the generators that route pages without extensions (Docusaurus,
VitePress) ``x`` as ``x.md`` and ``x/`` as ``x/index.md``. A link that resolves
neither way stays a finding.

The source folders come from the generator's own config files, found among the
tracked files (every one: a repository may hold several books): ``book.toml``'s ``[book] src`` (default
``src``) beside it; ``mkdocs.yml``'s ``docs_dir`` (default ``docs``) beside it;
the folder of ``docusaurus.config.*``; the folder holding ``.vitepress/``.
``site_root`` in the config overrides it.
"""

from __future__ import annotations

import posixpath
import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .regular_file import NotRegular, read_regular

GITHUB = "github"
GENERATORS = ("mdbook", "mkdocs", "docusaurus", "vitepress")
SITES = (GITHUB, *GENERATORS)
CUSTOM = "custom"

# The config file each generator reads, as a pattern on a tracked path's name.
_CONFIG_FILES: dict[str, re.Pattern[str]] = {
    "mdbook": re.compile(r"(?:^|/)book\.toml$"),
    "mkdocs": re.compile(r"(?:^|/)mkdocs\.ya?ml$"),
    "docusaurus": re.compile(r"(?:^|/)docusaurus\.config\.(?:js|mjs|cjs|ts|mts|cts)$"),
    "vitepress": re.compile(r"(?:^|/)\.vitepress/config\.(?:js|mjs|cjs|ts|mts|cts)$"),
}
_HTML_TO_MD = {"mdbook": True, "mkdocs": True, "docusaurus": False, "vitepress": True, CUSTOM: True}
_EXTENSIONLESS = {"mdbook": False, "mkdocs": False, "docusaurus": True, "vitepress": True, CUSTOM: False}
_DOCS_DIR = re.compile(r"^docs_dir[ \t]*:[ \t]*(['\"]?)(?P<dir>[^'\"#\n]*?)\1[ \t]*(?:#.*)?$", re.M)
_PAGE_EXTENSIONS = (".md", ".mdx")


@dataclass(frozen=True, slots=True)
class Site:
    """A docs site: its generator, its source folders (``""``: the repository root; a
    repository can hold several books or sites of one generator), and how it reads links
    written for the built pages."""

    name: str
    roots: tuple[str, ...]
    html_to_md: bool
    extensionless: bool

    def root_of(self, path: str) -> str | None:
        """The source folder whose site has the file at ``path`` as a page (the deepest
        one), or None when no site builds it (it is read on GitHub)."""
        found = [r for r in self.roots if not r or path.startswith(r + "/")]
        return max(found, key=len) if found else None

    def covers(self, path: str) -> bool:
        return self.root_of(path) is not None

    def candidates(self, source: str, decoded: str) -> Iterator[str]:
        """The repository paths the site may serve for the link ``decoded`` (percent-decoded,
        without query or fragment) in ``source``, in the order the site tries them."""
        root = self.root_of(source)
        if root is None:
            return
        rooted = decoded.startswith("/")
        joined = (
            posixpath.join(root, decoded.lstrip("/"))
            if rooted
            else posixpath.join(posixpath.dirname(source), decoded)
        )
        base = posixpath.normpath(joined) if joined else "."
        if base == ".." or base.startswith("../"):
            return
        base = "" if base == "." else base
        if rooted:
            yield base
        folder, name = posixpath.split(base)
        stem, extension = posixpath.splitext(name)
        if self.html_to_md and extension.lower() in (".html", ".htm"):
            yield posixpath.join(folder, stem + ".md")
            if stem.lower() == "index":
                yield posixpath.join(folder, "README.md")
        if self.extensionless and name and not extension and not decoded.endswith("/"):
            yield from (base + ext for ext in _PAGE_EXTENSIONS)
        if self.extensionless or decoded.endswith("/"):
            yield from (posixpath.join(base, f"index{ext}") for ext in _PAGE_EXTENSIONS)
            yield posixpath.join(base, "README.md")


def detect(files: Iterable[str]) -> tuple[str, str] | None:
    """The generator whose config file the repository tracks, and that file (the
    shallowest one; ties by the order of :data:`GENERATORS`); None for none."""
    found = [
        (path.count("/"), GENERATORS.index(name), name, path)
        for path in files
        for name, pattern in _CONFIG_FILES.items()
        if pattern.search(path)
    ]
    if not found:
        return None
    _, _, name, path = min(found)
    return name, path


def source_root(name: str, config_file: str, root: Path) -> str:
    """The site's source folder, from its generator's config file ``config_file``."""
    folder = posixpath.dirname(config_file)
    if name == "vitepress":
        return posixpath.dirname(folder)  # the folder holding .vitepress/
    if name == "docusaurus":
        return folder
    text = _read(root / config_file)
    if name == "mdbook":
        src = _book_src(text)
    else:
        match = _DOCS_DIR.search(text)
        src = match.group("dir").strip() if match is not None and match.group("dir").strip() else "docs"
    joined = posixpath.normpath(posixpath.join(folder, src))
    return "" if joined == "." or joined.startswith("..") else joined


def _book_src(text: str) -> str:
    try:
        book = tomllib.loads(text).get("book", {})
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):  # a repository's book.toml
        return "src"
    src = book.get("src", "src") if isinstance(book, dict) else "src"
    return src if isinstance(src, str) and src.strip() else "src"


_CONFIG_CAP = 1 << 20
"""The most docsync reads of a generator's config file: it wants one key."""


def _read(path: Path) -> str:
    """The generator's config file, or "" when it is a symlink (a tracked one can lead to
    ``/dev/zero`` or out of the repository), not a regular file, or over the cap."""
    if path.is_symlink():
        return ""
    try:
        return read_regular(path, _CONFIG_CAP, path.name).decode("utf-8", errors="replace")
    except NotRegular:
        return ""


def resolve(
    name: str, site_root: str | None, html_to_md: bool | None, files: Iterable[str], root: Path
) -> Site | None:
    """The site the config describes (None: GitHub only). ``site_root`` alone is a site
    of another generator. A generator's folders come from each of its config files the
    repository tracks (a repository of several books has a ``book.toml`` for each),
    unless ``site_root`` names one."""
    if name == GITHUB and site_root is None and html_to_md is None:
        return None
    kind = CUSTOM if name == GITHUB else name
    if site_root is not None or kind == CUSTOM:
        roots: tuple[str, ...] = ((site_root or "").strip("/"),)
    else:
        found = sorted(p for p in files if _CONFIG_FILES[kind].search(p))
        roots = tuple(dict.fromkeys(source_root(kind, p, root) for p in found)) or ("",)
    return Site(
        kind,
        roots,
        _HTML_TO_MD[kind] if html_to_md is None else html_to_md,
        _EXTENSIONLESS[kind],
    )
