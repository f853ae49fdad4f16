"""The package's layers: the statistics library stands alone, and no module imports in a cycle."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import faircompare

PACKAGE = Path(faircompare.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path) -> set[str]:
    """The faircompare modules ``name`` imports (a ``from`` import of a submodule names it)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            found |= {f"{base}.{alias.name}" for alias in node.names} | {base}
    return {module for module in found if module in MODULES and module != name}


GRAPH = {name: imported(name, path) for name, path in MODULES.items()}


def test_the_graph_sees_imports_of_modules_and_of_names():
    assert "faircompare.stats.permutation" in GRAPH["faircompare.stats"]  # from X import name
    assert "faircompare.stats.multitest" in GRAPH["faircompare.audits.rows"]


def test_no_module_imports_in_a_cycle():
    state: dict[str, str] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = "open"
        for other in sorted(GRAPH[name]):
            assert state.get(other) != "open", " -> ".join([*path, name, other])
            if other not in state:
                visit(other, [*path, name])
        state[name] = "done"

    for name in MODULES:
        if name not in state:
            visit(name, [])


def test_the_statistics_library_imports_nothing_else_of_faircompare():
    outside = {
        (name, other)
        for name in MODULES
        if name.startswith("faircompare.stats")
        for other in GRAPH[name]
        if not other.startswith("faircompare.stats")
    }
    assert outside == set()
    code = (
        "import json, sys, faircompare.stats; "
        "print(json.dumps([m for m in sys.modules if m.startswith('faircompare.')]))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    modules = json.loads(loaded.stdout)
    assert "faircompare.stats.permutation" in modules
    assert [m for m in modules if not m.startswith("faircompare.stats")] == []
