"""The threshold choice methods of Hernandez-Orallo, Flach and Ferri ("Threshold Choice
Methods: the Missing Link"; definitions page, "Threshold choice methods and expected
loss"), one registry entry each: how the method picks its threshold for a cost
proportion ``c``, what it needs (a threshold ``t``, a rate ``q``, scores in [0, 1], the
score table), how its loss curve ``Q(c)`` is built, and what its expected loss equals
under a uniform ``c``. Every public threshold-choice function dispatches through it.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from .._core.validation import check_real
from .cost_model import (CostDistribution, LossCurve, SweepContext, check_scores_in_unit_interval,
                         cost_lines, cumulative_weights, point_rates, shown)
from .roc_hull import hull_steps

# --- each method's loss curve, and its loss from the sums alone ---------------------------


def _score_fixed_curve(ctx: SweepContext) -> LossCurve:
    return ctx.line(ctx.sums.t_tp, ctx.sums.t_fp)


def _rate_fixed_curve(ctx: SweepContext) -> LossCurve:
    return ctx.line(ctx.sums.q_tp, ctx.sums.q_fp)


def _indistinguishability_curve(ctx: SweepContext) -> LossCurve:
    threshold, tp, fp = ctx.crossing()
    if math.isnan(threshold):     # no r_b, so no operating point: the loss is undefined
        tp = fp = math.nan
    return ctx.line(tp, fp)


def _score_uniform_curve(ctx: SweepContext) -> LossCurve:
    """``t ~ U(0, 1)``: a row scoring s is labelled with probability s, so the mean
    FNR and FPR are the classes' mean absolute errors."""
    s = ctx.sums
    return LossCurve.line(s.mae_pos / ctx.weight_pos, s.mae_neg / ctx.weight_neg, ctx.pi1)


def rate_uniform_rates(ctx: SweepContext) -> tuple[float, float]:
    """Mean TPR and FPR over a uniform rate ``q = pi1 tpr + pi0 fpr``.

    On the linearly interpolated ROC, ``int tpr dq = pi1/2 + pi0 A`` and ``int fpr
    dq = pi1 (1 - A) + pi0/2`` (``int tpr dfpr = A``, ``int tpr dtpr = 1/2``), so the
    AUC of the sweep gives both exactly.
    """
    pi1, auc = ctx.pi1, float(ctx.sweep.auc)
    pi0 = 1.0 - pi1
    return 0.5 * pi1 + pi0 * auc, pi1 * (1.0 - auc) + 0.5 * pi0


def _rate_uniform_curve(ctx: SweepContext) -> LossCurve:
    tpr, fpr = rate_uniform_rates(ctx)
    return LossCurve.line(1.0 - tpr, fpr, ctx.pi1)


def score_driven_curve(ctx: SweepContext) -> LossCurve:
    """``t = 1 - c``: the operating point changes at ``c = 1 - score``."""
    table = ctx.table
    assert table is not None
    fnr, fpr = point_rates(table)
    # point j (j groups labelled) is in force for c in [1 - s_j, 1 - s_{j+1})
    breaks = np.concatenate(([0.0], 1.0 - table.scores, [1.0]))
    return cost_lines(breaks, fnr, fpr, ctx.pi1)


def _rate_driven_curve(ctx: SweepContext) -> LossCurve:
    """``q = c``: on each rate segment tpr and fpr are linear in c, so Q is quadratic."""
    table = ctx.table
    assert table is not None
    pi1 = ctx.pi1
    pi0 = 1.0 - pi1
    tp, fp = table.pos.astype(np.float64), table.neg.astype(np.float64)
    cum_tp, cum_fp = cumulative_weights(table)
    wp, wn = cum_tp[-1], cum_fp[-1]       # the totals the rates end on (see class_rates)
    t0 = np.concatenate(([0.0], cum_tp[:-1])) / wp             # tpr before the group
    f0 = np.concatenate(([0.0], cum_fp[:-1])) / wn
    # not differences of the rates: a light group next to a heavy one would vanish
    dt, df = tp / wp, fp / wn
    a = pi1 * t0 + pi0 * f0                                   # rate before the group
    width = pi1 * dt + pi0 * df
    # tpr(c) = t0 + (c - a) dt / width, fpr(c) = f0 + (c - a) df / width
    st, sf = dt / width, df / width
    alpha_t, alpha_f = t0 - a * st, f0 - a * sf              # tpr = alpha_t + st c
    # Q = 2 [pi1 c (1 - alpha_t - st c) + pi0 (1 - c)(alpha_f + sf c)]
    coef = 2 * np.stack([pi0 * alpha_f,
                         pi1 * (1 - alpha_t) + pi0 * (sf - alpha_f),
                         -pi1 * st - pi0 * sf], axis=-1)
    return LossCurve(np.concatenate((a, [1.0])), coef)


