"""The nine example data sets of the indistinguishability paper (Sumpter, "Precision at the
indistinguishability threshold", Figs 2-6; the documentation's home page shows them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ._core.validation import make_rng

if TYPE_CHECKING:
    from .population import Mixture

__all__ = ["nine_datasets", "nine_samples", "nine_populations", "NINE_LAYOUT"]

# name -> (mean of the difficult negatives, number of easy negatives)
NINE_LAYOUT: dict[str, tuple[float, int]] = {
    name: (mean, n_easy)
    for row, n_easy in zip(("abc", "def", "ghi"), (100, 1000, 10_000))
    for name, mean in zip(row, (5.0, 7.0, 9.0))
}

_N_POS = 1000
_N_DIFFICULT = 1000
_SD = 2.0


def _logistic_fit(x: np.ndarray, y: np.ndarray, n_iter: int = 50) -> tuple[float, float]:
    """Intercept and slope of a logistic regression of y on x (Newton-Raphson).

    Standardising x first keeps the Hessian well conditioned for every data set here.
    """
    mu, sd = x.mean(), x.std()
    z = (x - mu) / sd
    design = np.column_stack((np.ones_like(z), z))
    beta = np.zeros(2)
    for _ in range(n_iter):
        eta = design @ beta
        p = 1.0 / (1.0 + np.exp(-eta))
        grad = design.T @ (y - p)
        hess = (design * (p * (1 - p))[:, None]).T @ design
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.max(np.abs(step)) < 1e-12:
            break
    slope = beta[1] / sd
    return float(beta[0] - slope * mu), float(slope)


def nine_datasets(seed: Any = 0) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The paper's nine example sets: ``{"a": (y, score), ..., "i": (y, score)}``.

    Positives: 1000 draws of N(10, 2). Difficult negatives: 1000 draws of N(m, 2),
    m = 5, 7, 9 for columns a/d/g, b/e/h, c/f/i. Easy negatives N(2, 2): 100 for
    a, b, c; 1000 for d, e, f; 10000 for g, h, i (the definitions page, "Misprints in the sources", fixes the order the paper
    misprints). The second parameter is the standard deviation. The score is the
    linear predictor (log-odds) of a logistic regression of the label on X, fitted
    here in NumPy.

    Parameters
    ----------
    seed : int, sequence of ints, SeedSequence or Generator, default=0
        Seed of the NumPy generator; the same seed gives the same nine sets (a
        ``Generator`` is used as is).

    Returns
    -------
    dict of str to (ndarray of int8, ndarray of float64)
        Labels (1 = positive) and scores, positives first.

    Examples
    --------
    >>> from indist_fast.datasets import nine_datasets
    >>> sets = nine_datasets()
    >>> sorted(sets), len(sets["g"][0])
    (['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'], 12000)
    """
    return {name: (y, intercept + slope * x)
            for name, (y, x, intercept, slope) in nine_samples(seed).items()}


def nine_samples(seed: Any = 0) -> dict[str, tuple[np.ndarray, np.ndarray, float, float]]:
    """The nine sets before scoring: ``{name: (y, x, intercept, slope)}``.

    ``nine_datasets`` scores each set as ``intercept + slope * x`` (the fitted
    logistic regression's log-odds); the paper's figures need ``x`` and the fit to
    place a population threshold in X on the score axis.

    Parameters
    ----------
    seed : int, sequence of ints, SeedSequence or Generator, default=0
        As in ``nine_datasets`` (the same seed gives the same sets).

    Returns
    -------
    dict of str to (ndarray of int8, ndarray of float64, float, float)
        Labels (positives first), the X values, and the fit's intercept and slope.

    Examples
    --------
    >>> from indist_fast.datasets import nine_datasets, nine_samples
    >>> y, x, intercept, slope = nine_samples()["a"]
    >>> bool((intercept + slope * x == nine_datasets()["a"][1]).all()), slope > 0
    (True, True)
    """
    rng = make_rng(seed)
    out = {}
    for name, (mean, n_easy) in NINE_LAYOUT.items():
        x = np.concatenate((rng.normal(10.0, _SD, _N_POS),
                            rng.normal(mean, _SD, _N_DIFFICULT),
                            rng.normal(2.0, _SD, n_easy)))
        y = np.zeros(len(x), dtype=np.int8)
        y[:_N_POS] = 1
        intercept, slope = _logistic_fit(x, y.astype(np.float64))
        out[name] = (y, x, intercept, slope)
    return out


def nine_populations() -> dict[str, "Mixture"]:
    """The nine sets' populations in X: ``{"a": Mixture, ..., "i": Mixture}``.

    Sumpter's recipe ("Precision at the indistinguishability threshold", the nine
    example sets) as normal mixtures with the sets' counts as weights: positives
    1000 x N(10, 2); negatives 1000 x N(m, 2) (m = 5, 7, 9 by column) plus 100,
    1000 or 10000 x N(2, 2) (by row). The paper's score is an increasing affine map
    of X (a logistic regression's log-odds), so A, B, C(r) and C(r_b) are the same
    in X; only thresholds differ (map them with the fit of ``nine_samples``).

    Returns
    -------
    dict of str to Mixture
        One population per set, keyed ``"a"`` to ``"i"`` like ``nine_datasets``.

    Examples
    --------
    >>> from indist_fast.datasets import nine_populations
    >>> pops = nine_populations()
    >>> round(pops["i"].auc, 3), round(pops["a"].precision_at_indistinguishability(), 3)
    (0.965, 0.874)
    """
    from .population import Mixture
    return {name: Mixture([(_N_POS, 10.0, _SD)], [(_N_DIFFICULT, mean, _SD), (n_easy, 2.0, _SD)])
            for name, (mean, n_easy) in NINE_LAYOUT.items()}
