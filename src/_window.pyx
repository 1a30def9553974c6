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
from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memcpy

from indist_fast._core.records import WindowBase, WindowStep

cnp.import_array()


# The bits of a row's code in ``window_step``: its class, and whether it leaves.
cdef enum:
    POSITIVE = 1
    LEAVING = 2


cdef extern from *:
    void __builtin_prefetch(const void*) noexcept nogil

# The base's scores in blocks of ``STRIDE``: the first score of each block (``base_top``,
# 125 KB for 1e6 scores, so it stays in the cache between batches) is searched from the
# last query's block on (the queries ascend), then each query searches its one block,
# whose cache lines were requested a few queries ahead. A binary search of the whole
# base missed the cache at ~7 levels in a row per query.
cdef enum:
    STRIDE = 64
    # queries whose blocks are fetched ahead of the one counted
    AHEAD = 8


def window_top(const double[::1] base_s):
    """The first score of each block of ``STRIDE`` in a base's scores: the index
    ``window_step`` walks (kept with the base, built once per rebuild).

    NumPy equivalent: ``indist_fast._core.reference.window_top``.
    """
    return np.asarray(base_s)[::STRIDE].copy()


cdef inline void _fetch_block(const double* a, Py_ssize_t m, Py_ssize_t t) noexcept nogil:
    cdef Py_ssize_t lo = t * STRIDE, i
    if t < 0:
        return
    for i in range(0, STRIDE, 8):
        if lo + i < m:
            __builtin_prefetch(&a[lo + i])


cdef inline void _lower_bounds(const double* a, Py_ssize_t m, const double* top,
                               Py_ssize_t nt, const double* v, Py_ssize_t* out,
                               Py_ssize_t nq) noexcept nogil:
    """For each ascending query, the first index whose score is >= it. ``out`` first
    holds each query's block (the last block starting below it, -1 if none), then the
    index."""
    cdef Py_ssize_t q, t = 0, lo, n, half, step, hi, mid
    cdef double x
    for q in range(nq):
        x = v[q]
        # top[:t] < x: gallop from the last query's block, then halve (a walk would
        # cost the index's length per batch, more than the batch for small batches
        # into a large window)
        step = 1
        while t + step <= nt and top[t + step - 1] < x:
            t += step
            step <<= 1
        hi = t + step - 1 if t + step - 1 < nt else nt
        while t < hi:
            mid = (t + hi) >> 1
            if top[mid] < x:
                t = mid + 1
            else:
                hi = mid
        out[q] = t - 1
    for q in range(min(AHEAD, nq)):
        _fetch_block(a, m, out[q])
    for q in range(nq):
        if q + AHEAD < nq:
            _fetch_block(a, m, out[q + AHEAD])
        if out[q] < 0:
            out[q] = 0
            continue
        # a[lo] < x: a branchless binary search of the block (its lines already on the
        # way; counting all 64 scores cost more than the misses it saved)
        lo = out[q] * STRIDE
        n = STRIDE if lo + STRIDE < m else m - lo
        x = v[q]
        while n > 1:
            half = n >> 1
            lo = lo + half if a[lo + half] < x else lo
            n -= half
        out[q] = lo + 1


