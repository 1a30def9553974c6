"""The sweep of sorted radix buckets with the eight-row blocks (AVX-512) on and off.

Prints nanoseconds a row for sweeping already sorted words (no sort), medians of paired
runs in one process, blocks on then off, and the ratio. The data: labels with 30%
positives, scores uniform plus 0.3 for positives, float64 or float32.

    python benchmarks/sweep_blocks.py --rows 1e7 --dtype float64
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from indist_fast._core import _kernels


def sorted_buckets(n: int, dtype: str):
    rng = np.random.default_rng(1)
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = (rng.random(n) + y * 0.3).astype(dtype)
    table, base, tops = _kernels.radix_plan(s, max(4096, n >> 11))
    counts, _ = _kernels.radix_count(y, s, 1.0, 0.0, table, base, len(tops), 0, n, None)
    starts = np.zeros(len(tops) + 1, dtype=np.int64)
    np.cumsum(counts.sum(axis=1), out=starts[1:])
    words = np.empty(n, dtype=np.uint32 if dtype == "float32" else np.uint64)
    _kernels.radix_scatter(y, s, 1.0, table, base, None, 0, n, words, starts[:-1].copy())
    wp, wn = float(counts[:, 1].sum()), float(counts[:, 0].sum())
    return words, starts, tops, wp, wn


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=1e7)
    ap.add_argument("--dtype", choices=["float64", "float32"], default="float64")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    n = int(args.rows)
    words, starts, tops, wp, wn = sorted_buckets(n, args.dtype)
    nb, levels = len(tops), np.array([0.4, 0.5, 0.6])

    def sweep(sort_first: bool) -> float:
        t = time.perf_counter()
        _kernels.radix_sweep_from(words, starts, tops, nb, 0, 0, sort_first, wp, wn, levels,
                                  True, 0.0, 0.0, 0.0, False)
        return time.perf_counter() - t
    sweep(True)                                     # sort the buckets once
    if not _kernels.simd_blocks():
        print("this CPU has no AVX-512: the blocks are off, nothing to compare")
        return
    times: dict[bool, list[float]] = {True: [], False: []}
    try:
        for _ in range(args.repeat):
            for on in (True, False):
                _kernels.simd_blocks(on)
                times[on].append(sweep(False))
    finally:
        _kernels.simd_blocks(True)
    on, off = (float(np.median(times[k])) / n * 1e9 for k in (True, False))
    print(f"{n:.0e} sorted {args.dtype} rows: blocks {on:.2f} ns/row, loop {off:.2f} ns/row, "
          f"ratio {on / off:.2f} (medians of {args.repeat} paired runs)")


if __name__ == "__main__":
    main()
