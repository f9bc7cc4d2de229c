"""The module boundaries the design promises, checked on the source itself."""

from __future__ import annotations

import ast
import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gitutil import git_environ

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "docsync"


@functools.cache
def _parsed(text: str) -> tuple[ast.AST, ...]:
    """Every node of a module's source, parsed and walked once per distinct text: the checks
    below each read the whole package, and parsing it is most of their time."""
    return tuple(ast.walk(ast.parse(text)))


def _nodes(path: Path) -> tuple[ast.AST, ...]:
    return _parsed(path.read_text(encoding="utf-8"))


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in _nodes(path):
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
        ("pyromark", "parse/native.py"),
        ("markdown_it", "parse/markdown.py"),
        ("mdit_py_plugins", "parse/markdown.py"),
        ("git", "repository/gitrepo.py"),
        ("cmarkgfm", "parse/render.py"),
        ("typer", "cli.py"),
        ("pygments", "parse/lexing.py"),
        ("pathspec", "globs.py"),
        ("tomlkit", "tomltext.py"),
        ("ruamel", "adopt/yamltext.py"),
    ],
)
def test_one_module_imports_each_boundary_library(library: str, allowed: str) -> None:
    importers = [p.relative_to(PACKAGE).as_posix() for p in _modules() if library in _imports(p)]
    assert importers == [allowed]


def test_core_never_exits_or_prints() -> None:
    for path in _modules():
        if path.name in ("cli.py", "__main__.py"):
            continue
        for node in _nodes(path):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("print", "exit", "quit"), f"{path.name}:{node.lineno}"
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                assert (node.value.id, node.attr) != ("sys", "exit"), f"{path.name}:{node.lineno}"


def _imported_by_check(root: Path) -> set[str]:
    return _imported_by(root, "check", "--format", "json")


def _imported_by(root: Path, *command: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "docsync", *command],
        cwd=root,
        env=git_environ(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}


def _packages(modules: set[str]) -> set[str]:
    return {module.split(".")[0] for module in modules}


# What a warm check has no use for: a validation framework (typer 0.29 began
# importing pydantic to parse every option, ~0.15 s; pyproject keeps it below),
# GitPython (a check runs its few git commands itself), the parser and the
# renderers (every document's findings come from the caches), the worker pool, and
# rich (JSON output is written directly; rich is for people's text and progress bars).
_UNUSED_WHEN_WARM = {
    "pydantic", "pydantic_core", "git", "gitdb", "markdown_it", "mdit_py_plugins", "pyromark",
    "cmarkgfm", "pygments", "concurrent", "multiprocessing", "rich", "ruamel", "tomlkit",
}
# docsync's own modules a check has no use for: the transaction machinery (a check
# changes nothing), the fixers. (The guarded writer is imported by a warm run that keeps
# its report; a run that replays it imports neither it nor the command line.)
_DOCSYNC_UNUSED_WHEN_WARM = {
    "docsync.write.transaction", "docsync.write.snapshot",
    "docsync.repository.gitrepo", "docsync.gates.wrap.fix", "docsync.gates.links.fix",
}
_DOCSYNC_UNUSED_WHEN_REPLAYED = {
    "docsync.cli", "docsync.workspace.results", "docsync.workspace.load", "docsync.write.writer",
    "docsync.model", "docsync.config",
}


