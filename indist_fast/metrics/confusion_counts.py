"""Operating points and the confusion counts at them: every operating point of a score
table at once (``Points``), the confusion fields read from them, and ``confusion`` at one
or more thresholds.

Operating point ``j`` labels positive every row with ``s >= t_j`` (see the definitions
page of the documentation), and a threshold ``t`` selects the operating point of the
distinct scores ``>= t`` by one ``np.searchsorted`` on the descending scores, never a
pass over the rows per threshold. The post's four basic counts are ``tp = isSasS``,
``fp = isBasS``, ``tn = isBasB`` and ``fn = isSasB``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple

import numpy as np

from .._core.curves import b_at
from .._core.rates import operating_rates
from .._core.validation import Rows, check_flag, check_real, check_two_classes, prepare_rows
from ..errors import warn_undefined_b
from ..results.report import count_text, record_dict
from ..table.score_table import ScoreTable


# --------------------------------------------------------------------------- points

class Points(NamedTuple):
    """Every operating point of a table plus "nothing positive" in front (index 0,
    threshold +inf), highest threshold first; counts as float64. ``start`` is 1 when
    the "nothing positive" point was dropped (a score of +inf)."""

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    tn: np.ndarray
    fn: np.ndarray
    weight_pos: float
    weight_neg: float
    table: ScoreTable
    exclude_self: bool
    start: int = 0

    def b(self, k: Any) -> np.ndarray:
        """B at points ``k`` (NaN where nothing is labelled). B_j depends only on the
        groups down to j and the totals, so only that prefix is swept: the very
        values of ``curves(...).b``."""
        k = np.asarray(k) + self.start
        stop = int(k.max(initial=0))
        pos, neg = self.table.pos[:stop], self.table.neg[:stop]
        # The totals the full sweep uses: the class weights the groups end at. Point k
        # is group k - 1; point 0 labels nothing (B undefined).
        b = np.full(k.shape, np.nan)
        labelled = k > 0
        b[labelled] = b_at(pos, neg, self.exclude_self, self.weight_pos, self.weight_neg,
                           k[labelled] - 1)
        return b

    def without_nothing_positive(self) -> "Points":
        """The points without index 0, for tables whose top score is +inf."""
        return self._replace(thresholds=self.thresholds[1:], tp=self.tp[1:],
                             fp=self.fp[1:], tn=self.tn[1:], fn=self.fn[1:],
                             start=self.start + 1)


def all_points(table: ScoreTable, exclude_self: bool) -> Points:
    with np.errstate(over="ignore"):          # an infinite total is refused just below
        check_two_classes(table.weight_pos, table.weight_neg)
    tp, fp = _running(table.pos), _running(table.neg)
    if table.pos.dtype.kind == "f":
        # Weights below a threshold are summed from the bottom rather than taken as the
        # total minus the weight above: that difference can round below 0.
        fn = _running(table.pos[::-1])[::-1]
        tn = _running(table.neg[::-1])[::-1]
    else:                                     # counts: the difference is exact
        fn, tn = tp[-1] - tp, fp[-1] - fp
    return Points(np.r_[np.inf, table.scores], tp, fp, tn, fn, float(tp[-1]),
                   float(fp[-1]), table, exclude_self)


def _running(weights: np.ndarray) -> np.ndarray:
    """0, then the running sums of ``weights`` in float64 (one pass, no copies)."""
    out = np.empty(len(weights) + 1)
    out[0] = 0.0
    np.cumsum(weights, dtype=np.float64, out=out[1:])
    return out


def point_index(table: ScoreTable, thresholds: np.ndarray) -> np.ndarray:
    """Index into ``Points`` of the operating point of each threshold: the number of
    distinct scores ``>= t`` (0: nothing labelled)."""
    return np.searchsorted(-table.scores, -thresholds, side="right")


def point_fields(p: Points, k: Any, with_b: bool = True) -> dict[str, Any]:
    """The confusion fields at point index ``k`` (an int or an int array); ``b`` is
    left out (it costs a sweep) unless ``with_b``."""
    tp, fp, tn, fn = p.tp[k], p.fp[k], p.tn[k], p.fn[k]
    wp, wn = p.weight_pos, p.weight_neg
    rates = operating_rates(tp, fp, wp, wn)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        tnr = np.clip(tn / wn, 0.0, 1.0)
        fnr = np.clip(fn / wp, 0.0, 1.0)
        npv = np.clip(tn / (tn + fn), 0.0, 1.0)
        accuracy = np.clip((tp + tn) / (wp + wn), 0.0, 1.0)
    balanced = (rates.tpr + tnr) / 2.0
    mcc, kappa = agreement(tp, fp, tn, fn)
    return {"tp": tp, "fp": fp, "tn": tn, "fn": fn, "tpr": rates.tpr, "fpr": rates.fpr,
            "tnr": tnr, "fnr": fnr, "precision": rates.precision, "npv": npv,
            "accuracy": accuracy, "balanced_accuracy": balanced, "f1": rates.f1,
            "mcc": mcc, "kappa": kappa, **({"b": p.b(k)} if with_b else {})}


def agreement(tp: Any, fp: Any, tn: Any, fn: Any) -> tuple[Any, Any]:
    """Matthews' correlation (Matthews 1975) and Cohen's kappa (Cohen 1960) of the
    predictions ``score >= t`` with the labels, from the four counts (arrays or
    scalars). Counts are read as shares of the total first, so that weights of any
    magnitude neither overflow the products nor underflow them.

    Where every row is predicted one class (nothing or everything positive) the
    correlation's denominator is 0 and MCC is 0, as scikit-learn's
    ``matthews_corrcoef`` gives; kappa is 0 there without a special case (the observed
    agreement is the chance one). With both classes present kappa's denominator is
    never 0.
    """
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        total = tp + fp + tn + fn
        tp, fp, tn, fn = tp / total, fp / total, tn / total, fn / total
        called_pos, called_neg = tp + fp, tn + fn
        is_pos, is_neg = tp + fn, fp + tn
        cross = tp * tn - fp * fn
        spread = np.sqrt(called_pos * called_neg) * np.sqrt(is_pos * is_neg)
        mcc = np.where(spread > 0, cross / np.where(spread > 0, spread, 1.0), 0.0)
        kappa = 2.0 * cross / (called_pos * is_neg + is_pos * called_neg)
    return np.clip(mcc, -1.0, 1.0), np.clip(kappa, -1.0, 1.0)


def finish_fields(values: Mapping[str, Any], shape: tuple[int, ...] | None) -> dict[str, Any]:
    """Scalars as Python floats (``shape`` None) or read-only arrays of ``shape``."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        arr = np.asarray(value, dtype=np.float64)
        if shape is None:
            out[name] = float(arr.reshape(-1)[0])
        else:
            shaped = arr.reshape(shape).copy()
            shaped.setflags(write=False)
            out[name] = shaped
    return out


