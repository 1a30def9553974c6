"""One radix fill alone and two at once (each half the rows, its own writer), ns a row,
and the two at once against ``np.sort`` of all the scores:
``[F32=1] python benchmarks/studies/fill_threads.py 1e7`` (F32=1: float32 scores). Run from
outside the checkout."""
import sys, time, threading, numpy as np
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(__import__("os").path.abspath(__file__))))
from _inputs import make
from indist_fast._core import _radix
from indist_fast._core import fast_radix
n = int(float(sys.argv[1]))
y, s, _ = make(n, "continuous"); y = np.ascontiguousarray(y).view(np.uint8)
if __import__("os").environ.get("F32") == "1":
    s = s.astype(np.float32)
table, base, tops = fast_radix._radix_plan(s, n); nb = len(tops)
half = n // 2
def setup():
    words, links, state, free, block = fast_radix._radix_blocks(s.dtype, nb, [half, n - half], False)
    words[:] = 0
    return words, links, state, free, block, [np.empty(64 * nb + 64, np.uint8) for _ in range(2)]
def fill(env, j, a, b, out):
    words, links, state, free, block, lines = env
    t = time.perf_counter()
    _radix.radix_fill(y, s, 1.0, 0.0, table, base, a, b, words, links, state[j], free[j], lines[j], block, True)
    out[j] = time.perf_counter() - t
for _ in range(3):
    env = setup(); out = [0, 0]
    fill(env, 0, 0, half, out); single = out[0]
    env = setup(); out = [0, 0]
    th = [threading.Thread(target=fill, args=(env, j) + ((0, half) if j == 0 else (half, n)) + (out,)) for j in range(2)]
    [t.start() for t in th]; [t.join() for t in th]
    t = time.perf_counter(); np.sort(s); sort = time.perf_counter() - t
    print(f"fill {half} rows: single {single/half*1e9:.2f} ns/row; two at once {out[0]/half*1e9:.2f} / {out[1]/half*1e9:.2f} ns/row"
          f" ({max(out)*1e3:.1f} ms for all {n} rows, {max(out)/sort:.2f}x np.sort of them: {sort*1e3:.1f} ms)")