def test_a_warm_check_imports_no_module_it_does_not_use(tmp_path: Path) -> None:
    """Start-up is most of a pre-commit run: a check of an unchanged tree imports
    only what it uses, and the first (cold) run does parse, natively: markdown-it
    is for what ``fix`` compares, never for the model a check reads."""
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    env = git_environ()
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    (root / "README.md").write_text("# Readme\n\nSee [the guide](docs/guide.md#usage).\n")
    (root / "docs" / "guide.md").write_text("# Guide\n\n## Usage\n\nRun it.\n")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    cold = _packages(_imported_by_check(root))
    assert "docsync" in cold and "pyromark" in cold
    assert not cold & {"markdown_it", "mdit_py_plugins"}
    warm = _imported_by_check(root)  # the files are too new for their stats to be believed
    assert "docsync.workspace.results" in warm
    assert not _packages(warm) & _UNUSED_WHEN_WARM
    assert not warm & _DOCSYNC_UNUSED_WHEN_WARM
    for report in (root / ".git" / "docsync").glob("replay-*"):  # kept well after the files changed
        later = report.stat().st_mtime_ns + 10**10
        os.utime(report, ns=(later, later))
    replayed = _imported_by_check(root)
    assert "docsync.commandline.replay" in replayed
    assert not _packages(replayed) & (_UNUSED_WHEN_WARM | {"typer", "click"})
    assert not replayed & (_DOCSYNC_UNUSED_WHEN_WARM | _DOCSYNC_UNUSED_WHEN_REPLAYED)


def test_a_migrate_dry_run_imports_neither_the_check_nor_the_apply(tmp_path: Path) -> None:
    """The dry run's start-up counts against its floor: the check pipeline, the
    apply (with its verdict, which runs a check) and GitPython stay unloaded."""
    root = tmp_path / "repo"
    (root / "docs" / "adr").mkdir(parents=True)
    env = git_environ()
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    (root / "docs" / "adr" / "0001-use-markdown.md").write_text(
        "# 1. Use Markdown\n\nStatus: Accepted\n\nWe write records in Markdown.\n"
    )
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    subprocess.run(["git", "commit", "-qm", "first record"], cwd=root, check=True, env=env)
    imported = _imported_by(root, "migrate")  # the process dating the records forks from it: its too
    assert "docsync.migrate.plan.plan" in imported
    assert not imported & {"docsync.check.check", "docsync.migrate.apply.apply", "docsync.migrate.apply.verdict"}
    # It writes nothing: it reads history with plain git, and no journal is there to refuse.
    assert not _packages(imported) & {"git", "gitdb"}
    assert not imported & {"docsync.repository.gitrepo", "docsync.write.transaction"}
    # Its report on a pipe is written as it is, with no console: rich and Pygments' plugin
    # scan (importlib.metadata, email) stay unloaded. (JSON is loaded: the parse cache is
    # plain JSON, which cannot run code, since the repository's .git/docsync is untrusted.)
    assert not _packages(imported) & {"rich", "email"}
    assert "importlib.metadata" not in imported


def test_forked_parse_workers_import_no_process_pool(tmp_path: Path) -> None:
    """Forked workers are started with multiprocessing alone: the process pool's
    module (concurrent.futures, 18 ms) is imported only where the pool parses."""
    from docsync.workspace import forked

    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    env = git_environ()
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    for k in range(80):  # past the parallel threshold: two workers on two cores
        (root / "docs" / f"page-{k}.md").write_text(f"# Page {k}\n\nSee [the next](page-{(k + 1) % 80}.md).\n")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    imported = _imported_by(root, "check", "--gate", "links")
    pool = (os.cpu_count() or 1) > 1 and not forked.can_fork()
    assert ("concurrent.futures.process" in imported) is pool
    assert "docsync.workspace.parsing" in imported  # the parse ran here, with workers


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
    for node in _nodes(path):
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


# --- The package graph: no cycles ------------------------------------------------------------
#
# Every import counts: top level, inside a function, and under ``if TYPE_CHECKING:``. A cycle
# that only type hints close is still two modules that each need the other to be read, and a
# lazy import inside a function is a cycle put off, not broken; so neither hides one here.
# ``from package import name`` counts as an import of the submodule when ``name`` is one.
# Package ``__init__`` modules are left out of the graph: they hold no imports (tested below).


def _module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(path: Path, known: set[str], root: Path = PACKAGE) -> set[str]:
    """The modules of ``known`` that ``path`` imports, anywhere in it."""
    name = _module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _nodes(path):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return (found & known) - {name}


