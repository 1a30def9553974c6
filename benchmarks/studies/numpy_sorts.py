"""NumPy's SIMD sort of in-cache arrays by dtype, ns a word (why 64-bit words sort as
doubles, ``_sort_u64``): ``python benchmarks/studies/numpy_sorts.py``."""
import numpy as np, time
rng = np.random.default_rng(1)
for m in (4096, 8192, 49000):
    f = rng.random(m) + 1.0
    u = f.view(np.uint64).copy()
    i64 = u.view(np.int64).copy()
    res = {}
    for name, a in (("f64", f), ("u64", u), ("i64", i64), ("f32", f.astype(np.float32)), ("u32", (u >> 32).astype(np.uint32))):
        b = a.copy(); ts = []
        for _ in range(300):
            b[:] = a; t = time.perf_counter(); b.sort(); ts.append(time.perf_counter() - t)
        res[name] = min(ts) / m * 1e9
    print(m, " ".join(f"{k} {v:.2f}" for k, v in res.items()), "ns/row")
