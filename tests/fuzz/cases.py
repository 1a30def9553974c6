"""The fuzz cases: a table of entry points x a table of bad and unusual arguments,
plus files written to a temporary directory, the CLI, Dask, scikit-learn, plots.

A case is an id, an entry point, a ``make`` that builds the call afresh
(``(function, args, kwargs)``), and the expectation: a correct result (``check``
raises ``Wrong`` otherwise) or an error whose message names one of ``names``
(``either``: a correct result or such an error). ``suite.build_cases(tmp)`` gives
the same list, in the same order, in every process.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from . import inputs
from .checks import (Oracle, Wrong, check_curves, check_operating_point, check_report,
                     check_table, expect_close, expect_probabilities, expect_probability)
from .inputs import RowInput, S, W, Y

Call = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]


@dataclass
class Case:
    id: str
    entry: str
    make: Callable[[], Call]
    names: tuple[str, ...] = ()         # an error must name one of these
    valid: bool = True                  # a correct result is expected
    either: bool = False                # valid result or an error naming `names`
    check: Callable[[Any], None] | None = None
    backends: bool = True               # compare the cython and numpy backends
    kind: str = "call"                  # "call", or "cli" (result is (code, out, err))
    slow: bool = False

    @property
    def expectation(self) -> str:
        if self.either:
            return f"valid or error naming {'|'.join(self.names)}"
        return "valid" if self.valid else f"error naming {'|'.join(self.names)}"


def _ok(entry: str, tag: str, make: Callable[[], Call], check: Callable[[Any], None] | None,
        **kw: Any) -> Case:
    return Case(f"{entry}/{tag}", entry, make, check=check, **kw)


def _err(entry: str, tag: str, make: Callable[[], Call], *names: str, **kw: Any) -> Case:
    return Case(f"{entry}/{tag}", entry, make, names=tuple(names), valid=False, **kw)


def _either(entry: str, tag: str, make: Callable[[], Call], names: tuple[str, ...],
            check: Callable[[Any], None] | None, **kw: Any) -> Case:
    return Case(f"{entry}/{tag}", entry, make, names=names, valid=True, either=True,
                check=check, **kw)


# --- entry points over the table of row inputs ----------------------------------------------------

@dataclass
class Entry:
    """A public function called with a row input."""

    name: str
    call: Callable[[RowInput], Call]
    check: Callable[[Oracle, Any, RowInput], None]
    two_classes: bool = True
    unit_scores: bool = False            # scores must lie in [0, 1]
    copies: bool = False                 # more than one copy of each class (DeLong)
    weights: bool = True                 # takes sample_weight
    rule: Callable[[Oracle, RowInput], tuple[str, ...] | None] | None = None
    only: set[str] | None = None         # restrict to these inputs
    backends: bool = True
    slow: bool = False
    extra_errors: tuple[str, ...] = ()   # further names a row error may give
    skip: Callable[[RowInput], bool] = field(default=lambda ri: False)
    pos_label: bool = True               # takes pos_label (else inputs needing it are skipped)


def _kw(ri: RowInput, weights: bool = True) -> dict[str, Any]:
    kw: dict[str, Any] = {"pos_label": ri.pos_label}
    if weights:
        kw["sample_weight"] = ri.w
    return kw


def _row_case(entry: Entry, builder: Callable[[], RowInput]) -> Case | None:
    ri = builder()
    if entry.only is not None and ri.name not in entry.only:
        return None
    if not entry.weights and ri.w is not None:
        return None
    if entry.skip(ri) or (not entry.pos_label and ri.pos_label is not None):
        return None
    cid = f"{entry.name}/{ri.name}"

    def make() -> Call:
        return entry.call(builder())

    names: tuple[str, ...] = ri.errors + entry.extra_errors
    if ri.canon is None:
        return Case(cid, entry.name, make, names=names, valid=False, backends=entry.backends,
                    slow=entry.slow)
    o = Oracle(ri.canon)
    if "one_class" in ri.tags and entry.two_classes:
        return Case(cid, entry.name, make, names=names or (Y,), valid=False,
                    backends=entry.backends, slow=entry.slow)
    if entry.copies and (o.weight_pos <= 1 or o.weight_neg <= 1):
        return Case(cid, entry.name, make, names=(Y, W), valid=False,
                    backends=entry.backends, slow=entry.slow)
    if entry.unit_scores and len(o.s) and (o.s.min() < 0 or o.s.max() > 1):
        return Case(cid, entry.name, make, names=(S,), valid=False, backends=entry.backends,
                    slow=entry.slow)
    if entry.rule is not None:
        rule_names = entry.rule(o, ri)
        if rule_names:
            return Case(cid, entry.name, make, names=rule_names, valid=False,
                        backends=entry.backends, slow=entry.slow)

    def check(result: Any) -> None:
        entry.check(Oracle(builder().canon), result, ri)   # type: ignore[arg-type]

    return Case(cid, entry.name, make, names=names, valid=True, either=ri.either,
                check=check, backends=entry.backends, slow=entry.slow)


def _threshold_check(level: float = 0.5) -> Callable[[Oracle, Any, RowInput], None]:
    def check(o: Oracle, t: Any, ri: RowInput) -> None:
        if o.large:                     # no B oracle for large inputs: range only
            return

        class Point:
            threshold = float(t)
            reached = not math.isnan(float(t))
        c = o.curves()
        i = np.flatnonzero(c["thresholds"] == float(t))
        if len(i):
            Point.precision, Point.tpr, Point.fpr = (c[k][i[0]] for k in
                                                     ("precision", "tpr", "fpr"))
            Point.b = c["b"][i[0]]
        check_operating_point(o, Point, level)
    return check


def _precision_check(o: Oracle, p: Any, ri: RowInput) -> None:
    expect_probability("precision", p, nan_ok=True)
    if o.large:
        return
    ok = o.acceptable_points(0.5)
    c = o.curves()
    if not ok:
        if not math.isnan(float(p)):
            raise Wrong(f"precision {p!r} reported, but B never reaches 1/2")
        return
    if not any(math.isclose(float(p), c["precision"][i], rel_tol=1e-9) for i in ok):
        raise Wrong(f"precision {p!r}, expected {c['precision'][ok[-1]]!r}")


def _auc_check(o: Oracle, a: Any, ri: RowInput) -> None:
    expect_probability("auc", a)
    expect_close("auc", a, o.auc())


def _ap_check(o: Oracle, a: Any, ri: RowInput) -> None:
    expect_probability("average_precision", a)
    expect_close("average_precision", a, o.average_precision())


def _ks_check(o: Oracle, ks: Any, ri: RowInput) -> None:
    c = o.curves()
    expect_probability("statistic", ks.statistic)
    expect_close("statistic", ks.statistic, float(np.max(np.abs(c["tpr"] - c["fpr"]))))
    expect_close("ks gap", abs(ks.tpr - ks.fpr), ks.statistic)
    if ks.pvalue is not None:
        expect_probability("pvalue", ks.pvalue)


def _top_k_check(o: Oracle, top: Any, ri: RowInput) -> None:
    expect_probability("precision", top.precision)
    expect_probability("recall", top.recall)
    expect_close("size", top.size, 0.5 * (o.weight_pos + o.weight_neg))
    # the tied group at the cut is taken in part: tp lies between its edges' counts
    c = o.curves()
    if c["tp"] is None:                   # weights beyond the oracle's range
        return
    k = int(np.flatnonzero(c["thresholds"] == top.threshold)[0])
    low = c["tp"][k - 1] if k else 0.0
    if not low - 1e-9 * o.weight_pos <= top.tp <= c["tp"][k] + 1e-9 * o.weight_pos:
        raise Wrong(f"tp {top.tp!r} outside [{low!r}, {c['tp'][k]!r}]")


def _gains_check(o: Oracle, g: Any, ri: RowInput) -> None:
    expect_close("cumulative_capture", g["cumulative_capture"][-1], 1.0)
    expect_close("positives", float(np.sum(g["positives"])), o.weight_pos)
    expect_close("negatives", float(np.sum(g["negatives"])), o.weight_neg)
    if len(g) > 4:
        raise Wrong(f"{len(g)} bins of 4")


def _boot_check(o: Oracle, res: Any, ri: RowInput) -> None:
    intervals = res.intervals if hasattr(res, "intervals") else res
    c = o.curves()
    want = {"auc": o.auc(), "average_precision": o.average_precision()}
    ok = [] if o.large else o.acceptable_points(0.5)
    for name, iv in intervals.items():
        if name in want:
            expect_close(f"{name} estimate", iv.estimate, want[name])
        if name in ("auc", "average_precision", "precision", "tpr", "fpr", "f1") or (
                name == "b" and not o.fractional):
            expect_probability(f"{name} estimate", iv.estimate, nan_ok=name not in want)
            expect_probabilities(f"{name} replicates", iv.replicates)
        if not (math.isnan(iv.low) or iv.low <= iv.high):
            raise Wrong(f"{name}: low {iv.low} > high {iv.high}")
        if name == "threshold" and not o.large:
            t = iv.estimate
            if ok and t not in [c["thresholds"][i] for i in ok]:
                raise Wrong(f"threshold estimate {t!r} is not r_b")


def _evaluate_boot_check(o: Oracle, r: Any, ri: RowInput) -> None:
    check_report(o, r)
    if r.intervals is None or len(next(iter(r.intervals.values())).replicates) != 8:
        raise Wrong("intervals missing or with the wrong number of replicates")
    _boot_check(o, r.intervals, ri)


def _delong_check(o: Oracle, r: Any, ri: RowInput) -> None:
    expect_probability("auc", r.auc)
    expect_close("auc", r.auc, o.auc())
    for name in ("low", "high"):
        expect_probability(name, getattr(r, name))
    if not (r.variance >= 0 and math.isfinite(r.variance)):
        raise Wrong(f"variance {r.variance!r}")
    if not (o.large or o.huge):
        expect_close("variance", r.variance, o.delong_variance(), rtol=1e-7)


def _var_auc_check(o: Oracle, r: Any, ri: RowInput) -> None:
    if not (r >= 0 and math.isfinite(r)):
        raise Wrong(f"variance {r!r}")
    if not (o.large or o.huge):
        expect_close("variance", r, o.delong_variance(), rtol=1e-7)


def _coords_check(o: Oracle, r: Any, ri: RowInput) -> None:
    for name in ("sensitivity", "specificity", "accuracy"):
        expect_probability(name, float(r[name][0]))
    if r["threshold"][0] != 0.5:
        raise Wrong(f"threshold {r['threshold'][0]!r}")


def _delong_test_check(o: Oracle, r: Any, ri: RowInput) -> None:
    expect_close("auc_a", r.auc_a, o.auc())
    expect_close("auc_b", r.auc_b, o.auc())
    expect_probability("p_value", r.p_value)


def _accumulate(ri: RowInput) -> Any:
    import indist_fast
    acc = indist_fast.Accumulator(pos_label=ri.pos_label)
    parts = [(ri.y, ri.s, ri.w)]
    if all(isinstance(a, np.ndarray) or a is None for a in (ri.y, ri.s, ri.w)) \
            and np.ndim(ri.s) == 1 and np.ndim(ri.y) == 1 and len(ri.y) >= 4:
        k = len(ri.y) // 2            # two chunks, when the rows can be cut
        parts = [(ri.y[:k], ri.s[:k], None if ri.w is None else ri.w[:k]),
                 (ri.y[k:], ri.s[k:], None if ri.w is None else ri.w[k:])]
    for y, s, w in parts:
        acc.update(y, s, w)
    return acc.result()


def _sample_auc_check(o: Oracle, e: Any, ri: RowInput) -> None:
    expect_probability("estimate", e.estimate)
    a = o.auc()
    se = math.sqrt(a * (1 - a) / e.n_pairs)
    if abs(e.estimate - a) > 6 * se + 1e-12:
        raise Wrong(f"estimate {e.estimate} is {abs(e.estimate - a) / max(se, 1e-300):.1f} "
                    f"standard errors from A = {a}")


def _b_at(o: Oracle, threshold: float) -> float | None:
    """Oracle B (rows, self-pairs excluded) of the rows scoring >= threshold."""
    if o.w is not None or o.large:
        return None
    c = o.curves()
    i = np.flatnonzero(c["thresholds"] >= threshold)
    return float(c["b"][i[-1]]) if len(i) else None


def _sample_b_rule(threshold: float) -> Callable[[Oracle, RowInput], tuple[str, ...] | None]:
    def rule(o: Oracle, ri: RowInput) -> tuple[str, ...] | None:
        lab = o.s >= threshold
        n_pos = int(o.y.sum())
        if not lab.any() or n_pos * int(lab.sum()) - int((lab & o.y).sum()) < 1:
            return ("threshold",)
        return None
    return rule


def _sample_b_check(o: Oracle, e: Any, ri: RowInput) -> None:
    expect_probability("estimate", e.estimate)
    b = _b_at(o, 0.5)
    if b is not None and not math.isnan(b):
        se = math.sqrt(b * (1 - b) / e.n_pairs)
        if abs(e.estimate - b) > 6 * se + 1e-12:
            raise Wrong(f"estimate {e.estimate} is far from B = {b}")


def _sample_b_curve_check(o: Oracle, e: Any, ri: RowInput) -> None:
    expect_probabilities("estimate", e.estimate, nan_ok=False)
    if len(e.estimate) != 2:
        raise Wrong(f"{len(e.estimate)} estimates for 2 thresholds")


# threshold choice oracles (uniform cost proportion)

def _method_oracle(o: Oracle, method: str, t: float = 0.5) -> float | None:
    pi1, pi0 = o.pis()
    a = o.auc()
    if method == "score-fixed":
        return o.error_rate(t)
    if method == "score-uniform":
        return o.mae()
    if method == "score-driven":
        return o.brier()
    if method == "rate-uniform":
        return 0.5 + pi0 * pi1 * (1 - 2 * a)
    if method == "rate-driven":
        return 1 / 3 + pi0 * pi1 * (1 - 2 * a)
    if method == "optimal":
        return o.refinement()
    if method == "indistinguishability":
        if o.large:
            return None
        ok = o.acceptable_points(0.5)
        if not ok:
            return math.nan
        if len(ok) > 1:
            return None                 # ambiguous crossing: not checked
        return o.error_rate(o.curves()["thresholds"][ok[0]])
    return None                          # rate-fixed: range checks only


def _pr_curve_rule(o: Oracle, ri: RowInput) -> tuple[str, ...] | None:
    """No positives: recall is 0/0 (an error naming y_true or sample_weight); only
    positives is a curve (precision 1, AUPRG NaN with a warning)."""
    return (Y, W) if o.weight_pos <= 0 else None


def _pr_curve_check(o: Oracle, pr: Any, ri: RowInput) -> None:
    if o.weight_neg <= 0:
        if not (np.all(pr.precision == 1.0) and math.isnan(pr.auprg)
                and pr.area_trapezoid == pr.area_interpolated == 1.0):
            raise Wrong("only positives: precision 1, areas 1 and AUPRG NaN expected")
        expect_close("average_precision", pr.average_precision, 1.0)
        if not (np.all(np.diff(pr.recall) >= 0) and pr.recall[-1] == 1.0):
            raise Wrong("only positives: recall must rise to 1")
        return
    c = o.curves()
    if not np.array_equal(pr.thresholds, c["thresholds"]):
        raise Wrong("precision_recall_curve thresholds are not the distinct scores")
    for name, want in (("precision", c["precision"]), ("recall", c["tpr"])):
        got = np.asarray(getattr(pr, name), float)
        expect_probabilities(name, got, nan_ok=False)
        if not np.allclose(got, want, rtol=1e-9, atol=1e-12):
            raise Wrong(f"precision_recall_curve {name} differs from the oracle")
    expect_close("average_precision", pr.average_precision, o.average_precision())
    expect_probability("area_trapezoid", pr.area_trapezoid)
    expect_probability("area_interpolated", pr.area_interpolated)
    if not pr.area_interpolated >= pr.average_precision - 1e-12:
        raise Wrong("the interpolated area lies below the step sum")
    if not (pr.auprg <= 1.0 + 1e-12 and not math.isnan(pr.auprg)):
        raise Wrong(f"auprg = {pr.auprg!r}")


def _macro_mean(o: Oracle, values: np.ndarray) -> float:
    w = np.ones(len(o.s)) if o.ws is None else o.ws
    return 0.5 * float(np.sum((w * values)[o.y]) / w[o.y].sum()
                       + np.sum((w * values)[~o.y]) / w[~o.y].sum())


def _named_metric_check(name: str) -> Callable[[Oracle, Any, RowInput], None]:
    def check(o: Oracle, v: Any, ri: RowInput) -> None:
        y = o.y.astype(float)
        want = {"accuracy": lambda: 1 - o.error_rate(0.5),
                "macro_accuracy": lambda: 1 - _macro_mean(o, (o.s >= 0.5) != o.y),
                "macro_brier_score": lambda: _macro_mean(o, (y - o.s) ** 2),
                "macro_mean_absolute_error": lambda: _macro_mean(o, np.abs(y - o.s)),
                "calibration_loss": lambda: o.brier() - o.refinement()}[name]()
        expect_probability(name, v)
        expect_close(name, v, want, rtol=1e-8)
    return check


def _log_loss_check(o: Oracle, v: Any, ri: RowInput) -> None:
    y = o.y
    with np.errstate(divide="ignore"):
        terms = np.where(y, -np.log(np.where(y, o.s, 1.0)), -np.log1p(-np.where(y, 0.0, o.s)))
    expect_close("log_loss", v, o._mean(terms), rtol=1e-8)


def _probability_rule(o: Oracle, ri: RowInput) -> tuple[str, ...] | None:
    """calibration reads scores as probabilities: any outside [0, 1] (zero-weight rows
    included) is an error naming y_prob; no weight at all, one naming sample_weight."""
    s = np.asarray(o.s, dtype=float)
    if len(s) and not ((s >= 0) & (s <= 1)).all():
        return ("y_prob",)
    return (W,) if not o.weight_pos + o.weight_neg > 0 else None


def _calibration_record_check(o: Oracle, cal: Any, ri: RowInput) -> None:
    expect_close("brier", cal.brier, o.brier())
    for name in ("ece", "mce", "brier", "reliability", "resolution", "uncertainty"):
        expect_probability(name, getattr(cal, name))
    expect_probabilities("prob_true", cal.prob_true, nan_ok=False)
    expect_probabilities("prob_pred", cal.prob_pred, nan_ok=False)
    total = o.weight_pos + o.weight_neg
    expect_close("bin weights", float(np.sum(cal.weight)) / total, 1.0)
    parts = cal.reliability - cal.resolution + cal.uncertainty + cal.within_bin
    if not abs(parts - cal.brier) <= 1e-9:
        raise Wrong(f"the decomposition sums to {parts!r}, the Brier score is {cal.brier!r}")


def _contingency_check(o: Oracle, table: Any, ri: RowInput) -> None:
    pi1, pi0 = o.pis()
    a = o.auc()
    cells = (table.tp, table.fp, table.fn, table.tn)
    expect_probabilities("contingency", cells, nan_ok=False)
    expect_close("tp", table.tp, pi1 * (pi1 / 2 + pi0 * a), rtol=1e-8)
    expect_close("fp", table.fp, pi0 * (pi1 * (1 - a) + pi0 / 2), rtol=1e-8)
    expect_close("sum", sum(cells), 1.0, rtol=1e-12)


def _loss_check(method: str) -> Callable[[Oracle, Any, RowInput], None]:
    def check(o: Oracle, loss: Any, ri: RowInput) -> None:
        expect_probability(f"{method} expected loss", loss,
                           nan_ok=method == "indistinguishability")
        want = _method_oracle(o, method)
        if want is not None:
            expect_close(f"{method} expected loss", loss, want, rtol=1e-8)
    return check


def _compare_check(o: Oracle, table: Any, ri: RowInput) -> None:
    unit = 0 <= o.s.min() and o.s.max() <= 1
    for row in table.rows:
        if row.method in ("score-uniform", "score-driven") and not unit:
            if not math.isnan(row.expected_loss):
                raise Wrong(f"{row.method}: a loss for scores outside [0, 1]")
            continue
        _loss_check(row.method)(o, row.expected_loss, ri) if row.method != "rate-fixed" \
            else expect_probability("rate-fixed", row.expected_loss)


def _hull_check(o: Oracle, h: Any, ri: RowInput) -> None:
    f, t = np.asarray(h.fpr, float), np.asarray(h.tpr, float)
    expect_probabilities("hull fpr", f, nan_ok=False)
    expect_probabilities("hull tpr", t, nan_ok=False)
    if not (f[0] == 0 and t[0] == 0 and f[-1] == 1 and t[-1] == 1):
        raise Wrong(f"hull runs from ({f[0]}, {t[0]}) to ({f[-1]}, {t[-1]})")
    if np.any(np.diff(f) < 0) or np.any(np.diff(t) < 0):
        raise Wrong("hull is not monotone")
    of, ot = o.hull()
    # every oracle vertex lies on or below the hull (collinear vertices may be dropped)
    hull_t = np.interp(of, f, t)
    if np.any(hull_t < ot - 1e-9):
        raise Wrong("hull misses a vertex of the ROC convex hull")


def _calibration_check(o: Oracle, cal: Any, ri: RowInput) -> None:
    p = np.asarray(cal.probability, float)
    expect_probabilities("calibrated probability", p, nan_ok=False)
    if np.any(np.diff(p) > 1e-12):
        raise Wrong("calibrated probabilities increase as scores fall")
    pred = cal.predict(o.s)
    expect_probabilities("predict", pred, nan_ok=False)


def _cost_curves_check(o: Oracle, cc: Any, ri: RowInput) -> None:
    env = np.asarray(cc.envelope_loss, float)
    expect_probabilities("envelope loss", env, nan_ok=False)
    lines = cc(np.asarray(cc.envelope_c, float))
    if np.any(np.abs(lines.min(axis=0) - env) > 1e-9):
        raise Wrong("envelope is not the lower envelope of the cost lines")


def _loss_curve_check(o: Oracle, lc: Any, ri: RowInput) -> None:
    from indist_fast.metrics.threshold_choice import CostDistribution
    expect_close("rate-driven curve mean", lc.expected(CostDistribution()),
                 _method_oracle(o, "rate-driven"), rtol=1e-8)


def _brier_curve_check(o: Oracle, lc: Any, ri: RowInput) -> None:
    from indist_fast.metrics.threshold_choice import CostDistribution
    expect_close("Brier curve mean", lc.expected(CostDistribution()), o.brier(), rtol=1e-8)


def _empirical_check(o: Oracle, e: Any, ri: RowInput) -> None:
    expect_close("Empirical.auc()", e.auc(), o.auc())
    expect_probability("Empirical.auc()", e.auc())


def _out_of_order(o: Oracle) -> int:
    sp, sn = o.s[o.y], o.s[~o.y]
    return int(np.sum(sn[None, :] > sp[:, None]))


def _empirical_rule(o: Oracle, ri: RowInput) -> tuple[str, ...] | None:
    """On the scores' own scale (``scale="scores"``) an Empirical model moves positive
    scores by finite increments, so it refuses scores it could not shift and keep
    finite (±inf, near the float range): documented, with an error naming y_score. On
    the normal scores of the ranks (the default) every score is fine."""
    return None


def _empirical_scores_rule(o: Oracle, ri: RowInput) -> tuple[str, ...] | None:
    s = o.s.astype(np.float64)
    span = float(s.max() - s.min()) if len(s) else 0.0
    if not math.isfinite(float(np.max(np.abs(s))) + 2.0 * span + 1.0):
        return ("y_score",)
    return None


def _increment_rule(o: Oracle, ri: RowInput) -> tuple[str, ...] | None:
    return ("k",) if _out_of_order(o) == 0 else None


def _increment_scores_rule(o: Oracle, ri: RowInput) -> tuple[str, ...] | None:
    return _empirical_scores_rule(o, ri) or _increment_rule(o, ri)


def _increment_check(o: Oracle, d: Any, ri: RowInput, scale: str = "normal") -> None:
    from indist_fast.metrics.resolving_power import Empirical
    e = Empirical(ri.canon[0], ri.canon[1], scale=scale)   # type: ignore[index]
    d = float(d)
    if not (d > 0 and math.isfinite(d)):
        raise Wrong(f"increment {d!r}")
    if not e.auc(d) > e.auc(0.0):
        raise Wrong(f"increment {d!r} does not raise the AUROC")


def _axes_check(o: Oracle, ax: Any, ri: RowInput) -> None:
    if not hasattr(ax, "plot") and not hasattr(ax, "savefig"):
        raise Wrong(f"returned {type(ax).__name__}, not Axes or Figure")


def _page_check(o: Oracle, text: Any, ri: RowInput) -> None:
    import re
    if not isinstance(text, str) or not text.startswith("<!DOCTYPE html>"):
        raise Wrong(f"returned {type(text).__name__}, not an HTML page")
    found = re.search(r'<td data-metric="auc" data-value="([^"]*)"', text)
    if found is None:
        raise Wrong("the page shows no AUC")
    expect_close("auc", float(found.group(1)), o.auc())


def _dask_arrays(ri: RowInput) -> Call:
    import dask.array as da
    import indist_fast.dask as idask
    parts = []
    for a in (ri.y, ri.s) + (() if ri.w is None else (ri.w,)):
        arr = a if isinstance(a, np.ndarray) else np.asarray(a)
        parts.append(da.from_array(arr, chunks=5) if arr.ndim else arr)
    return idask.evaluate, (tuple(parts),), {"pos_label": ri.pos_label}


def _dask_frame(ri: RowInput) -> Call:
    import dask.dataframe as dd
    import pandas as pd
    import indist_fast.dask as idask
    cols = {"y": ri.y, "s": ri.s}
    if ri.w is not None:
        cols["w"] = ri.w
    frame = dd.from_pandas(pd.DataFrame(cols), npartitions=3)
    return idask.evaluate, (frame,), {"label": "y", "score": "s",
                                      "weight": None if ri.w is None else "w",
                                      "pos_label": ri.pos_label}


class _FixedScores:
    """A fitted 'classifier' whose decision function is the given scores."""

    _estimator_type = "classifier"

    def __init__(self, scores: Any, classes: Any) -> None:
        self.scores, self.classes_ = scores, classes

    def decision_function(self, X: Any) -> Any:
        return self.scores

    def __sklearn_tags__(self) -> Any:
        from sklearn.utils import Tags, ClassifierTags, TargetTags
        return Tags(estimator_type="classifier", classifier_tags=ClassifierTags(),
                    target_tags=TargetTags(required=True))

    def fit(self, X: Any, y: Any) -> "_FixedScores":
        return self


def _scorer(name: str) -> Callable[[RowInput], Call]:
    def call(ri: RowInput) -> Call:
        from indist_fast.sklearn import SCORERS
        y = np.asarray(ri.y) if not isinstance(ri.y, (int, type(None), dict)) else ri.y
        classes = np.unique(y) if isinstance(y, np.ndarray) and y.ndim == 1 and \
            y.dtype.kind in "biuf" and len(y) else np.array([0, 1])
        est = _FixedScores(ri.s, classes)
        X = np.zeros((len(y) if hasattr(y, "__len__") else 1, 1))
        return SCORERS[name], (est, X, y), {}
    return call


def _scorer_check(name: str) -> Callable[[Oracle, Any, RowInput], None]:
    def check(o: Oracle, v: Any, ri: RowInput) -> None:
        if name == "roc_auc":
            _auc_check(o, v, ri)
        elif name == "precision_at_indistinguishability":
            _precision_check(o, v, ri)
        elif not o.large:
            c = o.curves()
            ok = o.acceptable_points(0.5)
            pi1, _ = o.pis()
            want = [c["precision"][i] / pi1 for i in ok]
            if (not ok and not math.isnan(v)) or (ok and not any(
                    math.isclose(float(v), x, rel_tol=1e-9) for x in want)):
                raise Wrong(f"lift {v!r}, expected {want}")
    return check


_PLOT_INPUTS = {"labels_int01", "labels_bool", "labels_str_U", "scores_inf", "scores_all_tied",
                "n2_one_each", "w_some_zero", "w_half_total_lt1", "scores_neg_zero",
                "readonly", "pandas_series", "scores_f32_frac", "one_positive",
                "y_nan", "s_nan", "w_negative", "y_all_pos", "y_str_no_pos_label",
                "s_2d_proba", "y_short", "w_all_zero", "s_strings", "w_inf", "scores_huge",
                "scores_float_max", "w_tiny_1e-300", "w_huge_1e308", "labels_pm1",
                "s_obj_none", "y_three_labels"}
_DASK_INPUTS = {"labels_int01", "labels_bool", "labels_pm1", "labels_str_U", "scores_inf",
                "scores_all_tied", "n2_one_each", "w_some_zero", "w_int_valued",
                "scores_neg_zero", "n30_weighted", "labels_12_pos2", "scores_f32_frac",
                "one_positive", "y_nan", "s_nan", "w_negative", "w_nan", "y_all_pos",
                "y_three_labels", "y_str_no_pos_label", "w_all_zero", "s_strings",
                "y_int_pos_missing", "w_inf", "s_complex"}
_SK_INPUTS = {"labels_int01", "labels_bool", "labels_pm1", "scores_inf", "scores_all_tied",
              "n2_one_each", "scores_neg_zero", "n30_random", "scores_f32_frac",
              "one_positive", "s_nan", "y_nan", "y_all_pos", "y_three_labels",
              "scores_float_max", "scores_huge", "s_complex", "s_strings", "s_2d_proba"}


def _entries() -> list[Entry]:
    import indist_fast as ifa
    from indist_fast.inference import sampling as smp
    from indist_fast.metrics import threshold_choice as tc

    def f(fn: Callable[..., Any], *extra: Any, weights: bool = True,
          **kw: Any) -> Callable[[RowInput], Call]:
        def call(ri: RowInput) -> Call:
            return fn, (ri.y, ri.s, *extra), {**_kw(ri, weights), **kw}
        return call

    def plot(name: str, **kw: Any) -> Callable[[RowInput], Call]:
        def call(ri: RowInput) -> Call:
            import indist_fast.plot as ip
            return getattr(ip, name), (ri.y, ri.s), {"sample_weight": ri.w, **kw}
        return call

    E = Entry
    out = [
        E("evaluate", f(ifa.evaluate), lambda o, r, ri: check_report(o, r)),
        E("evaluate[levels,exclude_self=False]",
          f(ifa.evaluate, levels=(0.3, 0.5, 0.7), exclude_self=False),
          lambda o, r, ri: check_report(o, r, (0.3, 0.5, 0.7), False)),
        E("evaluate[n_boot]", f(ifa.evaluate, n_boot=8, seed=1), _evaluate_boot_check),
        E("curves", f(ifa.curves), lambda o, c, ri: check_curves(o, c)),
        E("roc_auc", f(ifa.roc_auc), _auc_check),
        E("average_precision", f(ifa.average_precision), _ap_check),
        E("ks", f(ifa.ks, method=None), _ks_check),
        E("ks[pvalue]", f(ifa.ks, weights=False), _ks_check, weights=False),
        E("top_k", f(ifa.top_k, 0.5), _top_k_check),
        E("gains", f(ifa.gains, n_bins=4), _gains_check),
        E("indistinguishability_threshold", f(ifa.indistinguishability_threshold),
          _threshold_check()),
        E("precision_at_indistinguishability", f(ifa.precision_at_indistinguishability),
          _precision_check),
        E("bootstrap", f(ifa.bootstrap, n_boot=8, seed=1,
                         metrics=("auc", "average_precision", "threshold", "precision",
                                  "lift", "tpr", "fpr", "f1", "b")), _boot_check),
        E("delong", f(ifa.delong), _delong_check, copies=True),
        E("delong_test", lambda ri: (ifa.delong_test, (ri.y, ri.s, ri.s), _kw(ri)),
          _delong_test_check, copies=True, extra_errors=("score_a", "score_b")),
        E("ScoreTable.from_arrays",
          lambda ri: (ifa.ScoreTable.from_arrays, (ri.y, ri.s, ri.w, ri.pos_label), {}),
          lambda o, t, ri: check_table(o, t), two_classes=False),
        E("ScoreTable.evaluate",
          lambda ri: (lambda *a: ifa.ScoreTable.from_arrays(*a).evaluate(),
                      (ri.y, ri.s, ri.w, ri.pos_label), {}),
          lambda o, r, ri: check_report(o, r)),
        E("ScoreTable.curves",
          lambda ri: (lambda *a: ifa.ScoreTable.from_arrays(*a).curves(),
                      (ri.y, ri.s, ri.w, ri.pos_label), {}),
          lambda o, c, ri: check_curves(o, c)),
        # Empty chunks add nothing (streams send them): the empty case fails at result().
        E("Accumulator", lambda ri: (_accumulate, (ri,), {}),
          lambda o, r, ri: check_report(o, r), extra_errors=("accumulator holds no rows",)),
        E("sampling.sample_auc", f(smp.sample_auc, 4000, seed=0), _sample_auc_check),
        E("sampling.sample_b", f(smp.sample_b, 0.5, 2000, seed=0), _sample_b_check,
          rule=_sample_b_rule(0.5)),
        E("sampling.sample_b_curve", f(smp.sample_b_curve, [-np.inf, 0.5], 500, seed=0),
          _sample_b_curve_check, rule=_sample_b_rule(0.5)),
    ]
    # The issue-12/13 entry points: segments (one segment of every row), confusion
    # counts, best thresholds, partial AUC, comparisons.
    out += [
        # (a 2-D score array is one model per column there: tests/metrics/test_segments.py)
        E("evaluate_many", f(ifa.evaluate_many, levels=(0.4, 0.5, 0.6)), _many_check,
          two_classes=False, extra_errors=("scores",), skip=_models_in_columns),
        E("evaluate_many[n_boot]", f(ifa.evaluate_many, n_boot=6, seed=2), _many_check,
          two_classes=False, extra_errors=("scores",), skip=_models_in_columns),
        # every row in one period (t = 0): the table of one row, as evaluate_many's
        E("over_time", lambda ri: (ifa.over_time, (ri.y, ri.s, np.zeros(_rows(ri.s))),
                                   _kw(ri)), _over_time_check, two_classes=False),
        E("over_time[n_boot]", lambda ri: (ifa.over_time, (ri.y, ri.s, np.zeros(_rows(ri.s))),
                                           {**_kw(ri), "n_boot": 6, "window": "2D"}),
          _over_time_check, two_classes=False),
        # confusion reports B and C(r) too: both classes needed, as evaluate
        E("confusion", f(ifa.confusion, 0.5), _confusion_check),
        E("best_threshold[youden]", f(ifa.best_threshold, "youden"), _best_check),
        E("best_threshold[f1]", f(ifa.best_threshold, "f1"), _best_check),
        E("roc_auc[max_fpr]", f(ifa.roc_auc, max_fpr=0.5), _partial_auc_check),
        E("compare[delong]", lambda ri: (ifa.compare, (ri.y, ri.s, ri.s),
                                         {**_kw(ri), "metrics": "auc"}),
          _compare_same_check, copies=True, extra_errors=("score_a", "score_b")),
        # pROC's toolbox: partial AUC over any range, bands, curve tests
        E("roc_auc[partial]", f(ifa.roc_auc, partial=(0.2, 0.9)), _partial_range_check),
        E("roc_auc[partial,sensitivity,correct]",
          f(ifa.roc_auc, partial=(0.1, 0.6), focus="sensitivity", correct=True),
          _corrected_partial_check),
        E("bootstrap[pauc]", f(ifa.bootstrap, n_boot=8, seed=1, metrics=("pauc", "auc"),
                               partial=(0.5, 1.0)), _pauc_boot_check),
        E("ci_bands", f(ifa.ci_bands, n_boot=8, seed=1, specificities=[0.5],
                        sensitivities=[0.5], thresholds=[0.5]), _bands_check),
        E("compare[venkatraman]", lambda ri: (ifa.compare, (ri.y, ri.s, ri.s),
                                              {**_kw(ri, False), "method": "venkatraman",
                                               "n_perm": 20}),
          _venkatraman_same_check, weights=False, extra_errors=("score_a", "score_b")),
        E("compare[specificity]", lambda ri: (ifa.compare, (ri.y, ri.s, ri.s),
                                              {**_kw(ri), "method": "specificity",
                                               "specificity": 0.5, "n_boot": 8}),
          _point_same_check, extra_errors=("score_a", "score_b")),
        # pROC's toolbox: DeLong's variance and covariance, coordinates at a threshold
        E("var_auc", f(ifa.var_auc), _var_auc_check, copies=True),
        E("cov_auc", lambda ri: (ifa.cov_auc, (ri.y, ri.s, ri.s), _kw(ri)), _var_auc_check,
          copies=True, extra_errors=("score_a", "score_b")),
        E("coords", f(ifa.coords, 0.5, ret="all"), _coords_check),
    ]
    for method in tc.METHODS:
        out.append(E(f"threshold_choice.expected_loss[{method}]",
                     f(tc.expected_loss, method, t=0.5, q=0.3), _loss_check(method),
                     unit_scores=method in ("score-uniform", "score-driven")))
    out += [
        E("threshold_choice.compare_methods", f(tc.compare_methods, q=0.3), _compare_check),
        E("threshold_choice.brier_score", f(tc.brier_score),
          lambda o, v, ri: (expect_probability("brier", v), expect_close("brier", v, o.brier())),
          unit_scores=True),
        E("threshold_choice.mean_absolute_error", f(tc.mean_absolute_error),
          lambda o, v, ri: (expect_probability("mae", v), expect_close("mae", v, o.mae())),
          unit_scores=True),
        E("threshold_choice.refinement_loss", f(tc.refinement_loss),
          lambda o, v, ri: (expect_probability("refinement", v),
                            expect_close("refinement", v, o.refinement(), rtol=1e-8))),
        E("threshold_choice.roc_convex_hull", f(tc.roc_convex_hull), _hull_check),
        E("threshold_choice.hull_calibration", f(tc.hull_calibration), _calibration_check),
        E("threshold_choice.cost_curves", f(tc.cost_curves), _cost_curves_check),
        E("threshold_choice.loss_curve", f(tc.loss_curve, "rate-driven"), _loss_curve_check),
        E("threshold_choice.brier_curve", f(tc.brier_curve), _brier_curve_check,
          unit_scores=True),
        E("precision_recall_curve", f(ifa.precision_recall_curve), _pr_curve_check,
          two_classes=False, rule=_pr_curve_rule),
        E("calibration", f(ifa.calibration), _calibration_record_check, two_classes=False,
          rule=_probability_rule, extra_errors=("y_prob",)),
        E("calibration[quantile]", f(ifa.calibration, n_bins=4, strategy="quantile"),
          _calibration_record_check, two_classes=False, rule=_probability_rule,
          extra_errors=("y_prob",)),
        E("threshold_choice.accuracy", f(tc.accuracy), _named_metric_check("accuracy")),
        E("threshold_choice.macro_accuracy", f(tc.macro_accuracy),
          _named_metric_check("macro_accuracy")),
        E("threshold_choice.macro_brier_score", f(tc.macro_brier_score),
          _named_metric_check("macro_brier_score"), unit_scores=True),
        E("threshold_choice.macro_mean_absolute_error", f(tc.macro_mean_absolute_error),
          _named_metric_check("macro_mean_absolute_error"), unit_scores=True),
        E("threshold_choice.calibration_loss", f(tc.calibration_loss),
          _named_metric_check("calibration_loss"), unit_scores=True),
        E("threshold_choice.log_loss", f(tc.log_loss), _log_loss_check, unit_scores=True),
        E("threshold_choice.rate_uniform_contingency", f(tc.rate_uniform_contingency),
          _contingency_check),
        E("resolving_power.Empirical",
          lambda ri: (_empirical, (ri.y, ri.s), {"pos_label": ri.pos_label}),
          _empirical_check, weights=False, rule=_empirical_rule),
        E("resolving_power.Empirical.increment",
          lambda ri: (_increment, (ri.y, ri.s), {"pos_label": ri.pos_label}),
          _increment_check, weights=False, rule=_increment_rule, extra_errors=("k",)),
        E("resolving_power.Empirical[scores]",
          lambda ri: (_empirical, (ri.y, ri.s), {"pos_label": ri.pos_label,
                                                 "scale": "scores"}),
          _empirical_check, weights=False, rule=_empirical_scores_rule),
        E("resolving_power.Empirical[scores].increment",
          lambda ri: (_increment, (ri.y, ri.s), {"pos_label": ri.pos_label,
                                                 "scale": "scores"}),
          lambda o, d, ri: _increment_check(o, d, ri, "scores"), weights=False,
          rule=_increment_scores_rule, extra_errors=("k",)),
        E("dask.evaluate[arrays]", _dask_arrays, lambda o, r, ri: check_report(o, r),
          only=_DASK_INPUTS, backends=False, extra_errors=("collection",)),
        E("dask.evaluate[frame]", _dask_frame, lambda o, r, ri: check_report(o, r),
          only=_DASK_INPUTS, backends=False, skip=lambda ri: ri.name in ("s_complex",)),
    ]
    out.append(E("Calibration.to_dict", f(_as_json(ifa.calibration)), _json_check,
                 two_classes=False, rule=_probability_rule, extra_errors=("y_prob",)))
    for name, fn in (("Report", ifa.evaluate), ("Curves", ifa.curves),
                     ("BootstrapResult", lambda *a, **k: ifa.bootstrap(*a, n_boot=5, seed=0, **k)),
                     ("DeLongResult", ifa.delong),
                     ("MethodComparison", tc.compare_methods),
                     ("PrecisionRecallCurve", ifa.precision_recall_curve),
                     ("ExpectedContingency", tc.rate_uniform_contingency)):
        pr = name == "PrecisionRecallCurve"     # defined with only positives
        out.append(E(f"{name}.to_dict", f(_as_json(fn)), _json_check,
                     copies=name == "DeLongResult", two_classes=not pr,
                     rule=_pr_curve_rule if pr else None))
    for name in ("precision_at_indistinguishability", "roc_auc", "lift"):
        out.append(E(f"sklearn.SCORERS[{name}]", _scorer(name), _scorer_check(name),
                     weights=False, only=_SK_INPUTS, pos_label=False,
                     extra_errors=("y", "Input")))
    for name in ("scores_by_class", "roc", "b_curve", "c_tpr_fpr_vs_b", "b_split",
                 "cost_curves"):
        out.append(E(f"plot.{name}", plot(name), _axes_check, only=_PLOT_INPUTS,
                     backends=False, slow=True, pos_label=False))
    # the report page: its summary's AUC cell must hold the oracle's AUC
    from indist_fast.html import report_html
    out.append(E("html.report_html", f(report_html, max_points=50), _page_check,
                 only=_PLOT_INPUTS, slow=True))
    out.append(E("plot.report_sheet", plot("report_sheet"), _axes_check, backends=False,
                 slow=True, pos_label=False, only={"labels_int01", "scores_inf", "w_some_zero", "s_nan",
                                  "y_all_pos", "scores_all_tied"}))
    return out


def _as_json(make: Callable[..., Any]) -> Callable[..., Any]:
    """The result's ``to_dict()`` through JSON and back, and its printed form: what a
    report writer does with it."""
    def run(*args: Any, **kwargs: Any) -> Any:
        import json
        result = make(*args, **kwargs)
        str(result)
        return json.loads(json.dumps(result.to_dict()))
    return run


def _json_check(o: Oracle, data: Any, ri: RowInput) -> None:
    import json
    if not isinstance(data, dict):
        raise Wrong("to_dict() did not give a mapping")
    if "NaN" in json.dumps(data):        # to_dict promises None for NaN (±inf may stay)
        raise Wrong("to_dict() holds NaN")


def _empirical(y: Any, s: Any, pos_label: Any = None, scale: str = "normal") -> Any:
    from indist_fast.metrics.resolving_power import Empirical
    return Empirical(y, s, pos_label=pos_label, scale=scale)


def _increment(y: Any, s: Any, pos_label: Any = None, scale: str = "normal") -> Any:
    return _empirical(y, s, pos_label, scale).increment(1)


def row_cases() -> list[Case]:
    out = []
    for entry in _entries():
        for builder in inputs.ALL:
            case = _row_case(entry, builder)
            if case is not None:
                out.append(case)
    return out

def _rows(values: Any) -> int:
    """How many rows an input holds, as far as ``len`` tells (0 when it cannot)."""
    try:
        return len(values)
    except TypeError:
        return 0


def _models_in_columns(ri: RowInput) -> bool:
    return ri.name in ("s_2d_proba", "s_column")


def _many_check(o: Oracle, t: Any, ri: RowInput) -> None:
    """One row (no groups): the report of every row, or the one-class flag."""
    if len(t) != 1:
        raise Wrong(f"evaluate_many without groups gave {len(t)} rows")
    if o.weight_pos > 0 and o.weight_neg > 0:
        if t.columns["one_class"][0]:
            raise Wrong("two classes flagged one_class")
        check_report(o, t.report())
        expect_close("auc", t.columns["auc"][0], o.auc())
    elif not t.columns["one_class"][0]:
        raise Wrong("one class not flagged")


def _over_time_check(o: Oracle, t: Any, ri: RowInput) -> None:
    """One period holding every row: its report, or the one-class flag."""
    if len(t) != 1 or t.columns["period"].tolist() != [0.0]:
        raise Wrong(f"over_time at t = 0 gave the periods {t.columns['period'].tolist()}")
    if o.weight_pos > 0 and o.weight_neg > 0:
        if t.columns["one_class"][0]:
            raise Wrong("two classes flagged one_class")
        check_report(o, t.report(period=0.0))
        expect_close("auc", t.columns["auc"][0], o.auc())
    elif not t.columns["one_class"][0]:
        raise Wrong("one class not flagged")


def _confusion_check(o: Oracle, c: Any, ri: RowInput) -> None:
    w = np.ones(len(o.s)) if o.w is None else o.w
    above = o.s >= 0.5
    pos = o.y.astype(bool)
    for name, want in (("tp", w[above & pos].sum()), ("fp", w[above & ~pos].sum()),
                       ("fn", w[~above & pos].sum()), ("tn", w[~above & ~pos].sum())):
        expect_close(name, getattr(c, name), want)


def _best_check(o: Oracle, b: Any, ri: RowInput) -> None:
    t = float(b.threshold)
    if not (math.isinf(t) or t in set(o.s.tolist())):
        raise Wrong(f"threshold {t!r} is no score of the rows")
    if math.isnan(float(b.value)):
        raise Wrong("value is NaN")


def _partial_auc_check(o: Oracle, a: Any, ri: RowInput) -> None:
    expect_probability("partial auc", a)


def _partial_range_check(o: Oracle, a: Any, ri: RowInput) -> None:
    expect_probability("partial auc", a)
    if float(a) > 0.7 + 1e-12:
        raise Wrong(f"partial auc over specificities 0.2-0.9 = {a!r} exceeds 0.7")


def _corrected_partial_check(o: Oracle, a: Any, ri: RowInput) -> None:
    expect_probability("corrected partial auc", a, nan_ok=True)
    if not math.isnan(float(a)) and float(a) < 0.5:
        raise Wrong(f"corrected partial auc {a!r} below 1/2 (NaN there)")


def _pauc_boot_check(o: Oracle, r: Any, ri: RowInput) -> None:
    iv = r["pauc"]
    expect_probability("pauc estimate", iv.estimate)
    if not iv.low <= iv.high or len(iv.replicates) != 8:
        raise Wrong(f"pauc interval [{iv.low}, {iv.high}] from {len(iv.replicates)} replicates")


def _bands_check(o: Oracle, r: Any, ri: RowInput) -> None:
    for band in r.bands():
        for v in np.r_[band.estimate, band.low, band.high]:
            expect_probability(f"{band.measure} at {band.given}", v, nan_ok=True)
        if (band.low > band.high).any():
            raise Wrong(f"{band.measure} band low above high")
    ws = np.ones(len(o.s)) if o.ws is None else o.ws
    expect_close("sensitivity at threshold 0.5", r.threshold_sensitivity.estimate[0],
                 ws[o.y & (o.s >= 0.5)].sum() / ws[o.y].sum())


def _venkatraman_same_check(o: Oracle, r: Any, ri: RowInput) -> None:
    d = r["roc"]
    expect_close("Venkatraman's E of a model with itself", d.statistic, 0.0)
    expect_close("its p-value", d.p_value, 1.0)


def _point_same_check(o: Oracle, r: Any, ri: RowInput) -> None:
    expect_close("sensitivity difference of a model with itself", r["sensitivity"].estimate,
                 0.0)


def _compare_same_check(o: Oracle, r: Any, ri: RowInput) -> None:
    d = r["auc"]
    expect_close("auc difference", d.estimate, 0.0)