def _import_graph() -> dict[str, set[str]]:
    files = [p for p in _modules() if p.name != "__init__.py"]
    modules = {_module_name(p) for p in files}
    return {_module_name(p): _imported_modules(p, modules) for p in files}


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
    return found


# The cycles that remain, each with the lane breaking it and the module prefixes it may span
# (a split may reshape a cycle; it may not spread it). Empty once both are broken.
KNOWN_CYCLES: dict[str, tuple[str, ...]] = {}


def _owner(component: set[str]) -> str | None:
    for owner, prefixes in KNOWN_CYCLES.items():
        if all(member.startswith(prefixes) for member in component):
            return owner
    return None


def test_the_package_has_no_import_cycles() -> None:
    cycles = _cycles(_import_graph())
    new = [sorted(c) for c in cycles if _owner(c) is None]
    assert new == [], "new import cycles (break them; see README 'Architecture')"
    broken = set(KNOWN_CYCLES) - {_owner(c) for c in cycles}
    assert broken == set(), "these cycles are broken: remove them from KNOWN_CYCLES"


def test_the_cycle_check_sees_relative_lazy_and_type_checking_imports(tmp_path: Path) -> None:
    """The check above cannot pass by seeing nothing: each kind of import closes a cycle."""
    graph = {
        "docsync.a": {"docsync.b"},
        "docsync.b": {"docsync.a"},
        "docsync.c": {"docsync.d"},
        "docsync.d": {"docsync.e"},
        "docsync.e": {"docsync.c"},
        "docsync.f": {"docsync.a"},
    }
    assert sorted(sorted(c) for c in _cycles(graph)) == [
        ["docsync.a", "docsync.b"],
        ["docsync.c", "docsync.d", "docsync.e"],
    ]
    known = {_module_name(p) for p in _modules()}
    assert "docsync.records.graph" in _imported_modules(PACKAGE / "records" / "index.py", known)
    probe = tmp_path / "docsync" / "x" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        "from typing import TYPE_CHECKING\nfrom ..y import one\nif TYPE_CHECKING:\n"
        "    from docsync.z import two\ndef f():\n    from .w import three\n"
        "import docsync.v\nfrom . import u\n"
    )
    names = {"docsync.y", "docsync.z", "docsync.x.w", "docsync.v", "docsync.x.u"}
    assert _imported_modules(probe, names | {"docsync.t"}, tmp_path / "docsync") == names


def test_package_inits_hold_no_imports() -> None:
    """Importing a package runs only its docstring: start-up pays for no module it does not use."""
    for path in _modules():
        if path.name == "__init__.py":
            imports = [n for n in _nodes(path) if isinstance(n, ast.Import | ast.ImportFrom)]
            assert imports == [], path.relative_to(PACKAGE).as_posix()


# --- Sizes: no module over 400 lines, no class over 150 ----------------------------------------

MODULE_LINES = 400
CLASS_LINES = 150

# Still over, each with the lane that owns its split (PROTOCOL.md). The test fails when one not
# listed grows over, and when one listed is no longer over: remove it as its split lands.
OVERSIZED: dict[str, str] = {
}


def _oversized(root: Path = PACKAGE) -> dict[str, int]:
    """Each module over MODULE_LINES and each class over CLASS_LINES, with its length."""
    found: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > MODULE_LINES:
            found[name] = len(text.splitlines())
        for node in _parsed(text):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                if length > CLASS_LINES:
                    found[f"{name}::{node.name}"] = length
    return found


def test_no_module_over_400_lines_and_no_class_over_150() -> None:
    found = _oversized()
    assert {k: v for k, v in found.items() if k not in OVERSIZED} == {}, "split these"
    assert sorted(set(OVERSIZED) - set(found)) == [], "no longer over: remove from OVERSIZED"


