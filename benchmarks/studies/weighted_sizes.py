"""Weighted ``evaluate`` across sizes, as ratios to ``np.sort`` in paired runs, and how
often the two-piece sweep fell back to sweeping again in one piece (the lower piece
ending an ulp off W_P):

    python benchmarks/studies/weighted_sizes.py [SIZES ...]   [REP=7] [SEEDS=6]

Sizes default to 1e6 2e6 3e6 5e6 1e7 (ratios) and 4e5 1e6 2e6 3e6 5e6 (fallbacks, seeds
0..SEEDS-1, uniform weights, 10% positives). Run from outside the checkout.
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _inputs import make  # noqa: E402
from _timing import paired_ratio  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast._core import threads


def main() -> None:
    sizes = [int(float(a)) for a in sys.argv[1:]]
    reps = int(os.environ.get("REP", "7"))
    seeds = int(os.environ.get("SEEDS", "6"))
    for n in sizes or [10**6, 2 * 10**6, 3 * 10**6, 5 * 10**6, 10**7]:
        y, s, w = make(n, "weighted")
        r, base, t = paired_ratio(lambda: np.sort(s),
                                  lambda: indist_fast.evaluate(y, s, sample_weight=w), reps)
        print(f"n={n:.0e} weighted: {r:.2f}x np.sort ({t * 1e3:.1f} ms vs {base * 1e3:.1f} ms)",
              flush=True)
    outcomes: list[object] = []
    two_pieces = threads._two_pieces
    threads._two_pieces = lambda *a, **k: outcomes.append(two_pieces(*a, **k)) or outcomes[-1]
    try:
        for n in sizes or [4 * 10**5, 10**6, 2 * 10**6, 3 * 10**6, 5 * 10**6]:
            for seed in range(seeds):
                rng = np.random.default_rng(seed)
                y = rng.random(n) < 0.1
                indist_fast.evaluate(y, rng.normal(size=n) + 1.5 * y,
                                     sample_weight=rng.random(n))
    finally:
        threads._two_pieces = two_pieces
    fell_back = sum(o is None for o in outcomes)
    print(f"two-piece sweeps swept again in one piece: {fell_back} of {len(outcomes)}")


if __name__ == "__main__":
    main()
