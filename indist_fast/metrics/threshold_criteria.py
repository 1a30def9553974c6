"""The best threshold for a criterion (``best_threshold``): the figure of merit of every
operating point at once from one sort, then its optimum. The criteria (``CRITERIA``)
are the classic rates, Youden's J, F1, Matthews' correlation, Cohen's kappa, a cost or
gain (among them the loss ``Q(c)`` of Hernandez-Orallo, Flach and Ferri, "Threshold
Choice Methods: the Missing Link"), Punzi's figure of merit, the approximate median
significance, a target rate, the indistinguishability threshold of the definitions
page, or a callable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Mapping, NamedTuple

import numpy as np

from .._core.validation import check_flag, check_level, check_real
from .confusion_counts import (CONFUSION_FIELDS_DOC, Confusion, Points, all_points,
                               confusion_text, finish_fields, four_digits, point_fields,
                               rows_and_table, warn_undefined_b_at)


class _Criterion(NamedTuple):
    required: tuple[str, ...]
    optional: dict[str, Any]
    doc: str


_SPECS: dict[str, _Criterion] = {
    "accuracy": _Criterion((), {}, "maximise (tp + tn) / W"),
    "balanced_accuracy": _Criterion((), {}, "maximise (tpr + tnr) / 2"),
    "youden": _Criterion((), {"cost": None, "prevalence": None},
                         "maximise Youden's J = tpr - fpr; with pROC's best.weights "
                         "(cost=, prevalence=) tpr - r fpr, r = (1 - prevalence) / "
                         "(cost prevalence)"),
    "closest_topleft": _Criterion((), {"cost": None, "prevalence": None},
                                  "minimise the squared distance to the top-left corner "
                                  "(1 - tpr)^2 + r fpr^2 (r as for youden; 1 by "
                                  "default)"),
    "f1": _Criterion((), {}, "maximise 2 tp / (2 tp + fp + fn)"),
    "mcc": _Criterion((), {}, "maximise Matthews' correlation of the predictions with "
                              "the labels"),
    "kappa": _Criterion((), {}, "maximise Cohen's kappa of the predictions with the "
                                "labels"),
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


def best_weights_ratio(cost: Any, prevalence: Any) -> float:
    """pROC's ``best.weights = c(cost, prevalence)`` as the weight of specificity,
    ``r = (1 - prevalence) / (cost * prevalence)``; None stands for pROC's defaults
    (cost 1, prevalence 0.5: ``r = 1``)."""
    cost = 1.0 if cost is None else check_real(cost, "cost", low=0.0, low_open=True)
    prevalence = 0.5 if prevalence is None else check_real(
        prevalence, "prevalence", low=0.0, high=1.0, low_open=True, high_open=True)
    return float((1.0 - prevalence) / (cost * prevalence))


def _nonnegative(value: Any, name: str) -> float:
    return check_real(value, name, low=0.0)


def _cost_values(p: Points, params: dict[str, Any]) -> tuple[np.ndarray, str]:
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


def _target(p: Points, name: str, target: Any) -> tuple[np.ndarray, np.ndarray, bool]:
    """(rate, meets, lowest): the rate per point, where it meets ``target`` and whether
    the lowest meeting threshold (most true positives) is wanted."""
    target = check_real(target, "target", low=0.0, high=1.0)
    rate = point_fields(p, slice(None), with_b=False)["tpr" if name == "recall" else name]
    with np.errstate(invalid="ignore"):
        meets = rate <= target if name == "fpr" else rate >= target
    return rate, meets & ~np.isnan(rate), name != "recall"


def _callable_values(fn: Callable[..., Any], p: Points) -> np.ndarray:
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


def _choose(p: Points, name: str, params: dict[str, Any]) -> tuple[int, float]:
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
        elif name in ("accuracy", "balanced_accuracy", "f1", "mcc", "kappa"):
            values, goal = point_fields(p, slice(None), with_b=False)[name], "max"
        elif name == "youden":
            r = best_weights_ratio(params["cost"], params["prevalence"])
            # (r = 1: the plain J, computed as before to the last bit)
            values = (p.tp / p.weight_pos - p.fp / p.weight_neg if r == 1.0
                      else p.tp / p.weight_pos - r * (p.fp / p.weight_neg))
            goal = "max"
        elif name == "closest_topleft":
            r = best_weights_ratio(params["cost"], params["prevalence"])
            values = (1.0 - p.tp / p.weight_pos) ** 2 + r * (p.fp / p.weight_neg) ** 2
            goal = "min"
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
        return f"best {self.criterion}: {four_digits(self.value)}\n" + confusion_text(self)


BestThreshold.__doc__ = BestThreshold.__doc__ % CONFUSION_FIELDS_DOC   # type: ignore[operator]


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
        One of ``indist_fast.metrics.operating_points.CRITERIA``:

        - ``"accuracy"``, ``"balanced_accuracy"``, ``"youden"`` (tpr - fpr), ``"f1"``,
          ``"mcc"`` (Matthews' correlation), ``"kappa"`` (Cohen's kappa).
        - ``"youden"`` and ``"closest_topleft"`` with pROC's ``best.weights``:
          ``cost=`` (of a false negative relative to a false positive, > 0; default 1)
          and ``prevalence=`` (in (0, 1); default 0.5) give ``r = (1 - prevalence) /
          (cost prevalence)``; ``youden`` then maximises ``tpr - r fpr`` (pROC's
          ``se + r sp`` less ``r``), ``closest_topleft`` minimises ``(1 - tpr)^2 + r
          fpr^2`` (pROC's ``closest.topleft``). The defaults give ``r = 1``. pROC
          lists every tied best point (``coords(..., x="best")`` does too); this
          returns the highest threshold among them.
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
    >>> best = indist_fast.best_threshold(y, s, "closest_topleft", cost=2.0, prevalence=0.5)
    >>> best.threshold, round(best.value, 4)
    (0.35, 0.0556)
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
    _, table = rows_and_table(y_true, y_score, sample_weight, pos_label)
    p = all_points(table, exclude_self)
    if len(table) and table.scores[0] == np.inf:
        # No threshold labels nothing when a score is +inf: drop that candidate.
        p = p.without_nothing_positive()
    if spec is _CALLABLE:
        settings["criterion"] = criterion
        name_for_choice = "callable"
    else:
        name_for_choice = name
    k, value = _choose(p, name_for_choice, settings)
    values = point_fields(p, k)
    warn_undefined_b_at(values["b"], k, p)
    return BestThreshold(**finish_fields({"threshold": p.thresholds[k], **values}, None),
                         criterion=name, value=value)
