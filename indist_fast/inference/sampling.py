"""Sumpter's pair-sampling estimators of A and B ("Precision at the indistinguishability
threshold", section 1; definitions page, "Pair-sampling estimators").

Monte Carlo counterparts of the exact values: draw comparisons, count the share the
positive wins (ties one half), report it with its binomial standard error. They exist
to reproduce the paper's procedure and to check the exact computation; the exact
values (``indist_fast.evaluate``) are cheaper and have no sampling error.

Seeded by default (``seed=0``): the same call gives the same estimate. Draws are made
in about 32 pieces so that a progress bar moves; the pieces read the generator's stream
in order, so the draws are those of one call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.progress import Bar, progress_bar
from .._core.validation import Rows, check_count, check_flag, check_real, make_rng, prepare_rows
from .._core.validation import check_two_classes
from .bootstrap import PROGRESS_STEPS, check_progress
from ..results.report import record_dict
from ..table.score_table import ScoreTable

__all__ = ["sample_auc", "sample_b", "sample_b_curve", "PairEstimate", "PairCurve"]


@dataclass(frozen=True)
class PairEstimate:
    """Share of sampled comparisons the positive wins.

    Attributes
    ----------
    estimate : float
        Wins over comparisons, ties counted one half.
    std_error : float
        Binomial standard error ``sqrt(estimate (1 - estimate) / n_pairs)``.
    n_pairs : int
        Comparisons drawn.

    Examples
    --------
    >>> from indist_fast.inference.sampling import sample_auc
    >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
    >>> e = sample_auc(y, s, 1000, seed=0)
    >>> e.n_pairs, 0 <= e.estimate <= 1
    (1000, True)
    """

    estimate: float
    std_error: float
    n_pairs: int

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types.

        Returns
        -------
        dict
            Field name to Python number.

        Examples
        --------
        >>> from indist_fast.inference.sampling import sample_auc
        >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
        >>> sorted(sample_auc(y, s, 100, seed=0).to_dict())
        ['estimate', 'n_pairs', 'std_error']
        """
        return record_dict(self)


@dataclass(frozen=True, eq=False)
class PairCurve:
    """``sample_b`` at many thresholds: arrays of shape (n_thresholds,).

    Attributes
    ----------
    thresholds : ndarray of float64
        The thresholds asked for.
    estimate, std_error : ndarray of float64
        The estimate of B and its binomial standard error at each threshold.
    n_pairs : int
        Comparisons drawn at each threshold.

    Examples
    --------
    >>> from indist_fast.inference.sampling import sample_b_curve
    >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
    >>> curve = sample_b_curve(y, s, [0.8, 0.6], 500, seed=0)
    >>> float(curve.estimate[0])    # the top positive never beats itself: B is 0 there
    0.0
    """

    thresholds: np.ndarray
    estimate: np.ndarray
    std_error: np.ndarray
    n_pairs: int


# Each comparison holds two row indices, two scores and its outcome (about 40 bytes),
# so the ceiling keeps one call under half a gigabyte; average several seeded calls
# for more.
MAX_PAIRS = 10**7
# Fewest draws per piece: a piece of weighted draws costs a pass over the members (the
# probabilities' sum and cumulative sum), next to which this many draws dominate.
_MIN_PIECE = 1 << 18


def _check_n_pairs(n_pairs: Any) -> int:
    return check_count(n_pairs, "n_pairs", minimum=1, maximum=MAX_PAIRS)


def _estimate(wins: np.ndarray) -> PairEstimate:
    p = float(wins.mean())
    return PairEstimate(p, math.sqrt(p * (1.0 - p) / len(wins)), len(wins))


def _wins(s_pos: np.ndarray, s_other: np.ndarray) -> np.ndarray:
    wins: np.ndarray = (s_pos > s_other) + 0.5 * (s_pos == s_other)
    return wins


