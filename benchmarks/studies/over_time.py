"""What does ``over_time`` cost over ``evaluate_many`` by period, and does it equal it?

    python benchmarks/studies/over_time.py [--days 30] [--rows-per-day 1e6] [--repeat 3]

A month of logs (``--days`` x ``--rows-per-day`` rows, datetimes spread over the days,
scores rounded to 1e-4 so that ties occur). Each ratio is the median of ``--repeat``
paired runs (both sides timed back to back). Rows:

- ``over_time`` over ``evaluate_many(groups=period)`` with the period computed by
  pandas' ``Series.dt.floor("1D")`` (what a user would write; the baseline pays the
  floor too);
- the same over ``evaluate_many`` alone, periods given as datetimes, then as day
  numbers (integers: no factorisation of the periods), the extra cost of the time column
  and of the drift tests (DeLong's variance per period needs each period's classes
  sorted once more);
- ``over_time(window="7D")`` over ``over_time`` on the first ``--window-rows`` rows
  (default 3e6: each row is counted in seven windows, so the full month would hold
  seven times its rows in memory).

Before timing, the script checks that every ``REPORT_COLUMNS`` column of
``over_time`` equals ``evaluate_many``'s (NaN where they are NaN) and prints it.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import indist_fast
from indist_fast.results.report_table import REPORT_COLUMNS


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
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--rows-per-day", type=float, default=1e6)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--window-rows", type=float, default=3e6)
    args = parser.parse_args()
    import pandas as pd
    warnings.simplefilter("ignore", indist_fast.IndistFastWarning)
    n = int(args.days * args.rows_per_day)
    rng = np.random.default_rng(0)
    t = np.datetime64("2024-05-01", "s") + rng.integers(0, args.days * 86400, n).astype(
        "timedelta64[s]")
    y = rng.random(n) < 0.3
    s = np.round(y * 1.2 + rng.normal(size=n), 4)
    print(f"indist_fast {indist_fast.__version__}, backend {indist_fast.backend()}, "
          f"{args.days} days x {args.rows_per_day:.0e} rows = {n:,} rows")

    def floored() -> np.ndarray:
        return pd.Series(t).dt.floor("1D").to_numpy()

    period = floored()
    ours = indist_fast.over_time(y, s, t, freq="1D")
    theirs = indist_fast.evaluate_many(y, s, groups={"period": period})
    equal = all(np.array_equal(np.asarray(ours.columns[c]), np.asarray(theirs.columns[c]),
                               equal_nan=np.asarray(ours.columns[c]).dtype.kind == "f")
                for c in REPORT_COLUMNS)
    same_periods = ours.columns["period"].tolist() == theirs.columns["period"].astype(
        "datetime64[s]").tolist()
    print(f"over_time == evaluate_many(by=period) on every report column: {equal and same_periods}")
    print(f"{'task':>58} {'ours s':>8} {'base s':>8} {'ratio':>6}")

    def row(task: str, fn_a, fn_b) -> None:
        ratio, a, b = paired(fn_a, fn_b, args.repeat)
        print(f"{task:>58} {a:>8.3f} {b:>8.3f} {ratio:>6.2f}")

    row("over_time / (dt.floor + evaluate_many)", lambda: indist_fast.over_time(y, s, t),
        lambda: indist_fast.evaluate_many(y, s, groups={"period": floored()}))
    row("over_time / evaluate_many (periods given)", lambda: indist_fast.over_time(y, s, t),
        lambda: indist_fast.evaluate_many(y, s, groups={"period": period}))
    day = ((t - t.min()) // np.timedelta64(1, "D")).astype(np.int64)
    row("over_time / evaluate_many (day numbers given)", lambda: indist_fast.over_time(y, s, t),
        lambda: indist_fast.evaluate_many(y, s, groups={"period": day}))
    m = min(n, int(args.window_rows))
    row(f"over_time(window='7D') / over_time, {m:.0e} rows",
        lambda: indist_fast.over_time(y[:m], s[:m], t[:m], window="7D"),
        lambda: indist_fast.over_time(y[:m], s[:m], t[:m]))


if __name__ == "__main__":
    main()
