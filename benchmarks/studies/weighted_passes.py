"""The weighted radix passes alone, ns a row: ``radix_fill_weighted`` and
``radix_sweep_weighted_from`` on one thread and on two (into blocks written before;
FRESH=1: fresh blocks, as summarize's are):
``[FRESH=1] python benchmarks/studies/weighted_passes.py 1e7``. Run from outside the checkout."""
import sys, time, numpy as np
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(__import__("os").path.abspath(__file__))))
from _inputs import make
from indist_fast._core import _radix_weighted, scratch
from indist_fast._core import fast_radix
from indist_fast._core import threads
n = int(float(sys.argv[1])); reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
y, s, w = make(n, "weighted"); y = y.view(np.uint8)
table, base, tops = fast_radix._radix_plan(s, n); nb = len(tops)

# The one-pass path (radix_fill_weighted, radix_sweep_weighted_from): each pass alone on
# one thread, into blocks written before (FRESH=1: fresh blocks, as summarize's are),
# then both halves at once on two threads.
FRESH = __import__("os").environ.get("FRESH") == "1"
block = fast_radix.RADIX_BLOCK_BYTES // 16
levels = np.array([0.5])


def one_pass_blocks(parts):
    first, links, free = fast_radix._owned_blocks(nb, parts, block)
    rows = scratch.aligned_empty(2 * len(links) * block, np.float64)
    if not FRESH:
        rows[:] = 0
    state = np.zeros((len(parts), nb, 8), np.int64)
    for j in range(len(parts)):
        state[j, :, 0] = np.arange(first[j], first[j] + nb)
    return rows, links, state, free


def one_pass(halves):
    parts = [b - a for a, b in halves]
    rows, links, state, free = one_pass_blocks(parts)
    lines = [np.empty(64 * nb + 64, np.uint8) for _ in parts]

    def fill(j, b):
        return lambda: _radix_weighted.radix_fill_weighted(y, s, w, 1.0, 0.0, table, base, *b, rows,
                                                    links, state[j], free[j], lines[j],
                                                    block, True)
    t = time.perf_counter()
    threads._on_two_threads([fill(j, b) for j, b in enumerate(halves)])
    t_fill = time.perf_counter() - t
    sums = state[:, :, 3:6].view(np.float64)
    wp, wn = float(sums[..., :2].sum()), float(sums[..., 2].sum())
    mid = nb // 2

    def sweep(top, bottom):
        return lambda: _radix_weighted.radix_sweep_weighted_from(rows, links, state, block, top,
                                                          bottom, bottom, wp, wn, levels,
                                                          True, 0.0, 0.0, 0.0, 0.0, False)
    jobs = [sweep(nb, 0)] if len(halves) == 1 else [sweep(nb, mid), sweep(mid, 0)]
    t = time.perf_counter()
    threads._on_two_threads(jobs)
    return t_fill, time.perf_counter() - t


fills, sweeps = zip(*(one_pass([(0, n)]) for _ in range(reps)))
print(f"one pass, one thread: fill {min(fills)/n*1e9:.2f} ns/row, "
      f"order and sweep {min(sweeps)/n*1e9:.2f} ns/row")
fills, sweeps = zip(*(one_pass(threads._blocks(n)) for _ in range(reps)))
print(f"one pass, two threads: fill {min(fills)*1e3:.1f} ms ({min(fills)/n*2e9:.2f} ns/row "
      f"each), order and sweep {min(sweeps)*1e3:.1f} ms ({min(sweeps)/n*2e9:.2f} ns/row each;"
      f" the buckets halved by count, not by rows)")
