"""Out-of-core and file benchmarks: time and peak RSS of evaluate_file.

    python benchmarks/studies/files_bench.py --rows 1e8 [--data-dir /tmp] [--memory-limit 1GB]

Writes ``rows`` labels (uint8) and scores (float32) to an uncompressed .npz once, then
in fresh child processes measures (a) ``np.sort`` of the scores held in memory, (b)
``evaluate_file`` with the default memory limit, (c) with ``--memory-limit``; each child
reports its wall time and peak RSS (``ru_maxrss``: mapped file pages it touched count).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

CHILD = r"""
import json, resource, sys, time, warnings
import numpy as np
warnings.simplefilter("ignore")
path, task, limit = sys.argv[1], sys.argv[2], sys.argv[3]
if task == "sort":
    with np.load(path) as z:
        s = np.array(z["s"])
    t0 = time.perf_counter(); np.sort(s); dt = time.perf_counter() - t0
else:
    import indist_fast
    t0 = time.perf_counter()
    r = indist_fast.evaluate_file(path, label="y", score="s", progress=False,
                                  memory_limit=None if limit == "none" else limit)
    dt = time.perf_counter() - t0
    print(json.dumps({"auc": r.auc, "precision": r.precision}), file=sys.stderr)
print(json.dumps({"seconds": dt, "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""


def make(path: str, rows: int) -> None:
    if os.path.exists(path):
        return
    rng = np.random.default_rng(0)
    chunk = 50_000_000
    y = np.empty(rows, np.uint8)
    s = np.empty(rows, np.float32)
    for a in range(0, rows, chunk):
        b = min(rows, a + chunk)
        y[a:b] = rng.random(b - a) < 0.1
        s[a:b] = rng.normal(size=b - a) + 1.5 * y[a:b]
    np.savez(path, y=y, s=s)


def child(path: str, task: str, limit: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, path, task, limit],
                         capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    if out.stderr.strip():
        result.update(json.loads(out.stderr.strip().splitlines()[-1]))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e8)
    parser.add_argument("--data-dir", default="/tmp")
    parser.add_argument("--memory-limit", default="1GB")
    parser.add_argument("--skip-sort", action="store_true")
    args = parser.parse_args()
    rows = int(args.rows)
    path = os.path.join(args.data_dir, f"indist_fast_bench_{rows}.npz")
    t0 = time.perf_counter()
    make(path, rows)
    data_bytes = rows * 5
    print(f"data: {rows:,} rows, {data_bytes / 1e9:.2f} GB ({path}; "
          f"ready in {time.perf_counter() - t0:.0f} s)")
    base = None if args.skip_sort else child(path, "sort", "none")
    default = child(path, "evaluate", "none")
    limited = child(path, "evaluate", args.memory_limit)
    if base:
        print(f"np.sort(scores) in memory      {base['seconds']:8.2f} s")
    for name, r in (("evaluate_file (default limit)", default),
                    (f"evaluate_file (memory_limit={args.memory_limit})", limited)):
        ratio = f"  {r['seconds'] / base['seconds']:.2f}x sort" if base else ""
        print(f"{name:<40} {r['seconds']:8.2f} s{ratio}   peak RSS "
              f"{r['peak_rss'] / 1e9:.2f} GB = {r['peak_rss'] / data_bytes:.2f}x data")
    assert default["auc"] == limited["auc"] and default["precision"] == limited["precision"]
    print(f"both paths: AUC {default['auc']!r}, C(r_b) {default['precision']!r} (identical)")


if __name__ == "__main__":
    main()
