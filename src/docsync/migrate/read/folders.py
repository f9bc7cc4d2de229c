"""Records that are folders: ``CIP-0001/README.md``, ``keps/sig-node/2000-x/README.md``.

A folder named as a record is named (``CIP-0001``, ``2000-graceful-node-shutdown``,
``L121-x``) that holds a ``README.md`` (or an ``index.md``) is one record: that page is
the record, named by its folder. A file record of the same name beside it
(``L73-x.md`` beside ``L73-x/``) is the record, and the folder its companion.

Its status may live beside it, in the folder's metadata YAML (a KEP's ``kep.yaml``,
``status: implementable``), read when the page has no status of its own. The YAML
stays as it is: the tools that read it go on reading it.

The migration moves the page to the record's new path (``<date>-<slug>.md``). The
folder's other files (images, the metadata, other pages) stay where they are, and the
page's links to them are rewritten from its new folder; a link to the folder itself
leads to the new record. See docs/rfc/implemented/2026-12-07-records-that-are-folders.md.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from ...model import Span
from .names import RecordName, record_name
from .status import StatusForm, StatusReading

PAGES = ("README.md", "readme.md", "Readme.md", "index.md")
METADATA_SUFFIXES = (".yaml", ".yml")


# A record's assets, named after it (gRPC's ``A69_graphics/``): never a record itself, even
# once the record beside it has moved away.
ASSET_WORDS = frozenset({"graphics", "images", "image", "img", "assets", "figures", "diagrams", "files", "media"})


def folder_name(folder: str) -> RecordName | None:
    """What a folder's name says when it names a record (a number, or a date and words)."""
    parsed = record_name(posixpath.basename(folder) + ".md")
    if parsed is None or parsed.slug in ASSET_WORDS:
        return None
    return parsed if parsed.number is not None or parsed.slug else None


def folder_records(paths: Iterable[str]) -> Iterator[tuple[str, str]]:
    """(the page's path, the record's name as a file name ``CIP-0001.md``) of every folder
    record among ``paths``: a record-named folder's first page of :data:`PAGES`."""
    present = set(paths)
    files = {_key(posixpath.dirname(p), parsed) for p in present if (parsed := record_name(posixpath.basename(p)))}
    numbers = {(parent, number) for parent, _, number in files}
    for path in sorted(present):
        folder, page = posixpath.split(path)
        parsed = folder_name(folder) if page in PAGES and folder else None
        if parsed is None or any(posixpath.join(folder, p) in present for p in PAGES[: PAGES.index(page)]):
            continue  # README.md before index.md
        if folder + ".md" in present or _carries(folder, parsed, files, numbers):
            continue  # ``L73-x.md`` or ``A69-x.md`` is the record, ``L73-x/`` or ``A69_graphics/`` its companion
        if _in_assets(folder):
            continue  # EIPs' ``assets/eip-7701/``: the assets of ``EIPS/eip-7701.md``
        yield path, posixpath.basename(folder) + ".md"


def moved_companions(paths: Iterable[str], gone: Iterable[str]) -> frozenset[str]:
    """The pages of :func:`folder_records` whose folder carries the name or the id of a record
    file that has moved away (``gone``: the former record paths of the tree's index). After the
    move, ``design/44167/README.md`` is still the image folder of ``design/44167-x.md``, which now
    lives in the tree: it belongs to that record, as it did before the move."""
    gone = list(gone)
    keys = {_key(posixpath.dirname(p), parsed) for p in gone if (parsed := record_name(posixpath.basename(p)))}
    stems = {p.removesuffix(".md") for p in gone}
    numbers = {(parent, number) for parent, _, number in keys}
    found: set[str] = set()
    for page, _ in folder_records(paths):
        folder = posixpath.dirname(page)
        parsed = folder_name(folder)
        if folder in stems or (parsed is not None and _carries(folder, parsed, keys, numbers)):
            found.add(page)
    return frozenset(found)


def _in_assets(folder: str) -> bool:
    """Whether ``folder`` lies inside a folder of assets (``assets/``, ``images/``)."""
    return any(part.lower() in ASSET_WORDS for part in posixpath.dirname(folder).split("/"))


Keys = set[tuple[str, str, int | None]]


def _carries(folder: str, parsed: RecordName, files: Keys, numbers: set[tuple[str, int | None]]) -> bool:
    """Whether ``folder`` (named ``parsed``) carries the id of a record file beside it
    (``files``, and their (folder, number) pairs ``numbers``): its prefix and number, or its
    number alone (``design/44167/`` of ``design/adr-44167-x.md``)."""
    if parsed.number is None:
        return False
    parent = posixpath.dirname(folder)
    return _key(parent, parsed) in files or (not parsed.prefix and (parent, parsed.number) in numbers)


def _key(parent: str, parsed: RecordName) -> tuple[str, str, int | None]:
    return parent, parsed.prefix, parsed.number


def record_folder(path: str) -> str | None:
    """The folder a record's page stands for (``CIP-0001`` of ``CIP-0001/README.md``)."""
    folder, page = posixpath.split(path)
    return folder if page in PAGES and folder and folder_name(folder) is not None else None


def metadata_statuses(
    root: Path, pages: Mapping[str, str], paths: Iterable[str], limit: int
) -> dict[str, StatusReading]:
    """The status each folder record of ``pages`` (page → its tree's status key) keeps in its
    folder's one metadata YAML (``kep.yaml``), for those that have one."""
    from ...workspace.load import read_text

    yamls: dict[str, list[str]] = {}
    for path in paths:
        if path.endswith(METADATA_SUFFIXES):
            yamls.setdefault(posixpath.dirname(path), []).append(path)
    found: dict[str, StatusReading] = {}
    for page, key in pages.items():
        folder = record_folder(page)
        beside = yamls.get(folder, []) if folder is not None else []
        text = read_text(root, beside[0], limit) if len(beside) == 1 else None
        reading = metadata_status(beside[0], text, key) if text is not None else None
        if reading is not None:
            found[page] = reading
    return found


def metadata_status(path: str, text: str, key: str = "") -> StatusReading | None:
    """The status ``text`` (the YAML at ``path``) holds under ``key`` (``status``)."""
    from ...adopt.yamltext import top_scalar

    found = top_scalar(text, key or "status")
    if found is None or not found[0]:
        return None
    value, line = found
    return StatusReading(value, StatusForm.METADATA, line, Span(0, 0), origin=path)


def named_children(folder: str, paths: Sequence[str]) -> list[tuple[str, str]]:
    """(path, name) of the files in ``folder`` and of its folder records (the page, and the
    folder's name as a file's: ``CIP-0001/README.md`` → ``CIP-0001.md``)."""
    prefix = f"{folder}/" if folder else ""
    depth = prefix.count("/")
    below = [p for p in paths if p.startswith(prefix) and p.count("/") - depth in (0, 1)]
    files = sorted((p, posixpath.basename(p)) for p in below if p.count("/") == depth)
    return files + list(folder_records(below))


def tree_names(folder: str, paths: Sequence[str]) -> list[str]:
    """The names of a tree folder's records, files and folders."""
    return [name for _, name in named_children(folder, paths)]


def prose(reading: StatusReading | None) -> bool:
    """Whether a page's status leaves the word to its folder's YAML: none, or a Status
    section in prose (a KEP's ``## Status`` deep in its design is the API's, not the KEP's)."""
    return reading is None or reading.form == StatusForm.PROSE
