"""Find legacy record trees, and read the id, slug and title of each record.

A legacy tree is a folder whose direct children include record-named
Markdown files: numbered (``0001-x.md``, ``adr-012-x.md``, ``eip-1.md``) or
date-named (``20200924-use-x.md``, ``2020-09-24-use-x.md``). Without
configuration, folders at any depth are searched: a folder with a tree name
(``adr``, ``decisions``, ``rfcs``, …) needs one such file, any other folder
three whose names are unmistakably record names (a known kind prefix such as
``eip-``, a number padded to three digits or more, or a date). Test and
vendored folders (``tests/``, ``fixtures/``, ``node_modules/``) and the
target's lifecycle folders are never legacy trees. Templates
(``template.md``, ``0000-template.md``, ``RFC_TEMPLATE.md``) are not records; a name
numbered or dated like a record is one, whatever its words (``0002-add-template-lint.md``).
A name that starts with a date (yyyy-mm-dd, yyyymmdd, yyyy-mm, yy-mm-dd) is date-named:
its leading number is never an id.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from ...config import DEFAULT_STATUSES, Source
from ...model import Document, Heading
from ...records.model import RecordId
from ...records.templates import is_template_path
from .folders import folder_records, named_children, tree_names
from .names import RecordName, ascii_slug, record_name
from .status import StatusReading, read_status
from .titles import front_matter_title, title_heading

TREE_KINDS: dict[str, str] = {
    "adr": "ADR",
    "adrs": "ADR",
    "decisions": "ADR",
    "architecture/decisions": "ADR",
    "rfc": "RFC",
    "rfcs": "RFC",
}
INDEX_NAMES = frozenset({"readme.md", "index.md"})
# The index a legacy tree keeps for people; an ``index.md`` beside it is another tool's page
# (log4brains' home page, a docs site's section page) and stays where it is.
LEGACY_INDEX_NAMES = frozenset({"readme.md"})
# Folders that hold fixtures, examples of other projects or vendored code, not a team's records.
SKIPPED_FOLDERS = frozenset(
    {"test", "tests", "testdata", "fixtures", "__fixtures__", "integration-tests",
     "node_modules", "vendor", "third_party", "third-party", ".git", ".github"}
)  # fmt: skip
# Id prefixes of record series in the wild (``eip-1.md``, ``pep-0008.md``, ``kep-12-x.md``).
KNOWN_KINDS = frozenset(
    {"ADR", "ADRS", "RFC", "RFCS", "EIP", "ERC", "PEP", "KEP", "BIP", "TIP", "CIP", "SIP",
     "ZIP", "XEP", "FLIP", "DEP", "DR", "DEC", "AEP", "JEP", "GEP", "SEP", "NEP", "HIP"}
)  # fmt: skip
# Folder words that name a kind of record themselves (``proposals/`` → ``PROPOSAL 12``);
# ``text/`` or ``design/`` do not, and the prose is read for the kind (see :mod:`.kinds`).
RECORD_NOUNS = frozenset({"PROPOSAL", "ENHANCEMENT", "SPEC"})
# An unnamed folder is a tree only with this many unmistakable record names.
UNNAMED_TREE_MINIMUM = 3

# A number every record of a tree (this many or more) shares is a project code, not an id.
SHARED_NUMBER_MINIMUM = 3
_TITLE_PREFIX = (
    r"^\s*(?:(?:{kinds})[\s\-_]*#?\d+\b|(?:{kinds})\s*(?=:)|#?\d+(?=[\s:.)\-\u2013\u2014]))"
    r"[\s:.)\-\u2013\u2014]*"
)
_WORD = re.compile(r"[a-z0-9]+")
_PART_NUMBER = re.compile(r"\b(?:part|pt\.?)\s*(\d{1,3})\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Tree:
    """A legacy tree: its folder, the kind word of its ids and its default statuses.

    ``status`` is the state of a record that has no status construct;
    ``folders`` maps a subfolder name to the state of the records in it
    (``active`` → proposed): those subfolders' records belong to the tree.
    """

    path: str
    kind: str
    status: str = ""
    folders: Mapping[str, str] = field(default_factory=dict)
    status_key: str = ""  # the front-matter key of the records' status, when not ``status``


@dataclass(frozen=True, slots=True)
class LegacyRecord:
    """One record as found, parsed once. Date-named records have no id."""

    path: str
    record_id: RecordId | None
    name_slug: str
    title: str
    title_heading: Heading | None
    status: StatusReading | None
    doc: Document
    default_status: str = ""
    kind: str = "ADR"
    tree: str = ""


# --------------------------------------------------------------------------- names


def _unmistakable(name: str) -> bool:
    """A record name no docs site uses for chapters: a kind prefix, a padded number, a date."""
    parsed = record_name(name)
    if parsed is None:
        return False
    if parsed.number is None or parsed.prefix in KNOWN_KINDS or parsed.letter:
        return True
    digits = re.match(r"\d+", name)
    return digits is not None and len(digits.group(0)) >= 3


@cache
def _title_prefix(kind: str) -> re.Pattern[str]:
    kinds = "|".join(re.escape(k) for k in dict.fromkeys(("ADR", "RFC", kind.upper())))
    return re.compile(_TITLE_PREFIX.replace("{kinds}", kinds), re.IGNORECASE)


def strip_title_prefix(title: str, kind: str = "ADR") -> str:
    """A title without its leading kind or number (``ADR 0004: Foo`` → ``Foo``)."""
    stripped = _title_prefix(kind).sub("", title, count=1).strip()
    return stripped or title.strip()


def normalized_title(title: str, kind: str = "ADR") -> str:
    """What two titles must share to be the same topic: case, punctuation and prefix ignored."""
    return " ".join(_WORD.findall(strip_title_prefix(title, kind).lower()))


def part_id(record_id: RecordId | None, heading: str) -> RecordId | None:
    """The qualified id a section stands for (``Part 3: …`` of RFC 006 → ``RFC 006 part 3``)."""
    found = _PART_NUMBER.search(heading)
    if found is None or record_id is None:
        return None
    return RecordId(record_id.kind, record_id.number, int(found.group(1)))


def kind_for(folder: str, names: Iterable[str] = ()) -> str:
    """The kind of a tree's ids: its files' prefix (``eip-1.md``), else from its folder names.

    ``docs/adr`` → ``ADR``; ``EIPS/`` of ``eip-N.md`` → ``EIP``; a folder
    without one → its short name (``design/`` → ``DESIGN``), else ADR
    for an architecture or decision folder and RFC for any other.
    """
    named = named_kind(folder, names)
    if named is not None:
        return named
    base = posixpath.basename(folder).upper()
    if base.isalpha() and len(base) <= 8:
        return base[:-1] if base.endswith("S") and len(base) > 3 else base
    return "ADR" if re.search(r"architect|decision", folder, re.IGNORECASE) else "RFC"


def named_kind(folder: str, names: Iterable[str] = ()) -> str | None:
    """The kind a tree's names say: its files' prefix (``eip-1.md``), a tree name among its
    folders (``docs/adr``, ``rfcs``) or a known kind as its folder (``peps/``); None when
    only the folder's own word is left (``text/``, ``design/``), which says little."""
    # A category letter (``A1-``, ``G1-``) belongs to its record's id, not to the tree's kind.
    prefixes = Counter(p.prefix for n in names if (p := record_name(n)) and p.prefix and not p.letter)
    if prefixes:
        return prefixes.most_common(1)[0][0]
    parts = folder.split("/")
    for end in range(len(parts), 0, -1):
        here = "/".join(parts[:end])
        for name, kind in TREE_KINDS.items():
            if here == name or here.endswith("/" + name):
                return kind
    for depth, part in enumerate(reversed(parts)):  # ``peps/``, and ``keps/sig-node/`` below ``keps/``
        base = part.upper()
        for word in (base, base[:-1] if base.endswith("S") else base):
            if word in KNOWN_KINDS or (word in RECORD_NOUNS and not depth):
                return word
    return None


