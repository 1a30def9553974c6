"""Build the compiled kernels of indist_fast.

Cython directives are set once here. ``INDIST_FAST_DEBUG=1`` turns bounds and
wraparound checks back on for debugging a kernel.
"""

import os

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("INDIST_FAST_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
}


def kernel(name: str) -> Extension:
    """The private compiled module ``indist_fast._core.<name>`` from ``src/<name>.pyx``."""
    return Extension(
        f"indist_fast._core.{name}",
        [f"src/{name}.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")],
        # Python's own CFLAGS carry -g; release builds drop the debug info (it made the
        # two modules 7.4 MB), debug builds keep it and turn the optimiser off.
        # The inline budget of a whole module: _kernels.cpp is large enough that GCC's
        # default (40% growth) ran out and left the sweep's per-group step (hot_push)
        # a call, its sums spilled to memory (weighted 1e7 rows: 0.95x the time inlined).
        # No SLP vectoriser in the kernels: it paired the weighted sweep's AUC and AP
        # sums in one SSE register that the row loop then kept on the stack (paired
        # against the build with it: weighted 0.95-0.98x the time at 1e6-1e7 rows,
        # unweighted 0.98x, float32 and the small path within noise).
        extra_compile_args=["-O3", "-ffp-contract=off", "--param=inline-unit-growth=1000"]
        + (["-fno-tree-slp-vectorize"] if name == "_kernels" else [])
        + (["-O0", "-g"] if DEBUG else ["-g0"]),
        extra_link_args=[] if DEBUG else ["-Wl,--strip-debug"],
        language="c++",
    )


extensions = [kernel("_kernels"), kernel("_resample")]

setup(
    ext_modules=cythonize(
        extensions, compiler_directives=directives, include_path=["."]
    ),
)