class _Rows:
    """Kept rows (weight > 0) as float64 scores, class mask and sampling weights."""

    def __init__(self, rows: Rows) -> None:
        # The score table's pass is the library's one row check (NaN scores, a third
        # label, bad weights, with the kernels' messages on either backend); it also
        # gives the class totals the two-class check needs. The draws themselves need
        # the rows: a comparison of a row with itself is discarded by row identity.
        table = ScoreTable.from_rows(rows)
        check_two_classes(table.weight_pos, table.weight_neg)
        keep = slice(None) if rows.w is None else rows.w > 0
        self.s = rows.s[keep].astype(np.float64)
        self.is_pos = rows.y[keep] == rows.pos_value
        self.w = None if rows.w is None else rows.w[keep]

    def draw(self, rng: np.random.Generator, members: np.ndarray, size: int,
             bar: Bar | None = None) -> np.ndarray:
        """Row indices from ``members``, weights as sampling probabilities; in pieces
        that advance ``bar``, the same draws as one call."""
        p = None if self.w is None else self.w[members] / self.w[members].sum()
        step = max(_MIN_PIECE, -(-size // PROGRESS_STEPS))
        pieces = [np.empty(0, dtype=np.int64)]
        for a in range(0, size, step):
            k = min(step, size - a)
            pieces.append(rng.integers(0, len(members), k) if p is None
                          else rng.choice(len(members), size=k, p=p))
            if bar is not None:
                bar.update(k)
        return members[pieces[-1] if len(pieces) == 2 else np.concatenate(pieces)]


def sample_auc(y_true: Any, y_score: Any, n_pairs: int, *, seed: Any = 0,
               sample_weight: Any = None, pos_label: Any = None,
               progress: bool | None = None) -> PairEstimate:
    """Estimate A by comparing ``n_pairs`` random (positive, negative) pairs.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite weights, used as sampling probabilities.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    n_pairs : int
        Comparisons to draw.
    seed : int, sequence of int, numpy SeedSequence/Generator or None, default=0
        Seed of ``numpy.random.default_rng``: the same call gives the same estimate. A
        ``Generator`` is used as is (its state advances). None draws fresh entropy
        from the OS.
    progress : bool or None, default=None
        A progress bar over the draws (tqdm, on stderr). None: shown when stderr is a
        terminal or in Jupyter (``INDIST_FAST_PROGRESS=0`` turns that off); True
        always; False never.

    Returns
    -------
    PairEstimate

    Examples
    --------
    >>> import indist_fast
    >>> e = indist_fast.inference.sampling.sample_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], 4000, seed=0)
    >>> abs(e.estimate - 0.75) < 4 * e.std_error
    True
    """
    n = _check_n_pairs(n_pairs)
    progress = check_progress(progress)
    rng = make_rng(seed)
    data = _Rows(prepare_rows(y_true, y_score, sample_weight, pos_label))
    with progress_bar(progress, 2 * n, "sampling", "draw", unit_scale=True) as bar:
        p = data.draw(rng, np.flatnonzero(data.is_pos), n, bar)
        q = data.draw(rng, np.flatnonzero(~data.is_pos), n, bar)
    return _estimate(_wins(data.s[p], data.s[q]))


# Fewest comparisons, in share, that must pair two different rows. Discarded draws are
# drawn again, so each comparison costs 1 / share draws on average and the loop runs
# about log(n_pairs) / share rounds: at 1% that is 100 draws a comparison and a few
# thousand rounds at most. Weights that concentrate the draws further (one row holding
# nearly all the positive and the labelled weight) would make the loop run for ever.
MIN_DISTINCT_SHARE = 0.01


def _check_distinct_share(data: _Rows, positives: np.ndarray, labelled: np.ndarray,
                          threshold: float) -> None:
    """Refuse sampling weights under which almost every draw pairs a row with itself."""
    w = np.ones(len(data.s)) if data.w is None else data.w
    both = positives[data.s[positives] >= threshold]          # a positive, labelled too
    same = float(np.sum((w[both] / w[positives].sum()) * (w[both] / w[labelled].sum())))
    if 1.0 - same < MIN_DISTINCT_SHARE:
        raise ValueError(
            f"sample_weight concentrates the draws at threshold={threshold!r} on one row: "
            f"only {max(1.0 - same, 0.0):.3g} of comparisons would pair two different "
            f"rows (at least {MIN_DISTINCT_SHARE:g} needed), so discarding self-pairs "
            "could not finish. Compute B exactly with indist_fast.curves instead.")


def _sample_b(data: _Rows, threshold: float, n: int, replace: bool,
              rng: np.random.Generator, bar: Bar) -> PairEstimate:
    positives = np.flatnonzero(data.is_pos)
    labelled = np.flatnonzero(data.s >= threshold)
    if len(labelled) == 0:
        raise ValueError(f"threshold={threshold!r} labels no row positive: B is undefined.")
    n_self = int(np.count_nonzero(data.is_pos[labelled]))
    if len(positives) * len(labelled) - n_self < 1:
        raise ValueError(f"threshold={threshold!r}: the only comparison pairs a row with "
                         "itself, so B is undefined.")
    if replace:
        _check_distinct_share(data, positives, labelled, threshold)
        p, r = data.draw(rng, positives, n, bar), data.draw(rng, labelled, n, bar)
        same = np.flatnonzero(p == r)
        while len(same):                  # a row against itself: discard, draw again
            p[same] = data.draw(rng, positives, len(same))
            r[same] = data.draw(rng, labelled, len(same))
            same = same[p[same] == r[same]]
        return _estimate(_wins(data.s[p], data.s[r]))
    if data.w is not None:
        raise ValueError("sample_weight needs replace=True: without replacement every "
                         "pair of rows is drawn at most once, with equal chance.")
    grid = len(positives) * len(labelled)
    if n > grid - n_self:
        raise ValueError(f"n_pairs={n} exceeds the {grid - n_self} distinct pairs at "
                         f"threshold={threshold!r}; use replace=True.")
    # Distinct cells of the positives x labelled grid; at most n_self are a row
    # against itself, so n + n_self cells always leave n valid pairs.
    cells = rng.choice(grid, size=min(grid, n + n_self), replace=False)
    bar.update(2 * n)                         # (one call: no piece to show)
    p, r = positives[cells // len(labelled)], labelled[cells % len(labelled)]
    valid = p != r
    return _estimate(_wins(data.s[p[valid][:n]], data.s[r[valid][:n]]))


def sample_b(y_true: Any, y_score: Any, threshold: float, n_pairs: int, *,
             replace: bool = True, seed: Any = 0, sample_weight: Any = None,
             pos_label: Any = None, progress: bool | None = None) -> PairEstimate:
    """Estimate B at ``threshold``: a random positive against a random labelled row.

    The labelled set holds the rows with ``score >= threshold``. A draw of the same
    row on both sides is discarded and drawn again, so without weights the estimate
    targets ``B`` with ``exclude_self=True``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite weights, used as sampling probabilities.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    threshold : float
        Rows scoring at least this are labelled positive.
    n_pairs : int
        Comparisons to draw.
    replace : bool, default=True
        Draw comparisons independently; False draws distinct (positive, labelled)
        pairs (without weights only).
    seed : int, sequence of int, numpy SeedSequence/Generator or None, default=0
        Seed of ``numpy.random.default_rng``: the same call gives the same estimate. A
        ``Generator`` is used as is (its state advances). None draws fresh entropy
        from the OS.
    progress : bool or None, default=None
        A progress bar over the draws (tqdm, on stderr). None: shown when stderr is a
        terminal or in Jupyter (``INDIST_FAST_PROGRESS=0`` turns that off); True
        always; False never.

    Returns
    -------
    PairEstimate
        The share of comparisons the positive wins, with its standard error.

    Raises
    ------
    ValueError
        Besides bad rows: when the threshold labels nothing, when no pair of two
        different rows exists, or when the weights leave under 1% of draws pairing two
        different rows (redrawing the self-pairs could not finish).

    Examples
    --------
    >>> import indist_fast
    >>> from indist_fast.inference.sampling import sample_b
    >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
    >>> exact = indist_fast.curves(y, s).b[3]    # B at threshold 0.3
    >>> e = sample_b(y, s, 0.3, 20000, seed=0)
    >>> float(exact), bool(abs(e.estimate - exact) < 4 * e.std_error)
    (0.5, True)
    """
    n = _check_n_pairs(n_pairs)
    t = check_real(threshold, "threshold", finite=False)
    replace = check_flag(replace, "replace")
    progress = check_progress(progress)
    rng = make_rng(seed)
    data = _Rows(prepare_rows(y_true, y_score, sample_weight, pos_label))
    with progress_bar(progress, 2 * n, "sampling", "draw", unit_scale=True) as bar:
        return _sample_b(data, t, n, replace, rng, bar)


def _check_thresholds(thresholds: Any) -> np.ndarray:
    # dtype=object keeps ragged or mixed input as it came, so each entry is checked
    # by the same rule as sample_b's threshold.
    arr = thresholds if isinstance(thresholds, np.ndarray) else np.asarray(thresholds,
                                                                           dtype=object)
    if arr.ndim != 1:
        raise ValueError(f"thresholds should be a 1d array, got an array of shape "
                         f"{arr.shape} instead.")
    return np.array([check_real(x, "thresholds", finite=False, kind="hold real numbers")
                     for x in arr.tolist()], dtype=np.float64)


def sample_b_curve(y_true: Any, y_score: Any, thresholds: Any, n_pairs: int, *,
                   replace: bool = True, seed: Any = 0, sample_weight: Any = None,
                   pos_label: Any = None, progress: bool | None = None) -> PairCurve:
    """``sample_b`` at every threshold (one generator for the whole curve).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite weights, used as sampling probabilities.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    n_pairs : int
        Comparisons to draw at each threshold.
    replace : bool, default=True
        Draw comparisons independently; False draws distinct (positive, labelled)
        pairs (without weights only).
    seed : int, sequence of int, numpy SeedSequence/Generator or None, default=0
        Seed of ``numpy.random.default_rng``: the same call gives the same estimate. A
        ``Generator`` is used as is (its state advances). None draws fresh entropy
        from the OS.
    progress : bool or None, default=None
        A progress bar over the draws (tqdm, on stderr). None: shown when stderr is a
        terminal or in Jupyter (``INDIST_FAST_PROGRESS=0`` turns that off); True
        always; False never.
    thresholds : 1d sequence of float
        The thresholds, each checked as ``sample_b``'s.

    Returns
    -------
    PairCurve
        The estimates and standard errors, one per threshold.

    Examples
    --------
    >>> from indist_fast.inference.sampling import sample_b_curve
    >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
    >>> c = sample_b_curve(y, s, [0.8, 0.3], 1000, seed=0)
    >>> c.thresholds.tolist(), c.estimate.shape, c.n_pairs
    ([0.8, 0.3], (2,), 1000)
    """
    n = _check_n_pairs(n_pairs)
    t = _check_thresholds(thresholds)
    replace = check_flag(replace, "replace")
    progress = check_progress(progress)
    rng = make_rng(seed)
    data = _Rows(prepare_rows(y_true, y_score, sample_weight, pos_label))
    with progress_bar(progress, 2 * n * len(t), "sampling", "draw", unit_scale=True) as bar:
        est = [_sample_b(data, float(x), n, replace, rng, bar) for x in t]
    return PairCurve(t, np.array([e.estimate for e in est]),
                     np.array([e.std_error for e in est]), n)
