"""The package type-checks under mypy --strict, and the compiled modules' stubs match."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import indist_fast
from indist_fast._core.fast import KERNELS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
pytest.importorskip("mypy")


@pytest.mark.slow
def test_mypy_strict_on_the_package():
    out = subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                          os.path.join(ROOT, "pyproject.toml"),
                          os.path.join(ROOT, "indist_fast")],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr


def test_stubs_match_the_compiled_modules(tmp_path):
    # run where the compiled package imports (installed, or built in place)
    parent = os.path.dirname(os.path.dirname(indist_fast.__file__))
    env = {**os.environ, "PYTHONPATH": parent}
    kernels = [module.__name__ for module in KERNELS]
    out = subprocess.run([sys.executable, "-m", "mypy.stubtest", *kernels], capture_output=True,
                         text=True,
                         cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
