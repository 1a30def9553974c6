# cython: language_level=3
"""Compiled kernels of indist_fast for several classes: the score columns of a
probability matrix, and Hand and Till's pair counts of one sorted column against every
class in one pass.

Private; reached through ``indist_fast._core.fast`` (``indist_fast._core.reference`` is the
NumPy twin).
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport int64_t, uint64_t
from libc.string cimport memcpy

cnp.import_array()


# ---------------------------------------------------------------------------
# Score columns.

def transpose_rows(const double[:, ::1] p, double[:, ::1] columns, double[::1] sums,
                   Py_ssize_t start, Py_ssize_t stop):
    """Rows ``start:stop`` of ``p`` written transposed into ``columns`` (k, n) and their
    sums (left to right) into ``sums``, in one pass (threads take disjoint rows).

    NumPy equivalent: ``indist_fast._core.reference.transpose_sums``.
    """
    cdef Py_ssize_t n = p.shape[0], k = p.shape[1], i, c
    if columns.shape[0] != k or columns.shape[1] != n or sums.shape[0] != n:
        raise ValueError("columns and sums do not match p")
    if not 0 <= start <= stop <= n:
        raise ValueError(f"rows {start}:{stop} out of 0:{n}")
    cdef double total, x
    with nogil:
        for i in range(start, stop):
            total = 0.0
            for c in range(k):
                x = p[i, c]
                columns[c, i] = x
                total += x
            sums[i] = total


# ---------------------------------------------------------------------------
# Pair counts of one column.

def packed_keys(const int64_t[::1] codes, const double[::1] col, int bits, uint64_t lo,
                bint exact, bint signed):
    """Keys ``(order bits of the score) << bits | class`` counted from ``lo``, in one
    pass (``indist_fast._core.key_range`` gives ``lo``, ``exact`` and ``signed``).

    NumPy equivalent: ``indist_fast._core.reference.packed_keys``.
    """
    if bits < 1 or bits > 16:
        raise ValueError(f"bits must be in 1..16, got {bits}")
    cdef Py_ssize_t n = col.shape[0], i, bad = -1
    if codes.shape[0] != n:
        raise ValueError("codes and col differ in length")
    keys_arr = np.empty(n, dtype=np.uint64)
    cdef uint64_t[::1] keys = keys_arr
    # (locals, not module constants: a global is reloaded after each store to the keys)
    cdef uint64_t low = (<uint64_t>1 << bits) - 1, sign = <uint64_t>1 << 63, raw, d, seen = 0
    # exact: (u - lo) << bits; else u with its lowest bits cleared: v = u - lo + add,
    # key = (v << shift) & keep | class; branch-free so that the loops vectorise
    cdef uint64_t add = 0 if exact else lo, keep = ~(<uint64_t>0) if exact else ~low
    cdef int shift = bits if exact else 0
    cdef double x
    with nogil:
        for i in range(n):
            seen |= <uint64_t>codes[i]      # (above ``low`` iff some class is)
        if seen <= low:
            if signed:
                for i in range(n):
                    x = col[i] + 0.0                     # (-0.0 as +0.0)
                    memcpy(&raw, &x, 8)
                    # order bits: negative floats all bits flipped, others the sign set
                    d = (raw ^ ((0 - (raw >> 63)) | sign)) - lo
                    keys[i] = (((d + add) << shift) & keep) | <uint64_t>codes[i]
            else:
                for i in range(n):
                    memcpy(&raw, &col[i], 8)
                    # the plain bits (-0.0 as 0.0), raised to ``lo``: below it the
                    # difference wraps past 2**63 and is cleared
                    d = (raw & ~sign) - lo
                    d &= (d >> 63) - 1
                    keys[i] = (((d + add) << shift) & keep) | <uint64_t>codes[i]
        else:
            for i in range(n):
                if <uint64_t>codes[i] > low:
                    bad = i
                    break
    if bad >= 0:
        raise ValueError(f"codes out of range at row {bad}")
    return keys_arr


def sorted_pair_counts(const uint64_t[::1] keys, int bits, int64_t positive):
    """Twice the pair counts of class ``positive`` against each class from packed keys
    ``(order bits of the score) << bits | class`` sorted ascending, and the number of
    distinct scores (the keys' order bits).

    ``out[j]`` (length ``2**bits``) is the sum over rows x of class ``positive`` and rows
    y of class ``j`` of ``2 [s_x > s_y] + [s_x == s_y]``: integers, so exact.

    NumPy equivalent: ``indist_fast._core.reference.sorted_pair_counts``.
    """
    if bits < 1 or bits > 16:
        raise ValueError(f"bits must be in 1..16, got {bits}")
    cdef Py_ssize_t n = keys.shape[0], i = n - 1, j, r, c
    # Four tables, one per row of a block of four, summed at the end: consecutive rows
    # of one class would otherwise wait on each other's store (1.1 ms per 1e6 rows
    # against 2.5 in C, one table).
    tables_arr = np.zeros((4, 1 << bits), dtype=np.int64)
    cdef int64_t[:, ::1] t = tables_arr
    cdef uint64_t mask = (<uint64_t>1 << bits) - 1, lab = <uint64_t>positive, score
    cdef uint64_t l0, l1, l2, l3
    cdef int64_t above = 0, at, p0, p1, p2, p3, value, groups = 0
    with nogil:
        # From the highest score down: ``above`` positive rows strictly above the group.
        while i >= 0:
            if i >= 4 and (((keys[i] >> bits) != (keys[i - 1] >> bits))
                           & ((keys[i - 1] >> bits) != (keys[i - 2] >> bits))
                           & ((keys[i - 2] >> bits) != (keys[i - 3] >> bits))
                           & ((keys[i - 3] >> bits) != (keys[i - 4] >> bits))):
                # four scores of one row each (the common case)
                l0, l1, l2, l3 = keys[i] & mask, keys[i - 1] & mask, keys[i - 2] & mask, keys[i - 3] & mask
                p0, p1, p2, p3 = l0 == lab, l1 == lab, l2 == lab, l3 == lab
                t[0, l0] += 2 * above + p0
                above += p0
                t[1, l1] += 2 * above + p1
                above += p1
                t[2, l2] += 2 * above + p2
                above += p2
                t[3, l3] += 2 * above + p3
                above += p3
                groups += 4
                i -= 4
                continue
            score = keys[i] >> bits
            at = 0
            j = i
            while j >= 0 and (keys[j] >> bits) == score:
                at += (keys[j] & mask) == lab
                j -= 1
            value = 2 * above + at
            for r in range(j + 1, i + 1):
                t[0, keys[r] & mask] += value
            above += at
            groups += 1
            i = j
        for c in range(1 << bits):
            t[0, c] += t[1, c] + t[2, c] + t[3, c]
    out_arr = tables_arr[0]
    return out_arr, groups


def ordered_pair_counts(const cnp.npy_intp[::1] order, const double[::1] col,
                        const int64_t[::1] codes, const double[::1] w, int64_t positive,
                        Py_ssize_t n_classes):
    """Pair counts of class ``positive`` against each class (float64, ``n_classes``),
    rows visited in ``order`` (ascending scores ``col``), each row weighing ``w`` (1 when
    None): a row of class j adds its weight times the positive weight strictly above
    its score plus half the positive weight at it.

    NumPy equivalent: ``indist_fast._core.reference.ordered_pair_counts``.
    """
    cdef Py_ssize_t n = order.shape[0], m = col.shape[0], i = n - 1, j, r, row
    if codes.shape[0] != m or (w is not None and w.shape[0] != m):
        raise ValueError("col, codes and w differ in length")
    if n_classes < 0:
        raise ValueError(f"n_classes must be non-negative, got {n_classes}")
    out_arr = np.zeros(n_classes, dtype=np.float64)
    cdef double[::1] out = out_arr
    cdef bint weighted = w is not None
    cdef double above = 0.0, at, value, score, wr
    cdef int64_t code
    cdef Py_ssize_t bad = -1
    with nogil:
        while i >= 0 and bad < 0:
            row = order[i]
            if row < 0 or row >= m:
                bad = i
                break
            score = col[row]
            at = 0.0
            j = i
            while j >= 0:
                row = order[j]
                if row < 0 or row >= m:
                    bad = j
                    break
                if col[row] != score:
                    break
                if codes[row] == positive:
                    at += w[row] if weighted else 1.0
                j -= 1
            if bad >= 0:
                break
            value = above + 0.5 * at
            for r in range(j + 1, i + 1):
                row = order[r]
                code = codes[row]
                if code < 0 or code >= n_classes:
                    bad = r
                    break
                out[code] += (w[row] * value) if weighted else value
            above += at
            i = j
    if bad >= 0:
        raise ValueError(f"order or codes out of range at position {bad}")
    return out_arr
