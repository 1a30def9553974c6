"""AUC by indist_fast's sweep, cimported: the smallest module that embeds the kernels.

After the checks, everything runs without the GIL: the rows are sorted by score
(descending), equal scores are gathered into one group, and each group is pushed into
the library's ``Sweep``, which accumulates the AUC numerator (indist_fast's
documentation, definitions page, "AUC").
"""

from libc.string cimport memset
from libcpp.vector cimport vector

import numpy as np

from indist_fast._core.sweep cimport Sweep, clamp_probability, sweep_init, sweep_push


cdef extern from "<algorithm>" namespace "std" nogil:
    # Declared here without libcpp's `except +`: std::sort allocates nothing and this
    # comparator cannot throw, so the sort needs no C++ exception handler.
    void sort[Iter, Compare](Iter first, Iter last, Compare comp)


cdef struct Row:
    double score
    bint positive


cdef bint _higher(const Row& a, const Row& b) noexcept nogil:
    return a.score > b.score


def _column(values, name):
    try:
        column = np.asarray(values)
    except (TypeError, ValueError) as error:   # e.g. ragged nested lists
        raise TypeError(f"{name} must be a 1-D array-like: {error}") from None
    if column.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {column.shape}")
    return column


def _positive(y_true):
    """The positive-class mask: of exactly two label values, the larger is positive."""
    labels = _column(y_true, "y_true")
    if labels.dtype.kind not in "biuf":
        raise TypeError(f"y_true must hold bool or real numbers, got dtype {labels.dtype}")
    if labels.dtype.kind == "f" and np.isnan(labels).any():
        raise ValueError("y_true contains NaN")
    classes = np.unique(labels)
    if classes.shape[0] != 2:
        raise ValueError(f"y_true must hold exactly two classes, got {classes.shape[0]}")
    return labels == classes[1]


def _scores(y_score):
    scores = _column(y_score, "y_score")
    kind = scores.dtype.kind
    if kind not in "biuf" or (kind == "f" and scores.dtype.itemsize > 8):
        raise TypeError(f"y_score must hold bool, integers or floats of at most 64 bits, "
                        f"got dtype {scores.dtype}")
    if kind in "iu" and scores.size and (scores.min() < -2**53 or scores.max() > 2**53):
        # float64 would turn distinct integers into ties, a silently wrong AUC
        raise ValueError("y_score holds integers beyond 2**53 that float64 cannot tell apart")
    if kind == "f" and np.isnan(scores).any():
        raise ValueError("y_score contains NaN")
    return scores


def auc(y_true, y_score):
    """Area under the ROC curve, ties counted one half, by indist_fast's sweep.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two label values (bool or numbers, no NaN); the larger one is the positive class.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.

    Returns
    -------
    float
        The probability that a random positive outscores a random negative.

    Examples
    --------
    >>> from indist_embed_example import auc
    >>> auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    positive = _positive(y_true)
    scores = _scores(y_score)
    if scores.shape[0] != positive.shape[0]:
        raise ValueError(f"y_true and y_score must have the same length, got "
                         f"{positive.shape[0]} and {scores.shape[0]}")
    cdef const double[::1] s = np.ascontiguousarray(scores, dtype=np.float64)
    cdef const unsigned char[::1] pos = np.ascontiguousarray(positive, dtype=np.uint8)
    cdef const double[::1] no_levels = np.empty(0)   # AUC only: no B levels to find
    cdef Py_ssize_t n = s.shape[0], i = 0
    cdef double n_pos = 0.0, threshold, tp_g, fp_g
    cdef Sweep st
    cdef vector[Row] rows
    rows.resize(n)
    with nogil:
        for i in range(n):
            rows[i].score = s[i]
            rows[i].positive = pos[i]
            n_pos += pos[i]
        sort(rows.begin(), rows.end(), _higher)
        # sweep_init sets every field read later, but GCC's -Wmaybe-uninitialized
        # cannot tell through the inlined calls; zeroing first keeps the build quiet.
        memset(&st, 0, sizeof(Sweep))
        sweep_init(&st, n_pos, n - n_pos, True, no_levels)
        i = 0
        while i < n:
            # One operating point per distinct score (-0.0 and 0.0 are one score).
            threshold = rows[i].score
            tp_g = 0.0
            fp_g = 0.0
            while i < n and rows[i].score == threshold:
                if rows[i].positive:
                    tp_g += 1.0
                else:
                    fp_g += 1.0
                i += 1
            # the sweep takes weights times its power-of-two scale (1 for counts)
            sweep_push(&st, threshold, tp_g * st.scale, fp_g * st.scale)
    return clamp_probability(st.auc_num / (st.weight_pos * st.weight_neg))