def optimal_curve(ctx: SweepContext) -> LossCurve:
    """The lower envelope of the hull vertices' lines (Hernandez-Orallo et al., the optimal method)."""
    tpr, fpr, d1, d0 = hull_steps(ctx)
    # vertex v is optimal between the crossings with its neighbours: c = d0 / (d1 + d0)
    with np.errstate(invalid="ignore", divide="ignore"):
        cross = np.where(d1 + d0 > 0, d0 / (d1 + d0), 0.0)
    breaks = np.concatenate(([0.0], np.maximum.accumulate(cross), [1.0]))
    return cost_lines(breaks, 1.0 - tpr, fpr, ctx.pi1)


def brier_loss(ctx: SweepContext) -> float:
    """Score-driven loss under a uniform c: the condition's Brier score, from the sums."""
    return ctx.class_mean(ctx.sums.brier_pos, ctx.sums.brier_neg)


def _rate_driven_loss(ctx: SweepContext) -> float:
    """Rate-driven loss under a uniform c (Hernandez-Orallo et al.; the condition's pis in Q and q)."""
    pi1 = ctx.pi1
    return 1.0 / 3.0 + (1.0 - pi1) * pi1 * (1.0 - 2.0 * ctx.sweep.auc)


def _no_setting(ctx: SweepContext) -> str:
    return ""


def _t_setting(ctx: SweepContext) -> str:
    return f"t={shown(ctx.t):g}"


def _q_setting(ctx: SweepContext) -> str:
    return f"q={ctx.q:.4g}"


def _r_b_setting(ctx: SweepContext) -> str:
    return f"t=r_b={shown(ctx.crossing()[0]):.4g}"


# --- the method registry --------------------------------------------------------------------

# What each setting keyword is, as the message for a method that lacks it names it.
_SETTINGS = {"t": "the threshold t", "q": "the predicted positive rate q"}


@dataclass(frozen=True)
class _Method:
    """One threshold choice method of Hernandez-Orallo et al.: what it needs and how its loss comes.

    Its expected loss is its loss curve integrated against the cost distribution,
    except where ``uniform_loss`` gives the uniform-c value from the sweep's sums
    alone (it saves building the score table the curve needs).
    """

    name: str
    threshold: str                  # how it picks the threshold for a cost proportion c
    equals: str                     # its expected loss under c ~ U(0, 1) (Hernandez-Orallo et al., as in the definitions page's table)
    equals_skew: str                # the same under the skew condition (pi0 = pi1 = 1/2)
    curve: Callable[[SweepContext], LossCurve]
    needs: str | None = None        # the setting keyword it requires, "t" or "q"
    unit_scores: bool = False       # it reads scores as probabilities: they must be in [0, 1]
    needs_table: bool = False       # its curve reads the score table
    uniform_loss: Callable[[SweepContext], float] | None = None
    setting: Callable[[SweepContext], str] = _no_setting      # compare_methods' "setting" column
    undefined: str = ""             # why its loss can be NaN

    def settings(self, t: Any, q: Any) -> tuple[float, float]:
        """``t`` and ``q`` checked, NaN when not given and not needed."""
        return check_t(t, self.needs == "t"), check_q(q, self.needs == "q")

    def table_needed(self, dist: CostDistribution) -> bool:
        return self.needs_table and not (dist.is_uniform and self.uniform_loss is not None)

    def loss_curve(self, ctx: SweepContext) -> LossCurve:
        if self.unit_scores:
            check_scores_in_unit_interval(ctx, self.name)
        return self.curve(ctx)

    def expected_loss(self, ctx: SweepContext, dist: CostDistribution) -> float:
        if self.uniform_loss is not None and dist.is_uniform:
            if self.unit_scores:
                check_scores_in_unit_interval(ctx, self.name)
            return self.uniform_loss(ctx)
        return self.loss_curve(ctx).expected(dist)

    def equals_under(self, condition: str) -> str:
        """What the expected loss equals under a uniform c: under skew every pi is 1/2,
        so the pooled metrics become their class-balanced (macro) versions."""
        return self.equals_skew if condition == "skew" else self.equals

    def describe(self) -> str:
        """One line for the docstrings."""
        needs = [f"needs ``{self.needs}``"] if self.needs else []
        if self.unit_scores:
            needs.append("needs scores in [0, 1]")
        if self.undefined:
            needs.append(f"NaN when {self.undefined}")
        extra = f" ({'; '.join(needs)})" if needs else ""
        return (f"``{self.name}``{extra}: threshold {self.threshold}; uniform c: "
                f"{self.equals} (skew: {self.equals_skew}).")


