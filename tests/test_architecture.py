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
        ("markdown_it", "parse/markdown.py"),
        ("mdit_py_plugins", "parse/markdown.py"),
        ("git", "repository/gitrepo.py"),
        ("cmarkgfm", "parse/render.py"),
        ("typer", "cli.py"),
        ("pygments", "parse/lexing.py"),
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


_MUTATING_FUNCTIONS = {
    ("os", name)
    for name in (
        "replace", "rename", "renames", "unlink", "remove", "mkdir", "makedirs",
        "rmdir", "removedirs", "chmod", "lchmod", "symlink", "link", "truncate",
    )
} | {("shutil", name) for name in ("move", "copy", "copy2", "copyfile", "copytree", "rmtree")} | {
    ("tempfile", name) for name in ("mkstemp", "mkdtemp", "NamedTemporaryFile")
}
_MUTATING_METHODS = {
    "write_text", "write_bytes", "mkdir", "unlink", "rename", "rmdir", "chmod", "lchmod",
    "symlink_to", "hardlink_to", "touch",
}


def _mutations(path: Path) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        where = f"{path.name}:{node.lineno}"
        if isinstance(func, ast.Name) and func.id == "open":
            modes = [a for a in node.args[1:2]] + [k.value for k in node.keywords if k.arg == "mode"]
            if not all(isinstance(m, ast.Constant) and set(str(m.value)) <= set("rbt") for m in modes):
                found.append(f"{where} open(..., {ast.unparse(modes[0])})")
        elif isinstance(func, ast.Attribute):
            if isinstance(func.value, ast.Name) and (func.value.id, func.attr) in _MUTATING_FUNCTIONS:
                found.append(f"{where} {func.value.id}.{func.attr}")
            elif func.attr in _MUTATING_METHODS and not (
                isinstance(func.value, ast.Name) and func.value.id == "writer"
            ):
                found.append(f"{where} .{func.attr}()")
    return found


def test_only_the_guarded_writer_changes_the_file_system() -> None:
    """Every write, rename, folder, removal and mode change goes through writer.py,
    which refuses paths outside the repository and through symlinks."""
    found = [m for p in _modules() if p.name != "writer.py" for m in _mutations(p)]
    assert found == []


def test_the_architecture_check_sees_each_kind_of_mutation(tmp_path: Path) -> None:
    """The check above cannot pass by seeing nothing."""
    sample = tmp_path / "sample.py"
    code = (
        "import os, shutil, tempfile\nfrom pathlib import Path\n"
        "open('x', 'w')\nopen('x', mode='ab')\nos.replace('a', 'b')\nos.rename('a', 'b')\n"
        "Path('a').write_text('x')\nPath('a').write_bytes(b'')\nPath('a').mkdir()\n"
        "Path('a').unlink()\nos.chmod('a', 0)\nshutil.rmtree('a')\ntempfile.mkstemp()\n"
        "open('x')\nopen('x', 'rb')\n"
    )
    sample.write_text(code)
    assert len(_mutations(sample)) == 11
