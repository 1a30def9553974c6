"""The expected loss of every threshold choice method for one model, from one sort and
one sweep (Hernandez-Orallo, Flach and Ferri, "Threshold Choice Methods: the Missing
Link"): ``compare_methods`` and its table, each row with the metric the loss equals
under a uniform cost proportion.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .._core.validation import prepare_rows
from ..results.report import plain_value, record_dict, row_where
from .cost_model import Q_IS_PI, CostDistribution, sweep_context
from .method_registry import REGISTRY, check_q, check_t


@dataclass(frozen=True)
class MethodLoss:
    """One row of ``MethodComparison``.

    Attributes
    ----------
    method : str
        The threshold choice method (one of ``METHODS``).
    setting : str
        Its setting, e.g. ``t=0.5`` (empty when it has none).
    expected_loss : float
        Its expected loss (NaN when undefined, see ``note``).
    equals : str
        The metric the loss equals under a uniform cost proportion (its macro,
        class-balanced version under the skew condition).
    note : str, default=""
        Why the loss is NaN, if it is.

    Examples
    --------
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> row = tc.compare_methods(y, p)["optimal"]
    >>> row.equals, round(row.expected_loss, 4)
    ('refinement loss of the ROC hull', 0.0833)
    """

    method: str
    setting: str
    expected_loss: float
    equals: str
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types (NaN becomes None).

        Returns
        -------
        dict
            Field name to value.

        Examples
        --------
        >>> import indist_fast.metrics.threshold_choice as tc
        >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
        >>> tc.compare_methods(y, p)["score-fixed"].to_dict()["setting"]
        't=0.5'
        """
        return record_dict(self)


@dataclass(frozen=True)
class MethodComparison:
    """Expected loss of every threshold choice method for one model.

    Attributes
    ----------
    rows : tuple of MethodLoss
        One per method, in ``METHODS`` order.
    condition : str
        ``cost`` or ``skew``.
    cost_distribution : CostDistribution
        Distribution of the cost proportion the losses average over.
    auc, base_rate : float
        The model's AUC and the data's positive share (for the identities).

    Examples
    --------
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> table = tc.compare_methods(y, p)
    >>> [row.method for row in table.rows] == list(tc.METHODS)
    True
    """

    rows: tuple[MethodLoss, ...]
    condition: str
    cost_distribution: CostDistribution
    auc: float
    base_rate: float

    def __getitem__(self, method: str) -> MethodLoss:
        return row_where(self.rows, "method", method)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types: the settings and one dict per row.

        Returns
        -------
        dict
            ``condition``, ``cost_distribution`` (``a``, ``b``), ``auc``,
            ``base_rate`` and ``rows``.

        Examples
        --------
        >>> import indist_fast.metrics.threshold_choice as tc
        >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
        >>> d = tc.compare_methods(y, p).to_dict()
        >>> d["cost_distribution"], len(d["rows"])
        ({'a': 1.0, 'b': 1.0}, 8)
        """
        dist = self.cost_distribution
        return record_dict(self, cost_distribution={"a": plain_value(dist.a), "b": plain_value(dist.b)},
                           rows=[r.to_dict() for r in self.rows])

    def __str__(self) -> str:
        d = self.cost_distribution
        dist = "c ~ U(0, 1)" if d.is_uniform else f"c ~ Beta({d.a:g}, {d.b:g})"
        lines = [f"expected loss by threshold choice method ({self.condition} condition, "
                 f"{dist}); AUC {self.auc:.4f}, base rate {self.base_rate:.4f}",
                 f"{'method':>21} {'setting':>14} {'expected loss':>14}  equals (uniform c)"]
        for r in self.rows:
            loss = "n/a" if math.isnan(r.expected_loss) else f"{r.expected_loss:.6f}"
            lines.append(f"{r.method:>21} {r.setting:>14} {loss:>14}  {r.equals}"
                         + (f"  [{r.note}]" if r.note else ""))
        return "\n".join(lines)


def compare_methods(y_true: Any, y_score: Any, *, t: float = 0.5, q: float | None = None,
                    condition: str = "cost", cost_distribution: Any = None,
                    sample_weight: Any = None, pos_label: Any = None) -> MethodComparison:
    """Expected loss of every threshold choice method, from one sort and one sweep.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    t : float, default=0.5
        Threshold of score-fixed.
    q : float, optional
        Rate of rate-fixed; default the condition's positive share (the data's base
        rate, 1/2 under skew).
    condition : {"cost", "skew"}, default="cost"
        ``skew`` sets pi0 = pi1 = 1/2 in the loss and in the rate.
    cost_distribution : None, CostDistribution or (a, b)
        Distribution of the cost proportion: uniform (None) or Beta(a, b).

    Returns
    -------
    MethodComparison
        Score-based rows are NaN, with a note, when scores leave [0, 1].

    Examples
    --------
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> table = tc.compare_methods([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> round(table["score-driven"].expected_loss, 4)
    0.1138
    """
    t_value = check_t(t, True)
    dist = CostDistribution.coerce(cost_distribution)
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    q_value = Q_IS_PI if q is None else check_q(q, True)
    ctx = sweep_context(rows, t=t_value, q=q_value, condition=condition,
                   need_table=any(m.table_needed(dist) for m in REGISTRY.values()))
    out = []
    for spec in REGISTRY.values():
        if spec.unit_scores and not ctx.scores_are_probabilities():
            loss, note = math.nan, "scores outside [0, 1]"
        else:
            loss = spec.expected_loss(ctx, dist)
            note = spec.undefined if math.isnan(loss) else ""
        out.append(MethodLoss(spec.name, spec.setting(ctx), loss,
                              spec.equals_under(condition), note))
    wp, wn = ctx.weight_pos, ctx.weight_neg
    return MethodComparison(tuple(out), condition, dist, float(ctx.sweep.auc),
                            wp / (wp + wn))
