"""List the public functions and classes whose docstrings lack Parameters or Examples.

Usage: ``python docs/_tools/docstring_gaps.py`` (from the repository root, with the
package importable). Covers every name of ``indist_fast.__all__`` and the ``__all__`` of
each public module of the API reference; prints ``module.name: missing sections``, one
line each, and the count. Exit status 0 always: this is a to-do list, not a gate.
"""

import importlib
import inspect
import re
import sys
import types
from pathlib import Path

from numpydoc.docscrape import ClassDoc, FunctionDoc

API_MODULES = Path(__file__).resolve().parents[1] / "api" / "modules.rst"


def public_modules() -> list[str]:
    text = API_MODULES.read_text()
    return re.findall(r"^   (indist_fast[\w.]*)$", text, flags=re.M)


def gaps(obj: object) -> list[str]:
    missing = []
    if inspect.isclass(obj):
        doc = ClassDoc(obj, config={"show_class_members": False})
        init = getattr(obj, "__init__", None)
        takes = bool(init) and len([p for p in _params(init) if p != "self"]) > 0
    else:
        doc = FunctionDoc(obj)
        takes = len(_params(obj)) > 0
    if takes and not doc["Parameters"] and not doc["Attributes"]:
        missing.append("Parameters")
    if not "".join(doc["Examples"]).strip():
        missing.append("Examples")
    return missing


def _params(func: object) -> list[str]:
    try:
        return list(inspect.signature(func).parameters)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return []


def main() -> int:
    import indist_fast
    seen: dict[int, str] = {}
    rows = []
    names = [("indist_fast", n, getattr(indist_fast, n)) for n in indist_fast.__all__]
    for modname in public_modules():
        mod = importlib.import_module(modname)
        names += [(modname, n, getattr(mod, n)) for n in getattr(mod, "__all__", [])]
    for modname, name, obj in names:
        if isinstance(obj, types.ModuleType) or not callable(obj) or id(obj) in seen:
            continue
        if inspect.isclass(obj) and issubclass(obj, Warning):
            continue
        seen[id(obj)] = f"{modname}.{name}"
        missing = gaps(obj)
        if missing:
            home = getattr(obj, "__module__", modname)
            rows.append(f"{home}.{name}: {', '.join(missing)}")
    for row in sorted(rows):
        print(row)
    print(f"{len(rows)} of {len(seen)} public functions and classes lack a section",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
