"""Dask on a local cluster against one process, same file, same numbers.

    python benchmarks/studies/dask_bench.py [--rows 1e8] [--workers 2] [--chunk 1e7]

Uses the .npz written by ``files_bench.py`` (run it first with the same ``--rows``).
Each dask chunk memory-maps its slice of the file inside the worker, so no rows go
through the client.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings


def load(path: str, name: str, start: int, stop: int):
    # the .npz reader maps an uncompressed member without reading it, so a partition
    # reads only its own rows
    from indist_fast.io import open_source
    columns = open_source(path, {"label": name, "score": name, "weight": None}).whole()
    return columns[0][start:stop]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=float, default=1e7)
    parser.add_argument("--data-dir", default="/tmp")
    args = parser.parse_args()
    rows, chunk = int(args.rows), int(args.chunk)
    path = os.path.join(args.data_dir, f"indist_fast_bench_{rows}.npz")
    if not os.path.exists(path):
        raise SystemExit(f"{path} is missing: run benchmarks/studies/files_bench.py --rows {args.rows:g}")
    import dask.array as da
    from dask import delayed
    from distributed import Client, LocalCluster
    import numpy as np
    import indist_fast

    warnings.simplefilter("ignore")
    t0 = time.perf_counter()
    single = indist_fast.evaluate_file(path, label="y", score="s", progress=False)
    t_single = time.perf_counter() - t0
    bounds = [(a, min(rows, a + chunk)) for a in range(0, rows, chunk)]
    y = da.concatenate([da.from_delayed(delayed(load)(path, "y", a, b), (b - a,), np.uint8)
                        for a, b in bounds])
    s = da.concatenate([da.from_delayed(delayed(load)(path, "s", a, b), (b - a,), np.float32)
                        for a, b in bounds])
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        t0 = time.perf_counter()
        distributed = indist_fast.dask.evaluate((y, s))
        t_dask = time.perf_counter() - t0
    print(f"{rows:,} rows: one process (evaluate_file) {t_single:.2f} s; dask local cluster "
          f"of {args.workers} workers {t_dask:.2f} s ({t_dask / t_single:.2f}x)")
    # the cluster adds the ranges' AUC shares in another order: equal to rounding
    assert abs(distributed.auc - single.auc) < 1e-12, (distributed.auc, single.auc)
    assert distributed.threshold == single.threshold
    assert abs(distributed.precision - single.precision) < 1e-12
    print(f"same AUC {single.auc!r} and C(r_b) {single.precision!r} on both")


if __name__ == "__main__":
    main()
