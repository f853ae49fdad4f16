"""The package's layers: the statistics library stands alone, no module imports in a cycle, and
a worker or the command line loads only what it needs."""

from __future__ import annotations

import ast
import importlib
import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import faircompare

PACKAGE = Path(faircompare.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"


def _runtime_nodes(tree: ast.AST):
    """Every node but those of ``if TYPE_CHECKING:`` blocks (imports for type checkers only)."""
    for child in ast.iter_child_nodes(tree):
        if not _type_checking(child):
            yield child
            yield from _runtime_nodes(child)


def imported(name: str, path: Path) -> set[str]:
    """The faircompare modules ``name`` imports when it runs (a ``from`` import of a submodule
    names it; an import for type checkers only does not count)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in _runtime_nodes(ast.parse(path.read_text())):
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
    assert "faircompare.stats.rates" in GRAPH["faircompare.measures"]  # from X import name
    assert (
        "faircompare.benchmark.summary" not in GRAPH["faircompare.benchmark.settings"]
    )  # type-only
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


# Modules of the standard library's kind (they import nothing else) that every layer shares.
FOUNDATION = {
    "faircompare",
    "faircompare.bibliography",  # a leaf: references, each kept beside the code it cites
    "faircompare.choices",  # the names a user chooses among, and the defaults they start at
    "faircompare.escaping",  # text escaped for LaTeX and BibTeX (a reference's fields)
    "faircompare._deprecations",
    "faircompare._lazy",
    "faircompare._validation",
    "faircompare.exceptions",
}


def loaded_by(code: str, prefix: str = "faircompare") -> list[str]:
    """The modules (of faircompare, or under ``prefix``) a fresh interpreter holds after ``code``."""
    code += "\nimport json, sys; print(json.dumps(sorted(sys.modules)))"
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return [m for m in json.loads(ran.stdout.splitlines()[-1]) if m.startswith(prefix)]


def test_the_foundation_imports_only_itself():
    assert {other for name in FOUNDATION for other in GRAPH[name]} <= FOUNDATION


def test_the_statistics_library_imports_nothing_else_of_faircompare():
    outside = {
        (name, other)
        for name in MODULES
        if name.startswith("faircompare.stats")
        for other in GRAPH[name]
        if not other.startswith("faircompare.stats") and other not in FOUNDATION
    }
    assert outside == set()
    modules = loaded_by("import faircompare.stats; faircompare.stats.permutation_test")
    assert "faircompare.stats.permutation" in modules
    assert [m for m in modules if not m.startswith("faircompare.stats")] == sorted(
        FOUNDATION & set(modules)
    )


LAZY = sorted(name for name, path in MODULES.items() if "_HOMES = {" in path.read_text())


def test_the_packages_with_names_on_first_use_are_those_a_worker_or_the_cli_passes_through():
    expected = {
        "algorithms", "benchmark", "config", "datasets", "preprocessing", "results", "stats"
    }  # fmt: skip
    assert LAZY == sorted(f"faircompare.{name}" for name in expected)


@pytest.mark.parametrize("package", LAZY)
def test_a_lazy_packages_names_for_type_checkers_are_its_names_at_run_time(package):
    module = importlib.import_module(package)
    checked = {}
    for node in ast.walk(ast.parse(MODULES[package].read_text())):
        if _type_checking(node):
            for imported_node in node.body:
                assert isinstance(imported_node, ast.ImportFrom)
                checked |= {alias.name: imported_node.module for alias in imported_node.names}
    assert checked == module._HOMES
    assert module.__all__ == sorted(checked)
    for name, home in checked.items():
        assert getattr(module, name) is getattr(importlib.import_module(home), name)


def test_a_worker_that_ran_an_audited_run_holds_none_of_the_coordinators_modules():
    # a worker imports benchmark.workers (its _WORKER_CODE), then runs: data, fit, measures,
    # the three audits; the plan, the profiles, the TOML loader and the store stay with the
    # coordinator (the worker unpickles the settings: faircompare.config.settings alone)
    from faircompare.benchmark import make_plan
    from faircompare.config import BenchmarkConfig

    config = BenchmarkConfig(datasets=("ricci",), algorithms=("logistic-regression",), splits=1)
    work = pickle.dumps((make_plan(config).runs[:1], BenchmarkConfig(permutations=20)))
    code = (
        "import pickle, sys\n"
        "from faircompare.benchmark.workers import serve\n"
        "from faircompare.benchmark.execute import execute_runs\n"
        "(record,) = execute_runs(*pickle.loads(sys.stdin.buffer.read()))\n"
        "print(record.status, record.error)"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code + "\nimport json; print(json.dumps(sorted(sys.modules)))"],
        input=work, capture_output=True, check=True,
    )  # fmt: skip
    status, modules = ran.stdout.decode().splitlines()[-2:]
    assert status.startswith("done"), ran.stderr.decode()[-2000:]
    modules = json.loads(modules)
    assert {"faircompare.audits.fliptest", "faircompare.measures"} <= set(modules)
    coordinator = (
        "faircompare.analysis", "faircompare.results", "faircompare.config.profiles",
        "faircompare.config.files",
    )  # fmt: skip
    assert [m for m in modules if m.startswith(coordinator)] == []


def test_the_command_line_loads_no_library_to_answer_help():
    modules = loaded_by("import faircompare.cli", prefix="")
    heavy = ("pandas", "numpy", "sklearn", "scipy", "torch", "ot", "joblib", "matplotlib")
    assert [
        m for m in modules if m.startswith(("faircompare.stats", "faircompare.algorithms"))
    ] == []
    assert [m for m in modules if m.partition(".")[0] in heavy] == []


ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"
NAME_COLUMNS = 30  # the diagram's first columns name each layer's packages and modules


def diagram_layers() -> list[set[str]]:
    """The layers of docs/architecture.md's diagram, top first, as top-level names."""
    text = ARCHITECTURE.read_text()
    block = text.split("## The layers", 1)[1].split("```", 2)[1]
    layers: list[set[str]] = []
    for line in block.strip("\n").splitlines():
        names = {name.rstrip("/").removesuffix(".py") for name in line[:NAME_COLUMNS].split()}
        if line[:1].strip():
            layers.append(set())
        layers[-1] |= names
    return layers


def top_level(module: str) -> str:
    """A module's top-level name under faircompare (``__init__`` for the package itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_the_architecture_diagram_names_every_module_once():
    layers = diagram_layers()
    named = [name for layer in layers for name in layer]
    assert len(named) == len(set(named))
    assert set(named) == {top_level(module) for module in MODULES}


def test_every_import_goes_to_the_same_layer_or_one_below_as_the_diagram_draws():
    depth = {name: index for index, layer in enumerate(diagram_layers()) for name in layer}
    upward = sorted(
        f"{module} imports {other}"
        for module, imports in GRAPH.items()
        for other in imports
        if depth[top_level(other)] < depth[top_level(module)]
    )
    assert upward == []
