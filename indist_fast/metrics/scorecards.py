"""The scorecard figures from rows: the Kolmogorov-Smirnov statistic and test
(``ks``), precision and lift among the top rows (``top_k``) and the gains table
(``gains``). Each validates the rows once, builds their ``ScoreTable`` (one sort) and
reads it (``ScoreTable.ks``, ``top_k``, ``gains``), so a table built from chunks,
files (``Accumulator``) or partitions gives the same numbers.
"""

from __future__ import annotations

from typing import Any

from ..io.frames import columns_by_keyword, prepare_frame_or_rows
from ..results.gains_table import GainsTable
from ..results.ks_result import KSResult
from ..results.top_k_result import TopK
from ..table.gains import check_n_bins, gains_of
from ..table.score_table import ScoreTable
from ..table.separation import check_ks_method, ks_of
from ..table.top_k import check_k, top_k_of

__all__ = ["ks", "top_k", "gains"]


def _table(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any,
           columns: tuple[Any, Any, Any]) -> ScoreTable:
    rows = prepare_frame_or_rows(y_true, y_score, sample_weight, pos_label, *columns)
    return ScoreTable.from_rows(rows)


@columns_by_keyword
def ks(y_true: Any, y_score: Any = None, *, sample_weight: Any = None, pos_label: Any = None,
       method: str | None = "auto", label: str | None = None, score: str | None = None,
       weight: str | None = None) -> KSResult:
    """The Kolmogorov-Smirnov statistic ``max |tpr - fpr|`` over every threshold, and
    its two-sided test.

    The largest vertical distance between the ROC curve and the diagonal, which is
    the two-sample KS distance between the scores of positives and negatives
    (Kolmogorov 1933, Smirnov 1948): ``scipy.stats.ks_2samp(pos_scores,
    neg_scores).statistic``, weighted by ``sample_weight``. One sort, then prefix sums.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
        The statistic takes any weights; the p-value whole numbers only.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    method : {"auto", "exact", "asymp"} or None, default="auto"
        The p-value as ``scipy.stats.ks_2samp(method=...)`` computes it for the
        two-sided test, with the class weights as sample sizes: ``"exact"`` counts the
        statistic's distribution exactly (falling back to ``"asymp"`` with a warning
        when the classes' least common multiple is too large); ``"asymp"`` uses
        Smirnov's limit distribution (needs scipy); ``"auto"`` is exact while neither
        class holds more than 10,000 rows, asymptotic beyond. None: the statistic
        alone (``pvalue`` None), for any weights.
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table (pandas or polars DataFrame, pyarrow
        Table): ``ks(df, label="y", score="p")``.

    Returns
    -------
    KSResult
        The statistic, the highest threshold reaching it (``score >= threshold``), the
        rates there, the sign of ``tpr - fpr``, and the p-value with its method.

    Raises
    ------
    ValueError
        When a class has no weight, ``method`` is not one of the above, or
        ``sample_weight`` holds fractional weights and ``method`` is not None.
    ImportError
        For the asymptotic p-value without scipy.

    Notes
    -----
    Ties: the statistic compares the classes' distribution functions at the distinct
    scores, as ``ks_2samp`` does; the p-value, like SciPy's, assumes continuous
    scores, and is conservative with ties. For rows that do not fit in memory, build
    their table with ``Accumulator`` (chunk by chunk) and call
    ``accumulator.table.ks()``.

    Examples
    --------
    >>> import indist_fast
    >>> ks = indist_fast.ks([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> round(ks.statistic, 4), ks.threshold, round(ks.tpr, 4), ks.fpr
    (0.6667, 0.8, 0.6667, 0.0)
    >>> round(ks.pvalue, 4), ks.method
    (0.6, 'exact')
    """
    method = check_ks_method(method)
    return ks_of(_table(y_true, y_score, sample_weight, pos_label, (label, score, weight)),
                 method)