REGISTRY: Mapping[str, _Method] = MappingProxyType({m.name: m for m in (
    _Method("score-fixed", "fixed at t", "error rate at t", "macro error rate at t",
            _score_fixed_curve, needs="t", setting=_t_setting),
    _Method("score-uniform", "t ~ U(0, 1)", "mean absolute error",
            "macro mean absolute error", _score_uniform_curve, unit_scores=True),
    _Method("score-driven", "t = 1 - c", "Brier score", "macro Brier score",
            score_driven_curve, unit_scores=True, needs_table=True,
            uniform_loss=brier_loss),
    _Method("rate-fixed", "at predicted positive rate q", "error rate at rate q",
            "macro error rate at rate q", _rate_fixed_curve, needs="q",
            setting=_q_setting),
    _Method("rate-uniform", "at rate q ~ U(0, 1)", "1/2 + pi0 pi1 (1 - 2 AUC)",
            "3/4 - AUC / 2", _rate_uniform_curve),
    _Method("rate-driven", "at rate q = c", "1/3 + pi0 pi1 (1 - 2 AUC)",
            "7/12 - AUC / 2", _rate_driven_curve, needs_table=True,
            uniform_loss=_rate_driven_loss),
    _Method("optimal", "minimising Q(c)", "refinement loss of the ROC hull",
            "macro refinement loss of the ROC hull", optimal_curve),
    _Method("indistinguishability", "fixed at r_b", "error rate at r_b",
            "macro error rate at r_b", _indistinguishability_curve,
            setting=_r_b_setting, undefined="B never reaches 1/2"),
)})
METHODS = tuple(REGISTRY)


def check_method(method: Any) -> _Method:
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}; got {method!r}.")
    return REGISTRY[method]


def _absent(name: str, required: bool) -> float:
    """An unset setting: NaN, or the error naming the method that needs it."""
    if required:
        method = next(m.name for m in REGISTRY.values() if m.needs == name)
        raise ValueError(f"method {method!r} needs {_SETTINGS[name]}.")
    return math.nan


def check_t(t: Any, required: bool) -> float:
    if t is None:
        return _absent("t", required)
    return check_threshold(t)


def check_threshold(t: Any) -> float:
    """A threshold: any real number but NaN (``score >= t`` with t = ±inf is fine)."""
    return check_real(t, "t", finite=False, kind="be a number", must="not be NaN")


def check_q(q: Any, required: bool) -> float:
    if q is None:
        return _absent("q", required)
    return check_real(q, "q", low=0.0, high=1.0, kind="be a number in [0, 1]",
                      must="lie in [0, 1]")


def describe_methods(doc: str | None) -> str | None:
    """``doc`` with its ``{methods}`` line replaced by one line per registered method."""
    if doc is None:             # python -OO
        return None
    line = next(x for x in doc.splitlines() if x.strip() == "{methods}")
    indent = line[:len(line) - len(line.lstrip())]
    listing = "\n".join(textwrap.fill(m.describe(), 88, initial_indent=indent + "- ",
                                       subsequent_indent=indent + "  ")
                         for m in REGISTRY.values())
    return doc.replace(line, listing)
