"""Build ``indist_embed_example._auc`` against the installed indist_fast's ``.pxd`` files."""

import indist_fast
import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

extension = Extension(
    "indist_embed_example._auc",
    ["indist_embed_example/_auc.pyx"],
    # The C compiler finds "indist_fast/_core/include/sweep_c.h" (the C half of sweep.pxd)
    # under indist_fast.get_include(). indist_fast's .pxd files need no NumPy headers; a
    # module that cimports numpy does.
    include_dirs=[indist_fast.get_include(), np.get_include()],
    language="c++",
)

setup(
    ext_modules=cythonize(
        [extension],
        # The folder holding the indist_fast package, so `indist_fast._core.sweep` resolves.
        include_path=[indist_fast.get_include()],
        compiler_directives={"language_level": 3, "boundscheck": False,
                             "wraparound": False},
    ),
)
