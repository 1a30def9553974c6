"""Every exported function, class and public method has a numpydoc docstring.

Each must document all its parameters, what it returns and show a
running example (the examples themselves are executed by test_doctests.py).
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import inspect
import pathlib
import warnings

import pytest

numpydoc_docscrape = pytest.importorskip("numpydoc.docscrape")

import indist_fast

# Modules that need an optional dependency to import; any other import error fails.
OPTIONAL = {"indist_fast.sklearn": "sklearn", "indist_fast.dask": "dask",
            "indist_fast.plot": "matplotlib"}


# The modules users import are the ones the API reference documents.
API_PAGE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "api" / "modules.rst"


def public_modules() -> list[str]:
    """The modules the API reference lists (the autosummary entries of its module page)."""
    lines = API_PAGE.read_text().splitlines()
    return [line.strip() for line in lines if line.strip().startswith("indist_fast.")]


def test_the_reference_lists_every_area():
    names = public_modules()
    assert {"indist_fast.metrics.evaluation", "indist_fast.io", "indist_fast.scale.files",
            "indist_fast.html", "indist_fast.plot", "indist_fast.inference.bootstrap"} <= set(names)
    missing = [n for n in names if importlib.util.find_spec(n) is None]
    assert missing == []


def _modules():
    yield indist_fast
    for name in public_modules():
        try:
            yield importlib.import_module(name)
        except ImportError as exc:
            if name not in OPTIONAL or OPTIONAL[name] not in str(exc):
                raise


def _targets():
    """(qualified name, object, kind) for every exported function, class and public method."""
    seen = set()
    for module in _modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            # constants and ready-made instances (e.g. sklearn scorers) are documented by their
            # module and class, not on their own
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            qual = f"{obj.__module__}.{obj.__qualname__}"
            if inspect.isclass(obj):
                yield qual, obj, "class"
                for attr, member in vars(obj).items():
                    if isinstance(member, (classmethod, staticmethod)):
                        member = member.__func__
                    if attr.startswith("_") or not inspect.isfunction(member):
                        continue
                    yield f"{qual}.{attr}", member, "method"
            else:
                yield qual, obj, "function"


TARGETS = sorted(_targets(), key=lambda t: t[0])


def _parse(obj):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpydoc warns on unknown sections; we check ourselves
        return numpydoc_docscrape.NumpyDocString(inspect.getdoc(obj) or "")


def _documented_names(doc, section):
    names = set()
    for param in doc[section]:
        for part in param.name.split(","):
            names.add(part.strip().lstrip("*"))
    return names


def _signature_names(func, skip_first):
    params = list(inspect.signature(func).parameters.values())
    if skip_first and params and params[0].name in ("self", "cls"):
        params = params[1:]
    return [p.name for p in params]


def _returns_something(func):
    ann = inspect.signature(func).return_annotation
    if ann in (None, "None"):
        return False
    src = inspect.getsource(func) if ann is inspect.Signature.empty else ""
    return ann is not inspect.Signature.empty or "return " in src or "yield" in src


# The arguments every entry point shares are described in full wherever they appear,
# not by reference to another docstring.
CORE_ARGUMENTS = {"y_true", "y_score", "sample_weight", "pos_label"}


def _vague(doc):
    """Documented parameters whose description is missing or only points elsewhere."""
    out = []
    for param in doc["Parameters"]:
        text = " ".join(param.desc).strip()
        names = {n.strip().lstrip("*") for n in param.name.split(",")}
        if not text or (names & CORE_ARGUMENTS and
                        (text.startswith(("As in", "See ")) or "module docstring" in text)):
            out.append(param.name)
    return out


def _has_example(doc):
    return any(line.lstrip().startswith(">>>") for line in doc["Examples"])


def test_targets_found():
    kinds = {kind for _, _, kind in TARGETS}
    assert kinds == {"function", "class", "method"}
    assert len(TARGETS) > 40


@pytest.mark.parametrize("qual,obj,kind", TARGETS, ids=[t[0] for t in TARGETS])
def test_numpydoc(qual, obj, kind):
    assert inspect.getdoc(obj), f"{qual} has no docstring"
    doc = _parse(obj)
    problems = []
    if not _has_example(doc):
        problems.append("no Examples section with a >>> line")
    vague = _vague(doc)
    if vague:
        problems.append(f"parameters described only by reference or not at all: {vague}")
    if kind == "class":
        is_record = dataclasses.is_dataclass(obj) or issubclass(obj, (tuple, Warning))
        init = obj.__init__
        params = ([] if init is object.__init__ or issubclass(obj, BaseException)
                  else _signature_names(init, True))
        documented = _documented_names(doc, "Parameters")
        if is_record and doc["Attributes"]:
            documented |= _documented_names(doc, "Attributes")
        missing = [p for p in params if p not in documented]
        if missing:
            problems.append(f"constructor parameters not documented: {missing}")
    else:
        params = _signature_names(obj, kind == "method")
        documented = _documented_names(doc, "Parameters")
        missing = [p for p in params if p not in documented]
        if missing:
            problems.append(f"parameters not documented: {missing}")
        extra = documented - set(params) - {"args", "kwargs"}
        if extra:
            problems.append(f"documented parameters not in the signature: {sorted(extra)}")
        if _returns_something(obj) and not (doc["Returns"] or doc["Yields"]):
            problems.append("no Returns or Yields section")
    assert not problems, f"{qual}: " + "; ".join(problems)
