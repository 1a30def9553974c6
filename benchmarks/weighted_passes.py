"""The weighted radix passes alone on one thread, ns a row: ``radix_count_weighted`` and
``radix_scatter_keys`` (into arrays written before, and fresh ones), and the cost of
writing 24 bytes a row: ``python benchmarks/weighted_passes.py 1e7``. Run from outside
the checkout."""
import sys, time, numpy as np
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
from _inputs import make
from indist_fast._core import fast, _kernels
n = int(float(sys.argv[1])); reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
y, s, w = make(n, "weighted"); y = y.view(np.uint8)
table, base, tops = fast._radix_plan(s, n); nb = len(tops)
buckets = np.empty(n, np.uint16)
t = time.perf_counter(); c = _kernels.radix_count_weighted(y, s, w, 1.0, 0.0, table, base, nb, 0, n, buckets); tc = time.perf_counter() - t
kept = c[0]; starts = np.zeros(nb + 1, np.int64); np.cumsum(kept, out=starts[1:])
bits = _kernels.index_bits_for(n)
keys = np.empty(n, np.uint64); rows = np.empty((n, 2)); keys[:] = 0; rows[:] = 0
best = 1e9
for _ in range(reps):
    cur = starts[:-1].copy()
    t = time.perf_counter(); _kernels.radix_scatter_keys(y, s, w, 1.0, buckets, 0, n, bits, keys, rows, cur); best = min(best, time.perf_counter() - t)
print(f"nb {nb}: count {tc/n*1e9:.2f} ns/row, scatter {best/n*1e9:.2f} ns/row (single thread)")
fresh = 1e9
for _ in range(reps):
    keys = np.empty(n, np.uint64); rows = np.empty((n, 2))
    cur = starts[:-1].copy()
    t = time.perf_counter(); _kernels.radix_scatter_keys(y, s, w, 1.0, buckets, 0, n, bits, keys, rows, cur); fresh = min(fresh, time.perf_counter() - t)
    del keys, rows
print(f"scatter into fresh arrays {fresh/n*1e9:.2f} ns/row")
t = time.perf_counter(); z = np.empty(3 * n); z[:] = 0; print(f"touch 24 B/row fresh: {(time.perf_counter()-t)/n*1e9:.2f} ns/row")
t = time.perf_counter(); z[:] = 1; print(f"rewrite 24 B/row: {(time.perf_counter()-t)/n*1e9:.2f} ns/row")
