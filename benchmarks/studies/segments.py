"""Per-segment and several-model evaluation (``evaluate_many``) as ratios in one run.

    python benchmarks/studies/segments.py [--repeat 5] [--groupby-segments 1000]

Each ratio is the median of ``--repeat`` paired runs (both sides timed back to back),
so it holds up on a noisy shared machine. Rows (targets in brackets):

- ``1e7 rows, 1e4 segments``: ``evaluate_many`` over ``np.sort`` of the scores [<= 1.5];
- ``1e5 segments of 100 rows``: a pandas groupby calling scikit-learn's
  ``roc_auc_score`` per segment over ``evaluate_many`` [>= 300], and ``evaluate`` called
  per segment over ``evaluate_many`` [>= 30]. Both loops are timed on the first
  ``--groupby-segments`` segments and scaled to all of them (they are linear in the
  number of segments; the full loops take minutes);
- ``4 models x 1e7 rows``: ``evaluate_many`` with four score columns over one
  ``evaluate`` [<= 4];
- ``weighted 1e7 rows, 10 segments``: ``evaluate_many`` over one weighted ``evaluate``
  of the same rows (no target).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import indist_fast


def paired(fn_a, fn_b, repeat: int) -> tuple[float, float, float]:
    """Median of a/b over paired runs, and the medians of each."""
    ta, tb = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn_a()
        t1 = time.perf_counter()
        fn_b()
        t2 = time.perf_counter()
        ta.append(t1 - t0)
        tb.append(t2 - t1)
    ratios = np.array(ta) / np.array(tb)
    return float(np.median(ratios)), float(np.median(ta)), float(np.median(tb))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--groupby-segments", type=int, default=1000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    warnings.simplefilter("ignore", indist_fast.IndistFastWarning)
    print(f"indist_fast {indist_fast.__version__}, backend {indist_fast.backend()}")
    print(f"{'task':>44} {'indist_fast s':>14} {'baseline s':>11} {'ratio':>8} target")

    def row(task: str, ours: float, base: float, ratio: float, target: str) -> None:
        print(f"{task:>44} {ours:>14.4f} {base:>11.4f} {ratio:>8.2f} {target}")

    n = 10**7
    y = rng.integers(0, 2, n).astype(bool)
    s = rng.normal(y * 0.7, 1.0)
    groups = rng.integers(0, 10**4, n)
    ratio, ours, base = paired(lambda: indist_fast.evaluate_many(y, s, groups=groups),
                               lambda: np.sort(s), args.repeat)
    row("1e7 rows, 1e4 segments / np.sort", ours, base, ratio, "<= 1.5")

    models = {f"m{k}": rng.normal(y * (0.3 + 0.2 * k), 1.0) for k in range(4)}
    ratio, ours, base = paired(lambda: indist_fast.evaluate_many(y, models),
                               lambda: indist_fast.evaluate(y, s), args.repeat)
    row("4 models x 1e7 rows / one evaluate", ours, base, ratio, "<= 4")
    del models

    w = rng.random(n)
    ten = groups % 10
    ratio, ours, base = paired(lambda: indist_fast.evaluate_many(y, s, groups=ten,
                                                                 sample_weight=w),
                               lambda: indist_fast.evaluate(y, s, sample_weight=w),
                               args.repeat)
    row("weighted 1e7 rows, 10 segments / evaluate", ours, base, ratio, "")
    del groups, ten, w

    import pandas as pd
    from sklearn.metrics import roc_auc_score
    n_seg, size = 10**5, 100
    y = rng.integers(0, 2, n_seg * size).astype(bool)
    s = rng.normal(y * 0.7, 1.0)
    groups = np.repeat(np.arange(n_seg), size)
    ours = min(_timed(lambda: indist_fast.evaluate_many(y, s, groups=groups))
               for _ in range(args.repeat))
    k = args.groupby_segments
    frame = pd.DataFrame({"y": y[:k * size], "s": s[:k * size], "g": groups[:k * size]})
    t_pandas = _timed(lambda: frame.groupby("g").apply(
        lambda d: roc_auc_score(d["y"], d["s"]), include_groups=False)) * n_seg / k
    t_loop = _timed(lambda: [indist_fast.evaluate(y[g * size:(g + 1) * size],
                                                  s[g * size:(g + 1) * size])
                             for g in range(k)]) * n_seg / k
    row("1e5 x 100 rows: pandas groupby + sklearn", ours, t_pandas, t_pandas / ours, ">= 300")
    row("1e5 x 100 rows: evaluate per segment", ours, t_loop, t_loop / ours, ">= 30")


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
