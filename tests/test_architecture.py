"""The package's shape, checked from its source: no import cycles, layers that only look
down, and one way to reach the engine.

The import graph is read from every module's syntax tree, imports inside functions (lazy
ones) included, with an edge from a module to each module it imports and to that module's
parent subpackages (importing ``indist_fast.io.frames`` runs ``indist_fast/io/__init__``).
The top-level ``indist_fast/__init__`` is left out of the parent edges: Python runs it before
any submodule, so every module would otherwise sit on a cycle through it.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

import indist_fast

PACKAGE = pathlib.Path(indist_fast.__file__).parent
ROOT = "indist_fast"
ENGINE = f"{ROOT}._core"
# The compiled modules by topic (src/*.pyx), each with its stub.
COMPILED = {f"{ENGINE}.{name}" for name in ("_sorted", "_radix", "_radix_weighted", "_keys",
                                             "_tables", "_runs", "_segments", "_resample")}
# The compiled twin is ``fast`` with its radix paths (``fast_radix``) and the two threads
# both use (``threads``); the NumPy twin is ``reference``.
TWINS = {f"{ENGINE}.fast", f"{ENGINE}.fast_radix", f"{ENGINE}.threads", f"{ENGINE}.reference"}
# Old top-level module names, kept so existing imports work (each gives its new home).
SHIMS = {"resampling": "inference.bootstrap", "auc_inference": "inference.delong",
         "sampling": "inference.pairs", "files": "io.files", "streaming": "io.streaming",
         "ranges": "distributed.ranges", "dask": "distributed.dask",
         "sklearn": "integrations.sklearn", "plot": "integrations.plot", "report": "results"}


def _module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, pathlib.Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


MODULES = _modules()
COMPILED_NAMES = {name for name in COMPILED
                  if any(PACKAGE.parent.glob(name.replace(".", "/") + "*.pyi"))}


def _is_package(name: str) -> bool:
    return MODULES.get(name, pathlib.Path()).name == "__init__.py"


def _known(name: str) -> bool:
    return name in MODULES or name in COMPILED_NAMES


def _imports(name: str) -> set[str]:
    """Every package module ``name`` imports, anywhere in its source."""
    tree = ast.parse(MODULES[name].read_text())
    here = name if _is_package(name) else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == ROOT)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[: len(here.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != ROOT:
                continue
            out.add(target)
            for alias in node.names:            # `from pkg import submodule`
                if _known(f"{target}.{alias.name}"):
                    out.add(f"{target}.{alias.name}")
    return {m for m in out if _known(m)}


def _with_parents(targets: set[str]) -> set[str]:
    out = set(targets)
    for target in targets:
        parts = target.split(".")
        out.update(".".join(parts[:k]) for k in range(2, len(parts)))
    return {m for m in out if m != ROOT and _known(m)}


GRAPH = {name: _with_parents(_imports(name)) - {name} for name in MODULES}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_the_package():
    # a walker that found nothing would pass every rule below
    assert len(MODULES) > 30
    assert f"{ENGINE}.engine" in GRAPH[f"{ROOT}.metrics"]
    assert f"{ROOT}.integrations.plot" in GRAPH[f"{ROOT}.cli"]        # a lazy import
    assert f"{ROOT}.io" in GRAPH[f"{ROOT}.metrics"]                   # a parent package
    assert COMPILED_NAMES == COMPILED


def test_no_import_cycles():
    assert _cycles(GRAPH) == []


def test_the_cycle_finder_finds_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_engine_layer_imports_nothing_above_it():
    leaks = {name: sorted(m for m in deps if not m.startswith(ENGINE))
             for name, deps in GRAPH.items() if name.startswith(ENGINE)}
    assert {k: v for k, v in leaks.items() if v} == {}


def test_only_the_engine_reaches_the_kernels_and_twins():
    """The facade asks ``engine()``; it never picks a twin or a compiled module itself."""
    direct = {name: sorted(deps & (COMPILED | TWINS)) for name, deps in GRAPH.items()
              if not name.startswith(ENGINE)}
    assert {k: v for k, v in direct.items() if v} == {}
    # inside the engine, only the compiled twin drives the compiled modules
    drivers = {name for name, deps in GRAPH.items() if deps & COMPILED}
    assert drivers == {f"{ENGINE}.fast", f"{ENGINE}.fast_radix"}


def _backend_name_uses(name: str) -> list[int]:
    """Lines that call ``backend()`` or compare with an engine's name."""
    tree = ast.parse(MODULES[name].read_text())
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id",
                                                  getattr(node.func, "attr", None)) == "backend":
            lines.append(node.lineno)
        if isinstance(node, ast.Compare) and any(
                isinstance(c, ast.Constant) and c.value in ("cython", "numpy")
                for c in [node.left, *node.comparators]):
            lines.append(node.lineno)
    return lines


def test_no_facade_code_branches_on_the_backend():
    uses = {name: _backend_name_uses(name) for name in MODULES
            if not name.startswith(ENGINE)}
    assert {k: v for k, v in uses.items() if v} == {}


def test_the_backend_check_sees_a_branch(tmp_path, monkeypatch):
    source = tmp_path / "probe.py"
    source.write_text("from x import backend\nif backend() == 'cython':\n    pass\n")
    monkeypatch.setitem(MODULES, "probe", source)
    assert _backend_name_uses("probe") == [2, 2]


@pytest.mark.parametrize("old, new", sorted(SHIMS.items()))
def test_old_module_paths_still_import(old, new):
    pytest.importorskip({"sklearn": "sklearn", "plot": "matplotlib",
                         "dask": "dask"}.get(old, "numpy"))
    import importlib
    home = importlib.import_module(f"{ROOT}.{new}")
    assert importlib.import_module(f"{ROOT}.{old}") is home     # the module itself, not a copy
    assert getattr(indist_fast, old, home) is home   # nor does importing it rebind the package
    # a shim only re-exports: nothing imports it from inside the package
    assert not [m for m, deps in GRAPH.items() if f"{ROOT}.{old}" in deps and m != ROOT]
