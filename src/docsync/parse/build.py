"""markdown-it's tokens in, :class:`~docsync.model.Document` out.

One walk over the token stream :mod:`docsync.parse.markdown` makes. This
module imports nothing of markdown-it: it reads the tokens it is given
(:class:`TokenLike` names what it reads), and the parser's reference-label
normalisation is passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..model import (
    Anchor,
    Block,
    BlockKind,
    Definition,
    Document,
    Heading,
    Link,
    LinkKind,
    Paragraph,
    Span,
    line_starts_of,
    position_of,
)
from .constructors import new_block as _block
from .constructors import new_heading as _heading
from .constructors import new_line_span as _line_span
from .constructors import new_link as _new_link
from .constructors import new_paragraph as _paragraph
from .constructors import new_span as _span
from .inline_rules import RECORDED
from .positions import cell_mapper, content_line_offsets, line_mapper, paragraph_lines
from .scanned import definitions, html_targets
from .slugs import Slugger


class TokenLike(Protocol):
    """What the builder reads of a markdown-it token."""

    @property
    def type(self) -> str: ...
    @property
    def tag(self) -> str: ...
    @property
    def map(self) -> Sequence[int] | None: ...
    @property
    def content(self) -> str: ...
    @property
    def markup(self) -> str: ...
    @property
    def meta(self) -> dict[Any, Any]: ...
    @property
    def children(self) -> Sequence[TokenLike] | None: ...


Normalize = Callable[[str], str]

_CONTAINERS = {
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "blockquote",
    "footnote_open": "footnote",
    "container_docs_open": "container",
    "admonition_open": "admonition",
}
_CONTAINER_CLOSERS = frozenset(kind.replace("_open", "_close") for kind in _CONTAINERS)
_BLOCKS = {
    "fence": BlockKind.FENCE,
    "code_block": BlockKind.CODE,
    "html_block": BlockKind.HTML,
    "front_matter": BlockKind.FRONT_MATTER,
    "table_open": BlockKind.TABLE,
    "heading_open": BlockKind.HEADING,
    "math_block": BlockKind.MATH,
    "docsync_line": BlockKind.STANDALONE,
}
_INLINE, _OPEN, _CLOSE, _BLOCK = range(4)
_ACTS = {
    "inline": _INLINE,
    **dict.fromkeys(_CONTAINERS, _OPEN),
    **dict.fromkeys(_CONTAINER_CLOSERS, _CLOSE),
    **dict.fromkeys(_BLOCKS, _BLOCK),
}
"""What :meth:`_Builder.build` does with a token of each type it reads (no entry: nothing)."""
# Containers whose opening line (and closing fence) is a line of its own.
_FENCED = frozenset({"container_docs_open", "admonition_open"})


def document(
    path: str,
    text: str,
    newline: str,
    bom: bool,
    tokens: Sequence[TokenLike],
    env: Mapping[str, Any],
    normalize: Normalize,
    lines: tuple[list[str], tuple[int, ...]] | None = None,
) -> Document:
    """The document ``tokens`` (markdown-it's parse of ``text``) describe;
    ``lines``, when given, are ``text``'s lines and where each starts (what
    this computes without them)."""
    split, line_starts = lines if lines is not None else (text.split("\n"), line_starts_of(text))
    builder = _Builder(path, text, line_starts, split, normalize)
    builder.build(tokens, env)
    return Document(
        path=path,
        text=text,
        newline=newline,
        bom=bom,
        line_starts=line_starts,
        headings=tuple(builder.headings),
        anchors=tuple(builder.anchors),
        links=tuple(sorted(builder.links, key=lambda link: link.span.start)),
        definitions=tuple(sorted(builder.definitions, key=lambda d: d.span.start)),
        code_spans=tuple(builder.code_spans),
        blocks=tuple(builder.blocks),
        paragraphs=tuple(builder.paragraphs),
        used_labels=frozenset(builder.used_labels),
        footnote_ids=footnote_ids(builder.footnote_refs),
        math_spans=tuple(builder.math_spans),
    )


@dataclass
class _Builder:
    path: str
    text: str
    line_starts: tuple[int, ...]
    lines: list[str]
    normalize: Normalize
    slugger: Slugger = field(default_factory=Slugger)
    headings: list[Heading] = field(default_factory=list)
    anchors: list[Anchor] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    code_spans: list[Span] = field(default_factory=list)
    math_spans: list[Span] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    paragraphs: list[Paragraph] = field(default_factory=list)
    used_labels: set[str] = field(default_factory=set)
    footnote_refs: list[str] = field(default_factory=list)  # labels, one per reference
    admonitions: list[int] = field(default_factory=list)  # opening lines of the open ones
    cell_cursor: dict[int, int] = field(default_factory=dict)  # table line → where the next cell is

    def build(self, tokens: Sequence[TokenLike], env: Mapping[str, Any]) -> None:
        containers: list[str] = []
        around: tuple[str, ...] | None = ()  # containers as a tuple (None: changed since)
        opener: TokenLike | None = None  # the token before the current one
        acts = _ACTS
        for token in tokens:
            kind = token.type
            act = acts.get(kind)
            if act is None:
                pass
            elif act == _INLINE:
                if token.map:
                    if around is None:
                        around = tuple(containers)
                    if opener is not None and opener.type == "paragraph_open":
                        self.visit_paragraph(token, around)
                    else:
                        self.visit_inline(token, opener)
            elif act == _OPEN:
                containers.append(_CONTAINERS[kind])
                around = None
                if kind in _FENCED and token.map:
                    self.blocks.extend(_fence_lines(token, self.lines))
                if kind == "admonition_open":
                    self.admonitions.append(token.map[0] if token.map else -2)
            elif act == _CLOSE:
                if containers:  # a nested footnote's close can come without its open
                    containers.pop()
                    around = None
                if kind == "admonition_close" and self.admonitions:
                    self.admonitions.pop()
            elif token.map:
                self.blocks.append(_block(_BLOCKS[kind], _line_span(token.map[0] + 1, token.map[1])))
                if kind == "html_block":
                    start = self.line_starts[token.map[0]]
                    self.scan_html(self.text[start : start + len(token.content)], start)
            opener = token
        for start, end in env.get("docsync_definitions", []):
            self.definitions.extend(definitions(self.text, self.line_starts, start, end, self.normalize))

    def visit_paragraph(self, token: TokenLike, containers: tuple[str, ...]) -> None:
        assert token.map is not None
        first, end = token.map
        content, children = token.content, token.children
        offsets, spans = paragraph_lines(self.text, self.lines, self.line_starts, first, content)
        protected = self.visit_children(children, line_mapper(content, offsets)) if children else []
        if self.admonitions and _code_on_github(self.admonitions, first):
            self.blocks.append(_block(BlockKind.CODE, _line_span(first + 1, end)))
        else:
            self.paragraphs.append(_paragraph(_line_span(first + 1, end), spans, content, containers, tuple(protected)))

    def visit_inline(self, token: TokenLike, opener: TokenLike | None) -> None:
        assert token.map is not None
        first, parent = token.map[0], opener.type if opener is not None else ""
        content, children = token.content, token.children or []
        if parent in ("th_open", "td_open"):
            to_source = cell_mapper(self.lines, self.line_starts, self.cell_cursor, first, content)
            self.visit_children(children, to_source)
            return
        if parent != "heading_open" or _reads(children):
            atx = parent == "heading_open" and opener is not None and opener.markup.startswith("#")
            offsets = content_line_offsets(self.text, self.lines, self.line_starts, first, content, atx)
            self.visit_children(children, line_mapper(content, offsets))
        if parent == "heading_open" and opener is not None:
            self.add_heading(opener, children)

    def visit_children(self, children: Sequence[TokenLike], to_source: Callable[[int], int]) -> list[Span]:
        protected: list[Span] = []
        for child in children:
            if child.type == "footnote_ref":
                self.footnote_refs.append(str((child.meta or {}).get("label", "")))
            if child.type not in RECORDED:
                continue
            where = (child.meta or {}).get("src")
            if where is None:
                continue
            span = _span(to_source(where[0]), to_source(where[1] - 1) + 1 if where[1] > where[0] else to_source(where[0]))
            if child.type == "code_inline":
                self.code_spans.append(span)
                protected.append(span)
            elif child.type == "html_inline":
                self.scan_html(self.text[span.start : span.end], span.start)
                protected.append(span)
            elif child.type.startswith("math_inline"):
                self.math_spans.append(span)  # TeX, not Markdown: no links, kept as written
                protected.append(span)
            elif child.type in ("link_open", "image"):
                link = _link(child, span, to_source, self.text, self.line_starts, self.normalize)
                if link is not None:
                    self.links.append(link)
                    if link.label is not None:
                        self.used_labels.add(link.label)
                if child.type == "image" or child.markup == "autolink":
                    protected.append(span)
        return protected

    def add_heading(self, opener: TokenLike, children: Sequence[TokenLike]) -> None:
        assert opener.map is not None
        only = children[0] if len(children) == 1 else None
        text = only.content if only is not None and only.type == "text" else "".join(_heading_text(children))
        slug = self.slugger.slug(text)
        start = self.line_starts[opener.map[0]]
        end = self.line_starts[opener.map[1] - 1] + len(self.lines[opener.map[1] - 1])
        self.headings.append(_heading(int(opener.tag[1]), text, slug, opener.map[0] + 1, _span(start, end)))

    def scan_html(self, source: str, base: int) -> None:
        for found in html_targets(source, base, self.line_starts):
            if isinstance(found, Anchor):
                self.anchors.append(found)
            else:
                self.links.append(found)


_READ = RECORDED | {"footnote_ref"}


def _reads(children: Sequence[TokenLike]) -> bool:
    """Whether :meth:`_Builder.visit_children` has anything to read in ``children``
    (a heading's one text token, the commonest, it has not)."""
    if len(children) == 1:
        return children[0].type in _READ
    return any(child.type in _READ for child in children)


def _code_on_github(admonitions: Sequence[int], first_line: int) -> bool:
    """Whether GitHub renders a paragraph of an admonition's body as code.

    MkDocs reads an admonition's indented body as Markdown; GitHub, which
    knows no admonitions, reads it as the continuation of the ``!!!``
    line's paragraph where it follows that line directly, and as an
    indented code block everywhere else (after a blank line, in a
    nested admonition). Such a paragraph is prose to one reader and code
    to the other, so no rewriter may touch it. ``admonitions`` are the
    opening lines of the admonitions around the paragraph.
    """
    if not admonitions:
        return False
    return len(admonitions) > 1 or first_line != admonitions[0] + 1


def _fence_lines(token: TokenLike, lines: Sequence[str]) -> Iterator[Block]:
    """A container's opening line, and its closing ``:::`` line when it has one."""
    assert token.map is not None
    first, end = token.map
    yield _block(BlockKind.STANDALONE, _line_span(first + 1, first + 1))
    closing = lines[end] if token.type == "container_docs_open" and end < len(lines) else ""
    if closing.strip(" \t>").startswith(":::"):
        yield _block(BlockKind.STANDALONE, _line_span(end + 1, end + 1))


def _link(
    token: TokenLike,
    span: Span,
    to_source: Callable[[int], int],
    text: str,
    line_starts: tuple[int, ...],
    normalize: Normalize,
) -> Link | None:
    """The link a ``link_open`` or ``image`` token at ``span`` stands for (None
    for a reference-style one whose label the parser did not record)."""
    meta = token.meta
    line, column = position_of(line_starts, span.start)
    text_span = None
    if "text" in meta:
        first = to_source(meta["text"][0])
        text_span = _span(first, first + (meta["text"][1] - meta["text"][0]))
    link_text = text[text_span.start : text_span.end] if text_span else ""
    if token.markup == "autolink":
        inner = _span(span.start + 1, span.end - 1)
        return _new_link(LinkKind.AUTOLINK, text[inner.start : inner.end], line, column, span, inner)
    if "dest" in meta:
        start, end = to_source(meta["dest"][0]), to_source(meta["dest"][1] - 1) + 1
        raw = text[start:end]
        if raw.startswith("<") and raw.endswith(">"):
            start, end, raw = start + 1, end - 1, raw[1:-1]
        kind = LinkKind.IMAGE if token.type == "image" else LinkKind.INLINE
        return _new_link(kind, raw, line, column, span, _span(start, end), None, link_text, text_span)
    label = meta.get("label")
    if label is None:
        return None
    kind = LinkKind.IMAGE if token.type == "image" else LinkKind.REFERENCE
    return _new_link(kind, "", line, column, span, None, normalize(label), link_text, text_span)


def _heading_text(children: Sequence[TokenLike]) -> Iterator[str]:
    for child in children:
        if child.type in ("text", "code_inline", "math_inline", "math_inline_double"):
            yield child.content
        elif child.type in ("softbreak", "hardbreak"):
            yield "\n"


def footnote_ids(labels: Sequence[str]) -> tuple[str, ...]:
    """The element ids cmark-gfm gives footnotes referenced with ``labels``
    (in order): ``fn-x`` for each note, ``fnref-x``, ``fnref-x-2``… for its
    references. GitHub prefixes every id with ``user-content-``."""
    ids: list[str] = []
    seen: dict[str, int] = {}
    for label in labels:
        count = seen[label] = seen.get(label, 0) + 1
        if count == 1:
            ids += [f"fn-{label}", f"fnref-{label}"]
        else:
            ids.append(f"fnref-{label}-{count}")
    return tuple(ids)
