"""The module boundaries the design promises, checked on the source itself."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gitutil import git_environ

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
        ("cmarkgfm", "render.py"),
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


def test_a_check_run_imports_no_validation_framework(tmp_path: Path) -> None:
    """Start-up is most of a pre-commit run on a small repository: what the CLI
    imports on the way to a check is part of its cost (typer 0.29 began
    importing pydantic to parse every option, ~0.15 s; pyproject keeps it below)."""
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=git_environ())
    (root / "README.md").write_text("# Readme\n")
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "docsync", "check", "--format", "json"],
        cwd=root,
        env=git_environ(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    imported = {line.split("|")[-1].strip().split(".")[0] for line in done.stderr.splitlines()}
    assert "docsync" in imported
    assert not imported & {"pydantic", "pydantic_core"}
