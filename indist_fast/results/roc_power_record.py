"""The record of ``power_roc_test``: sizes, AUCs, significance level and power."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .report import record_dict

__all__ = ["RocPower"]


@dataclass(frozen=True)
class RocPower:
    """Power and sample size of a test of one ROC curve against chance (AUC 0.5) or of
    two correlated ROC curves, every quantity filled in (the one solved for included).

    Attributes
    ----------
    n_cases, n_controls : float
        Positives and negatives (not rounded: round up to plan a study).
    auc : float
        The AUC of the curve (the first curve with two).
    auc2 : float or None
        The second curve's AUC; None for one curve.
    sig_level : float
        Significance level of the test.
    power : float
        Its power.
    kappa : float
        ``n_controls / n_cases``.
    alternative : str
        ``"two-sided"`` or ``"one-sided"``.
    solved_for : str
        Which of ``auc``, ``n``, ``sig_level``, ``power`` was computed.

    Examples
    --------
    >>> import indist_fast
    >>> r = indist_fast.power_roc_test(auc=0.8, n_cases=20, n_controls=30)
    >>> r.solved_for, round(r.power, 4)
    ('power', 0.9745)
    """

    n_cases: float
    n_controls: float
    auc: float
    auc2: float | None
    sig_level: float
    power: float
    kappa: float
    alternative: str
    solved_for: str

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types.

        Returns
        -------
        dict
            Field name to value.

        Examples
        --------
        >>> import indist_fast
        >>> d = indist_fast.power_roc_test(auc=0.8, power=0.9).to_dict()
        >>> d["solved_for"], round(d["n_cases"], 2)
        ('n', 16.62)
        """
        return record_dict(self)

    def __str__(self) -> str:
        curves = "one ROC curve against AUC 0.5" if self.auc2 is None else "two ROC curves"
        aucs = (f"auc = {self.auc:.4g}" if self.auc2 is None
                else f"auc = {self.auc:.4g}, auc2 = {self.auc2:.4g}")
        return "\n".join([
            f"power of a test of {curves} ({self.alternative}; solved for {self.solved_for})",
            f"  n_cases = {self.n_cases:.6g}, n_controls = {self.n_controls:.6g}",
            f"  {aucs}", f"  sig_level = {self.sig_level:.4g}, power = {self.power:.4g}"])
