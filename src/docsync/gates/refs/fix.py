"""Gate ``refs``'s fix: bare former ids linked, moved tree paths in code rewritten."""

from __future__ import annotations

from collections.abc import Mapping

from ...model import Document, Edit, apply_edits
from ...records.tree import Tree, load_tree, whole_repository
from ...rewrite.ids import rewrite_code_text
from ...rewrite.prose_ids import bare_ids
from ...rewrite.references import rewrite_document
from ...workspace.load import Workspace
from ...write.writer import FileWrite
from .check import CodeFile, code_files_with_refs, present_paths, refs_documents


def _fixed_markdown(tree: Tree, doc: Document, present: set[str]) -> FileWrite | None:
    if not any(m.target for m in bare_ids(doc, tree.ids)):
        return None
    text, _ = rewrite_document(
        doc,
        old_path=doc.path,
        new_path=doc.path,
        moves={},
        fragments={},
        ids=tree.ids,
        exists=present.__contains__,
    )
    return FileWrite(doc.path, text, doc.newline, doc.bom) if text != doc.text else None


def _fixed_code(tree: Tree, file: CodeFile) -> FileWrite | None:
    edits = [Edit(m.span, m.replacement) for m in file.paths if m.replacement]
    text = apply_edits(file.text, edits)
    if file.ids:
        everywhere = tree.config.code_refs == "all"
        text = rewrite_code_text(text, ids=tree.ids, path=file.path, everywhere=everywhere)[0]
    return FileWrite(file.path, text, file.newline, file.bom) if text != file.text else None


def fix_refs(
    workspace: Workspace, updated: Mapping[str, Document] | None = None
) -> list[FileWrite]:
    """Rewrites for the fixable refs findings: bare former ids, moved tree paths in code.

    ``updated`` replaces documents another fixer already changed (see :func:`fix`).
    """
    tree = load_tree(workspace)
    if tree is None:
        return []
    present = present_paths(workspace)
    documents = {**workspace.documents, **(updated or {})}
    writes: list[FileWrite | None] = []
    if tree.ids:
        for path in refs_documents(workspace):
            doc = documents.get(path)
            if doc is not None:
                writes.append(_fixed_markdown(tree, doc, present))
    if whole_repository(workspace):
        writes.extend(_fixed_code(tree, file) for file in code_files_with_refs(tree))
    return [w for w in writes if w is not None]