def window_step(const double[::1] base_s, const double[::1] base_top, const double[::1] base_pc,
                const double[::1] base_nc, const double[::1] d_s, const double[::1] d_p,
                const double[::1] d_n, const int64_t[::1] d_c, const double[::1] x_s,
                const uint8_t[::1] x_code, const double[::1] x_w, double total_pos,
                double[::1] out_s, double[::1] out_p, double[::1] out_n, int64_t[::1] out_c):
    """Doubled change of U when the rows ``x`` (ascending scores; a code per row, bit 0
    positive, bit 1 leaving; weights, or None for 1) come and go in a window held as a
    base (ascending distinct scores, its ``window_top``, cumulative weights of length
    m + 1) plus a delta run ``d``; the changes of the class totals; and the delta run with ``x`` merged in
    (entries whose row count and weights all fall to 0 dropped), written to ``out_*``
    (room for ``len(d) + len(x)`` entries; the window reuses them, since fresh arrays
    of that size cost a page fault per page). ``total_pos`` is the window's positive
    weight before the step.

    NumPy equivalent: ``indist_fast._core.reference.window_step``.
    """
    cdef Py_ssize_t m = base_s.shape[0], nd = d_s.shape[0], nx = x_s.shape[0]
    cdef Py_ssize_t nt = base_top.shape[0]
    if base_pc.shape[0] != m + 1 or base_nc.shape[0] != m + 1:
        raise ValueError("base_pc and base_nc must hold m + 1 cumulative sums")
    if nt != (m + STRIDE - 1) // STRIDE:
        raise ValueError("base_top must be window_top(base_s)")
    if d_p.shape[0] != nd or d_n.shape[0] != nd or d_c.shape[0] != nd:
        raise ValueError("d_s, d_p, d_n and d_c differ in length")
    if x_code.shape[0] != nx or (x_w is not None and x_w.shape[0] != nx):
        raise ValueError("x_s, x_code and x_w differ in length")
    cdef bint weighted = x_w is not None
    if (out_s.shape[0] < nd + nx or out_p.shape[0] < nd + nx or out_n.shape[0] < nd + nx
            or out_c.shape[0] < nd + nx):
        raise ValueError("out_s, out_p, out_n and out_c need room for len(d) + len(x)")
    firsts_arr = np.empty(nx + 1, np.float64)
    found_arr = np.empty(nx + 1, np.intp)
    cdef double[::1] firsts = firsts_arr
    cdef Py_ssize_t[::1] found = found_arr
    cdef Py_ssize_t i = 0, j = 0, k = 0, g = 0, ng = 0, bi, eq
    cdef double v, gp, gn, dp, dn, dcp = 0.0, dcn = 0.0, xcn = 0.0, du2 = 0.0
    cdef double n_below, n_eq, p_eq, p_le, weight, xcp = 0.0
    cdef int64_t gc, dc
    cdef uint8_t code
    with nogil:
        # the distinct scores of x, searched in the base all at once
        while i < nx:
            v = x_s[i]
            firsts[ng] = v
            ng += 1
            while i < nx and x_s[i] == v:
                i += 1
        _lower_bounds(&base_s[0] if m else NULL, m, &base_top[0] if nt else NULL, nt,
                      &firsts[0], &found[0], ng)
        i = 0
        for g in range(ng):
            v = firsts[g]
            gp = 0.0
            gn = 0.0
            gc = 0
            while i < nx and x_s[i] == v:
                code = x_code[i]
                weight = x_w[i] if weighted else 1.0
                if code & LEAVING:
                    weight = -weight
                    gc -= 1
                else:
                    gc += 1
                if code & POSITIVE:
                    gp += weight
                else:
                    gn += weight
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
            if g + AHEAD < ng:
                __builtin_prefetch(&base_pc[found[g + AHEAD]])
                __builtin_prefetch(&base_nc[found[g + AHEAD]])
            bi = found[g]
            eq = 1 if bi < m and base_s[bi] == v else 0
            n_below = base_nc[bi] + dcn
            n_eq = base_nc[bi + eq] - base_nc[bi] + dn
            p_eq = base_pc[bi + eq] - base_pc[bi] + dp
            p_le = base_pc[bi + eq] + dcp + dp
            du2 += gp * (2.0 * n_below + n_eq) + gn * (2.0 * (total_pos - p_le) + p_eq)
            # pairs within x (signed, so a row and its own leaving cancel)
            du2 += gp * (2.0 * xcn + gn)
            xcn += gn
            xcp += gp
            dcp += dp
            dcn += dn
            # (a row count of 0 alone says nothing here: a positive leaving and a
            # negative coming at one score leave the count, not the weights, as they were)
            if dc + gc != 0 or dp + gp != 0.0 or dn + gn != 0.0:
                out_s[k] = v
                out_p[k] = dp + gp
                out_n[k] = dn + gn
                out_c[k] = dc + gc
                k += 1
        if j < nd:
            memcpy(&out_s[k], &d_s[j], (nd - j) * sizeof(double))
            memcpy(&out_p[k], &d_p[j], (nd - j) * sizeof(double))
            memcpy(&out_n[k], &d_n[j], (nd - j) * sizeof(double))
            memcpy(&out_c[k], &d_c[j], (nd - j) * sizeof(int64_t))
            k += nd - j
    return WindowStep(du2, xcp, xcn, out_s.base[:k], out_p.base[:k], out_n.base[:k], out_c.base[:k])


def window_merge(const double[::1] a_s, const double[::1] a_p, const double[::1] a_n,
                 const int64_t[::1] a_c, const double[::1] b_s, const double[::1] b_p,
                 const double[::1] b_n, const int64_t[::1] b_c, double[::1] s,
                 double[::1] p, double[::1] n, int64_t[::1] c, double[::1] pc,
                 double[::1] nc):
    """Merge two signed runs (ascending, repeats allowed) into one of distinct scores,
    entries of row count 0 dropped (the runs hold every row of the result, so no row
    is left at such a score, whatever rounding left in its weights), with cumulative weights (length m + 1) and the
    doubled U of the result: the base of a window after a rebuild. Written to the
    last six arrays (room for ``len(a) + len(b)`` entries, one more cumulative sum).

    NumPy equivalent: ``indist_fast._core.reference.window_merge``.
    """
    cdef Py_ssize_t na = a_s.shape[0], nb = b_s.shape[0]
    if a_p.shape[0] != na or a_n.shape[0] != na or a_c.shape[0] != na:
        raise ValueError("a_s, a_p, a_n and a_c differ in length")
    if b_p.shape[0] != nb or b_n.shape[0] != nb or b_c.shape[0] != nb:
        raise ValueError("b_s, b_p, b_n and b_c differ in length")
    if (s.shape[0] < na + nb or p.shape[0] < na + nb or n.shape[0] < na + nb
            or c.shape[0] < na + nb or pc.shape[0] < na + nb + 1 or nc.shape[0] < na + nb + 1):
        raise ValueError("s, p, n and c need room for len(a) + len(b), pc and nc one more")
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
    return WindowBase(u2, s.base[:k], p.base[:k], n.base[:k], c.base[:k], pc.base[:k + 1],
                      nc.base[:k + 1])
