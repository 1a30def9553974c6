"""What does ``indist_fast.calibration`` cost against scikit-learn computing the same
numbers (``calibration_curve`` for each strategy, ``brier_score_loss``, ``log_loss``),
and against ``np.sort`` of the same probabilities?

    python benchmarks/studies/calibration_bench.py [--sizes 1e5 1e6 1e7] [--repeat 3]

One record holds both curves' worth of bins plus ECE, the Brier decomposition, the
slope fit and Hosmer-Lemeshow, so the scikit-learn side is timed as the four calls a
user would make for the curve, Brier score and log loss (no slope, no test). Ratios are
medians of paired runs (``_timing.paired_ratio``): the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _timing import paired_ratio  # noqa: E402

import indist_fast  # noqa: E402


def rows(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Labels drawn from the probabilities (calibrated by construction), rounded to six
    decimals as logged probabilities often are (ties)."""
    rng = np.random.default_rng(seed)
    p = np.round(rng.beta(2.0, 5.0, n), 6)
    return rng.random(n) < p, p


def main() -> None:
    from sklearn.calibration import calibration_curve
    from sklearn.metrics import brier_score_loss, log_loss
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e5, 1e6, 1e7])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print(f"backend {indist_fast.backend()}")
    for n in map(int, args.sizes):
        y, p = rows(n)

        def ours() -> None:
            indist_fast.calibration(y, p, strategy="uniform")
            indist_fast.calibration(y, p, strategy="quantile")

        def sklearn() -> None:
            calibration_curve(y, p, n_bins=10, strategy="uniform")
            calibration_curve(y, p, n_bins=10, strategy="quantile")
            brier_score_loss(y, p)
            log_loss(y, p)

        table = indist_fast.ScoreTable.from_arrays(y, p)
        cal = table.calibration(strategy="quantile")
        prob_true, _ = calibration_curve(y, p, n_bins=10, strategy="quantile")
        assert np.array_equal(cal.prob_true, prob_true)
        vs_sk, t_sk, t_ours = paired_ratio(sklearn, ours, args.repeat)
        vs_sort, t_sort, _ = paired_ratio(lambda: np.sort(p), ours, args.repeat)
        table_only, _, t_table = paired_ratio(
            lambda: np.sort(p), lambda: (table.calibration(), table.calibration(
                strategy="quantile")), args.repeat)
        print(f"{n:>12,} rows: both strategies {t_ours:7.3f} s = {vs_sk:5.2f} x "
              f"scikit-learn's four calls ({t_sk:6.3f} s), {vs_sort:5.2f} x np.sort; "
              f"from a table already built {table_only:6.3f} x np.sort "
              f"({len(table):,} distinct probabilities)")


if __name__ == "__main__":
    main()
