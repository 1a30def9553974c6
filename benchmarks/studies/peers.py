"""AUC against what users pick instead: scikit-learn, torchmetrics, DuckDB SQL, polars.

    pip install ".[bench]"
    python benchmarks/studies/peers.py [--sizes 1e3 1e5 1e7] [--repeat 5] [--big --data-dir DIR]

Each row times one tool computing the AUC of the same rows (10% positives, float64
scores; a tied variant rounds them to 0.01) and gives its time over
``indist_fast.roc_auc``'s, as the median of paired runs (the peer, then indist_fast,
back to back). Every peer's AUC is checked against indist_fast's: 1e-9 relative for the
float64 tools, 1e-4 for torchmetrics (it returns float32). ``--big`` adds the 1e8-row
Parquet file of ``compare.py --targets --big`` (float32 score, uint8 label), read by
each tool from disk: indist_fast through ``evaluate_file``, DuckDB and polars by their
own Parquet readers, scikit-learn and torchmetrics after ``pyarrow`` reads the columns
(their reading time included). A peer that is not installed is skipped with a line
saying so.

DuckDB and polars have no AUC function: they compute the rank-sum (Mann-Whitney) form
with average ranks for ties, ``(sum of positive ranks - P (P + 1) / 2) / (P N)``, the
SQL and dataframe way of doing it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import warnings
from typing import Any, Callable

# torch's OpenMP workers spin for a while after each call by default, taking the second
# core from whatever runs next (indist_fast's second thread, here): they sleep instead.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _timing import in_child, paired_ratio  # noqa: E402

import indist_fast  # noqa: E402

DUCKDB_AUC = """
WITH r AS (
    SELECT y, rank() OVER (ORDER BY s) + (count(*) OVER (PARTITION BY s) - 1) / 2.0 AS rk
    FROM {source}),
c AS (SELECT sum(y)::DOUBLE AS p, (count(*) - sum(y))::DOUBLE AS n FROM r)
SELECT (sum(rk) FILTER (WHERE y = 1) - c.p * (c.p + 1) / 2) / (c.p * c.n)
FROM r, c GROUP BY c.p, c.n
"""


_TORCH_CHILD = r"""
import sys, time
import numpy as np
import torch
from torchmetrics.functional.classification import binary_auroc
with np.load(sys.argv[1]) as z:
    ts, ty = torch.from_numpy(z["s"]), torch.from_numpy(z["y"].astype(np.int64))
times = []
for _ in range(int(sys.argv[2])):
    t0 = time.perf_counter(); auc = float(binary_auroc(ts, ty))
    times.append(time.perf_counter() - t0)