def test_the_size_check_counts_modules_and_classes(tmp_path: Path) -> None:
    """The check above cannot pass by seeing nothing."""
    body = "".join(f"    x{i} = {i}\n" for i in range(CLASS_LINES))
    (tmp_path / "big.py").write_text("class Big:\n" + body + "\n" * (MODULE_LINES - CLASS_LINES))
    small = "".join(f"    x{i} = {i}\n" for i in range(CLASS_LINES - 1))
    (tmp_path / "small.py").write_text("class Small:\n" + small + "\n" * (MODULE_LINES - CLASS_LINES))
    assert _oversized(tmp_path) == {"big.py": MODULE_LINES + 1, "big.py::Big": CLASS_LINES + 1}


def test_the_core_never_imports_the_command_line() -> None:
    """``cli.py`` and ``commandline/`` sit on top: they call the core, never the reverse."""
    graph = _import_graph()
    front = {"docsync.cli", "docsync.__main__"} | {m for m in graph if m.startswith("docsync.commandline.")}
    wrong = sorted((module, target) for module, targets in graph.items() if module not in front for target in targets & front)
    assert wrong == []
    assert front > {"docsync.cli", "docsync.commandline.failures"}


# --- migrate's rooms: data flows read → plan → rewrite → apply -----------------------------------
#
# A room imports only the rooms before it and ``migrate.model`` (the types every stage shares);
# ``run`` and ``show`` on top wire the stages and print. An arrow that climbs back shows a
# piece sitting in the wrong room.

MIGRATE_ROOMS = ("read", "plan", "rewrite", "apply")
MIGRATE_TOP = {"run", "show", "model"}


def _room(module: str) -> str | None:
    """The room of a ``docsync.migrate`` module ('' for model, run and show), or None outside."""
    parts = module.split(".")
    if parts[:2] != ["docsync", "migrate"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in MIGRATE_ROOMS else ""


def _climbing(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Each import of a migrate module that is not of its own room, an earlier one or the model."""
    wrong: list[tuple[str, str]] = []
    for module, targets in graph.items():
        room = _room(module)
        if room is None or module in {"docsync.migrate.run", "docsync.migrate.show"}:
            continue
        allowed = set(MIGRATE_ROOMS[: MIGRATE_ROOMS.index(room) + 1]) if room else set()
        for target in sorted(targets):
            where = _room(target)
            if where is None or target == "docsync.migrate.model":
                continue
            if where not in allowed:
                wrong.append((module, target))
    return sorted(wrong)


def test_a_migrate_room_imports_only_the_rooms_before_it_and_the_model() -> None:
    graph = _import_graph()
    assert _climbing(graph) == []
    loose = sorted(
        m for m in graph if _room(m) == "" and m.split(".")[2] not in MIGRATE_TOP
    )
    assert loose == [], "a migrate module outside the rooms: put it in read/, plan/, rewrite/ or apply/"
    assert {_room(m) for m in graph} >= {*MIGRATE_ROOMS, ""}


def test_the_room_check_sees_an_arrow_that_climbs_back() -> None:
    """The check above cannot pass by seeing nothing: each kind of wrong arrow is caught."""
    graph = {
        "docsync.migrate.read.dating": {"docsync.migrate.rewrite.fanout", "docsync.migrate.model"},
        "docsync.migrate.apply.apply": {"docsync.migrate.run", "docsync.migrate.rewrite.changes"},
        "docsync.migrate.model": {"docsync.migrate.plan.plan", "docsync.records.model"},
        "docsync.migrate.plan.plan": {"docsync.migrate.read.discover", "docsync.migrate.plan.derive"},
        "docsync.migrate.show": {"docsync.migrate.apply.apply"},
    }
    assert _climbing(graph) == [
        ("docsync.migrate.apply.apply", "docsync.migrate.run"),
        ("docsync.migrate.model", "docsync.migrate.plan.plan"),
        ("docsync.migrate.read.dating", "docsync.migrate.rewrite.fanout"),
    ]
