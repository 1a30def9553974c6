"""Ratio table: indist_fast against np.sort of the same scores and scikit-learn.

    python benchmarks/compare.py [--sizes 1e3 1e5 1e7] [--repeat 5]

Every figure is a ratio of times measured in this one run (best of ``--repeat``), so
the table holds up on a noisy shared machine. Columns:

- ``evaluate / sort``: ``indist_fast.evaluate`` over ``np.sort(scores)`` (targets at
  1e7: <= 1.2 unweighted, <= 2.5 weighted);
- ``sklearn / evaluate``: scikit-learn's ``roc_auc_score`` over ``evaluate`` (>= 30);
- ``sklearn / roc_auc``: ``roc_auc_score`` over ``indist_fast.roc_auc`` (>= 20 at 1e3);
- ``extra mem / input``: peak memory ``evaluate`` allocates (tracemalloc, which sees
  NumPy's buffers) over the bytes of its inputs (<= 2).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _inputs import VARIANTS, make  # noqa: E402

import indist_fast  # noqa: E402


def best_time(fn, repeat: int, budget: float = 20.0) -> float:
    """Best wall time of ``repeat`` calls (fewer when one call eats the budget)."""
    best, spent = np.inf, 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        best, spent = min(best, dt), spent + dt
        if spent > budget:
            break
    return best


def peak_extra_bytes(fn) -> int:
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak - base


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e3, 1e5, 1e7])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-sklearn", action="store_true")
    args = parser.parse_args()
    roc_auc_score = None
    if not args.no_sklearn:
        from sklearn.metrics import roc_auc_score
    warnings.simplefilter("ignore", indist_fast.IndistFastWarning)

    print(f"indist_fast {indist_fast.__version__}, backend {indist_fast.backend()}, "
          f"numpy {np.__version__}, {os.cpu_count()} cpus")
    header = (f"{'n':>10} {'variant':>10} {'sort ms':>9} {'evaluate ms':>11} "
              f"{'evaluate/sort':>13} {'sklearn/evaluate':>16} {'sklearn/roc_auc':>15} "
              f"{'extra mem/input':>15}")
    print(header)
    print("-" * len(header))
    for n in (int(v) for v in args.sizes):
        for variant in VARIANTS:
            y, s, w = make(n, variant)
            repeat = args.repeat if n < 10**7 else max(3, args.repeat // 2)
            t_sort = best_time(lambda: np.sort(s), repeat)
            t_eval = best_time(lambda: indist_fast.evaluate(y, s, sample_weight=w), repeat)
            t_auc = best_time(lambda: indist_fast.roc_auc(y, s, sample_weight=w), repeat)
            if roc_auc_score is not None:
                t_skl = best_time(lambda: roc_auc_score(y, s, sample_weight=w),
                                  repeat if n < 10**7 else 1)
                skl_eval, skl_auc = f"{t_skl / t_eval:16.1f}", f"{t_skl / t_auc:15.1f}"
            else:
                skl_eval, skl_auc = f"{'-':>16}", f"{'-':>15}"
            in_bytes = y.nbytes + s.nbytes + (0 if w is None else w.nbytes)
            mem = peak_extra_bytes(lambda: indist_fast.evaluate(y, s, sample_weight=w))
            print(f"{n:>10,} {variant:>10} {t_sort * 1e3:9.2f} {t_eval * 1e3:11.2f} "
                  f"{t_eval / t_sort:13.2f} {skl_eval} {skl_auc} {mem / in_bytes:15.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
