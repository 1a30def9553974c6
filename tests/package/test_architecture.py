"""The package's shape, checked from its source: areas on floors that only look down, no
import cycles, one address per module, one way to reach the kernels, and rooms small
enough to live in.

The import graph is read from every module's syntax tree, imports inside functions (lazy
ones) and under ``TYPE_CHECKING`` included, with an edge from a module to each module it
imports and to that module's parent subpackages (importing ``indist_fast.io.frames`` runs
``indist_fast/io/__init__``). The top-level ``indist_fast/__init__`` is left out: it is the
facade that re-exports the daily functions from every area.
"""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

import indist_fast

PACKAGE = pathlib.Path(indist_fast.__file__).parent
ROOT = "indist_fast"
ENGINE = f"{ROOT}._core"
# The checkout (or unpacked sdist) holding src/ and the tests; the kernels' sources are
# read from there.
SOURCE = pathlib.Path(__file__).resolve().parents[2]

#: The floors, lowest first. A module may import modules of its own area and of the
#: areas on lower floors, never those on its own floor or above.
FLOORS: list[set[str]] = [
    {"errors"},                                 # the warnings (the engine raises some)
    {"_core"},                                  # the engine
    {"io", "results", "memory", "population"},  # rows in, records out, settings, models
    {"table"},                                  # the score table every metric reads
    # uncertainty over the table; several classes (multiclass reads the engine, rows
    # in, the records and the table's levels, nothing above the table: the lowest
    # floor above it)
    {"inference", "multiclass"},
    {"metrics"},                                # everything read from tables
    {"scale"},                                  # the same numbers from files, chunks, parts
    {"plot", "sklearn", "dask", "spark", "datasets"},    # adapters
    {"html"},                                   # interactive pages
    {"paper"},                                  # the papers' figures and tables
    {"cli"},                                    # the command line
]
FLOOR = {area: k for k, areas in enumerate(FLOORS) for area in areas}


def _module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, pathlib.Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


MODULES = _modules()
COMPILED = {f"{ENGINE}.{p.stem}" for p in (PACKAGE / "_core").glob("*.pyi")}
# The compiled twin is ``fast`` with its radix paths (``fast_radix``) and the threads
# both use (``threads``); the NumPy twin is ``reference``.
TWINS = ({f"{ENGINE}.reference", f"{ENGINE}.threads"}
         | {m for m in MODULES if m.startswith(f"{ENGINE}.fast")})


def _is_package(name: str) -> bool:
    return MODULES.get(name, pathlib.Path()).name == "__init__.py"


def _known(name: str) -> bool:
    return name in MODULES or name in COMPILED