def _check_thresholds(threshold: Any) -> tuple[np.ndarray, tuple[int, ...] | None]:
    """``threshold`` as a flat float64 array and its shape (None for a scalar)."""
    try:
        arr = np.asarray(threshold)
    except ValueError:                  # ragged nesting: NumPy cannot make an array of it
        raise ValueError("threshold must be a number or a rectangular array of numbers "
                         "(its nested sequences differ in length).") from None
    if arr.ndim == 0 and not isinstance(threshold, np.ndarray):
        return np.array([check_real(threshold, "threshold", finite=False)]), None
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iufO":
        raise TypeError(f"threshold must hold real numbers, got an array of dtype "
                        f"{arr.dtype}.")
    try:
        flat = arr.astype(np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise TypeError(f"threshold must hold real numbers, got an array of dtype "
                        f"{arr.dtype}.") from None
    if np.isnan(flat).any():
        raise ValueError(f"threshold contains NaN (first at flat index "
                         f"{int(np.flatnonzero(np.isnan(flat))[0])}).")
    return flat, arr.shape


def warn_undefined_b_at(b: Any, k: Any, p: Points) -> None:
    """Warn when B is NaN at points that label some rows (``k + start > 0``)."""
    undefined = np.isnan(np.asarray(b)) & (np.asarray(k) + p.start > 0)
    warn_undefined_b(int(np.count_nonzero(undefined)), p.weight_pos, p.exclude_self)


CONFUSION_FIELDS_DOC = """
    threshold : float or ndarray
        Predict positive where ``score >= threshold``.
    tp, fp, tn, fn : float or ndarray
        Positive weight at or above the threshold (the post's isSasS), negative weight
        there (isBasS), negative weight below it (isBasB) and positive weight below it
        (isSasB); counts without weights.
    tpr, fpr, tnr, fnr : float or ndarray
        ``tp / W_P``, ``fp / W_N``, ``tn / W_N``, ``fn / W_P``.
    precision : float or ndarray
        ``tp / (tp + fp)``: the precision C(r) at ``r = threshold``; NaN when nothing is
        labelled positive.
    npv : float or ndarray
        ``tn / (tn + fn)``; NaN when everything is labelled positive.
    accuracy, balanced_accuracy : float or ndarray
        ``(tp + tn) / W`` and ``(tpr + tnr) / 2``.
    f1 : float or ndarray
        ``2 tp / (2 tp + fp + fn)``.
    mcc : float or ndarray
        Matthews' correlation coefficient of the predictions with the labels,
        ``(tp tn - fp fn) / sqrt((tp + fp)(tp + fn)(tn + fp)(tn + fn))`` (Matthews
        1975), in [-1, 1]; 0 where every row is predicted one class, as
        scikit-learn's ``matthews_corrcoef`` gives.
    kappa : float or ndarray
        Cohen's kappa (Cohen 1960), the agreement beyond chance of the predictions
        with the labels: ``2 (tp tn - fp fn) / ((tp + fp)(fp + tn) + (tp + fn)(fn +
        tn))``, scikit-learn's ``cohen_kappa_score``; 0 where every row is predicted
        one class.
    b : float or ndarray
        B(r) at the operating point (definitions page; ``exclude_self`` as in ``evaluate``);
        NaN when nothing is labelled positive, or where its denominator is not
        positive (fractional weights with ``exclude_self=True``).
"""


@dataclass(frozen=True, eq=False)
class Confusion:
    """The confusion counts and the rates read from them at one or more thresholds.

    Fields are floats for a scalar threshold and read-only arrays of the thresholds'
    shape for an array of thresholds. Undefined ratios are NaN, never an error.

    Attributes
    ----------%s
    Examples
    --------
    >>> import indist_fast
    >>> c = indist_fast.confusion([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], 0.35)
    >>> c.tp, c.fp, c.tn, c.fn, c.precision
    (2.0, 1.0, 1.0, 0.0, 0.6666666666666666)
    """

    threshold: Any
    tp: Any
    fp: Any
    tn: Any
    fn: Any
    tpr: Any
    fpr: Any
    tnr: Any
    fnr: Any
    precision: Any
    npv: Any
    accuracy: Any
    balanced_accuracy: Any
    f1: Any
    b: Any
    mcc: Any
    kappa: Any

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types (arrays as lists, NaN as None).

        Returns
        -------
        dict
            Field name to value.

        Examples
        --------
        >>> import indist_fast
        >>> d = indist_fast.confusion([0, 1, 1, 0], [0.2, 0.7, 0.3, 0.1], 0.5).to_dict()
        >>> d["tp"], d["npv"]
        (1.0, 0.6666666666666666)
        """
        return record_dict(self)

    def __str__(self) -> str:
        if np.ndim(self.threshold) == 0:
            return confusion_text(self)
        return _confusion_rows(self)


def _count4(x: Any) -> str:
    """A count in a table of four-digit rates: fractional weights to four digits."""
    return count_text(x, 4)


def four_digits(x: Any) -> str:
    return f"{float(x):.4g}"


def confusion_text(c: Confusion) -> str:
    """One threshold: the 2x2 table with the rates beside it."""
    g = four_digits
    cells = [count_text(v, 4) for v in (c.tp, c.fn, c.fp, c.tn)]
    w = max(11, *(len(s) for s in cells))
    return "\n".join([
        f"at threshold {g(c.threshold)} (positive where score >= threshold)",
        f"{'':10} {'predicted +':>{w}} {'predicted -':>{w}}",
        f"{'actual +':10} {cells[0]:>{w}} {cells[1]:>{w}}   tpr {g(c.tpr)}  fnr {g(c.fnr)}",
        f"{'actual -':10} {cells[2]:>{w}} {cells[3]:>{w}}   fpr {g(c.fpr)}  tnr {g(c.tnr)}",
        f"precision {g(c.precision)}  npv {g(c.npv)}  accuracy {g(c.accuracy)}  "
        f"balanced accuracy {g(c.balanced_accuracy)}  f1 {g(c.f1)}  B {g(c.b)}",
        f"mcc {g(c.mcc)}  kappa {g(c.kappa)}"])


_ROW_FIELDS = ("threshold", "tp", "fp", "tn", "fn", "tpr", "fpr", "precision", "f1", "b")
_COUNTS = frozenset({"tp", "fp", "tn", "fn"})


def _confusion_rows(c: Confusion, limit: int = 20) -> str:
    """Several thresholds: one row each (the first and last ``limit / 2`` when more)."""
    columns = {f: np.ravel(getattr(c, f)) for f in _ROW_FIELDS}
    n = len(columns["threshold"])
    shown = list(range(n)) if n <= limit else [*range(limit // 2), *range(n - limit // 2, n)]
    lines = ["".join(f"{f:>11}" for f in _ROW_FIELDS)]
    for k, i in enumerate(shown):
        if n > limit and k == limit // 2:
            lines.append(f"{'...':>11}  ({n - limit} more: .to_dict() holds every row)")
        lines.append("".join(f"{(_count4 if f in _COUNTS else four_digits)(columns[f][i]):>11}"
                             for f in _ROW_FIELDS))
    return "\n".join(lines)


Confusion.__doc__ = Confusion.__doc__ % CONFUSION_FIELDS_DOC   # type: ignore[operator]


def rows_and_table(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any,
                    score_name: str = "y_score") -> tuple[Rows, ScoreTable]:
    """Validated rows and their table; errors about the scores name ``score_name``."""
    try:
        rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
        return rows, ScoreTable.from_rows(rows)
    except (ValueError, TypeError) as exc:
        if score_name == "y_score":
            raise
        raise type(exc)(str(exc).replace("y_score", score_name)) from None


def confusion(y_true: Any, y_score: Any, threshold: Any, *, sample_weight: Any = None,
              pos_label: Any = None, exclude_self: bool = True) -> Confusion:
    """Confusion counts and rates at ``score >= threshold``, for one or many thresholds.

    One sort builds the score table; each threshold then costs one binary search on
    its distinct scores, so thousands of thresholds cost about as much as one.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    threshold : float or array-like of float
        Predict positive where ``score >= threshold``; ±inf allowed (``inf`` labels
        only scores of ``inf``), NaN not. An array gives arrays of its shape.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B`` (as in ``evaluate``).

    Returns
    -------
    Confusion
        ``tp, fp, tn, fn`` (isSasS, isBasS, isBasB, isSasB), the rates, precision
        C(r) and B(r); NaN where a ratio is undefined.

    Raises
    ------
    ValueError
        When ``threshold`` holds NaN, or the rows hold a single class.

    Warns
    -----
    UndefinedBWarning
        When B is undefined at a threshold that labels some rows (fractional weights
        with ``exclude_self=True``).

    Examples
    --------
    >>> import indist_fast
    >>> c = indist_fast.confusion([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0.9, 0.4, 0.0])
    >>> c.tp.tolist(), c.fp.tolist(), c.tpr.tolist()
    ([0.0, 1.0, 2.0], [0.0, 1.0, 2.0], [0.0, 0.5, 1.0])
    >>> c.precision.tolist()    # nothing labelled at 0.9: precision is undefined
    [nan, 0.5, 0.5]
    """
    exclude_self = check_flag(exclude_self, "exclude_self")
    flat, shape = _check_thresholds(threshold)
    _, table = rows_and_table(y_true, y_score, sample_weight, pos_label)
    p = all_points(table, exclude_self)
    k = point_index(table, flat)
    values = point_fields(p, k)
    warn_undefined_b_at(values["b"], k, p)
    return Confusion(**finish_fields({"threshold": flat, **values}, shape))
