"""The engine layer: validated rows in, sweep results out.

``engine`` picks the compiled twin (``fast``, with its radix paths in ``fast_radix`` and
the two threads both use in ``threads``, over the compiled modules ``_sorted``,
``_radix``, ``_radix_weighted``, ``_keys``, ``_tables``, ``_runs``, ``_segments``,
``_resample``, ``_multiclass`` and ``_window``) or the NumPy ``reference``; both provide
the ``Engine`` protocol with the same signatures. ``records`` names what they return, ``rates`` holds
the arithmetic both share on it and ``key_range`` where a column's packed class keys
start; ``validation`` turns user arrays into rows the kernels take, ``curves`` gives
every operating point at once, ``page_release`` gives memory pages back behind a pass.
``sweep.pxd`` and ``types.pxd`` (with ``include/sweep_c.h``) are the nogil kernels other
Cython code can cimport (``indist_fast.get_include()``). Nothing here imports from the
rest of the package.
"""
