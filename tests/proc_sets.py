"""The data sets pROC's pinned values were computed on, and the generator of the pinned
modules.

Each set is made by seeded NumPy here (so the pinned tests need no R): labels ``y``
and two models' scores ``a`` and ``b`` of the same rows. ``binormal``: two normal
classes; ``tied``: scores rounded to one decimal; ``tiny``: twelve rows by hand;
``rare``: about 6% positives. Pinned modules (``proc_pinned_*.py``) hold R templates
(``{y}``, ``{a}``, ``{b}`` and the module's own fields filled with ``r_vector``) and
the numbers they printed; ``python -m tests.proc_sets`` runs every template again and
rewrites the modules' values (needs Rscript with pROC).
"""
from __future__ import annotations

import functools
import importlib
import pprint
import re
import sys
from pathlib import Path

import numpy as np


@functools.cache
def data_sets() -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """name -> (y, a, b): labels in {0, 1} and two models' scores."""
    out = {}
    rng = np.random.default_rng([2026, 1])
    y = (rng.random(200) < 0.5).astype(np.int64)
    a = rng.normal(size=200) + 1.2 * y
    out["binormal"] = (y, a, 0.6 * a + 0.8 * rng.normal(size=200) + 0.3 * y)
    rng = np.random.default_rng([2026, 2])
    y = (rng.random(150) < 0.4).astype(np.int64)
    a = np.round(rng.normal(size=150) + y, 1)
    out["tied"] = (y, a, np.round(0.5 * a + rng.normal(size=150) + 0.5 * y, 1))
    out["tiny"] = (np.array([0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0]),
                   np.array([0.2, 0.9, 0.4, 0.4, 0.7, 0.1, 0.6, 0.3, 0.5, 0.8, 0.55, 0.35]),
                   np.array([0.3, 0.6, 0.2, 0.8, 0.4, 0.5, 0.65, 0.3, 0.1, 0.9, 0.45, 0.7]))
    rng = np.random.default_rng([2026, 4])
    y = (rng.random(400) < 0.06).astype(np.int64)
    y[:3] = 1                                   # at least a few positives, whatever the draw
    a = rng.normal(size=400) + 1.5 * y
    out["rare"] = (y, a, 0.3 * a + rng.normal(size=400) + y)
    return out


def r_code(template: str, name: str, **extra: object) -> str:
    """``template`` with the set's vectors (and ``extra`` arrays) as exact R literals."""
    from rproc import r_vector
    y, a, b = data_sets()[name]
    fields = {"y": r_vector(y), "a": r_vector(a), "b": r_vector(b),
              **{k: r_vector(v) for k, v in extra.items()}}
    return template.format(**fields)


def regenerate(module_name: str) -> None:
    """Run every template of ``tests/<module_name>.py`` on every set and rewrite its
    ``PINNED`` literal."""
    from rproc import r_numbers
    module = importlib.import_module(module_name)
    pinned = {}
    for name in data_sets():
        extra = module.extra_fields(name) if hasattr(module, "extra_fields") else {}
        pinned[name] = {key: r_numbers(r_code(code, name, **extra)).tolist()
                        for key, code in module.R_CODE.items()}
    path = Path(module.__file__)
    text = path.read_text()
    body = "PINNED = " + pprint.pformat(pinned, width=96, compact=True) + "\n"
    text = re.sub(r"PINNED = \{.*", lambda _: body, text, flags=re.S)
    path.write_text(text)


if __name__ == "__main__":
    here = Path(__file__).parent
    sys.path[:0] = [str(here), str(here / "metrics"), str(here / "inference")]
    for mod in sys.argv[1:] or ["proc_pinned_smooth", "proc_pinned_variance",
                                "proc_pinned_coords"]:
        regenerate(mod)
