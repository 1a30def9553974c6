"""Embedding the kernels from Cython: the .pxd files ship, get_include() finds
them, and examples/embed_cython builds against them in a fresh virtual environment.

The example is built and run in a temporary venv with the test interpreter's packages
(indist_fast, NumPy, Cython, setuptools) visible, the way a user builds a dependent
package with ``pip install --no-build-isolation``. Its ``auc`` is checked against
``indist_fast.roc_auc`` here, in the test process.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import tomllib
from pathlib import Path

import numpy as np
import pytest

import indist_fast

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "embed_cython"


def _cxx_compiler() -> str | None:
    """The C++ compiler setuptools would call ($CXX first, as setuptools reads it)."""
    command = os.environ.get("CXX") or sysconfig.get_config_var("CXX") or "c++"
    return shutil.which(shlex.split(command)[0])


needs_cxx = pytest.mark.skipif(_cxx_compiler() is None,
                               reason="no C++ compiler ($CXX or sysconfig CXX) to build the example")


def test_get_include_holds_the_pxd_files():
    folder = Path(indist_fast.get_include())
    assert folder.is_absolute()
    # the folder CONTAINS the package that is imported, so cimports resolve to it
    assert folder / "indist_fast" / "__init__.py" == Path(indist_fast.__file__)
    for name in ("sweep.pxd", "types.pxd"):
        assert (folder / "indist_fast" / "_core" / name).is_file(), name


def test_example_builds_against_this_release():
    """The .pxd API is versioned with the library: the example pins the exact release."""
    config = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())
    assert f"indist-fast=={indist_fast.__version__}" in config["build-system"]["requires"]
    assert config["project"]["name"] == "indist-embed-example"
    assert not any(r.startswith("indist") for r in config["project"]["dependencies"])


def _run(args, **kwargs):
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        pytest.fail(f"{shlex.join(map(str, args))} failed ({done.returncode}):\n"
                    f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    return done


@pytest.fixture(scope="module")
def example_python(tmp_path_factory):
    """The interpreter of a fresh venv with the example installed in it."""
    tmp = tmp_path_factory.mktemp("embed")
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", venv])
    python = venv / "bin" / "python"
    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"])
    # --system-site-packages reaches the base interpreter's packages only; the packages
    # of these tests' own venv (or found through its .pth files) come from a .pth file
    # listing their sys.path, led by the folder of the indist_fast under test (the
    # checkout with in-place kernels, or site-packages).
    parents = dict.fromkeys([indist_fast.get_include(), *filter(os.path.isdir, sys.path)])
    Path(purelib.stdout.strip(), "_test_parent.pth").write_text("\n".join(parents) + "\n")
    # Built from a copy: an in-tree build would leave build/ and generated C++ behind.
    source = tmp / "embed_cython"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns(
        "build", "*.egg-info", "*.cpp", "*.so", "__pycache__"))
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
    env.pop("PYTHONPATH", None)
    _run([python, "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation",
          "--no-deps", "--root-user-action=ignore", source], env=env, cwd=tmp)
    return python


CHECK = textwrap.dedent("""
    import json, sys
    import numpy as np
    from indist_embed_example import auc

    data = np.load(sys.argv[1])
    names = sorted({k.rsplit("_", 1)[0] for k in data.files})
    out = {"auc": {n: auc(data[n + "_y"], data[n + "_s"]) for n in names}}
    errors = {}
    for name, (y, s) in {
        "nan score": ([0, 1, 1], [0.1, float("nan"), 0.3]),
        "one class": ([1, 1, 1], [0.1, 0.2, 0.3]),
        "lengths": ([0, 1, 1], [0.1, 0.2]),
        "2-D labels": ([[0, 1], [1, 0]], [0.1, 0.2]),
        "string scores": ([0, 1], ["a", "b"]),
    }.items():
        try:
            auc(y, s)
            errors[name] = None
        except Exception as e:
            errors[name] = [type(e).__name__, str(e)]
    out["errors"] = errors
    import doctest
    import indist_embed_example._auc as module
    out["doctests"] = list(doctest.testmod(module))
    # everything cimported is inline: the built module does not import indist_fast
    out["imports_indist_fast"] = any(m.split(".")[0] == "indist_fast" for m in sys.modules)
    out["module"] = sys.modules["indist_embed_example"].__file__
    print(json.dumps(out))
""")


def _cases():
    rng = np.random.default_rng(11)
    n = 2000
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    tied = np.round(s * 2) / 2           # a dozen distinct scores, heavy ties
    specials = s.copy()
    specials[:40] = [np.inf, -np.inf, 0.0, -0.0] * 10
    return {
        "random": (y.astype(np.int64), s),
        "tied": (y, tied),
        "signed": (np.where(y, 1, -1), tied.astype(np.float32)),
        "specials": (y.astype(np.uint8), specials),
        "integers": (y.astype(np.float64), rng.integers(0, 7, n)),
        "all_tied": (y, np.zeros(n)),
        "tiny": (np.array([0, 1]), np.array([0.5, 0.5])),
        "separated": (y, y * 2.0 - 1.0),
    }


@pytest.mark.slow
@needs_cxx
def test_example_auc_matches_roc_auc(example_python, tmp_path):
    cases = _cases()
    data = tmp_path / "cases.npz"
    np.savez(data, **{f"{k}_y": y for k, (y, _) in cases.items()},
             **{f"{k}_s": s for k, (_, s) in cases.items()})
    script = tmp_path / "check.py"
    script.write_text(CHECK)
    # run outside any checkout so that only the venv's installed example is importable
    out = json.loads(_run([example_python, "-I", script, data], cwd=tmp_path).stdout)

    assert Path(out["module"]).is_relative_to(example_python.parent.parent)
    assert out["imports_indist_fast"] is False
    assert set(out["auc"]) == set(cases)
    for name, (y, s) in cases.items():
        assert abs(out["auc"][name] - indist_fast.roc_auc(y, s)) <= 1e-12, name

    failed, attempted = out["doctests"]
    assert failed == 0 and attempted > 0

    errors = out["errors"]
    assert errors["nan score"] == ["ValueError", "y_score contains NaN"]
    assert errors["one class"][0] == "ValueError" and "y_true" in errors["one class"][1]
    assert errors["lengths"][0] == "ValueError" and "y_score" in errors["lengths"][1]
    assert errors["2-D labels"][0] == "ValueError" and "y_true" in errors["2-D labels"][1]
    assert errors["string scores"][0] == "TypeError" and "y_score" in errors["string scores"][1]
