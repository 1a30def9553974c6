"""Backend choice: kernels when they import, the NumPy reference with one warning when
not, and an environment variable that forces either."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import indist_fast

PACKAGE_PARENT = os.path.dirname(os.path.dirname(indist_fast.__file__))


def run(code: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != "INDIST_FAST_BACKEND"}
    environ.update(env, PYTHONPATH=PACKAGE_PARENT)
    return subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", code],
                          capture_output=True, text=True, env=environ, cwd=os.sep)


def test_compiled_kernels_are_active():
    """The suite must exercise the compiled kernels, not a silent fallback."""
    assert indist_fast.backend() == "cython"


def test_env_forces_numpy():
    out = run("import indist_fast; print(indist_fast.backend())", INDIST_FAST_BACKEND="numpy")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "numpy"


def test_env_rejects_unknown_backend():
    out = run("import indist_fast; indist_fast.backend()", INDIST_FAST_BACKEND="fortran")
    assert out.returncode != 0
    assert "INDIST_FAST_BACKEND must be one of" in out.stderr


BLOCK_KERNELS = ("import sys; sys.modules['indist_fast._core._sorted'] = None\n"
                 "import warnings, indist_fast\n")


def test_missing_kernels_fall_back_with_one_warning():
    code = BLOCK_KERNELS + (
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    a = indist_fast.roc_auc([0, 1, 1], [0.1, 0.3, 0.2])\n"
        "    b = indist_fast.roc_auc([0, 1, 1], [0.1, 0.3, 0.2])\n"
        "print(indist_fast.backend(), a, len(w), w[0].category.__name__)\n")
    out = run(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["numpy", "1.0", "1", "RuntimeWarning"]


def test_forcing_missing_kernels_is_an_error():
    out = run(BLOCK_KERNELS + "indist_fast.roc_auc([0, 1], [0.1, 0.3])",
              INDIST_FAST_BACKEND="cython")
    assert out.returncode != 0
    assert "INDIST_FAST_BACKEND=cython, but the compiled kernels do not import" in out.stderr


def test_use_backend_rejects_unknown_name():
    from indist_fast._core.engine import use_backend
    with pytest.raises(ValueError, match="name must be one of"):
        with use_backend("fortran"):
            pass