def top_k(y_true: Any, y_score: Any = None, k: Any = None, *, sample_weight: Any = None,
          pos_label: Any = None, label: str | None = None, score: str | None = None,
          weight: str | None = None) -> TopK:
    """Precision, recall and lift among the ``k`` highest-scored rows.

    Ties at the cut are counted fractionally: when the cut falls inside a group of
    rows tied at one score, the rows taken from it are a random subset, and the
    result is the expected value over the orders of the tied rows: the group brings
    its positive share pro rata. So ``top_k`` does not depend on the order of the
    rows, unlike sorting and taking the first ``k``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    k : int or float
        An int: the number of rows taken (at least 1, at most the rows). A float in
        (0, 1]: the share of the rows taken (``0.1``: the top decile; ``1.0``: all).
        With ``sample_weight``, rows count by weight (frequency weights: a row of
        weight 3 counts as three rows), so ``k`` is a weight.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table (pandas or polars DataFrame, pyarrow
        Table): ``top_k(df, k=100, label="y", score="p")``.

    Returns
    -------
    TopK
        ``precision`` (precision at k), ``recall``, ``lift``, the ``threshold`` at the
        cut and the share of its tied rows taken.

    Raises
    ------
    TypeError
        When ``k`` is a bool or not a number.
    ValueError
        When an int ``k`` is below 1 or above the rows, a float ``k`` lies outside
        (0, 1], or a class has no weight.

    Examples
    --------
    Scores 0.9, 0.8, 0.8, 0.8, 0.1 with labels 1, 1, 0, 0, 0: the top 2 rows take the
    0.9 and one of the three rows tied at 0.8, of which one in three is positive:

    >>> import indist_fast
    >>> top = indist_fast.top_k([1, 1, 0, 0, 0], [0.9, 0.8, 0.8, 0.8, 0.1], 2)
    >>> round(top.tp, 4), round(top.precision, 4), top.threshold, round(top.tie_share, 4)
    (1.3333, 0.6667, 0.8, 0.3333)
    >>> round(indist_fast.top_k([1, 1, 0, 0, 0], [0.9, 0.8, 0.8, 0.8, 0.1], 0.2).lift, 4)
    2.5
    """
    if k is None:
        raise TypeError("k is missing: pass the rows to take (an int) or their share (a "
                        "float in (0, 1]).")
    k = check_k(k)
    return top_k_of(_table(y_true, y_score, sample_weight, pos_label,
                           (label, score, weight)), k)


@columns_by_keyword
def gains(y_true: Any, y_score: Any = None, *, n_bins: int = 10, sample_weight: Any = None,
          pos_label: Any = None, label: str | None = None, score: str | None = None,
          weight: str | None = None) -> GainsTable:
    """The gains table: rows in bins by score quantile, highest scores first, with the
    positives each bin holds, its lift, and the cumulative capture and lift.

    Bins are cut at distinct scores, so rows tied at a score are never split: bin
    ``j`` (of ``n_bins``) ends at the first distinct score, from the top, where the
    cumulative weight reaches ``j / n_bins`` of the total, and the next bin starts at
    the score below it. A bin is therefore at least as large as the quantile asks
    when a tie straddles its end (the next one smaller), and a tied score reaching
    several such marks ends all those bins at once: they are one bin, listed once,
    and the table has fewer than ``n_bins`` rows (heavy ties, or fewer distinct
    scores than bins).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    n_bins : int, default=10
        Bins asked for (deciles by default), at least 1.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row;
        bins are quantiles of the weight.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table (pandas or polars DataFrame, pyarrow
        Table): ``gains(df, label="y", score="p")``.

    Returns
    -------
    GainsTable
        One row per bin: score range, rows (weight), positives, positive rate, share
        and cumulative share of rows, capture and cumulative capture of positives,
        lift, cumulative lift and ``tpr - fpr`` at the bin's lower edge;
        ``to_pandas()``, ``to_dict()``.

    Raises
    ------
    ValueError
        When a class has no weight, or ``n_bins`` is below 1.

    Examples
    --------
    >>> import indist_fast
    >>> y, s = [0, 0, 1, 1, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.7, 0.3]
    >>> g = indist_fast.gains(y, s, n_bins=4)
    >>> g["positives"].tolist(), g["cumulative_lift"].tolist()
    ([2.0, 1.0, 1.0, 0.0], [2.0, 1.5, 1.3333333333333333, 1.0])
    >>> g = indist_fast.gains([0, 1, 1, 0, 1], [0.5, 0.5, 0.5, 0.5, 0.1], n_bins=5)
    >>> len(g), g["weight"].tolist()     # four rows tied at 0.5: one bin, not four
    (2, [4.0, 1.0])
    """
    n_bins = check_n_bins(n_bins)
    return gains_of(_table(y_true, y_score, sample_weight, pos_label,
                           (label, score, weight)), n_bins)