# --------------------------------------------------------------------------- trees


def children_of(folder: str, paths: Iterable[str]) -> list[str]:
    prefix = f"{folder}/" if folder else ""
    return sorted(p for p in paths if p.startswith(prefix) and "/" not in p[len(prefix) :])


def _is_named_tree(folder: str) -> bool:
    lowered = folder.lower()
    return any(lowered == n or lowered.endswith("/" + n) for n in TREE_KINDS)


def _skipped(folder: str, lifecycle: frozenset[str]) -> bool:
    if folder in lifecycle:
        return True
    return any(part.lower() in SKIPPED_FOLDERS for part in folder.split("/"))


def lifecycle_folders(target: str, states: Iterable[str]) -> frozenset[str]:
    """The target's lifecycle folders (``docs/rfc/implemented``), never legacy trees."""
    return frozenset(posixpath.join(target.strip("/"), s).strip("/") for s in states)


def find_trees(
    paths: Sequence[str], sources: Sequence[Source], lifecycle: frozenset[str] = frozenset()
) -> tuple[Tree, ...]:
    """The legacy trees: the configured ones, or those found at any depth (see the module)."""
    if sources:
        configured = [_configured_tree(s, paths) for s in sources]
        return (*configured, *_nested(sources, configured, find_trees(paths, (), lifecycle)))
    names: dict[str, list[str]] = {}
    for path in paths:
        folder, name = posixpath.split(path)
        if record_name(name) is not None:
            names.setdefault(folder, []).append(name)
    pages = list(folder_records(paths))
    for page, name in pages:  # ``CIP-0001/README.md``: a record of the folder above
        names.setdefault(posixpath.dirname(posixpath.dirname(page)), []).append(name)
    # What a folder record holds (``CIP-0088/CIPs/0025/README.md``) is its content, no tree.
    inside = {posixpath.dirname(page) + "/" for page, _ in pages}
    found = [
        Tree(folder, kind_for(folder, found_names))
        for folder, found_names in sorted(names.items())
        if not _skipped(folder, lifecycle) and _is_tree(folder, found_names)
        and not any((folder + "/").startswith(record) for record in inside)
    ]
    return tuple(found)


