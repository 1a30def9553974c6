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

A second table times the uncertainty tools at fixed sizes:

- ``bootstrap``: 1000 stratified replicates of AUC and C(r_b) at n = 1e5 against the
  naive loop (resample the rows, call ``roc_auc_score``; its per-replicate time is
  measured on ``--naive-reps`` replicates and scaled to 1000), target >= 50x;
- ``delong``: DeLong's variance at n = 1e6 over ``evaluate`` on the same data,
  target <= 3x;
- ``compare_methods``: every threshold choice method's expected loss at n = 1e7 over
  ``evaluate`` on the same data (scores are probabilities here), target <= 1.5x.
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
from indist_fast import threshold_choice  # noqa: E402


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
    parser.add_argument("--only", choices=("core", "uncertainty"), default=None)
    parser.add_argument("--naive-reps", type=int, default=30)
    args = parser.parse_args()
    roc_auc_score = None
    if not args.no_sklearn:
        from sklearn.metrics import roc_auc_score
    warnings.simplefilter("ignore", indist_fast.IndistFastWarning)

    print(f"indist_fast {indist_fast.__version__}, backend {indist_fast.backend()}, "
          f"numpy {np.__version__}, {os.cpu_count()} cpus")
    if args.only != "uncertainty":
        core_table(args, roc_auc_score)
    if args.only != "core":
        uncertainty_table(args, roc_auc_score)


def uncertainty_table(args, roc_auc_score) -> None:
    print()
    header = f"{'task':>42} {'indist_fast s':>13} {'baseline s':>10} {'ratio':>7}"
    print(header)
    print("-" * len(header))
    y, s, _ = make(100_000, "continuous")
    t_boot = best_time(lambda: indist_fast.bootstrap(
        y, s, n_boot=1000, seed=0, metrics=("auc", "precision")), max(1, args.repeat // 2))
    if roc_auc_score is not None:
        rng = np.random.default_rng(0)
        pos, neg = np.flatnonzero(y), np.flatnonzero(~y)

        def naive_replicate():
            idx = np.concatenate((rng.choice(pos, len(pos)), rng.choice(neg, len(neg))))
            roc_auc_score(y[idx], s[idx])

        t0 = time.perf_counter()
        for _ in range(args.naive_reps):
            naive_replicate()
        t_naive = (time.perf_counter() - t0) / args.naive_reps * 1000
        print(f"{'bootstrap 1000 x (AUC, C(r_b)), n=1e5 / naive':>42} {t_boot:13.3f} "
              f"{t_naive:10.2f} {t_naive / t_boot:6.1f}x", flush=True)
    y, s, _ = make(1_000_000, "continuous")
    t_delong = best_time(lambda: indist_fast.delong(y, s), args.repeat)
    t_eval = best_time(lambda: indist_fast.evaluate(y, s), args.repeat)
    print(f"{'delong n=1e6 / evaluate n=1e6':>42} {t_delong:13.4f} {t_eval:10.4f} "
          f"{t_delong / t_eval:6.2f}x", flush=True)
    y, s, _ = make(10_000_000, "continuous")
    p = 1.0 / (1.0 + np.exp(-s))                   # probabilities, for score methods
    t_cmp = best_time(lambda: threshold_choice.compare_methods(y, p), 3)
    t_eval = best_time(lambda: indist_fast.evaluate(y, p), 3)
    print(f"{'compare_methods n=1e7 / evaluate n=1e7':>42} {t_cmp:13.4f} {t_eval:10.4f} "
          f"{t_cmp / t_eval:6.2f}x", flush=True)


def core_table(args, roc_auc_score) -> None:
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