def _imports_of(name: str, tree: ast.AST) -> dict[str, set[str]]:
    """Every package module ``name`` imports, with the names it takes from each."""
    here = name if _is_package(name) else name.rpartition(".")[0]
    out: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == ROOT:
                    out.setdefault(a.name, set())
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[: len(here.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != ROOT:
                continue
            for alias in node.names:            # `from pkg import submodule`
                if _known(f"{target}.{alias.name}"):
                    out.setdefault(f"{target}.{alias.name}", set())
                else:
                    out.setdefault(target, set()).add(alias.name)
    return {m: names for m, names in out.items() if _known(m)}


IMPORTS = {name: _imports_of(name, ast.parse(path.read_text()))
           for name, path in MODULES.items()}


def _with_parents(name: str, targets: set[str]) -> set[str]:
    """``targets`` and their parent packages, but for the packages ``name`` is inside:
    those are already running when ``name`` is imported (``html/__init__`` importing
    ``html.report_page``, which imports ``html.page``, is no cycle)."""
    out = set(targets)
    for target in targets:
        parts = target.split(".")
        out.update(".".join(parts[:k]) for k in range(2, len(parts)))
    return {m for m in out if m != ROOT and _known(m) and not name.startswith(m + ".")}


GRAPH = {name: _with_parents(name, set(deps)) - {name} for name, deps in IMPORTS.items()}


def area_of(name: str) -> str | None:
    """The area a module belongs to: the first name under ``indist_fast``."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else None


def floor_violations(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, imported) pairs where an area looks sideways or up."""
    bad = []
    for name, deps in graph.items():
        mine = area_of(name)
        if mine is None:
            continue
        for dep in deps:
            theirs = area_of(dep)
            if theirs is not None and theirs != mine and FLOOR[theirs] >= FLOOR[mine]:
                bad.append((name, dep))
    return sorted(bad)


def private_reaches(imports: dict[str, dict[str, set[str]]]) -> list[tuple[str, str, str]]:
    """(importer, module, name) where a module takes an underscored name from another area.
    The engine's compiled modules are private as a whole and reached only by its twin."""
    bad = []
    for name, deps in imports.items():
        if area_of(name) is None:
            continue
        for dep, names in deps.items():
            if area_of(dep) == area_of(name):
                continue
            bad += [(name, dep, n) for n in sorted(names)
                    if n.startswith("_") and not n.startswith("__")]
    return bad


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
    assert f"{ENGINE}.engine" in GRAPH[f"{ROOT}.metrics.evaluation"]
    assert f"{ROOT}.plot" in GRAPH[f"{ROOT}.cli.figures"]               # a lazy import
    assert f"{ROOT}.io" in GRAPH[f"{ROOT}.metrics.evaluation"]          # a parent package
    assert len(COMPILED) >= 4


def test_every_area_has_a_floor():
    areas = {area_of(m) for m in MODULES} - {None}
    assert areas <= set(FLOOR), f"areas without a floor: {sorted(areas - set(FLOOR))}"


def test_areas_import_only_the_floors_below():
    assert floor_violations(GRAPH) == []


def test_the_floor_rule_sees_a_planted_violation():
    # only planted modules: a real violation fails the rule's own test, not this one
    planted = {f"{ROOT}.io.probe": {f"{ROOT}.metrics.evaluation"},         # io looks up
               f"{ROOT}.metrics.probe": {f"{ROOT}.plot"},                  # so do metrics
               f"{ROOT}.results.probe": {f"{ROOT}.io.frames"},             # and sideways
               f"{ROOT}.metrics.fine": {f"{ROOT}.table.score_table"}}      # down is fine
    assert floor_violations(planted) == [
        (f"{ROOT}.io.probe", f"{ROOT}.metrics.evaluation"),
        (f"{ROOT}.metrics.probe", f"{ROOT}.plot"),
        (f"{ROOT}.results.probe", f"{ROOT}.io.frames")]


def test_no_private_name_crosses_an_area():
    assert private_reaches(IMPORTS) == []


def test_the_private_rule_sees_a_planted_reach():
    tree = ast.parse("from ..metrics.operating_points import _points, confusion\n"
                     "from .page import _inline\n")
    planted = {f"{ROOT}.html.probe": _imports_of(f"{ROOT}.html.probe", tree)}
    assert private_reaches(planted) == [
        (f"{ROOT}.html.probe", f"{ROOT}.metrics.operating_points", "_points")]


def test_no_import_cycles():
    assert _cycles(GRAPH) == []


def test_the_cycle_finder_finds_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_only_the_compiled_twin_reaches_the_kernels():
    """The facade asks ``engine()``; it never picks a twin or a compiled module itself."""
    direct = {name: sorted(deps & (COMPILED | TWINS)) for name, deps in GRAPH.items()
              if not name.startswith(ENGINE)}
    assert {k: v for k, v in direct.items() if v} == {}
    drivers = {name for name, deps in GRAPH.items() if deps & COMPILED}
    assert drivers and all(d.startswith(f"{ENGINE}.fast") for d in drivers), drivers


def _backend_name_uses(path: pathlib.Path) -> list[int]:
    """Lines that call ``backend()`` or compare with an engine's name."""
    tree = ast.parse(path.read_text())
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


@pytest.mark.slow
def test_no_facade_code_branches_on_the_backend():
    uses = {name: _backend_name_uses(path) for name, path in MODULES.items()
            if not name.startswith(ENGINE)}
    assert {k: v for k, v in uses.items() if v} == {}


def test_the_backend_check_sees_a_branch(tmp_path):
    source = tmp_path / "probe.py"
    source.write_text("from x import backend\nif backend() == 'cython':\n    pass\n")
    assert _backend_name_uses(source) == [2, 2]


def _aliases(path: pathlib.Path) -> bool:
    """A module that puts another module into ``sys.modules`` (lives at two addresses)."""
    return bool(re.search(r"sys\.modules\s*\[[^\]]*\]\s*=", path.read_text()))


def test_no_alias_modules():
    assert [m for m, p in MODULES.items() if _aliases(p)] == []


def test_the_alias_check_sees_one(tmp_path):
    probe = tmp_path / "old.py"
    probe.write_text("import sys\nfrom .io import frames as _home\nsys.modules[__name__] = _home\n")
    assert _aliases(probe)


def test_no_two_modules_share_a_base_name():
    names = [m.rpartition(".")[2] for m in [*MODULES, *COMPILED] if m != ROOT]
    assert sorted({n for n in names if names.count(n) > 1}) == []


def _lines(path: pathlib.Path) -> int:
    return len(path.read_text().splitlines())


def test_rooms_are_small():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 12, top
    large = {str(p.relative_to(PACKAGE)): _lines(p) for p in PACKAGE.rglob("*.py")
             if _lines(p) > 1000}
    assert large == {}


KERNEL_SOURCES = sorted((SOURCE / "src").glob("*.pyx"))


@pytest.mark.skipif(not KERNEL_SOURCES, reason="the kernels' sources (src/*.pyx) are not here")
def test_kernels_are_split_by_topic():
    assert len(KERNEL_SOURCES) >= 4
    large = {p.name: _lines(p) for p in KERNEL_SOURCES if _lines(p) > 1000}
    assert large == {}
    assert {p.stem for p in KERNEL_SOURCES} == {c.rpartition(".")[2] for c in COMPILED}


def _c_in_strings(text: str) -> bool:
    """A ``cdef extern from *`` block whose body is a string of C code."""
    return bool(re.search(r'cdef extern from \*[^:\n]*:\s*\n\s*"""', text))


@pytest.mark.skipif(not KERNEL_SOURCES, reason="the kernels' sources (src/*.pyx) are not here")
def test_no_c_code_in_python_strings():
    cython = [*KERNEL_SOURCES, *(PACKAGE / "_core").glob("*.pxd"), *(SOURCE / "src").glob("*.pxd")]
    assert [p.name for p in cython if _c_in_strings(p.read_text())] == []
    assert _c_in_strings('cdef extern from *:\n    """\n    static int f(void);\n    """\n')
