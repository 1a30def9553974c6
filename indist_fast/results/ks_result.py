"""The Kolmogorov-Smirnov statistic of a ranking and its test, as a record
(``KSResult``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .report import record_dict

__all__ = ["KSResult"]


@dataclass(frozen=True)
class KSResult:
    """The largest gap between the true and false positive rates over the operating
    points (definitions page, "KS"), where it is reached, and the two-sided
    two-sample Kolmogorov-Smirnov test of it.

    Attributes
    ----------
    statistic : float
        ``max_j |tpr_j - fpr_j|`` over the distinct scores as thresholds: the largest
        vertical distance between the ROC curve and the diagonal, and the two-sample KS
        distance between the scores of positives and negatives, in [0, 1].
    threshold : float
        The highest distinct score ``t_j`` where the maximum is reached (when several
        reach it); predict positive where ``score >= threshold``.
    tpr, fpr : float
        The true and false positive rates at that threshold (weighted with weights).
    sign : int
        +1 when ``tpr > fpr`` there (the scores rank positives higher), -1 when
        ``tpr < fpr``, 0 when the statistic is 0.
    pvalue : float or None
        The two-sided p-value of the hypothesis that both classes' scores come from
        one continuous distribution, as ``scipy.stats.ks_2samp`` gives it; None when
        asked for the statistic alone (``method=None``).
    method : str or None
        How the p-value was computed: ``"exact"`` (the distribution of the statistic
        under the hypothesis, counted exactly) or ``"asymp"`` (Smirnov's limit
        distribution); None without a p-value.
    n_pos, n_neg : float
        The weight of each class: their counts without weights, the sample sizes of the
        test.

    Examples
    --------
    >>> import indist_fast
    >>> ks = indist_fast.ks([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> round(ks.statistic, 4), ks.threshold, ks.sign, round(ks.pvalue, 4), ks.method
    (0.6667, 0.8, 1, 0.6, 'exact')
    """

    statistic: float
    threshold: float
    tpr: float
    fpr: float
    sign: int
    pvalue: float | None
    method: str | None
    n_pos: float
    n_neg: float

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types.

        Returns
        -------
        dict
            Field name to value, NumPy scalars as Python numbers.

        Examples
        --------
        >>> import indist_fast
        >>> d = indist_fast.ks([0, 1], [0.2, 0.7]).to_dict()
        >>> d["statistic"], d["threshold"], d["pvalue"], d["method"]
        (1.0, 0.7, 1.0, 'exact')
        """
        return record_dict(self)

    def __str__(self) -> str:
        shown = "< 1e-300" if self.pvalue == 0.0 else f"{self.pvalue:.4g}"   # underflow
        test = ("" if self.pvalue is None
                else f", p-value {shown} ({self.method}, two-sided)")
        return (f"KS {self.statistic:.4g} at threshold {self.threshold:.6g} "
                f"(tpr {self.tpr:.4g}, fpr {self.fpr:.4g}){test}")