def source_of(folder: str, sources: Sequence[Source]) -> int | None:
    """The index of the source (not the root) ``folder`` is below, the nearest, or None.
    A folder named as a record (``text/0042-x/``) is that record's, not a tree below it."""
    found = [(len(s.path.strip("/")), i) for i, s in enumerate(sources) if s.path.strip("/")]
    below = [(n, i) for n, i in found if folder.startswith(sources[i].path.strip("/") + "/")]
    if not below:
        return None
    n, index = max(below)
    return None if any(record_name(part + ".md") for part in folder[n + 1 :].split("/")) else index


def _nested(sources: Sequence[Source], configured: Sequence[Tree], found: Iterable[Tree]) -> list[Tree]:
    """Trees found below a configured source that no source names: they are its trees too,
    with its kind (when it says one), its default status and its status key (``text/`` of
    the area folders ``text/logs/``, ``text/trace/``)."""
    named = {t.path for t in configured}
    named |= {posixpath.join(t.path, f) for t in configured for f in t.folders}
    nested: list[Tree] = []
    for tree in found:
        index = source_of(tree.path, sources) if tree.path not in named else None
        if index is not None:
            source = sources[index]
            nested.append(Tree(tree.path, source.kind or tree.kind, source.status, {}, source.status_key))
    return nested


def _is_tree(folder: str, names: Sequence[str]) -> bool:
    if _is_named_tree(folder):
        return True
    return sum(map(_unmistakable, names)) >= UNNAMED_TREE_MINIMUM


def _configured_tree(source: Source, paths: Sequence[str]) -> Tree:
    folder = source.path.strip("/")
    names = tree_names(folder, paths)
    return Tree(folder, source.kind or kind_for(folder, names), source.status, source.folders, source.status_key)


def record_paths(tree: Tree, paths: Iterable[str]) -> list[tuple[str, RecordId | None, str]]:
    """(path, id, slug from the name) of every record file in ``tree`` (and its status folders).

    Date-named records have no id, and neither do the records of a tree whose every
    record carries the same number (``PROJ-001-…`` in each file: a project code).
    """
    paths = list(paths)
    folders = [tree.path, *(posixpath.join(tree.path, f) for f in tree.folders)]
    named: list[tuple[str, RecordName]] = []
    for folder in folders:
        for path, name in named_children(folder, paths):
            parsed = record_name(name)
            if parsed is not None:
                named.append((path, parsed))
    shared = _shared_number([parsed for _, parsed in named])
    several = len({parsed.prefix for _, parsed in named if parsed.prefix and not parsed.letter}) > 1
    return [
        (path, None if parsed.number in (None, shared) else _record_id(tree, parsed, several), parsed.slug)
        for path, parsed in named
    ]


