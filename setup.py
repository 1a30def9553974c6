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


# The kernels by topic, each ``indist_fast._core.<name>`` from ``src/<name>.pyx``. They share
# ``src/_common.pxd`` (inline), ``src/_sinks.pxi`` and the C headers of ``src/include`` and
# ``indist_fast/_core/include`` (the latter ships with ``sweep.pxd``). C++ only where
# libcpp is used (vector, pair, std::sort): C++ compiles slower.
KERNELS = {
    "_sorted": "c",            # split by class and pivot, merge sorted pieces; small path
    "_radix": "c++",           # unweighted radix plan, fill and sweep
    "_radix_weighted": "c++",  # weighted radix fill, sweep and table
    "_keys": "c++",            # weighted rows as packed uint64 keys; DeLong components
    "_tables": "c",            # tables: sweep, merge, DeLong sums, paired moments
    "_runs": "c++",            # out-of-core run merging
    "_segments": "c",          # every segment in one call
    "_resample": "c++",        # bootstrap replicates
    "_multiclass": "c",        # score columns and pair counts of several classes
    "_window": "c",            # sliding windows: signed runs, the change of U per batch
}
# The sweep's hot loops: see the inline budget and the SLP vectoriser below.
HOT = {"_sorted", "_radix", "_radix_weighted", "_keys", "_tables", "_runs", "_segments"}


def kernel(name: str) -> Extension:
    """The private compiled module ``indist_fast._core.<name>`` from ``src/<name>.pyx``."""
    return Extension(
        f"indist_fast._core.{name}",
        [f"src/{name}.pyx"],
        # "." for "indist_fast/_core/include/sweep_c.h", as an embedder finds it under
        # indist_fast.get_include()
        include_dirs=[np.get_include(), "src/include", "."],
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
        + (["-fno-tree-slp-vectorize"] if name in HOT else [])
        + (["-O0", "-g"] if DEBUG else ["-g0"]),
        extra_link_args=[] if DEBUG else ["-Wl,--strip-debug"],
        language=KERNELS[name],
    )


JOBS = os.cpu_count() or 1
# Cython's own utility code (typed memoryviews, fused dispatch, ...) once, in a module of
# its own that the kernels import, not compiled again into each of them: it was most of
# each module's C (a kernel module of 200 lines of Cython was 50,000 lines of C).
SHARED = "indist_fast._core._cyutility"

setup(
    ext_modules=cythonize(
        [kernel(name) for name in KERNELS]
        + [Extension(SHARED, ["src/_cyutility.c"],
                     extra_compile_args=["-O2"] + (["-O0", "-g"] if DEBUG else ["-g0"]),
                     extra_link_args=[] if DEBUG else ["-Wl,--strip-debug"])],
        compiler_directives=directives, include_path=[".", "src"], nthreads=JOBS,
        shared_utility_qualified_name=SHARED,
    ),
    # the modules compile side by side (pip install . and build_ext alike)
    options={"build_ext": {"parallel": JOBS}},
)
