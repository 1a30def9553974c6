"""The sweep of radix buckets with the eight-row blocks (AVX-512) on and off.

Prints nanoseconds a row for sweeping the buckets (each gathered from its blocks and
sorted in cache first, as ``summarize`` does: the sweep's share is the difference),
medians of paired runs in one process, blocks on then off, and the ratio. The data: labels with 30%
positives, scores uniform plus 0.3 for positives, float64 or float32.

    python benchmarks/studies/sweep_blocks.py --rows 1e7 --dtype float64
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from indist_fast._core import _radix


def filled_buckets(n: int, dtype: str):
    """The rows written into radix blocks as ``summarize`` writes them (one writer)."""
    from indist_fast._core import fast_radix
    rng = np.random.default_rng(1)
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = (rng.random(n) + y * 0.3).astype(dtype)
    table, base, tops = _radix.radix_plan(s, max(4096, n >> 11))
    words, links, state, free, block = fast_radix._radix_blocks(s.dtype, len(tops), [n], False)
    _radix.radix_fill(y, s, 1.0, 0.0, table, base, 0, n, words, links, state[0], free[0],
                        np.empty(64 * len(tops) + 64, np.uint8), block, True)
    wp = float(state[0, 3].sum())
    return (words, links, state, block, tops), wp, n - wp


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=1e7)
    ap.add_argument("--dtype", choices=["float64", "float32"], default="float64")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    n = int(args.rows)
    blocks, wp, wn = filled_buckets(n, args.dtype)
    nb, levels = len(blocks[-1]), np.array([0.4, 0.5, 0.6])

    def sweep() -> float:
        t = time.perf_counter()
        _radix.radix_sweep_from(*blocks, nb, 0, 0, wp, wn, levels, True, 0.0, 0.0, 0.0,
                                  False)
        return time.perf_counter() - t
    if not _radix.simd_blocks():
        print("this CPU has no AVX-512: the blocks are off, nothing to compare")
        return
    times: dict[bool, list[float]] = {True: [], False: []}
    try:
        for _ in range(args.repeat):
            for on in (True, False):
                _radix.simd_blocks(on)
                times[on].append(sweep())
    finally:
        _radix.simd_blocks(True)
    on, off = (float(np.median(times[k])) / n * 1e9 for k in (True, False))
    print(f"{n:.0e} {args.dtype} rows: blocks {on:.2f} ns/row, loop {off:.2f} ns/row, "
          f"ratio {on / off:.2f} (medians of {args.repeat} paired runs)")


if __name__ == "__main__":
    main()