def _record_id(tree: Tree, parsed: RecordName, several: bool) -> RecordId:
    """The tree's kind and the name's number. A category letter is the kind of its own id
    (``A1`` and ``G1`` are two records of one tree), and so is each name's own prefix in a
    tree of several (``CIP-0001`` and ``CPS-0001``)."""
    assert parsed.number is not None
    own = parsed.letter or (several and parsed.prefix)
    return RecordId(parsed.prefix if own else tree.kind.upper(), parsed.number)


def _shared_number(names: Sequence[RecordName]) -> int | None:
    """The number every one of ``names`` carries, when there are enough of them to tell."""
    numbers = {n.number for n in names}
    if len({n.prefix for n in names if n.letter}) > 1:
        return None  # A1, G1, L1, P1: one number in four series
    if len(names) < SHARED_NUMBER_MINIMUM or len(numbers) != 1:
        return None
    return numbers.pop()


def template_paths(tree: Tree, paths: Iterable[str]) -> list[str]:
    """The tree's templates (``template.md``, ``0000-template.md``, the page of a template
    folder: ``NNNN-kep-template/README.md``): not records."""
    prefix = f"{tree.path}/" if tree.path else ""
    return sorted(
        p
        for p in paths
        if p.startswith(prefix)
        and p[len(prefix) :].count("/") <= 1
        and is_template_path(p)
        and (p[len(prefix) :].count("/") == 0 or posixpath.basename(p).lower() in INDEX_NAMES)
    )


def default_status(tree: Tree, path: str) -> str:
    """The state a record of ``tree`` at ``path`` has when it has no status construct."""
    folder = posixpath.dirname(path)
    if folder != tree.path:
        return tree.folders.get(posixpath.basename(folder), tree.status)
    return tree.status


def index_paths(tree: Tree, paths: Iterable[str]) -> list[str]:
    """The tree's index (``README.md``): its prose is carried into the new tree's index.

    An ``index.md`` is the tree's index only without a ``README.md`` and
    without a ``.log4brains.yml`` in the repository, whose home page it is;
    otherwise it belongs to another tool and stays (see :mod:`.kept_pages`).
    A tree at the repository's root has none.
    """
    if not tree.path:
        return []  # records at the repository's root: its README is the project's, not theirs
    paths = list(paths)
    children = children_of(tree.path, paths)
    readmes = [p for p in children if posixpath.basename(p).lower() in LEGACY_INDEX_NAMES]
    if readmes or ".log4brains.yml" in paths:
        return readmes
    return [p for p in children if posixpath.basename(p).lower() in INDEX_NAMES]


# --------------------------------------------------------------------------- records




def read_record(
    doc: Document,
    record_id: RecordId | None,
    name_slug: str,
    kind: str = "",
    default: str = "",
    statuses: Mapping[str, str] = DEFAULT_STATUSES,
    tree: str = "",
    status_key: str = "",
) -> LegacyRecord:
    """The record at ``doc``; its title is front matter ``title:``, else the first heading.

    With a front matter title, a level-1 heading is a section and stays.

    A file name without a slug (``eip-1.md``) takes its slug from the title;
    without a title either (a stub that says where the record moved), the
    title is its id and the slug its file name (``eip-1046``).
    """
    from ...records.tree import record_title  # read once the files are parsed, not to date them

    front_title = front_matter_title(doc)
    heading = None if front_title else title_heading(doc)
    raw = (
        front_title
        or (record_title(doc) or heading.text if heading is not None else None)
        or name_slug.replace("-", " ").capitalize()
    )
    kind = kind or (record_id.kind if record_id else "ADR")
    stem = posixpath.splitext(posixpath.basename(doc.path))[0]
    raw = raw or (str(record_id) if record_id is not None else stem)
    letter = record_id is not None and len(record_id.kind) == 1  # ``A107 - TLS …`` of gRPC
    title = strip_title_prefix(" ".join(raw.split()), record_id.kind if letter and record_id else kind)
    return LegacyRecord(
        path=doc.path,
        record_id=record_id,
        name_slug=name_slug or ascii_slug(title) or ascii_slug(stem),
        title=title,
        title_heading=heading,
        status=read_status(doc, statuses, status_key),
        doc=doc,
        default_status=default,
        kind=kind,
        tree=tree or posixpath.dirname(doc.path),
    )
