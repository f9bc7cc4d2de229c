"""The record template ``docsync new`` fills: the configured one or the one docsync ships."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from ..config import Config
from ..errors import DocsyncError
from ..model import Document, Edit, apply_edits
from ..parse.native import parse
from ..parse.source import SourceError, decode
from ..regular_file import read_regular
from .status import with_status

TEMPLATE_CAP = 1 << 20
"""The most bytes a template may hold: a record skeleton is a page, and a device or a
planted giant file is never read without end (config paths are checked first, see
:mod:`docsync.config_paths`: the configured template is a file inside the repository)."""
DEFAULT_TEMPLATE = "data/record.md"
"""The template that ships with docsync, relative to the package."""


@dataclass(frozen=True, slots=True)
class Template:
    """A record template: its text (``\\n`` line ends), line ending and BOM."""

    text: str
    newline: str = "\n"
    bom: bool = False


def _decoded_template(data: bytes, origin: str) -> Template:
    try:
        text, newline, bom = decode(data)
    except SourceError as exc:
        raise DocsyncError(f"template {origin}: {exc.message}") from None
    return Template(text, newline, bom)


def read_template(root: Path, config: Config, override: Path | None = None) -> Template:
    """``override`` (a path as given), else the config's ``template``, else the shipped one."""
    if override is None and config.template is None:
        return _decoded_template(
            files("docsync").joinpath(DEFAULT_TEMPLATE).read_bytes(), DEFAULT_TEMPLATE
        )
    path = override if override is not None else root / str(config.template)
    origin = str(override) if override is not None else f"{config.template} ({config.origin})"
    return _decoded_template(read_regular(path, TEMPLATE_CAP, f"template {origin}"), origin)


def _with_title(doc: Document, title: str) -> str:
    heading = next((h for h in doc.headings if h.level == 1), None)
    if heading is None:
        return f"# {title}\n\n{doc.text}"
    return apply_edits(doc.text, [Edit(heading.span, f"# {title}")])


def fill_template(
    template: Template, path: str, title: str, word: str, relations: Mapping[str, str]
) -> str:
    """The template with its first level-1 heading set to ``title`` and its status to ``word``."""
    titled = _with_title(parse(path, template.text, "\n", False), title)
    text = with_status(parse(path, titled, "\n", False), word, relations)
    return text if text.endswith("\n") else text + "\n"
