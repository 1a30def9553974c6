"""What do the scorecard figures cost against the sort they rest on, and against the
usual ways of computing them?

    python benchmarks/studies/scorecards.py --sizes 1e5 1e6 [--repeat 5]

Run from outside the checkout (``PYTHONPATH=<checkout>`` for an in-place build). For
each size: labels at a 15% base rate, scores rounded to three decimals (ties). Each
line is the median over ``--repeat`` paired runs of case / baseline:

- ``ks`` (statistic and asymptotic p-value) against ``np.sort`` of the same scores, and
  against ``scipy.stats.ks_2samp(method="asymp")`` on the two classes' scores;
- ``gains`` (deciles) against ``np.sort``, and against pandas (``qcut`` of the ranks
  then a ``groupby``; it splits ties, so its bins differ slightly);
- ``top_k`` (k = 10%) against ``np.sort``, and against ``np.argsort`` then a sum of the
  first k labels (which takes tied rows in an arbitrary order).

The numbers are checked to agree (KS to 1e-12) before any timing.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _timing import paired_ratio  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e5, 1e6])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    import pandas as pd
    from scipy.stats import ks_2samp

    import indist_fast
    for size in map(int, args.sizes):
        rng = np.random.default_rng(0)
        y = rng.random(size) < 0.15
        s = np.round(rng.normal(size=size) + 1.2 * y, 3)
        k = size // 10
        ours = indist_fast.ks(y, s, method="asymp")
        ref = ks_2samp(s[y], s[~y], method="asymp")
        assert abs(ours.statistic - ref.statistic) < 1e-12
        assert abs(ours.pvalue - ref.pvalue) <= 1e-9 * ref.pvalue + 1e-300

        def sort() -> object:
            return np.sort(s)

        def scipy_ks() -> object:
            return ks_2samp(s[y], s[~y], method="asymp")

        def pandas_gains() -> object:
            frame = pd.DataFrame({"y": y, "bin": pd.qcut(-s, 10, labels=False,
                                                         duplicates="drop")})
            return frame.groupby("bin")["y"].agg(["sum", "count"])

        def argsort_top() -> object:
            return y[np.argsort(-s, kind="stable")[:k]].sum()

        cases = [("ks", lambda: indist_fast.ks(y, s, method="asymp"), scipy_ks,
                  "scipy ks_2samp"),
                 ("gains", lambda: indist_fast.gains(y, s), pandas_gains, "pandas qcut"),
                 ("top_k", lambda: indist_fast.top_k(y, s, k), argsort_top, "np.argsort")]
        for name, fn, peer, peer_name in cases:
            to_sort = paired_ratio(sort, fn, args.repeat)[0]
            to_peer = paired_ratio(peer, fn, args.repeat)[0]
            print(f"n={size:>10,}  {name:6} / np.sort {to_sort:5.2f}   "
                  f"/ {peer_name} {to_peer:5.2f}")


if __name__ == "__main__":
    main()
