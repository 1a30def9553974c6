"""R's pROC, called live from tests.

Pinned values (computed once by pROC, with the R commands kept beside them) run everywhere;
the live comparisons call ``Rscript`` through :func:`run_r` and skip, naming the Debian
packages, where R or pROC is missing. ``.ci/run`` installs both, so CI runs them.
"""
from __future__ import annotations

import functools
import shutil
import subprocess
from typing import Any

import numpy as np
import pytest

R_PACKAGES = "r-base-core and r-cran-proc (Debian: apt-get install r-base-core r-cran-proc)"
_PRELUDE = "suppressPackageStartupMessages(library(pROC))\n"


@functools.cache
def _missing() -> str | None:
    """Why pROC cannot be called here, or None when it can (asked once per session)."""
    rscript = shutil.which("Rscript")
    if rscript is None:
        return f"Rscript not found: install {R_PACKAGES}"
    done = subprocess.run([rscript, "--vanilla", "-e", "library(pROC)"],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        return f"R's pROC does not load ({done.stderr.strip()[-200:]}): install {R_PACKAGES}"
    return None


def require_proc() -> None:
    """Skip the calling test, naming the packages, where Rscript with pROC is missing."""
    reason = _missing()
    if reason is not None:
        pytest.skip(reason)


def run_r(code: str, *, timeout: float = 600) -> str:
    """Run ``code`` with pROC loaded; return what it printed (R's errors fail the test)."""
    require_proc()
    done = subprocess.run(["Rscript", "--vanilla", "-"], input=_PRELUDE + code,
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"Rscript failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def r_numbers(code: str, *, timeout: float = 600) -> np.ndarray:
    """The numbers ``code`` prints (print them with ``cat(sprintf("%.17g", x))``).

    R's ``NA``/``NaN``/``Inf`` are read as NumPy's.
    """
    words = run_r(code, timeout=timeout).split()
    table = {"NA": "nan", "NaN": "nan", "Inf": "inf", "-Inf": "-inf"}
    return np.array([float(table.get(word, word)) for word in words])


def r_vector(values: Any) -> str:
    """An R literal ``c(...)`` holding ``values`` exactly (17 significant digits)."""
    array = np.asarray(values, dtype=float).ravel()
    return "c(" + ",".join(repr(float(v)) if np.isfinite(v)
                           else ("NA" if np.isnan(v) else ("Inf" if v > 0 else "-Inf"))
                           for v in array) + ")"
