"""Ratio table: indist_fast against np.sort of the same scores and scikit-learn.

    python benchmarks/studies/compare.py [--sizes 1e3 1e5 1e7] [--repeat 5]
    python benchmarks/studies/compare.py --targets [--repeat 7] [--big --data-dir DIR] [--huge]

``--targets`` prints one row per performance target (case, target, the
measured ratio as the median of paired repeats, met or missed); ``--big`` adds 1e8
rows in memory and ``evaluate_file`` on a 1e8-row Parquet file (made once in
``--data-dir``: float32 score, uint8 label, row groups of 1e6), ``--huge`` 1e9 rows from
a memory-mapped ``.npy`` pair (about 9 GB on disk).

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

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _inputs import VARIANTS, make  # noqa: E402
from _timing import in_child, paired_ratio  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast.metrics import threshold_choice  # noqa: E402


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
    parser.add_argument("--targets", action="store_true",
                        help="the issue-16 targets table instead of the ratio tables")
    parser.add_argument("--big", action="store_true", help="--targets: 1e8 rows and Parquet")
    parser.add_argument("--huge", action="store_true", help="--targets: 1e9 rows (.npy)")
    parser.add_argument("--data-dir", default="/tmp", help="--targets: where data files go")
    args = parser.parse_args()
    roc_auc_score = None
    if not args.no_sklearn:
        from sklearn.metrics import roc_auc_score
    warnings.simplefilter("ignore", indist_fast.IndistFastWarning)

    print(f"indist_fast {indist_fast.__version__}, backend {indist_fast.backend()}, "
          f"numpy {np.__version__}, {os.cpu_count()} cpus")
    if args.targets:
        targets_table(args, roc_auc_score)
        return
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


def _row(case: str, target: str, ratio: float, met: bool, detail: str = "",
         unit: str = "x") -> None:
    print(f"{case:<46} {target:>9} {ratio:>9.2f}{unit:<1} {'met' if met else 'MISSED':>7}  "
          f"{detail}", flush=True)


def targets_table(args, roc_auc_score) -> None:
    """Every performance target, each a median over ``--repeat`` paired runs."""
    repeat = max(5, args.repeat)
    print(f"{'case':<46} {'target':>9} {'measured':>10} {'':>7}  (medians of {repeat} "
          "paired runs)")
    sizes = [10**5, 10**6, 10**7] + ([10**8] if args.big else [])
    for n in sizes:
        y, s, _ = make(n, "continuous")
        r, base, t = paired_ratio(lambda: np.sort(s), lambda: indist_fast.evaluate(y, s),
                                  repeat if n < 10**8 else 3)
        goal = 1.0 if n < 10**7 else 0.6
        _row(f"evaluate float64 / np.sort, n=1e{len(str(n)) - 1}", f"<= {goal:g}", r, r <= goal,
             f"{t * 1e3:.1f} ms vs {base * 1e3:.1f} ms")
    y, s, w = make(10**7, "weighted")
    r, base, t = paired_ratio(lambda: np.sort(s),
                              lambda: indist_fast.evaluate(y, s, sample_weight=w), repeat)
    _row("evaluate weighted / np.sort, n=1e7", "<= 1.3", r, r <= 1.3,
         f"{t * 1e3:.1f} ms vs {base * 1e3:.1f} ms")
    y, s, _ = make(10**7, "continuous")
    s32 = s.astype(np.float32)
    r, base, t = paired_ratio(lambda: np.sort(s32), lambda: indist_fast.evaluate(y, s32),
                              repeat)
    _row("evaluate float32 / np.sort float32, n=1e7", "<= 0.5", r, r <= 0.5,
         f"{t * 1e3:.1f} ms vs {base * 1e3:.1f} ms")
    y, s, _ = make(1000, "continuous")
    for name, fn, goal in (("roc_auc", indist_fast.roc_auc, 3.0),
                           ("evaluate", indist_fast.evaluate, 5.0)):
        r, base, t = paired_ratio(lambda: np.sort(s), lambda fn=fn: fn(y, s), repeat,
                                  inner=True)
        _row(f"{name} / np.sort, 1,000 rows", f"<= {goal:g}", r, r <= goal,
             f"{t * 1e6:.1f} us vs {base * 1e6:.1f} us")
    if roc_auc_score is not None:
        _bootstrap_row(args, roc_auc_score)
    if args.big:
        _parquet_row(args)
    if args.huge:
        _huge_row(args)


def _bootstrap_row(args, roc_auc_score) -> None:
    """1000 stratified replicates at 1e5 against the naive loop (resample, sklearn),
    scaled from ``--naive-reps`` replicates; paired: naive batch, then ours."""
    y, s, _ = make(100_000, "continuous")
    rng = np.random.default_rng(0)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)

    def naive() -> None:
        for _ in range(args.naive_reps):
            idx = np.concatenate((rng.choice(pos, len(pos)), rng.choice(neg, len(neg))))
            roc_auc_score(y[idx], s[idx])

    ours = lambda: indist_fast.bootstrap(y, s, n_boot=1000, seed=0,  # noqa: E731
                                         metrics=("auc", "precision"))
    r, t_naive, t_ours = paired_ratio(naive, ours, 3)
    speedup = (t_naive / args.naive_reps * 1000) / t_ours
    _row("bootstrap 1000 x n=1e5: naive loop / ours", ">= 100", speedup, speedup >= 100,
         f"{t_ours:.2f} s vs {t_naive / args.naive_reps * 1000:.1f} s (scaled)")


_SORT_CHILD = r"""
import sys, time
import numpy as np
import pyarrow.parquet as pq
s = pq.read_table(sys.argv[1], columns=["s"]).column("s").to_numpy()
t0 = time.perf_counter(); np.sort(s); SECONDS = time.perf_counter() - t0
RESULT = len(s)
"""
_FILE_CHILD = r"""
import sys, time, warnings
warnings.simplefilter("ignore")
import pyarrow.parquet      # imported before the timer, as in the sort's child: once a process
import indist_fast
t0 = time.perf_counter()
r = indist_fast.evaluate_file(sys.argv[1], label="y", score="s", progress=False)
SECONDS = time.perf_counter() - t0
RESULT = r.auc
"""


def make_parquet(path: str, rows: int) -> None:
    """The 1e8-row log: float32 score, uint8 label, row groups of 1e6 (written once)."""
    if os.path.exists(path):
        return
    import pyarrow as pa
    import pyarrow.parquet as pq
    rng = np.random.default_rng(0)
    schema = pa.schema([("y", pa.uint8()), ("s", pa.float32())])
    with pq.ParquetWriter(path + ".part", schema) as writer:
        for a in range(0, rows, 10**6):
            k = min(10**6, rows - a)
            y = (rng.random(k) < 0.1).astype(np.uint8)
            s = (rng.normal(size=k) + 1.5 * y).astype(np.float32)
            writer.write_table(pa.table({"y": y, "s": s}, schema=schema),
                               row_group_size=10**6)
    os.replace(path + ".part", path)


def _parquet_row(args) -> None:
    rows = 10**8
    path = os.path.join(args.data_dir, f"indist_fast_bench_{rows}.parquet")
    make_parquet(path, rows)
    pairs = [(in_child(_SORT_CHILD, path), in_child(_FILE_CHILD, path)) for _ in range(3)]
    sort_s, file_s = (np.median([p[k]["seconds"] for p in pairs]) for k in (0, 1))
    r = float(np.median([f["seconds"] / b["seconds"] for b, f in pairs]))
    peak = float(np.median([f["peak_bytes"] for _, f in pairs])) / (rows * 5)
    _row("evaluate_file Parquet 1e8 / np.sort in memory", "<= 1.8", r, r <= 1.8,
         f"{file_s:.2f} s vs {sort_s:.2f} s (medians)")
    _row("  its peak RSS / decoded columns (0.5 GB)", "<= 1.5", peak, peak <= 1.5)


_HUGE_CHILD = r"""
import sys, time, warnings
warnings.simplefilter("ignore")
import numpy as np
import indist_fast
y = np.load(sys.argv[1], mmap_mode="r"); s = np.load(sys.argv[2], mmap_mode="r")
t0 = time.perf_counter()
r = indist_fast.evaluate(y, s)          # the mapped pages are read (and given back) in blocks
SECONDS = time.perf_counter() - t0
RESULT = r.auc
"""


def _huge_row(args) -> None:
    rows = 10**9
    paths = [os.path.join(args.data_dir, f"indist_fast_bench_{rows}_{c}.npy") for c in "ys"]
    if not all(os.path.exists(p) for p in paths):
        rng = np.random.default_rng(0)
        y = np.lib.format.open_memmap(paths[0] + ".part", "w+", np.uint8, (rows,))
        s = np.lib.format.open_memmap(paths[1] + ".part", "w+", np.float32, (rows,))
        for a in range(0, rows, 10**7):
            b = min(rows, a + 10**7)
            y[a:b] = rng.random(b - a) < 0.1
            s[a:b] = rng.normal(size=b - a) + 1.5 * y[a:b]
        del y, s
        for p in paths:
            os.replace(p + ".part", p)
    run = in_child(_HUGE_CHILD, *paths)
    _row("evaluate 1e9 rows from a .npy pair", "<= 15 s", run["seconds"],
         run["seconds"] <= 15, f"peak RSS {run['peak_bytes'] / 1e9:.1f} GB", unit="s")


if __name__ == "__main__":
    main()
