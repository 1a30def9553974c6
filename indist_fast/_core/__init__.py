"""The engine layer: validated rows in, sweep results out.

``engine`` picks the compiled twin (``fast`` over ``_kernels``/``_resample``) or the
NumPy ``reference``; both provide the ``Engine`` protocol with the same signatures.
``results`` names what they return, ``validation`` turns user arrays into rows the
kernels take, ``curves`` gives every operating point at once. ``sweep.pxd`` and
``types.pxd`` are the nogil kernels other Cython code can cimport
(``indist_fast.get_include()``). Nothing here imports from the rest of the package.
"""