SECONDS = float(np.median(times))
RESULT = auc
"""


class TorchInChild:
    """torchmetrics timed in a child process of its own: importing torch in this one
    slows indist_fast's second thread (measured: ``evaluate`` of 1e7 rows 110 -> 187 ms
    once torch is imported, its OpenMP runtime apparently claiming the cores), which
    would flatter torch's ratio. Its ratio is then its median time over indist_fast's
    median in this process, not a paired one."""

    def __init__(self, y: np.ndarray, s: np.ndarray) -> None:
        self.y, self.s = y, s
        self.repeat = 3

    def __call__(self) -> float:
        return self.run()["result"]

    def run(self) -> dict:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "rows.npz")
            np.savez(path, y=self.y, s=self.s)
            return in_child(_TORCH_CHILD, path, str(self.repeat))


def rows(n: int, tied: bool, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.uint8)
    s = rng.normal(size=n) + 1.5 * y
    return y, (np.round(s, 2) if tied else s)


def peers_in_memory(y: np.ndarray, s: np.ndarray) -> dict[str, Callable[[], float] | str]:
    """Each peer as a no-argument AUC call, or the reason it is skipped."""
    out: dict[str, Callable[[], float] | str] = {
        "indist_fast.evaluate": lambda: indist_fast.evaluate(y, s).auc}
    try:
        from sklearn.metrics import roc_auc_score
        out["scikit-learn roc_auc_score"] = lambda: float(roc_auc_score(y, s))
    except ImportError:
        out["scikit-learn roc_auc_score"] = "not installed (pip install scikit-learn)"
    if importlib.util.find_spec("torchmetrics") and importlib.util.find_spec("torch"):
        out["torchmetrics binary_auroc"] = TorchInChild(y, s)
    else:
        out["torchmetrics binary_auroc"] = "not installed (pip install torch torchmetrics)"
    try:
        import duckdb
        import pyarrow as pa
        table = pa.table({"y": y, "s": s})
        con = duckdb.connect()
        con.register("t", table)
        query = DUCKDB_AUC.format(source="t")
        out["duckdb SQL rank-sum"] = lambda: float(con.execute(query).fetchone()[0])
    except ImportError:
        out["duckdb SQL rank-sum"] = "not installed (pip install duckdb pyarrow)"
    try:
        import polars as pl
        frame = pl.DataFrame({"y": y, "s": s})
        out["polars rank-sum"] = lambda: _polars_auc(frame.lazy())
    except ImportError:
        out["polars rank-sum"] = "not installed (pip install polars)"
    return out


def _polars_auc(frame: Any) -> float:
    import polars as pl
    p = pl.col("y").cast(pl.Float64).sum()
    n = pl.len().cast(pl.Float64) - p
    ranks = pl.col("s").rank("average").filter(pl.col("y") == 1).sum()
    return float(frame.select((ranks - p * (p + 1) / 2) / (p * n)).collect().item())


def peers_on_file(path: str) -> dict[str, Callable[[], float] | str]:
    """The same peers reading the Parquet file themselves."""
    import pyarrow.parquet as pq

    def columns() -> tuple[np.ndarray, np.ndarray]:
        t = pq.read_table(path, columns=["y", "s"])
        return t.column("y").to_numpy(), t.column("s").to_numpy()

    out: dict[str, Callable[[], float] | str] = {
        "indist_fast.evaluate_file": lambda: indist_fast.evaluate_file(
            path, label="y", score="s", progress=False).auc}
    try:
        from sklearn.metrics import roc_auc_score
        out["scikit-learn (pyarrow read)"] = lambda: float(roc_auc_score(*columns()))
    except ImportError:
        out["scikit-learn (pyarrow read)"] = "not installed"
    try:
        import torch
        from torchmetrics.functional.classification import binary_auroc

        def torch_auc() -> float:
            y, s = columns()
            return float(binary_auroc(torch.from_numpy(s), torch.from_numpy(y.astype(np.int64))))
        out["torchmetrics (pyarrow read)"] = torch_auc
    except ImportError:
        out["torchmetrics (pyarrow read)"] = "not installed"
    try:
        import duckdb
        con = duckdb.connect()
        query = DUCKDB_AUC.format(source=f"read_parquet('{path}')")
        out["duckdb SQL on the file"] = lambda: float(con.execute(query).fetchone()[0])
    except ImportError:
        out["duckdb SQL on the file"] = "not installed"
    try:
        import polars as pl
        out["polars scan_parquet"] = lambda: _polars_auc(pl.scan_parquet(path))
    except ImportError:
        out["polars scan_parquet"] = "not installed"
    return out


def table(label: str, peers: dict[str, Callable[[], float] | str], reference: Callable[[], float],
          repeat: int, inner: bool = False) -> bool:
    """Print one block of rows; False when a peer disagrees on the AUC. ``inner``: time
    fast calls in loops (``_timing.per_call``)."""
    want = reference()
    agree = True
    print(f"\n{label}: AUC {want:.12f}")
    print(f"{'tool':<30} {'ms':>10} {'/ indist_fast':>14} {'AUC - ours':>12}  agrees")
    for name, fn in peers.items():
        if isinstance(fn, str):
            print(f"{name:<30} skipped: {fn}")
            continue
        if isinstance(fn, TorchInChild):
            fn.repeat = repeat
            run = fn.run()
            got, t_peer = run["result"], run["seconds"]
            ratio = t_peer / paired_ratio(reference, reference, repeat, inner)[1]
        else:
            got = fn()
            ratio, _, t_peer = paired_ratio(reference, fn, repeat, inner, settle=0.2)
        tol = 1e-4 if "torch" in name else 1e-9
        ok = abs(got - want) <= tol * abs(want)
        agree &= ok
        print(f"{name:<30} {t_peer * 1e3:10.3f} {ratio:13.1f}x {got - want:12.1e}  "
              f"{'yes' if ok else 'NO (tolerance %g)' % tol}", flush=True)
    return agree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e3, 1e5, 1e7])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--big", action="store_true", help="the 1e8-row Parquet file too")
    parser.add_argument("--data-dir", default="/tmp")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print(f"indist_fast {indist_fast.__version__}, backend {indist_fast.backend()}, "
          f"numpy {np.__version__}, {os.cpu_count()} cpus; ratios: medians of "
          f"{args.repeat} paired runs")
    agree = True
    for n in (int(v) for v in args.sizes):
        for tied in (False, True):
            y, s = rows(n, tied)
            agree &= table(f"n = {n:,}{', scores rounded to 0.01' if tied else ''}",
                           peers_in_memory(y, s), lambda y=y, s=s: indist_fast.roc_auc(y, s),
                           args.repeat if n < 10**7 else max(3, args.repeat // 2),
                           inner=n <= 10**5)
    if args.big:
        from compare import make_parquet
        path = os.path.join(args.data_dir, f"indist_fast_bench_{10**8}.parquet")
        make_parquet(path, 10**8)
        peers = peers_on_file(path)
        agree &= table(f"Parquet file, 1e8 rows ({path})", peers,
                       peers["indist_fast.evaluate_file"], 3)   # type: ignore[arg-type]
    print("\nevery peer agrees on the AUC" if agree else "\nSOME PEER DISAGREES (see above)")
    sys.exit(0 if agree else 1)


if __name__ == "__main__":
    main()
