# cython: language_level=3
"""Compiled kernels of indist_fast for sliding windows: the change of the Mann-Whitney
sum when a batch of signed rows enters (``window_step``), and the merge of two signed
runs into a new base (``window_merge``).

A run is ascending distinct scores with the positive weight, negative weight and row
count at each (rows that left carry negative weight and count). Sums are doubled
(``2 U``: pairs ranked right count 2, tied pairs 1), so unweighted sums are integers,
exact in float64 below 2**53.

Private; reached through ``indist_fast._core.fast`` (``indist_fast._core.reference`` is the
NumPy twin).
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport int64_t

from indist_fast._core.records import WindowBase, WindowStep

cnp.import_array()


cdef inline Py_ssize_t _gallop(const double* a, Py_ssize_t lo, Py_ssize_t n,
                               double v) noexcept nogil:
    """First index from ``lo`` on whose score is >= v: steps doubling from ``lo``, then
    halving, so sorted queries cost O(log gap) each and stay near the last one (the
    base is far larger than a batch: a search from its start would miss the cache at
    every level)."""
    cdef Py_ssize_t hi, mid, step = 1
    if lo >= n or a[lo] >= v:
        return lo
    hi = lo + 1
    while hi < n and a[hi] < v:
        lo = hi
        step <<= 1
        hi = lo + step
    if hi > n:
        hi = n
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if a[mid] < v:
            lo = mid
        else:
            hi = mid
    return hi


def window_step(const double[::1] base_s, const double[::1] base_pc,
                const double[::1] base_nc, const double[::1] d_s, const double[::1] d_p,
                const double[::1] d_n, const int64_t[::1] d_c, const double[::1] x_s,
                const double[::1] x_p, const double[::1] x_n, const int64_t[::1] x_c,
                double total_pos):
    """Doubled change of U when the signed rows ``x`` (ascending scores) join a window
    held as a base (ascending distinct scores, cumulative weights of length m + 1) plus
    a delta run ``d``; returns it with the delta run that has ``x`` merged in (entries
    whose row count falls to 0 dropped). ``total_pos`` is the window's positive weight
    before the step.

    NumPy equivalent: ``indist_fast._core.reference.window_step``.
    """
    cdef Py_ssize_t m = base_s.shape[0], nd = d_s.shape[0], nx = x_s.shape[0]
    if base_pc.shape[0] != m + 1 or base_nc.shape[0] != m + 1:
        raise ValueError("base_pc and base_nc must hold m + 1 cumulative sums")
    if d_p.shape[0] != nd or d_n.shape[0] != nd or d_c.shape[0] != nd:
        raise ValueError("d_s, d_p, d_n and d_c differ in length")
    if x_p.shape[0] != nx or x_n.shape[0] != nx or x_c.shape[0] != nx:
        raise ValueError("x_s, x_p, x_n and x_c differ in length")
    out_s_arr = np.empty(nd + nx, np.float64)
    out_p_arr = np.empty(nd + nx, np.float64)
    out_n_arr = np.empty(nd + nx, np.float64)
    out_c_arr = np.empty(nd + nx, np.int64)
    cdef double[::1] out_s = out_s_arr, out_p = out_p_arr, out_n = out_n_arr
    cdef int64_t[::1] out_c = out_c_arr
    cdef Py_ssize_t i = 0, j = 0, k = 0, bi = 0, eq
    cdef double v, gp, gn, dp, dn, dcp = 0.0, dcn = 0.0, xcn = 0.0, du2 = 0.0
    cdef double n_below, n_eq, p_eq, p_le
    cdef int64_t gc, dc
    with nogil:
        while i < nx:
            v = x_s[i]
            gp = 0.0
            gn = 0.0
            gc = 0
            while i < nx and x_s[i] == v:
                gp += x_p[i]
                gn += x_n[i]
                gc += x_c[i]
                i += 1
            # the delta's entries below v pass to the output, summed on the way
            while j < nd and d_s[j] < v:
                dcp += d_p[j]
                dcn += d_n[j]
                out_s[k] = d_s[j]
                out_p[k] = d_p[j]
                out_n[k] = d_n[j]
                out_c[k] = d_c[j]
                k += 1
                j += 1
            dp = 0.0
            dn = 0.0
            dc = 0
            if j < nd and d_s[j] == v:
                dp = d_p[j]
                dn = d_n[j]
                dc = d_c[j]
                j += 1
            bi = _gallop(&base_s[0] if m else NULL, bi, m, v)
            eq = 1 if bi < m and base_s[bi] == v else 0
            n_below = base_nc[bi] + dcn
            n_eq = base_nc[bi + eq] - base_nc[bi] + dn
            p_eq = base_pc[bi + eq] - base_pc[bi] + dp
            p_le = base_pc[bi + eq] + dcp + dp
            du2 += gp * (2.0 * n_below + n_eq) + gn * (2.0 * (total_pos - p_le) + p_eq)
            # pairs within x (signed, so a row and its own leaving cancel)
            du2 += gp * (2.0 * xcn + gn)
            xcn += gn
            dcp += dp
            dcn += dn
            if dc + gc != 0:
                out_s[k] = v
                out_p[k] = dp + gp
                out_n[k] = dn + gn
                out_c[k] = dc + gc
                k += 1
        while j < nd:
            out_s[k] = d_s[j]
            out_p[k] = d_p[j]
            out_n[k] = d_n[j]
            out_c[k] = d_c[j]
            k += 1
            j += 1
    return WindowStep(du2, out_s_arr[:k], out_p_arr[:k], out_n_arr[:k], out_c_arr[:k])


def window_merge(const double[::1] a_s, const double[::1] a_p, const double[::1] a_n,
                 const int64_t[::1] a_c, const double[::1] b_s, const double[::1] b_p,
                 const double[::1] b_n, const int64_t[::1] b_c):
    """Merge two signed runs (ascending, repeats allowed) into one of distinct scores,
    entries of row count 0 dropped, with cumulative weights (length m + 1) and the
    doubled U of the result: the base of a window after a rebuild.

    NumPy equivalent: ``indist_fast._core.reference.window_merge``.
    """
    cdef Py_ssize_t na = a_s.shape[0], nb = b_s.shape[0]
    if a_p.shape[0] != na or a_n.shape[0] != na or a_c.shape[0] != na:
        raise ValueError("a_s, a_p, a_n and a_c differ in length")
    if b_p.shape[0] != nb or b_n.shape[0] != nb or b_c.shape[0] != nb:
        raise ValueError("b_s, b_p, b_n and b_c differ in length")
    s_arr = np.empty(na + nb, np.float64)
    p_arr = np.empty(na + nb, np.float64)
    n_arr = np.empty(na + nb, np.float64)
    c_arr = np.empty(na + nb, np.int64)
    pc_arr = np.empty(na + nb + 1, np.float64)
    nc_arr = np.empty(na + nb + 1, np.float64)
    cdef double[::1] s = s_arr, p = p_arr, n = n_arr, pc = pc_arr, nc = nc_arr
    cdef int64_t[::1] c = c_arr
    cdef Py_ssize_t i = 0, j = 0, k = 0
    cdef double v, gp, gn, cp = 0.0, cn = 0.0, u2 = 0.0
    cdef int64_t gc
    with nogil:
        pc[0] = 0.0
        nc[0] = 0.0
        while i < na or j < nb:
            if j >= nb or (i < na and a_s[i] <= b_s[j]):
                v = a_s[i]
            else:
                v = b_s[j]
            gp = 0.0
            gn = 0.0
            gc = 0
            while i < na and a_s[i] == v:
                gp += a_p[i]
                gn += a_n[i]
                gc += a_c[i]
                i += 1
            while j < nb and b_s[j] == v:
                gp += b_p[j]
                gn += b_n[j]
                gc += b_c[j]
                j += 1
            if gc == 0:
                continue
            u2 += gp * (2.0 * cn + gn)
            cp += gp
            cn += gn
            s[k] = v
            p[k] = gp
            n[k] = gn
            c[k] = gc
            k += 1
            pc[k] = cp
            nc[k] = cn
    return WindowBase(u2, s_arr[:k], p_arr[:k], n_arr[:k], c_arr[:k], pc_arr[:k + 1],
                      nc_arr[:k + 1])
