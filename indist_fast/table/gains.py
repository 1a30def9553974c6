"""The gains table of a score table: bins cut at distinct scores by cumulative weight,
highest scores first, read from prefix sums."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.validation import check_count, check_two_classes
from ..results.gains_table import GAINS_COLUMNS, GainsTable

__all__ = ["check_n_bins", "gains_of", "MAX_GAINS_BINS"]

#: The most bins a gains table is asked for (one per distinct score at most anyway).
MAX_GAINS_BINS = 1_000_000


def check_n_bins(n_bins: Any) -> int:
    """``n_bins`` of ``gains``: an int in ``[1, MAX_GAINS_BINS]``.

    Parameters
    ----------
    n_bins : Any
        The argument as passed.

    Returns
    -------
    int
        The number of bins asked for; TypeError or ValueError naming ``n_bins``
        otherwise.

    Examples
    --------
    >>> from indist_fast.table.gains import check_n_bins
    >>> check_n_bins(10)
    10
    """
    return check_count(n_bins, "n_bins", minimum=1, maximum=MAX_GAINS_BINS)


def bin_ends(running: np.ndarray, n_bins: int) -> np.ndarray:
    """Index of the last distinct score of each bin: bin ``j`` (1-based) ends at the
    first score where the running weight (``running``, the prefix sums of the weight
    per score) reaches ``j / n_bins`` of the total. A score reaching several marks ends
    those bins together: they are one bin, listed once."""
    if running.dtype.kind == "i":
        total = int(running[-1])
        if total < 2**62 // n_bins:
            # exact: running >= j total / n_bins  <=>  running >= ceil(j total / n_bins),
            # the running counts being whole
            marks = -(-np.arange(1, n_bins + 1, dtype=np.int64) * total // n_bins)
            ends = np.searchsorted(running, marks, side="left")
        else:
            ends = np.searchsorted(running.astype(np.float64),
                                   np.arange(1, n_bins + 1) * (total / n_bins), side="left")
    else:
        ends = np.searchsorted(running, np.arange(1, n_bins + 1) * (running[-1] / n_bins),
                               side="left")
    # The last bin ends at the last score, whatever rounding did to the running sum.
    ends = np.minimum(ends, len(running) - 1)
    ends[-1] = len(running) - 1
    return np.unique(ends)


def gains_of(table: Any, n_bins: int) -> GainsTable:
    """``gains`` of a ``ScoreTable``'s rows, ``n_bins`` already checked.

    Parameters
    ----------
    table : ScoreTable
        The rows' table (both classes with positive weight).
    n_bins : int
        Bins asked for, checked by ``check_n_bins``.

    Returns
    -------
    GainsTable
        One row per bin, highest scores first.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.table.gains import gains_of
    >>> t = ScoreTable.from_arrays([0, 1, 1, 0], [0.2, 0.7, 0.5, 0.1])
    >>> gains_of(t, 2)["positives"].tolist()
    [2.0, 0.0]
    """
    with np.errstate(over="ignore"):        # an infinite total is refused just below
        check_two_classes(table.weight_pos, table.weight_neg)
    pos, neg = table.pos, table.neg
    running = pos + neg
    ends = bin_ends(np.cumsum(running, out=running), n_bins)
    starts = np.r_[0, ends[:-1] + 1]
    # Each bin summed on its own (not as a difference of running sums, which loses a
    # small bin's weight below a large one's in floating point).
    bin_pos = np.add.reduceat(pos, starts).astype(np.float64)
    bin_neg = np.add.reduceat(neg, starts).astype(np.float64)
    cum_pos, cum_neg = np.cumsum(bin_pos), np.cumsum(bin_neg)
    wp, wn = float(cum_pos[-1]), float(cum_neg[-1])
    total = wp + wn
    weight = bin_pos + bin_neg
    cum_weight = cum_pos + cum_neg
    base_rate = wp / total
    rate = bin_pos / weight
    capture = bin_pos / wp
    cum_capture = np.minimum(cum_pos / wp, 1.0)
    cum_share = np.minimum(cum_weight / total, 1.0)
    cum_capture[-1] = cum_share[-1] = 1.0
    columns = {
        "bin": np.arange(1, len(ends) + 1), "score_high": table.scores[starts],
        "score_low": table.scores[ends], "weight": weight, "positives": bin_pos,
        "negatives": bin_neg, "share": weight / total, "cumulative_share": cum_share,
        "positive_rate": rate, "capture": capture, "cumulative_capture": cum_capture,
        "lift": rate / base_rate, "cumulative_lift": (cum_pos / cum_weight) / base_rate,
        "ks": cum_capture - np.minimum(cum_neg / wn, 1.0)}
    for col in columns.values():
        col.setflags(write=False)
    return GainsTable(columns={name: columns[name] for name in GAINS_COLUMNS},
                      n_bins=n_bins, weight_pos=wp, weight_neg=wn, n_rows=table.n_rows)
