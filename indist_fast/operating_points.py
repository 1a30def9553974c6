"""Operating points: confusion counts at thresholds, thresholds chosen by a figure of
merit, ROC dominance and intervals at an operating point.

Everything reads the ``ScoreTable`` (one sort): operating point ``j`` labels positive
every row with ``s >= t_j`` (see the definitions page of the documentation), and a
threshold ``t`` selects the operating point of the distinct scores ``>= t`` by one
``np.searchsorted`` on the descending scores, never a pass over the rows per threshold.
The post's four basic counts are ``tp = isSasS``, ``fp = isBasS``, ``tn = isBasB`` and
``fn = isSasB``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist
from types import MappingProxyType
from typing import Any, Callable, Mapping, NamedTuple

import numpy as np

from ._core.curves import b_at
from ._core.rates import operating_rates
from ._core.validation import (Rows, check_count, check_flag, check_level, check_real,
                               check_seed, check_two_classes, prepare_rows, with_scores)
from .errors import warn_fractional_weights, warn_undefined_b
from .inference.bootstrap import BootstrapResult, bootstrap_table
from .results import record_dict
from .table import ScoreTable

__all__ = ["confusion", "Confusion", "best_threshold", "BestThreshold", "CRITERIA",
           "dominates", "Dominance", "operating_point_intervals", "OperatingPointIntervals",
           "RateInterval", "wilson_interval"]


# --------------------------------------------------------------------------- points

class _Points(NamedTuple):
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

    def without_nothing_positive(self) -> "_Points":
        """The points without index 0, for tables whose top score is +inf."""
        return self._replace(thresholds=self.thresholds[1:], tp=self.tp[1:],
                             fp=self.fp[1:], tn=self.tn[1:], fn=self.fn[1:],
                             start=self.start + 1)


def _points(table: ScoreTable, exclude_self: bool) -> _Points:
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
    return _Points(np.r_[np.inf, table.scores], tp, fp, tn, fn, float(tp[-1]),
                   float(fp[-1]), table, exclude_self)


def _running(weights: np.ndarray) -> np.ndarray:
    """0, then the running sums of ``weights`` in float64 (one pass, no copies)."""
    out = np.empty(len(weights) + 1)
    out[0] = 0.0
    np.cumsum(weights, dtype=np.float64, out=out[1:])
    return out


def _index(table: ScoreTable, thresholds: np.ndarray) -> np.ndarray:
    """Index into ``_Points`` of the operating point of each threshold: the number of
    distinct scores ``>= t`` (0: nothing labelled)."""
    return np.searchsorted(-table.scores, -thresholds, side="right")


def _fields(p: _Points, k: Any, with_b: bool = True) -> dict[str, Any]:
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
    return {"tp": tp, "fp": fp, "tn": tn, "fn": fn, "tpr": rates.tpr, "fpr": rates.fpr,
            "tnr": tnr, "fnr": fnr, "precision": rates.precision, "npv": npv,
            "accuracy": accuracy, "balanced_accuracy": balanced, "f1": rates.f1,
            **({"b": p.b(k)} if with_b else {})}


def _finish(values: Mapping[str, Any], shape: tuple[int, ...] | None) -> dict[str, Any]:
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
    if np.ndim(threshold) == 0 and not isinstance(threshold, np.ndarray):
        return np.array([check_real(threshold, "threshold", finite=False)]), None
    arr = np.asarray(threshold)
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


def _warn_b(b: Any, k: Any, p: _Points) -> None:
    """Warn when B is NaN at points that label some rows (``k + start > 0``)."""
    undefined = np.isnan(np.asarray(b)) & (np.asarray(k) + p.start > 0)
    warn_undefined_b(int(np.count_nonzero(undefined)), p.weight_pos, p.exclude_self)


_CONFUSION_DOC = """
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
            return _confusion_text(self)
        return _confusion_rows(self)


def _g(x: Any) -> str:
    return f"{float(x):.4g}"


def _n(x: Any) -> str:
    """A count (or a weight total): whole numbers in full, others to 4 digits."""
    x = float(x)
    return f"{int(x):,}" if x.is_integer() and abs(x) < 1e15 else f"{x:.4g}"


def _confusion_text(c: Confusion) -> str:
    """One threshold: the 2x2 table with the rates beside it."""
    cells = [_n(v) for v in (c.tp, c.fn, c.fp, c.tn)]
    w = max(11, *(len(s) for s in cells))
    return "\n".join([
        f"at threshold {_g(c.threshold)} (positive where score >= threshold)",
        f"{'':10} {'predicted +':>{w}} {'predicted -':>{w}}",
        f"{'actual +':10} {cells[0]:>{w}} {cells[1]:>{w}}   tpr {_g(c.tpr)}  fnr {_g(c.fnr)}",
        f"{'actual -':10} {cells[2]:>{w}} {cells[3]:>{w}}   fpr {_g(c.fpr)}  tnr {_g(c.tnr)}",
        f"precision {_g(c.precision)}  npv {_g(c.npv)}  accuracy {_g(c.accuracy)}  "
        f"balanced accuracy {_g(c.balanced_accuracy)}  f1 {_g(c.f1)}  B {_g(c.b)}"])


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
            lines.append(f"{'...':>11}  ({n - limit} more)")
        lines.append("".join(f"{(_n if f in _COUNTS else _g)(columns[f][i]):>11}"
                             for f in _ROW_FIELDS))
    return "\n".join(lines)


