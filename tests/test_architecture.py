"""The module boundaries the design promises, checked on the source itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "docsync"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize(
    ("library", "allowed"),
    [
        ("markdown_it", "markdown.py"),
        ("mdit_py_plugins", "markdown.py"),
        ("git", "gitrepo.py"),
        ("typer", "cli.py"),
    ],
)
def test_one_module_imports_each_boundary_library(library: str, allowed: str) -> None:
    importers = [p.relative_to(PACKAGE).as_posix() for p in _modules() if library in _imports(p)]
    assert importers == [allowed]


def test_core_never_exits_or_prints() -> None:
    for path in _modules():
        if path.name in ("cli.py", "__main__.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("print", "exit", "quit"), f"{path.name}:{node.lineno}"
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                assert (node.value.id, node.attr) != ("sys", "exit"), f"{path.name}:{node.lineno}"
