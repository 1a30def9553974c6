"""A hive-partitioned Parquet dataset, two models by day, against one score.

    python benchmarks/studies/datasets.py [--rows 1e8] [--dir DIR] [--repeat 3] [--memory-limit 1GB]

Writes (or reuses, under ``--dir``) a dataset of ``--rows`` rows in 30 ``day=``
partitions (``day=1/part-0.parquet`` ...): a uint8 label and two float32 model columns.
Each run is a fresh child process timing one call and reading its peak resident set
(``VmHWM``): ``evaluate_file(dir, label="y", score=["m1", "m2"], by="day")`` and, paired
with it, the single-score ``evaluate_file(dir, label="y", score="m1")`` over the same
rows. Prints the medians and the median of the paired ratios [issue target <= 3].
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

DAYS = 30

CHILD = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")
import indist_fast
path, task, limit = sys.argv[1], sys.argv[2], sys.argv[3] or None
t0 = time.perf_counter()
if task == "table":
    r = indist_fast.evaluate_file(path, label="y", score=["m1", "m2"], by="day",
                                  memory_limit=limit, progress=False)
    check = float(r.columns["auc"][0])
else:
    r = indist_fast.evaluate_file(path, label="y", score="m1", memory_limit=limit,
                                  progress=False)
    check = r.auc
dt = time.perf_counter() - t0
with open("/proc/self/status") as fh:
    hwm = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmHWM:"))
print(json.dumps({"seconds": dt, "peak_rss": hwm, "check": check}))
"""


def write_dataset(folder: str, rows: int) -> None:
    """30 day partitions of ``rows`` rows in all, written one partition at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    marker = os.path.join(folder, "_rows")          # skipped by the readers ("_" prefix)
    if os.path.exists(marker) and open(marker).read() == str(rows):
        return
    rng = np.random.default_rng(0)
    for day, part in enumerate(np.array_split(np.arange(rows), DAYS), start=1):
        n = len(part)
        y = rng.integers(0, 2, n).astype(np.uint8)
        table = pa.table({"y": y,
                          "m1": rng.normal(0.8 * y, 1.0).astype(np.float32),
                          "m2": rng.normal(0.5 * y, 1.0).astype(np.float32)})
        sub = os.path.join(folder, f"day={day}")
        os.makedirs(sub, exist_ok=True)
        pq.write_table(table, os.path.join(sub, "part-0.parquet"), row_group_size=1 << 20)
        del table, y
    with open(marker, "w") as fh:
        fh.write(str(rows))


def run(folder: str, task: str, limit: str) -> dict:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=here + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", CHILD, folder, task, limit], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=float, default=1e8)
    parser.add_argument("--dir", default=None, help="where the dataset is (re)used")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--memory-limit", default="", help="evaluate_file's memory_limit")
    args = parser.parse_args()
    rows = int(args.rows)
    folder = args.dir or os.path.join(tempfile.gettempdir(), f"indist_fast_days_{rows}")
    write_dataset(folder, rows)
    size = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(folder)
               for f in fs)
    print(f"{rows:,} rows, {DAYS} day partitions, {size / 1e6:,.0f} MB of Parquet in "
          f"{folder}; memory_limit={args.memory_limit or 'default'}")
    run(folder, "single", args.memory_limit)          # warm the page cache
    table, single = [], []
    for _ in range(args.repeat):
        table.append(run(folder, "table", args.memory_limit))
        single.append(run(folder, "single", args.memory_limit))
    ratios = [t["seconds"] / s["seconds"] for t, s in zip(table, single)]

    def med(runs: list[dict], key: str) -> float:
        return float(np.median([r[key] for r in runs]))
    print(f"{'task':>48} {'seconds':>9} {'peak RSS MB':>12}")
    print(f"{'evaluate_file(score=[m1, m2], by=day)':>48} {med(table, 'seconds'):>9.2f} "
          f"{med(table, 'peak_rss') / 1e6:>12.0f}")
    print(f"{'evaluate_file(score=m1)':>48} {med(single, 'seconds'):>9.2f} "
          f"{med(single, 'peak_rss') / 1e6:>12.0f}")
    print(f"ratio (median of {args.repeat} paired runs): {float(np.median(ratios)):.2f} "
          "[target <= 3]")


if __name__ == "__main__":
    main()
