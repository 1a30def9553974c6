"""Coordinates of ROC points, as pROC's ``coords``: at thresholds, at sensitivities or
specificities (interpolated between the empirical points as pROC does), at every
point, or at the best points by Youden's index or the distance to the top-left
corner, weighted by cost and prevalence (pROC's ``best.weights``).

The points are those of the score table, in pROC's order: from "everything positive"
(sensitivity 1) to "nothing positive" (specificity 1). A point's threshold is the
lowest score it labels positive (positive where ``score >= threshold``; ``inf`` labels
nothing), where pROC reports the midpoint between that score and the next lower one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.direction import check_direction, orient_rows
from ..io.frames import prepare_frame_or_rows
from ..results.coords_table import COORD_NAMES, Coords, canonical_coord
from ..results.report import ReadOnlyMapping
from ..table.score_table import ScoreTable
from .confusion_counts import _check_thresholds, all_points, point_index
from .threshold_criteria import PLATEAU_RTOL, best_weights_ratio

__all__ = ["coords", "COORD_NAMES", "COORD_INPUTS", "BEST_METHODS"]

#: Inputs ``x`` may be given in, each with whether it falls from the first point
#: (sensitivity 1) to the last (pROC's ``coord.is.decreasing``).
COORD_INPUTS = {"sensitivity": True, "specificity": False, "tp": True, "tn": False,
                "fp": True, "fn": False, "tpr": True, "tnr": False, "fpr": True,
                "fnr": False, "recall": True, "one_minus_specificity": True,
                "one_minus_sensitivity": False}
#: The criteria of ``x="best"``.
BEST_METHODS = {"youden": "youden", "closest_topleft": "closest_topleft",
                "closest.topleft": "closest_topleft", "topleft": "closest_topleft"}


def _columns(thr: np.ndarray, tp: np.ndarray, fp: np.ndarray, tn: np.ndarray,
             fn: np.ndarray, wp: float, wn: float, r: float) -> dict[str, np.ndarray]:
    """Every coordinate from the counts (pROC's ``roc.utils.calc.coords``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        se, sp = tp / wp, tn / wn
        npv, ppv = tn / (tn + fn), tp / (tp + fp)
        accuracy = (tp + tn) / (wp + wn)
        fnr, fdr = fn / (tp + fn), fp / (tp + fp)
    return {"threshold": thr, "sensitivity": se, "specificity": sp, "accuracy": accuracy,
            "tn": tn, "tp": tp, "fn": fn, "fp": fp, "npv": npv, "ppv": ppv, "tpr": se,
            "tnr": sp, "fpr": 1.0 - sp, "fnr": fnr, "fdr": fdr,
            "one_minus_specificity": 1.0 - sp, "one_minus_sensitivity": 1.0 - se,
            "one_minus_accuracy": 1.0 - accuracy, "one_minus_npv": 1.0 - npv,
            "one_minus_ppv": 1.0 - ppv, "precision": ppv, "recall": se,
            "youden": se + r * sp,
            "closest_topleft": (1.0 - se) ** 2 + r * (1.0 - sp) ** 2}


def _ret(ret: Any) -> list[str]:
    if isinstance(ret, str):
        ret = [ret]
    try:
        names = list(ret)
    except TypeError:
        raise TypeError(f"ret must be a coordinate name or a sequence of them, got "
                        f"{ret!r}.") from None
    if "all" in names:
        if len(names) > 1:
            raise ValueError("ret: 'all' cannot be combined with other names.")
        return list(COORD_NAMES)
    if not names:
        raise ValueError("ret: ask for at least one coordinate.")
    return list(dict.fromkeys(canonical_coord(n, "ret") for n in names))


def _interpolate(values: Any, column: np.ndarray, decreasing: bool, se: np.ndarray,
                 sp: np.ndarray, input_name: str
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """pROC's reading at given values of a monotone coordinate: the point holding the
    value (the last of a run when the coordinate falls, the first when it rises), else
    sensitivity and specificity interpolated linearly between the two points around
    it. Returns (exact index or -1, se, sp, whether exact)."""
    lo, hi = float(np.nanmin(column)), float(np.nanmax(column))
    bad = (values < lo) | (values > hi)
    if bad.any():
        v = values[np.flatnonzero(bad)[0]]
        raise ValueError(f"x: {input_name} {v!r} is not in the range of the curve "
                         f"[{lo!r}, {hi!r}].")
    key = -column if decreasing else column          # non-decreasing
    target = -values if decreasing else values
    if decreasing:
        at = np.searchsorted(key, target, side="right") - 1    # the last equal one
    else:
        at = np.searchsorted(key, target, side="left")         # the first equal one
    at = np.clip(at, 0, len(key) - 1)
    exact = key[at] == target
    nxt = np.clip(np.searchsorted(key, target, side="right"), 1, len(key) - 1)
    prev = nxt - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        share = (values - column[nxt]) / (column[prev] - column[nxt])
    out_se = np.where(exact, se[at], se[nxt] + share * (se[prev] - se[nxt]))
    out_sp = np.where(exact, sp[at], sp[nxt] + share * (sp[prev] - sp[nxt]))
    return np.where(exact, at, -1), out_se, out_sp, exact


def coords(y_true: Any, y_score: Any = None, x: Any = "all", *, input: str = "threshold",
           ret: Any = ("threshold", "specificity", "sensitivity"),
           best_method: str = "youden", cost: Any = 1.0, prevalence: Any = 0.5,
           sample_weight: Any = None, pos_label: Any = None, direction: str = "higher",
           label: str | None = None, score: str | None = None,
           weight: str | None = None) -> Coords:
    """Coordinates of ROC points, as pROC's ``coords(roc, x, input=, ret=)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), or a DataFrame
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``;
        or a table whose columns ``label=``, ``score=`` (and ``weight=``) name.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive (see ``direction``).
    x : "all", "best", float or array-like of float, default="all"
        ``"all"``: every operating point; ``"best"``: every point where
        ``best_method`` is optimal (all ties, as pROC); numbers: values of ``input``.
    input : str, default="threshold"
        What the numbers ``x`` are: ``"threshold"`` (positive where ``score >=
        x``, one binary search each) or a monotone coordinate: ``"sensitivity"``,
        ``"specificity"``, ``"tpr"``, ``"tnr"``, ``"fpr"``, ``"fnr"``, ``"recall"``,
        ``"tp"``, ``"tn"``, ``"fp"``, ``"fn"``, ``"one_minus_specificity"``,
        ``"one_minus_sensitivity"`` (pROC's ``"1-specificity"`` etc. accepted). A
        value between two points gives sensitivity and specificity interpolated
        linearly between them, as pROC, and a NaN threshold; a value outside the curve
        is an error.
    ret : str or sequence of str, default=("threshold", "specificity", "sensitivity")
        Coordinates to return, or ``"all"``: ``threshold``, ``sensitivity``,
        ``specificity``, ``accuracy``, ``tn``, ``tp``, ``fn``, ``fp``, ``npv``,
        ``ppv``, ``tpr``, ``tnr``, ``fpr``, ``fnr``, ``fdr``,
        ``one_minus_specificity``, ``one_minus_sensitivity``, ``one_minus_accuracy``,
        ``one_minus_npv``, ``one_minus_ppv``, ``precision``, ``recall``, ``youden``
        (``sensitivity + r * specificity``, pROC's value: Youden's J plus 1 for
        ``r = 1``) and ``closest_topleft`` (``(1 - se)^2 + r (1 - sp)^2``). pROC's
        spellings ``1-specificity``, ``1-sensitivity``, ``1-accuracy``, ``1-npv``,
        ``1-ppv``, ``npe``, ``ppe``, ``closest.topleft``, ``topleft`` and ``t`` are
        accepted; columns carry the Python names.
    best_method : {"youden", "closest_topleft"}, default="youden"
        The criterion of ``x="best"`` (pROC's ``best.method``; ``"closest.topleft"``
        accepted).
    cost, prevalence : float, default=1.0, 0.5
        pROC's ``best.weights``: the cost of a false negative relative to a false
        positive (> 0) and the prevalence (in (0, 1)) give ``r = (1 - prevalence) /
        (cost * prevalence)``, the weight of specificity in ``youden`` and
        ``closest_topleft``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    direction : {"higher", "lower", "auto"}, default="higher"
        Positive where the score is higher (pROC's ``"<"``; ``score >= threshold``)
        or lower (``">"``; ``score <= threshold``); ``"auto"`` picks by the class
        medians as pROC, warning when it picks lower.
    label, score, weight : str, optional
        Column names when ``y_true`` is a table.

    Returns
    -------
    Coords
        One column per name of ``ret``, one row per point.

    Notes
    -----
    Thresholds differ from pROC's by convention: here a point's threshold is the lowest
    score it labels positive (``inf`` for "nothing positive"), pROC's is the midpoint
    between that score and the next lower one (``-Inf`` for "everything positive").
    Both label the same rows. With ``input`` other than sensitivity or specificity,
    pROC leaves the threshold NA even at an exact point; here it is given.

    Examples
    --------
    >>> import indist_fast
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> c = indist_fast.coords(y, s, [0.35, 0.8])
    >>> c["sensitivity"].tolist(), c["specificity"].tolist()
    ([1.0, 0.6666666666666666], [0.6666666666666666, 1.0])
    >>> c = indist_fast.coords(y, s, 0.9, input="sensitivity", ret=("specificity", "1-npv"))
    >>> c["specificity"].round(4).tolist(), c["one_minus_npv"].round(4).tolist()
    ([0.6667], [0.1304])
    >>> indist_fast.coords(y, s, "best", ret=("threshold", "youden"))["threshold"].tolist()
    [0.35, 0.8]
    """
    if not isinstance(input, str):
        raise ValueError(f"input must be 'threshold' or a monotone coordinate, got "
                         f"{input!r}.")
    input_name = input if input == "threshold" else canonical_coord(input, "input")
    if input_name != "threshold" and input_name not in COORD_INPUTS:
        raise ValueError(f"input: {input!r} is not monotone along the curve; use "
                         f"'threshold' or one of {', '.join(COORD_INPUTS)}.")
    names = _ret(ret)
    if not isinstance(best_method, str) or best_method not in BEST_METHODS:
        raise ValueError(f"best_method must be 'youden' or 'closest_topleft', got "
                         f"{best_method!r}.")
    best = BEST_METHODS[best_method]
    r = best_weights_ratio(cost, prevalence)
    direction = check_direction(direction)
    if isinstance(x, str):
        if x not in ("all", "best"):
            raise ValueError(f"x must be 'all', 'best' or numbers, got {x!r}.")
        values = None
    else:
        values, _ = _check_thresholds(x)
        values = values.reshape(-1)
        if input_name != "threshold" and np.isinf(values).any():
            raise ValueError(f"x: {input_name} values must be finite.")
    rows = prepare_frame_or_rows(y_true, y_score, sample_weight, pos_label, label, score,
                                 weight)
    rows, reversed_ = orient_rows(rows, direction)
    table = ScoreTable.from_rows(rows)
    p = all_points(table, True)
    wp, wn = p.weight_pos, p.weight_neg
    # pROC's order: everything positive first
    thr, tp, fp, tn, fn = (a[::-1] for a in (p.thresholds, p.tp, p.fp, p.tn, p.fn))
    every = _columns(thr, tp, fp, tn, fn, wp, wn, r)
    if isinstance(x, str) and x == "all":
        out = every
    elif isinstance(x, str):
        crit = (every["youden"] if best == "youden" else -every["closest_topleft"])
        top = float(np.nanmax(crit))
        scale = float(np.abs(crit[np.isfinite(crit)]).max(initial=0.0))
        with np.errstate(invalid="ignore"):
            keep = np.flatnonzero(crit >= top - PLATEAU_RTOL * scale)
        out = {k: v[keep] for k, v in every.items()}
    elif input_name == "threshold":
        assert values is not None
        k = len(thr) - 1 - point_index(table, -values if reversed_ else values)
        out = {key: v[k] for key, v in every.items()}
        out["threshold"] = values.astype(np.float64)
    else:
        assert values is not None
        at, se, sp, exact = _interpolate(values, every[input_name],
                                         COORD_INPUTS[input_name], every["sensitivity"],
                                         every["specificity"], input_name)
        c_tp, c_fp, c_tn, c_fn = (np.where(exact, a[at], b) for a, b in
                                  ((tp, se * wp), (fp, wn - sp * wn), (tn, sp * wn),
                                   (fn, wp - se * wp)))
        out = _columns(np.where(exact, thr[at], np.nan), c_tp, c_fp, c_tn, c_fn, wp, wn, r)
    if reversed_ and not (values is not None and input_name == "threshold"):
        out["threshold"] = -out["threshold"]       # back to the scores as given
    columns = {}
    for name in names:
        col = np.array(out[name], dtype=np.float64)
        col.setflags(write=False)
        columns[name] = col
    return Coords(ReadOnlyMapping._of(columns), "lower" if reversed_ else "higher")
