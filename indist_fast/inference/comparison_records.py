"""The records ``compare`` returns: one metric's ``Difference`` of two models, a
``Comparison`` of two models (one difference per metric) and ``Comparisons`` of every
pair of several models."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

import numpy as np

from ..results.report import record_dict
from .bootstrap import METRICS

__all__ = ["Difference", "Comparison", "Comparisons"]


@dataclass(frozen=True)
class Difference:
    """One metric of model A minus the same metric of model B.

    Attributes
    ----------
    metric : str
        Name of the metric.
    estimate : float
        ``estimate_a - estimate_b``.
    std_error : float
        Standard error of the difference: DeLong's, or the replicates' standard
        deviation (ddof=1).
    low, high : float
        Interval of the difference at ``confidence``: two-sided, or for
        ``alternative="greater"`` (``"less"``) one-sided, ``high`` (``low``) then the
        bound of the metric (±1 for metrics in [0, 1], ±inf otherwise).
    p_value : float
        p-value of "no difference" against ``alternative``, Holm-adjusted when the
        comparison asked for it.
    estimate_a, estimate_b : float
        The metric of each model on the full data.
    method : str
        ``"delong"`` (normal interval with DeLong's variance, or Student's t with
        ``df``), ``"bootstrap"`` (percentile interval), ``"venkatraman"`` (a
        permutation test of the whole curves: ``estimate`` is the AUC difference, the
        interval NaN), or ``"sensitivity"`` / ``"specificity"`` (pROC's bootstrap test
        at one point: normal interval and p-value from the replicates' standard
        deviation).
    alternative : str
        ``"two-sided"``, ``"greater"`` (A above B) or ``"less"``.
    confidence : float
        Nominal coverage of ``[low, high]``.
    p_value_unadjusted : float
        The p-value before any multiple-comparison correction.
    replicates : ndarray
        Bootstrap differences, replicate by replicate (empty for DeLong).
    n_undefined : int
        Replicates where the difference is undefined (NaN), e.g. a level not reached.
    p_is_bound : bool
        True when ``p_value`` is an upper bound, not an estimate: no bootstrap replicate
        fell on the far side of 0 (the p-value is at its floor, ``1 / (B + 1)``, or a
        multiple of it after Holm), or DeLong's p is below the smallest double. Printed
        as ``p < ...``.
    statistic : float
        The test statistic: DeLong's z (or t with ``df``), pROC's bootstrap ``D =
        estimate / std_error`` for the bootstrap methods, Venkatraman's ``E`` for
        ``method="venkatraman"``.
    df : float or None
        Degrees of freedom of the Student t the statistic was referred to
        (``df="welch"``: pROC's unpaired DeLong test); None: the normal.

    Examples
    --------
    >>> import indist_fast
    >>> y = [0, 1, 1, 0, 1, 0, 1, 0]
    >>> a = [0.1, 0.8, 0.6, 0.3, 0.7, 0.2, 0.4, 0.5]
    >>> b = [0.2, 0.7, 0.3, 0.1, 0.6, 0.5, 0.4, 0.8]
    >>> d = indist_fast.compare(y, a, b, metrics="auc")["auc"]
    >>> d.estimate, d.estimate_a, d.estimate_b, d.method
    (0.3125, 0.9375, 0.625, 'delong')
    """

    metric: str
    estimate: float
    std_error: float
    low: float
    high: float
    p_value: float
    estimate_a: float
    estimate_b: float
    method: str
    alternative: str
    confidence: float
    p_value_unadjusted: float
    replicates: np.ndarray = field(repr=False, compare=False)   # (arrays have no ==)
    n_undefined: int
    p_is_bound: bool = False
    statistic: float = math.nan
    df: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types, without the replicates.

        Returns
        -------
        dict
            Every field but ``replicates``; NaN becomes None.

        Examples
        --------
        >>> import indist_fast
        >>> y, a, b = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.7, 0.2], [.2, .7, .3, .1, .6, .5]
        >>> sorted(indist_fast.compare(y, a, b, metrics="auc")["auc"].to_dict())[:4]
        ['alternative', 'confidence', 'df', 'estimate']
        """
        return record_dict(self, skip=("replicates",))

    def __str__(self) -> str:
        return self.text("A", "B")

    def text(self, name_a: str, name_b: str) -> str:
        """One line, the models called ``name_a`` and ``name_b``.

        Parameters
        ----------
        name_a : str
            The name shown for the first model (``estimate_a``).
        name_b : str
            The name shown for the second model (``estimate_b``).

        Returns
        -------
        str

        Examples
        --------
        >>> import indist_fast
        >>> y, a, b = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.7, 0.2], [.2, .7, .3, .1, .6, .5]
        >>> indist_fast.compare(y, a, b, metrics="auc")["auc"].text("new", "old")[:30]
        'auc: new 1.0000, old 0.8889, n'
        """
        note = f", {self.n_undefined} undefined replicates" if self.n_undefined else ""
        adjusted = (f" (unadjusted {p_text(self.p_value_unadjusted, self.p_is_bound)})"
                    if self.p_value != self.p_value_unadjusted else "")
        metric = _SHOWN.get(self.metric, self.metric)
        if self.method == "venkatraman":
            n_perm = len(self.replicates)
            # p = 0 (pROC's rule) means no permutation reached E: below one in n_perm
            p = (f"p < {1 / n_perm:.3g} (no permutation as large)"
                 if self.p_value == 0 and n_perm else p_text(self.p_value, self.p_is_bound))
            return (f"{metric}: {name_a} AUC {self.estimate_a:.4f}, {name_b} AUC "
                    f"{self.estimate_b:.4f}, area between the curves E = {self.statistic:.6g}, "
                    f"{p}{adjusted} (venkatraman, {n_perm} permutations)")
        if self.df is not None:
            note += f", t = {self.statistic:.4f}, df = {self.df:.1f}"
        return (f"{metric}: {name_a} {self.estimate_a:.4f}, {name_b} {self.estimate_b:.4f}, "
                f"{name_a} - {name_b} "
                f"{self.estimate:+.4f}, {self.confidence:.0%} CI [{self.low:+.4f}, "
                f"{self.high:+.4f}], SE {self.std_error:.4f}, {p_text(self.p_value, self.p_is_bound)}"
                f"{adjusted} ({self.method}, {self.alternative}{note})")


# What the bare names mean here, in a printed line.
_SHOWN = {"precision": "C(r_b)", "threshold": "r_b", "b": "B(r_b)"}


def p_text(p: float, bound: bool = False) -> str:
    """``p = 0.0123``; an upper bound as ``p < 0.0005``, DeLong's underflow as
    ``p < 1e-300`` (never ``p = 0``)."""
    if math.isnan(p):
        return "p = nan"
    if bound and p == 0.0:
        return "p < 1e-300"
    shown = f"{p:.3g}" if p >= 1e-4 else f"{p:.2e}"
    return f"p < {shown}" if bound else f"p = {shown}"


@dataclass(frozen=True)
class Comparison:
    """Model A against model B, one ``Difference`` per metric.

    Index by metric name: ``result["auc"].p_value``.

    Attributes
    ----------
    model_a, model_b : str
        Names of the models (``names``, or ``"a"`` and ``"b"``, when given as two
        arguments).
    differences : Mapping[str, Difference]
        One entry per metric, in the order asked for.
    paired : bool
        Whether both models scored the same rows.
    n_boot : int
        Bootstrap replicates drawn (0 when every metric used DeLong).
    seed_entropy : int or None
        Entropy of the replicates' ``SeedSequence`` (pass it as ``seed`` to reproduce
        them); None when nothing was drawn.
    level : float
        Level of B whose operating point ``threshold`` and ``precision`` describe.

    Examples
    --------
    >>> import indist_fast
    >>> y, a, b = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.7, 0.2], [.2, .7, .3, .1, .6, .5]
    >>> c = indist_fast.compare(y, a, b, metrics="auc")
    >>> list(c), c.model_a, c.paired
    (['auc'], 'a', True)
    """

    model_a: str
    model_b: str
    differences: Mapping[str, Difference]
    paired: bool
    n_boot: int
    seed_entropy: int | None
    level: float

    def __getitem__(self, metric: str) -> Difference:
        try:
            return self.differences[metric]
        except KeyError:
            hint = (" Name it in compare(..., metrics=...) to compare it (bootstrapped)."
                    if isinstance(metric, str) and metric in METRICS else "")
            raise KeyError(f"metric {metric!r} was not compared; compared: "
                           f"{', '.join(self.differences)}.{hint}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.differences)

    def __len__(self) -> int:
        return len(self.differences)

    def __contains__(self, metric: object) -> bool:
        return metric in self.differences

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types, without the replicates.

        Returns
        -------
        dict
            Every field; ``differences`` maps each metric to its difference's dict.

        Examples
        --------
        >>> import indist_fast
        >>> y, a, b = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.7, 0.2], [.2, .7, .3, .1, .6, .5]
        >>> d = indist_fast.compare(y, a, b, metrics="auc").to_dict()
        >>> d["model_a"], list(d["differences"])
        ('a', ['auc'])
        """
        return record_dict(self, differences={k: v.to_dict()
                                              for k, v in self.differences.items()})

    def __repr__(self) -> str:
        # short: each difference's estimate and p-value, never the replicates
        shown = ", ".join(f"{m}={d.estimate:.4g} ({p_text(d.p_value, d.p_is_bound)})"
                          for m, d in self.differences.items())
        return f"Comparison({self.model_a!r} - {self.model_b!r}: {shown})"

    def _repr_html_(self) -> str:
        from ..results.html_tables import differences_table
        kind = "paired" if self.paired else "unpaired"
        return differences_table(self.differences, caption=(
            f"{self.model_a} (a) vs {self.model_b} (b), {kind}"
            + (f", {self.n_boot:,} bootstrap replicates" if self.n_boot else "")))

    def __str__(self) -> str:
        kind = "paired" if self.paired else "unpaired"
        lines = [f"{self.model_a} vs {self.model_b} ({kind}"
                 + (f", {self.n_boot} bootstrap replicates)" if self.n_boot else ")")]
        lines += [f"  {d.text(str(self.model_a), str(self.model_b))}"
                  for d in self.differences.values()]
        return "\n".join(lines)


@dataclass(frozen=True)
class Comparisons:
    """Every pair of several models: ``result["a", "b"]`` is a ``Comparison``.

    Attributes
    ----------
    models : tuple of str
        The models, in the order given.
    pairs : Mapping[tuple[str, str], Comparison]
        ``(a, b)`` for every ``a`` listed before ``b``.
    correction : str or None
        ``"holm"``: each metric's p-values adjusted over all pairs (Holm's step-down;
        the intervals are not adjusted).

    Examples
    --------
    >>> import indist_fast
    >>> y = [0, 1, 1, 0, 1, 0]
    >>> models = {"x": [0.1, 0.8, 0.6, 0.3, 0.7, 0.2], "y": [.2, .7, .3, .1, .6, .5],
    ...           "z": [.3, .9, .2, .4, .8, .1]}
    >>> c = indist_fast.compare(y, models, metrics="auc", correction="holm")
    >>> list(c)
    [('x', 'y'), ('x', 'z'), ('y', 'z')]
    """

    models: tuple[str, ...]
    pairs: Mapping[tuple[str, str], Comparison]
    correction: str | None

    def __getitem__(self, pair: tuple[str, str]) -> Comparison:
        try:
            return self.pairs[pair]
        except (KeyError, TypeError):
            raise KeyError(f"no pair {pair!r}; pairs are "
                           f"{', '.join(repr(p) for p in self.pairs)} (first listed first)."
                           ) from None

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)

    def __contains__(self, pair: object) -> bool:
        return pair in self.pairs

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types, without the replicates.

        Returns
        -------
        dict
            ``models``, ``correction`` and ``pairs``, keyed ``"a vs b"``.

        Examples
        --------
        >>> import indist_fast
        >>> y = [0, 1, 1, 0, 1, 0]
        >>> m = {"x": [0.1, 0.8, 0.6, 0.3, 0.7, 0.2], "y": [.2, .7, .3, .1, .6, .5]}
        >>> list(indist_fast.compare(y, m, metrics="auc").to_dict()["pairs"])
        ['x vs y']
        """
        return record_dict(self, pairs={f"{a} vs {b}": c.to_dict()
                                        for (a, b), c in self.pairs.items()})

    def __repr__(self) -> str:
        n = len(self.pairs)
        return (f"Comparisons(models={list(self.models)}, {n} pair{'s' * (n != 1)}, "
                f"correction={self.correction!r})")

    def _repr_html_(self) -> str:
        return "".join(c._repr_html_() for c in self.pairs.values())

    def __str__(self) -> str:
        n = len(self.pairs)
        head = f"{len(self.models)} models, {n} pair{'s' * (n != 1)}" + (
            f", p-values {self.correction}-adjusted per metric" if self.correction else "")
        return "\n".join([head] + [str(c) for c in self.pairs.values()])