Confusion.__doc__ = Confusion.__doc__ % _CONFUSION_DOC   # type: ignore[operator]


def _rows_and_table(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any,
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
    _, table = _rows_and_table(y_true, y_score, sample_weight, pos_label)
    p = _points(table, exclude_self)
    k = _index(table, flat)
    values = _fields(p, k)
    _warn_b(values["b"], k, p)
    return Confusion(**_finish({"threshold": flat, **values}, shape))


# ------------------------------------------------------------------ best threshold

class _Criterion(NamedTuple):
    required: tuple[str, ...]
    optional: dict[str, Any]
    doc: str


_SPECS: dict[str, _Criterion] = {
    "accuracy": _Criterion((), {}, "maximise (tp + tn) / W"),
    "balanced_accuracy": _Criterion((), {}, "maximise (tpr + tnr) / 2"),
    "youden": _Criterion((), {}, "maximise Youden's J = tpr - fpr"),
    "f1": _Criterion((), {}, "maximise 2 tp / (2 tp + fp + fn)"),
    "cost": _Criterion((), {"c": None, "cost_fn": None, "cost_fp": None, "gain_tp": None,
                            "gain_tn": None},
                       "minimise the loss Q(c) of Hernandez-Orallo et al. (c=), or the mean "
                       "cost (cost_fn fn + cost_fp fp) / W (cost_fn=, cost_fp=); or maximise "
                       "the mean gain (gain_tp tp + gain_tn tn) / W (gain_tp=, gain_tn=)"),
    "punzi": _Criterion((), {"a": 3.0, "background_scale": 1.0},
                        "maximise Punzi's tpr / (a/2 + sqrt(background_scale fp))"),
    "ams": _Criterion((), {"b_reg": 10.0, "signal_scale": 1.0, "background_scale": 1.0},
                      "maximise the approximate median significance sqrt(2((s + b + "
                      "b_reg) ln(1 + s/(b + b_reg)) - s)), s = signal_scale tp, "
                      "b = background_scale fp"),
    "recall": _Criterion(("target",), {},
                         "the highest threshold with tpr >= target (fewest false "
                         "positives)"),
    "precision": _Criterion(("target",), {},
                            "the lowest threshold with precision >= target (most true "
                            "positives)"),
    "fpr": _Criterion(("target",), {},
                      "the lowest threshold with fpr <= target (most true positives)"),
    "tnr": _Criterion(("target",), {},
                      "the lowest threshold with tnr >= target (most true positives)"),
    "indistinguishability": _Criterion((), {"level": 0.5},
                                       "r at level (default 1/2): the highest threshold "
                                       "with B >= level, evaluate's threshold"),
}
#: The named criteria of ``best_threshold``, each with a one-line description.
CRITERIA: Mapping[str, str] = MappingProxyType({name: spec.doc
                                                 for name, spec in _SPECS.items()})
_CALLABLE = _Criterion((), {"maximize": True}, "")


def _check_params(name: str, spec: _Criterion, params: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(params) - set(spec.required) - set(spec.optional))
    if unknown:
        takes = ", ".join(spec.required + tuple(spec.optional)) or "no parameters"
        raise TypeError(f"criterion {name!r} got unexpected parameter(s) "
                        f"{', '.join(unknown)}; it takes {takes}.")
    missing = [p for p in spec.required if p not in params]
    if missing:
        raise TypeError(f"criterion {name!r} needs the parameter(s) {', '.join(missing)}.")
    return {**spec.optional, **params}


def _nonnegative(value: Any, name: str) -> float:
    return check_real(value, name, low=0.0)


def _cost_values(p: _Points, params: dict[str, Any]) -> tuple[np.ndarray, str]:
    given = {k for k, v in params.items() if v is not None}
    groups = ({"c"}, {"cost_fn", "cost_fp"}, {"gain_tp", "gain_tn"})
    if given not in groups:
        raise TypeError("criterion 'cost' takes exactly one of: c= (the cost proportion "
                        "of Hernandez-Orallo et al.), cost_fn= and cost_fp=, or gain_tp= "
                        "and gain_tn=; "
                        f"got {', '.join(sorted(given)) or 'none'}.")
    total = p.weight_pos + p.weight_neg
    if given == {"c"}:
        c = check_real(params["c"], "c", low=0.0, high=1.0)
        return 2.0 * (c * p.fn + (1.0 - c) * p.fp) / total, "min"
    first, second = ("cost_fn", "cost_fp") if "cost_fn" in given else ("gain_tp", "gain_tn")
    x, y = _nonnegative(params[first], first), _nonnegative(params[second], second)
    if x == 0.0 and y == 0.0:
        raise ValueError(f"{first} and {second} are both 0: every threshold is as good.")
    if given == {"cost_fn", "cost_fp"}:
        return (x * p.fn + y * p.fp) / total, "min"
    return (x * p.tp + y * p.tn) / total, "max"


def _target(p: _Points, name: str, target: Any) -> tuple[np.ndarray, np.ndarray, bool]:
    """(rate, meets, lowest): the rate per point, where it meets ``target`` and whether
    the lowest meeting threshold (most true positives) is wanted."""
    target = check_real(target, "target", low=0.0, high=1.0)
    rate = _fields(p, slice(None), with_b=False)["tpr" if name == "recall" else name]
    with np.errstate(invalid="ignore"):
        meets = rate <= target if name == "fpr" else rate >= target
    return rate, meets & ~np.isnan(rate), name != "recall"


def _callable_values(fn: Callable[..., Any], p: _Points) -> np.ndarray:
    args = []
    for arr in (p.tp, p.fp, p.tn, p.fn):
        arr = arr.copy()
        arr.setflags(write=False)
        args.append(arr)
    label = getattr(fn, "__name__", repr(fn))
    try:
        out = fn(*args)
    except Exception as exc:
        raise ValueError(f"criterion: the callable {label!r} raised "
                         f"{type(exc).__name__}: {exc}") from exc
    values = np.asarray(out)
    if values.dtype.kind not in "iuf" or values.shape != p.tp.shape:
        raise TypeError(f"criterion: the callable {label!r} must return an array of "
                        f"{len(p.tp)} real numbers (one per operating point, from arrays "
                        f"tp, fp, tn, fn), got {type(out).__name__} of dtype "
                        f"{values.dtype} and shape {values.shape}.")
    return np.asarray(values, dtype=np.float64)


# Figures of merit within this share of their largest magnitude count as tied: optima
# equal in exact arithmetic (0.8 + 0.2 * 6 against 0.2 * 10) differ by rounding.
PLATEAU_RTOL = 1e-12


def _best_index(values: np.ndarray, goal: str) -> int:
    ok = ~np.isnan(values)
    if not ok.any():
        raise ValueError("criterion: the figure of merit is NaN at every operating point.")
    finite = values[ok]
    sign = 1.0 if goal == "max" else -1.0
    best = sign * finite.max() if goal == "max" else sign * finite.min()
    scale = float(np.abs(finite[np.isfinite(finite)]).max(initial=0.0))
    # Plateaus: the first optimum in descending order, i.e. the highest threshold.
    with np.errstate(invalid="ignore"):
        return int(np.flatnonzero(sign * values >= best - PLATEAU_RTOL * scale)[0])


def _choose(p: _Points, name: str, params: dict[str, Any]) -> tuple[int, float]:
    """Index of the chosen operating point and the criterion's value there."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if name in ("recall", "precision", "fpr", "tnr"):
            rate, meets, lowest = _target(p, name, params["target"])
            hits = np.flatnonzero(meets)
            if not len(hits):
                best = np.nanmax(rate) if name != "fpr" else np.nanmin(rate)
                raise ValueError(f"no operating point has {name} "
                                 f"{'<=' if name == 'fpr' else '>='} "
                                 f"{params['target']!r} (the best is {best:.6g}); lower "
                                 "target.")
            k = int(hits[-1] if lowest else hits[0])
            return k, float(rate[k])
        if name == "indistinguishability":
            level = check_level(params["level"])
            b = p.b(np.arange(len(p.tp)))
            reached = np.flatnonzero(b >= level)
            if not len(reached):
                raise ValueError(f"no operating point has B >= level={level!r} (the "
                                 f"highest B is {np.nanmax(b):.6g}): the "
                                 "indistinguishability threshold is undefined.")
            k = int(reached[0])
            return k, float(b[k])
        if name == "cost":
            values, goal = _cost_values(p, params)
        elif name == "punzi":
            a = check_real(params["a"], "a", low=0.0, low_open=True)
            scale = check_real(params["background_scale"], "background_scale", low=0.0,
                               low_open=True)
            values = p.tp / p.weight_pos / (a / 2.0 + np.sqrt(scale * p.fp))
            goal = "max"
        elif name == "ams":
            b_reg = _nonnegative(params["b_reg"], "b_reg")
            s = check_real(params["signal_scale"], "signal_scale", low=0.0,
                           low_open=True) * p.tp
            b = check_real(params["background_scale"], "background_scale", low=0.0,
                           low_open=True) * p.fp + b_reg
            inner = 2.0 * ((s + b) * np.log1p(s / b) - s)
            # ln(1 + x) >= x / (1 + x) makes ``inner`` >= 0; rounding may not.
            values, goal = np.where(b > 0, np.sqrt(np.maximum(inner, 0.0)), np.nan), "max"
        elif name in ("accuracy", "balanced_accuracy", "f1"):
            values, goal = _fields(p, slice(None), with_b=False)[name], "max"
        elif name == "youden":
            values, goal = p.tp / p.weight_pos - p.fp / p.weight_neg, "max"
        else:                                   # a callable
            values = _callable_values(params["criterion"], p)
            goal = "max" if check_flag(params["maximize"], "maximize") else "min"
    k = _best_index(values, goal)
    return k, float(values[k])


@dataclass(frozen=True, eq=False)
class BestThreshold(Confusion):
    """The operating point a criterion chooses: its confusion fields and the value.

    Attributes
    ----------%s    criterion : str
        The criterion's name (a callable's ``__name__``).
    value : float
        The criterion at the chosen point: the figure of merit (the loss for ``cost``
        with ``c=`` or costs, the mean gain with gains), the rate for a target, B for
        ``indistinguishability``.

    Examples
    --------
    >>> import indist_fast
    >>> best = indist_fast.best_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], "accuracy")
    >>> best.threshold, best.value, best.criterion
    (0.8, 0.75, 'accuracy')
    """

    criterion: str = ""
    value: float = math.nan

    def __str__(self) -> str:
        return f"best {self.criterion}: {_g(self.value)}\n" + _confusion_text(self)


BestThreshold.__doc__ = BestThreshold.__doc__ % _CONFUSION_DOC   # type: ignore[operator]


def best_threshold(y_true: Any, y_score: Any, criterion: Any, *, sample_weight: Any = None,
                   pos_label: Any = None, exclude_self: bool = True,
                   **params: Any) -> BestThreshold:
    """The exact best threshold for a criterion, over every operating point.

    The candidates are every distinct score as threshold (``score >= t``) and
    "nothing positive" (threshold ``inf``; left out when the top score is ``inf``,
    since no threshold then labels nothing). One sort, then the figure of merit of all
    points at once.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    criterion : str or callable
        One of ``indist_fast.operating_points.CRITERIA``:

        - ``"accuracy"``, ``"balanced_accuracy"``, ``"youden"`` (tpr - fpr), ``"f1"``.
        - ``"cost"``: exactly one of ``c=`` (cost proportion in [0, 1], minimise
          Hernandez-Orallo et al.'s ``Q(c) = 2 [c pi1 (1 - tpr) + (1 - c) pi0 fpr]``),
          ``cost_fn=`` and ``cost_fp=`` (non-negative costs per unit of weight; minimise
          ``(cost_fn fn + cost_fp fp) / W``) or ``gain_tp=`` and ``gain_tn=`` (the
          post's paid correct guesses; maximise ``(gain_tp tp + gain_tn tn) / W``).
          Gains ``(g_s, g_b)`` choose the point costs ``(g_s, g_b)`` do.
        - ``"punzi"``: maximise ``tpr / (a / 2 + sqrt(B))``, ``B = background_scale *
          fp``; ``a=3``, ``background_scale=1`` by default (both > 0).
        - ``"ams"``: maximise ``sqrt(2 ((s + b + b_reg) ln(1 + s / (b + b_reg)) - s))``,
          ``s = signal_scale * tp``, ``b = background_scale * fp``; ``b_reg=10`` (>= 0;
          with 0, points of ``b = 0`` are NaN and never chosen).
        - Targets, each with ``target=`` in [0, 1]: ``"recall"`` gives the highest
          threshold with tpr >= target (fewest false positives); ``"precision"``,
          ``"fpr"`` (fpr <= target) and ``"tnr"`` give the lowest threshold meeting
          the target (most true positives). A target no point meets raises ValueError.
        - ``"indistinguishability"``: r at ``level=`` (default 0.5), the highest
          threshold with B >= level, equal to ``evaluate``'s threshold; ValueError when
          no point reaches the level.
        - A callable ``f(tp, fp, tn, fn)`` of read-only float64 arrays (one entry per
          candidate, highest threshold first) returning an array of as many values;
          maximised, or minimised with ``maximize=False``. NaN values are never chosen.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B`` (the ``b`` field and
        the ``indistinguishability`` criterion).
    **params
        The criterion's parameters (above). Unknown or missing ones raise TypeError
        naming them; bad values raise ValueError naming them.

    Returns
    -------
    BestThreshold
        The confusion fields at the chosen point, its ``threshold``, ``criterion`` and
        ``value``.

    Raises
    ------
    ValueError
        An unknown criterion, a bad parameter value, or no operating point meeting a
        target or reaching the level, or a figure of merit NaN everywhere.
    TypeError
        Unknown or missing parameters.

    Notes
    -----
    Plateaus: when several operating points share the optimal value, the highest
    threshold among them is returned (for ``cost`` with ``c=0`` that is the "nothing
    positive" point, threshold ``inf``). Values within ``PLATEAU_RTOL`` (1e-12) times
    the largest magnitude of the figure of merit count as equal, so optima equal in
    exact arithmetic but apart after rounding are ties too. Targets and
    ``indistinguishability`` compare the rate or B itself with the target, exactly.

    Examples
    --------
    >>> import indist_fast
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> indist_fast.best_threshold(y, s, "youden").threshold  # 2/3 at 0.8 and 0.35
    0.8
    >>> indist_fast.best_threshold(y, s, "recall", target=0.5).threshold
    0.8
    >>> best = indist_fast.best_threshold(y, s, "cost", cost_fn=1.0, cost_fp=5.0)
    >>> best.threshold, best.fp, best.fn
    (0.8, 0.0, 1.0)
    >>> indist_fast.best_threshold(y, s, lambda tp, fp, tn, fn: tp - 2 * fp).threshold
    0.8
    """
    if callable(criterion):
        spec, name = _CALLABLE, getattr(criterion, "__name__", repr(criterion))
    elif isinstance(criterion, str) and criterion in _SPECS:
        spec, name = _SPECS[criterion], criterion
    else:
        raise ValueError(f"criterion must be one of {', '.join(_SPECS)} or a callable "
                         f"f(tp, fp, tn, fn), got {criterion!r}.")
    settings = _check_params(name if spec is not _CALLABLE else "callable", spec, params)
    exclude_self = check_flag(exclude_self, "exclude_self")
    _, table = _rows_and_table(y_true, y_score, sample_weight, pos_label)
    p = _points(table, exclude_self)
    if len(table) and table.scores[0] == np.inf:
        # No threshold labels nothing when a score is +inf: drop that candidate.
        p = p.without_nothing_positive()
    if spec is _CALLABLE:
        settings["criterion"] = criterion
        name_for_choice = "callable"
    else:
        name_for_choice = name
    k, value = _choose(p, name_for_choice, settings)
    values = _fields(p, k)
    _warn_b(values["b"], k, p)
    return BestThreshold(**_finish({"threshold": p.thresholds[k], **values}, None),
                         criterion=name, value=value)


# ---------------------------------------------------------------------- dominance

def roc_polyline(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """The exact ROC polyline from (0, 0): fpr and tpr after each operating point, tied
    scores giving one straight segment (both classes must have weight)."""
    tp = np.r_[0.0, np.cumsum(table.pos.astype(np.float64))]
    fp = np.r_[0.0, np.cumsum(table.neg.astype(np.float64))]
    return np.clip(fp / fp[-1], 0.0, 1.0), np.clip(tp / tp[-1], 0.0, 1.0)


def _upper_lower(fpr: np.ndarray, tpr: np.ndarray, x: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The curve's highest and lowest tpr at each ``x`` (they differ on its vertical
    segments): the highest is the value just right of ``x``, the lowest just left."""
    last = np.searchsorted(fpr, x, side="right") - 1         # last point with fpr <= x
    first = np.searchsorted(fpr, x, side="left")             # first point with fpr >= x
    nxt = np.minimum(last + 1, len(fpr) - 1)
    prv = np.maximum(first - 1, 0)

    def between(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        dx = fpr[j] - fpr[i]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(dx > 0, (x - fpr[i]) / dx, 0.0)
        value: np.ndarray = tpr[i] + t * (tpr[j] - tpr[i])
        return value

    upper = np.where(fpr[last] == x, tpr[last], between(last, nxt))
    lower = np.where(fpr[first] == x, tpr[first], between(prv, first))
    return upper, lower


@dataclass(frozen=True)
class Dominance:
    """Whether one ROC curve is on or above another at every false positive rate.

    Attributes
    ----------
    a_dominates, b_dominates : bool
        A's curve is nowhere below B's (resp. B's nowhere below A's), within ``atol``
        in tpr. Both are True when the curves coincide.
    a_higher, b_higher : tuple of (float, float)
        The fpr intervals ``(low, high)`` where A's (resp. B's) curve is strictly
        higher by more than ``atol``, merged and in increasing order.
    max_gap_a, max_gap_b : float
        The largest amount (in tpr) by which A's curve rises above B's, and B's above
        A's (0 when never).
    atol : float
        The tolerance in tpr below which two curves count as equal.

    Examples
    --------
    >>> import indist_fast
    >>> d = indist_fast.dominates([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9], [0.1, 0.8, 0.2, 0.9])
    >>> d.a_dominates, d.b_dominates, d.a_higher
    (True, False, ((0.0, 0.5),))
    """

    a_dominates: bool
    b_dominates: bool
    a_higher: tuple[tuple[float, float], ...]
    b_higher: tuple[tuple[float, float], ...]
    max_gap_a: float
    max_gap_b: float
    atol: float

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types.

        Returns
        -------
        dict
            Field name to value; the ranges as lists of ``[low, high]``.

        Examples
        --------
        >>> import indist_fast
        >>> d = indist_fast.dominates([0, 1], [0.1, 0.9], [0.9, 0.1]).to_dict()
        >>> d["a_dominates"], d["a_higher"]
        (True, [[0.0, 1.0]])
        """
        return record_dict(self, a_higher=[list(r) for r in self.a_higher],
                           b_higher=[list(r) for r in self.b_higher])

    def __str__(self) -> str:
        if self.a_dominates and self.b_dominates:
            return "A and B have the same ROC curve (within atol)."
        if self.a_dominates or self.b_dominates:
            first, second = ("A", "B") if self.a_dominates else ("B", "A")
            lines = [f"{first} dominates {second}: {first}'s ROC curve is nowhere below "
                     f"{second}'s."]
        else:
            lines = ["Neither dominates: the ROC curves cross."]
        for name, ranges, gap in (("A", self.a_higher, self.max_gap_a),
                                  ("B", self.b_higher, self.max_gap_b)):
            if ranges:
                spans = ", ".join(f"[{_g(lo)}, {_g(hi)}]" for lo, hi in ranges)
                lines.append(f"{name} higher at fpr {spans}, by up to {_g(gap)} in tpr")
        return "\n".join(lines)


def _ranges(x: np.ndarray, start: np.ndarray, end: np.ndarray, atol: float
            ) -> tuple[tuple[float, float], ...]:
    """Where a difference, linear from ``start[i]`` at ``x[i]`` to ``end[i]`` at
    ``x[i+1]``, exceeds ``atol``: merged fpr intervals. ``atol`` decides which pieces
    count; a range ends where the difference crosses 0."""
    i = np.flatnonzero((start > atol) | (end > atol))
    if not len(i):
        return ()
    d0, d1, x0, dx = start[i], end[i], x[i], x[i + 1] - x[i]
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.where(d0 > atol, x0, x0 + dx * np.clip(-d0 / (d1 - d0), 0.0, 1.0))
        hi = np.where(d1 > atol, x[i + 1], x0 + dx * np.clip(d0 / (d0 - d1), 0.0, 1.0))
    first = np.flatnonzero(np.r_[True, lo[1:] > hi[:-1]])   # pieces that start a range
    ends = np.maximum.reduceat(hi, first)
    return tuple(zip(lo[first].tolist(), ends.tolist()))


def dominates(y_true: Any, score_a: Any, score_b: Any, *, sample_weight: Any = None,
              pos_label: Any = None, atol: float = 1e-12) -> Dominance:
    """Whether model A's ROC curve is on or above model B's at every fpr.

    Each ROC curve is the exact empirical one: the polyline from (0, 0) through every
    operating point to (1, 1), with tied scores giving one straight segment (a random
    split of the tie), i.e. linearly interpolated between operating points. Where a
    curve rises vertically it covers every tpr of the segment, so "A on or above B"
    compares the regions under the curves: A dominates B when B's region lies inside
    A's. Both curves are piecewise linear on the union of their breakpoints, so
    comparing them at every breakpoint (from both sides) decides it exactly.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    score_a, score_b : array-like of shape (n_samples,)
        The two models' scores for the same rows, higher meaning more likely positive;
        ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    atol : float, default=1e-12
        Differences in tpr up to this count as equal (rounding of the rates), >= 0.

    Returns
    -------
    Dominance
        ``a_dominates``, ``b_dominates`` and the fpr ranges where each is higher.

    Examples
    --------
    >>> import indist_fast
    >>> y = [0, 0, 0, 1, 1, 1]
    >>> d = indist_fast.dominates(y, [0.1, 0.5, 0.3, 0.4, 0.8, 0.9],
    ...                           [0.2, 0.1, 0.95, 0.6, 0.5, 0.4])
    >>> d.a_dominates, d.b_dominates
    (True, False)
    >>> crossing = indist_fast.dominates(y, [0.1, 0.2, 0.6, 0.5, 0.8, 0.3],
    ...                                  [0.1, 0.7, 0.3, 0.9, 0.8, 0.25])
    >>> crossing.a_dominates, crossing.b_dominates
    (False, False)
    >>> crossing.a_higher, crossing.b_higher
    (((0.3333333333333333, 0.6666666666666666),), ((0.0, 0.3333333333333333),))
    """
    atol = check_real(atol, "atol", low=0.0)
    rows_a, table_a = _rows_and_table(y_true, score_a, sample_weight, pos_label, "score_a")
    try:
        rows_b = with_scores(rows_a, score_b)
        table_b = ScoreTable.from_rows(rows_b)
    except (ValueError, TypeError) as exc:
        raise type(exc)(str(exc).replace("y_score", "score_b")) from None
    with np.errstate(over="ignore"):
        check_two_classes(table_a.weight_pos, table_a.weight_neg)
    fa, ta = roc_polyline(table_a)
    fb, tb = roc_polyline(table_b)
    x = np.union1d(fa, fb)
    up_a, low_a = _upper_lower(fa, ta, x)
    up_b, low_b = _upper_lower(fb, tb, x)
    # On (x[i], x[i+1]) the difference runs linearly from its value just right of x[i]
    # (upper) to its value just left of x[i+1] (lower).
    start, end = up_a[:-1] - up_b[:-1], low_a[1:] - low_b[1:]
    diffs = np.r_[up_a - up_b, low_a - low_b]
    max_a, max_b = float(diffs.max()), float(-diffs.min())
    max_a, max_b = (max_a if max_a > 0 else 0.0), (max_b if max_b > 0 else 0.0)
    return Dominance(bool(max_b <= atol), bool(max_a <= atol),
                     _ranges(x, start, end, atol), _ranges(x, -start, -end, atol),
                     max_a, max_b, atol)


# ------------------------------------------------------- intervals at a threshold

@dataclass(frozen=True)
class RateInterval:
    """A rate at an operating point with its Wilson score and bootstrap intervals.

    Attributes
    ----------
    metric : str
        ``"tpr"``, ``"fpr"`` or ``"precision"``.
    estimate : float
        The rate: ``successes / trials``.
    successes, trials : float
        The counts behind it (weighted sums with weights): tp of W_P, fp of W_N, tp of
        tp + fp.
    low, high : float
        Wilson score interval (NaN when ``trials`` is 0).
    bootstrap_low, bootstrap_high : float
        Bootstrap percentile interval (NaN without ``n_boot``).

    Examples
    --------
    >>> import indist_fast
    >>> r = indist_fast.operating_point_intervals([0, 1, 1, 0, 1], [0.1, 0.9, 0.7, 0.8, 0.2], 0.5)
    >>> iv = r["tpr"]
    >>> iv.estimate, iv.successes, iv.trials, round(iv.low, 4), round(iv.high, 4)
    (0.6666666666666666, 2.0, 3.0, 0.2077, 0.9385)
    """

    metric: str
    estimate: float
    successes: float
    trials: float
    low: float
    high: float
    bootstrap_low: float = math.nan
    bootstrap_high: float = math.nan


@dataclass(frozen=True)
class OperatingPointIntervals:
    """tpr, fpr and precision at one threshold with their intervals (pROC's
    ``ci.coords``). Index by metric: ``result["precision"].low``.

    Attributes
    ----------
    threshold : float
        Predict positive where ``score >= threshold``.
    confidence : float
        Nominal coverage of the intervals.
    tpr, fpr, precision : RateInterval
        Each rate with its Wilson and (with ``n_boot``) bootstrap interval.
    bootstrap : BootstrapResult or None
        The bootstrap replicates behind the bootstrap intervals (None without
        ``n_boot``).

    Examples
    --------
    >>> import indist_fast
    >>> r = indist_fast.operating_point_intervals([0, 1, 1, 0], [0.1, 0.9, 0.7, 0.8], 0.5)
    >>> r["fpr"].estimate, r.bootstrap is None
    (0.5, True)
    """

    threshold: float
    confidence: float
    tpr: RateInterval
    fpr: RateInterval
    precision: RateInterval
    bootstrap: BootstrapResult | None = field(default=None, repr=False)

    def __getitem__(self, metric: str) -> RateInterval:
        if metric not in ("tpr", "fpr", "precision"):
            raise KeyError(f"no rate {metric!r}; there are tpr, fpr and precision.")
        interval: RateInterval = getattr(self, metric)
        return interval

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types (NaN as None), without the bootstrap replicates.

        Returns
        -------
        dict
            ``threshold``, ``confidence`` and one dict per rate.

        Examples
        --------
        >>> import indist_fast
        >>> r = indist_fast.operating_point_intervals([0, 1, 1, 0], [0.1, 0.9, 0.7, 0.8], 0.5)
        >>> r.to_dict()["precision"]["estimate"]
        0.6666666666666666
        """
        return record_dict(self, skip=("bootstrap",),
                           **{m: record_dict(self[m]) for m in ("tpr", "fpr", "precision")})

    def __str__(self) -> str:
        boot = self.bootstrap is not None
        lines = [f"at threshold {_g(self.threshold)}: {self.confidence:.0%} intervals, "
                 f"Wilson{' and bootstrap' if boot else ''}"]
        for m in ("tpr", "fpr", "precision"):
            r = self[m]
            line = (f"  {m:<10} {r.estimate:.4f}  [{r.low:.4f}, {r.high:.4f}]  "
                    f"{_n(r.successes)}/{_n(r.trials)}")
            if boot:
                line += f"  bootstrap [{r.bootstrap_low:.4f}, {r.bootstrap_high:.4f}]"
            lines.append(line)
        return "\n".join(lines)


def wilson_interval(successes: Any, trials: Any, confidence: float = 0.95
                    ) -> tuple[Any, Any]:
    """Wilson score interval of a binomial proportion (NaN where ``trials`` is 0).

    Parameters
    ----------
    successes, trials : float or ndarray
        Counts, ``0 <= successes <= trials``.
    confidence : float, default=0.95
        Nominal coverage, in (0, 1).

    Returns
    -------
    low, high : float or ndarray
        ``(p + z^2/2n -+ z sqrt(p (1 - p) / n + z^2 / 4n^2)) / (1 + z^2/n)``, ``z`` the
        normal quantile of ``(1 + confidence) / 2``.

    Examples
    --------
    >>> from indist_fast.operating_points import wilson_interval
    >>> [round(v, 4) for v in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    """
    confidence = check_level(confidence, "confidence")
    z = NormalDist().inv_cdf((1.0 + confidence) / 2.0)
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.clip(k / n, 0.0, 1.0)
        centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n)
        half = z / (1.0 + z * z / n) * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n))
        low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
        high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def _rate_at(threshold: float, metric: str) -> Callable[[ScoreTable], float]:
    """The rate at ``threshold`` on any table (a bootstrap replicate's)."""
    def rate(table: ScoreTable) -> float:
        k = int(_index(table, np.array([threshold]))[0])
        tp = float(table.pos[:k].sum())
        fp = float(table.neg[:k].sum())
        rates = operating_rates(tp, fp, table.weight_pos, table.weight_neg)
        return float(getattr(rates, metric))
    rate.__name__ = metric
    return rate


def operating_point_intervals(y_true: Any, y_score: Any, threshold: float, *,
                              sample_weight: Any = None, pos_label: Any = None,
                              confidence: float = 0.95, n_boot: int | None = None,
                              seed: Any = None,
                              stratified: bool = True) -> OperatingPointIntervals:
    """tpr, fpr and precision at ``score >= threshold`` with Wilson score intervals, and
    bootstrap percentile intervals when ``n_boot`` is given (pROC's ``ci.coords``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    threshold : float
        Predict positive where ``score >= threshold`` (±inf allowed, NaN not).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
        The Wilson intervals count weights as rows (weights count copies), so they suit integer
        count weights only; with other weights use the bootstrap intervals.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    confidence : float, default=0.95
        Nominal coverage of every interval, in (0, 1).
    n_boot : int, default=None
        Add bootstrap percentile intervals from this many replicates (at least 2),
        drawn by ``indist_fast.bootstrap`` with the threshold held fixed.
    seed : int, SeedSequence or None, default=None
        Seed of the bootstrap replicates.
    stratified : bool, default=True
        Bootstrap within each class, keeping the class weights.

    Returns
    -------
    OperatingPointIntervals
        ``result["tpr"]``, ``result["fpr"]``, ``result["precision"]``: estimate and
        intervals.

    Notes
    -----
    Wilson intervals treat tpr as ``tp`` successes of ``W_P`` trials, fpr as ``fp`` of
    ``W_N`` and precision as ``tp`` of the ``tp + fp`` rows labelled positive (so
    conditional on that number). Precision's interval is NaN when nothing is labelled.

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(500) < 0.3
    >>> s = rng.normal(size=500) + y
    >>> r = indist_fast.operating_point_intervals(y, s, 0.5, n_boot=200, seed=1)
    >>> iv = r["precision"]
    >>> iv.low < iv.estimate < iv.high, iv.bootstrap_low < iv.estimate < iv.bootstrap_high
    (True, True)
    """
    threshold = check_real(threshold, "threshold", finite=False)
    confidence = check_level(confidence, "confidence")
    stratified = check_flag(stratified, "stratified")
    if n_boot is not None:
        n_boot = check_count(n_boot, "n_boot", minimum=2, maximum=10**7)
        seed = check_seed(seed)
    rows, table = _rows_and_table(y_true, y_score, sample_weight, pos_label)
    warn_fractional_weights(rows.w, "the Wilson interval", 2)
    p = _points(table, True)
    k = int(_index(table, np.array([threshold]))[0])
    tp, fp = float(p.tp[k]), float(p.fp[k])
    counts = {"tpr": (tp, p.weight_pos), "fpr": (fp, p.weight_neg),
              "precision": (tp, tp + fp)}
    boot = None
    if n_boot is not None:
        boot = bootstrap_table(rows, table, metrics={m: _rate_at(threshold, m)
                                                     for m in counts},
                               n_boot=n_boot, stratified=stratified,
                               confidence=confidence, seed=seed)
    out = {}
    for metric, (hits, trials) in counts.items():
        low, high = wilson_interval(hits, trials, confidence)
        estimate = float(getattr(operating_rates(tp, fp, p.weight_pos, p.weight_neg),
                                 metric))
        extra = (boot[metric].low, boot[metric].high) if boot is not None else ()
        out[metric] = RateInterval(metric, estimate, hits, trials, low, high, *extra)
    return OperatingPointIntervals(threshold, confidence, out["tpr"], out["fpr"],
                                   out["precision"], boot)
