"""The documentation site: every public name has an API page, the definitions page
cites its sources, and no reference to the unpublished specification remains.

The site itself is built (HTML and doctests, warnings as errors) by ``.ci/run``; these
checks read the sources, so they are fast and run with the suite.
"""

import re
import types
from pathlib import Path


import indist_fast

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

SPEC_REF = re.compile(r"SPEC\s*§")


def _autosummary_entries(rst: Path) -> set[str]:
    """The names listed under the ``.. autosummary::`` directives of one page."""
    names: set[str] = set()
    inside = False
    for line in rst.read_text().splitlines():
        if line.startswith(".. autosummary::"):
            inside = True
            continue
        if inside:
            if line and not line.startswith(" "):
                inside = False
            elif line.strip() and not line.strip().startswith(":"):
                names.add(line.strip())
    return names


def _shipped_sources() -> list[Path]:
    """Every text file of the package, the kernels' sources, the examples and the README."""
    files = [ROOT / "README.md"]
    for folder, patterns in ((ROOT / "indist_fast", ("*.py", "*.pxd", "*.pyi")),
                             (ROOT / "src", ("*.pyx", "*.pxd")),
                             (ROOT / "examples", ("*.py", "*.pyx", "*.pxd", "*.md",
                                                  "*.toml"))):
        for pattern in patterns:
            files += sorted(folder.rglob(pattern))
    return files


def test_every_exported_name_has_an_api_page():
    listed = _autosummary_entries(DOCS / "api" / "index.rst")
    modules = _autosummary_entries(DOCS / "api" / "modules.rst")
    missing = []
    for name in indist_fast.__all__:
        obj = getattr(indist_fast, name)
        if isinstance(obj, types.ModuleType):
            # Re-exported modules (dask, datasets, sampling) are documented at home.
            if obj.__name__ not in modules:
                missing.append(f"{name} (module {obj.__name__})")
        elif name not in listed:
            missing.append(name)
    assert not missing, f"names of indist_fast.__all__ without an API page: {missing}"
    extra = listed - set(indist_fast.__all__)
    assert not extra, f"API page lists names that are not exported: {sorted(extra)}"


def test_every_listed_module_imports_and_has_all():
    import importlib
    for name in sorted(_autosummary_entries(DOCS / "api" / "modules.rst")):
        module = importlib.import_module(name)
        assert hasattr(module, "__all__"), f"{name} has no __all__ to document"


def test_definitions_cite_the_sources_and_keep_their_anchors():
    text = (DOCS / "definitions.rst").read_text()
    flat = " ".join(text.split())
    for cited in ("Sumpter", "Hernández-Orallo", "Flach", "Ferri", "Beam",
                  "Oleg Alenkin and Alex Rogozhnikov", "DeLong", "Hanley"):
        assert cited in flat, f"definitions page does not cite {cited}"
    # Docstrings and messages link these anchors: renaming one breaks links.
    for anchor in ("def-data", "def-operating-point", "def-auc", "def-ap", "def-b",
                   "def-exclude-self", "def-b-split", "def-rb", "def-crb",
                   "def-population", "def-pairs", "def-delong", "def-hanley-mcneil",
                   "def-bootstrap", "def-threshold-choice", "def-resolving-power",
                   "def-misprints"):
        assert f".. _{anchor}:" in text, f"anchor {anchor} missing"


def test_every_guide_is_in_the_toctree():
    index = (DOCS / "guides" / "index.rst").read_text()
    for page in sorted((DOCS / "guides").glob("*.rst")):
        if page.stem != "index":
            assert re.search(rf"^   {page.stem}$", index, flags=re.M), page.name


def test_no_spec_reference_in_what_ships():
    found = []
    for path in _shipped_sources():
        rel = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if SPEC_REF.search(line):
                found.append(f"{rel}:{number}: {line.strip()}")
    assert not found, "cite the paper or the definitions page instead:\n" + "\n".join(found)
