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
from libc.math cimport INFINITY

cnp.import_array()

cdef uint64_t SIGN = <uint64_t>1 << 63


# ---------------------------------------------------------------------------
# Score columns.

def transpose_sums(const double[:, ::1] p):
    """The columns of ``p`` as rows of a new (k, n) array, and each row's sum, in one
    pass over ``p``.

    NumPy equivalent: ``indist_fast._core.reference.transpose_sums``.
    """
    cdef Py_ssize_t n = p.shape[0], k = p.shape[1], i, c
    columns_arr = np.empty((k, n), dtype=np.float64)
    sums_arr = np.empty(n, dtype=np.float64)
    cdef double[:, ::1] columns = columns_arr
    cdef double[::1] sums = sums_arr
    cdef double total, x
    with nogil:
        for i in range(n):
            total = 0.0
            for c in range(k):
                x = p[i, c]
                columns[c, i] = x
                total += x
            sums[i] = total
    return columns_arr, sums_arr


# ---------------------------------------------------------------------------
# Pair counts of one column.

cdef inline uint64_t _order_bits(double x) noexcept nogil:
    """Unsigned integers in the order of the float64 scores (-0.0 as +0.0)."""
    cdef uint64_t u
    x += 0.0
    memcpy(&u, &x, 8)
    return ~u if u >> 63 else u | SIGN


def packed_keys(const int64_t[::1] codes, const double[::1] col, int bits):
    """Keys ``(order bits of the score) << bits | class`` and whether they are exact, in
    two passes over the column (its range, then the keys).

    NumPy equivalent (and the rule of exactness): ``indist_fast._core.reference.packed_keys``.
    """
    if bits < 1 or bits > 16:
        raise ValueError(f"bits must be in 1..16, got {bits}")
    cdef Py_ssize_t n = col.shape[0], i, bad = -1
    if codes.shape[0] != n:
        raise ValueError("codes and col differ in length")
    keys_arr = np.empty(n, dtype=np.uint64)
    if n == 0:
        return keys_arr, True
    cdef uint64_t[::1] keys = keys_arr
    cdef uint64_t low = (<uint64_t>1 << bits) - 1, room = <uint64_t>1 << (64 - bits)
    cdef uint64_t lo, hi, u
    cdef double smallest = col[0], largest = col[0], positive = INFINITY, x
    cdef bint exact, signed
    with nogil:
        for i in range(n):
            x = col[i]
            if x < smallest:
                smallest = x
            if x > largest:
                largest = x
            if 0.0 < x < positive:
                positive = x
        signed = smallest < 0
        if signed:
            lo, hi = _order_bits(smallest), _order_bits(largest)
        else:
            # the plain bits of the non-negative floats (the sign bit clear)
            lo, hi = _order_bits(smallest) & ~SIGN, _order_bits(largest) & ~SIGN
            if lo == 0 and hi >= room:
                # 0 just below the smallest positive score
                lo = (_order_bits(positive if positive < INFINITY else largest) & ~SIGN) - 1
        exact = hi - lo < room
        for i in range(n):
            u = _order_bits(col[i])
            if not signed:
                u &= ~SIGN
                if u < lo:
                    u = lo
            u = ((u - lo) << bits) if exact else (u & ~low)
            if <uint64_t>codes[i] > low:
                bad = i
                break
            keys[i] = u | <uint64_t>codes[i]
    if bad >= 0:
        raise ValueError(f"codes out of range at row {bad}")
    return keys_arr, exact


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
    cdef Py_ssize_t n = keys.shape[0], i = n - 1, j, r
    out_arr = np.zeros(1 << bits, dtype=np.int64)
    cdef int64_t[::1] out = out_arr
    cdef uint64_t mask = (<uint64_t>1 << bits) - 1, lab = <uint64_t>positive, score, key
    cdef int64_t above = 0, at, value, groups = 0
    with nogil:
        # From the highest score down: ``above`` positive rows strictly above the group.
        while i >= 0:
            key = keys[i]
            score = key >> bits
            if i == 0 or (keys[i - 1] >> bits) != score:
                # a score of one row (the common case, kept free of the group loops:
                # half the time of the general step without ties)
                at = (key & mask) == lab
                out[key & mask] += 2 * above + at
                above += at
                groups += 1
                i -= 1
                continue
            at = 0
            j = i
            while j >= 0 and (keys[j] >> bits) == score:
                at += (keys[j] & mask) == lab
                j -= 1
            value = 2 * above + at
            for r in range(j + 1, i + 1):
                out[keys[r] & mask] += value
            above += at
            groups += 1
            i = j
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
