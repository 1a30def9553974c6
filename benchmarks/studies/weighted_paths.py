"""Weighted ``fast.summarize`` and ``fast.build_table`` by their two paths, paired in
one process, as ratios to ``np.sort`` of the same scores:

    python benchmarks/studies/weighted_paths.py 1e6 1e7       [REP=9]

``one pass``: rows written once into chained bucket blocks as (score, signed weight),
each bucket ordered and then swept or written as a table in cache
(``radix_fill_weighted``, ``radix_sweep_weighted_from``, ``radix_table_weighted``).
``keys``: a 64-bit key a row (truncated order bits, label, row index) in two pivot
pieces, each sorted whole (``scatter_keys``), which both take when the one-pass path
declines (a bad row, a class without weight, a total past the largest double) and
below ``WEIGHTED_RADIX_MIN_ROWS``. Each repeat times ``np.sort``, then both paths in
turn; the medians of the paired ratios are printed. Run from outside the checkout.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _inputs import make  # noqa: E402

from indist_fast._core import fast  # noqa: E402
from indist_fast._core import fast_radix


def timed(f) -> float:
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def main() -> None:
    reps = int(os.environ.get("REP", "9"))
    levels = np.array([0.5])
    one_pass = fast_radix._radix_weighted_summary
    buckets = fast_radix._weighted_buckets
    for size in sys.argv[1:] or ["1e7"]:
        n = int(float(size))
        y, s, w = make(n, "weighted")
        y = y.view(np.uint8)
        for task, run in (("summarize", lambda: fast.summarize(y, s, w, 1.0, 0.0, levels,
                                                                 True)),
                          ("build_table", lambda: fast.build_table(y, s, w, 1.0, 0.0))):
            ratios: dict[str, list[float]] = {"one pass": [], "keys": []}
            for _ in range(reps):
                base = timed(lambda: np.sort(s))
                for name in ratios:
                    if name == "keys":      # (as when the one pass declines the rows)
                        fast_radix._radix_weighted_summary = lambda *a, **k: None
                        fast_radix._weighted_buckets = lambda *a, **k: None
                    try:
                        took = timed(run)
                    finally:
                        fast_radix._radix_weighted_summary = one_pass
                        fast_radix._weighted_buckets = buckets
                    ratios[name].append(took / base)
            one, keys = (statistics.median(ratios[k]) for k in ("one pass", "keys"))
            print(f"n={n:.0e} weighted {task}: one pass {one:.3f}x, keys {keys:.3f}x "
                  f"np.sort (medians of {reps}); one pass / keys {one / keys:.3f}")


if __name__ == "__main__":
    main()
