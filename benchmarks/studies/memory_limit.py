"""Peak memory of ``evaluate_file`` under ``memory_limit``, each case in a fresh child
process (VmHWM from ``/proc/self/status``), against the bound it must hold:

    python benchmarks/studies/memory_limit.py [N_ROWS=5e6] [LIMIT ...=20MB 100MB]

One Parquet file of ``N_ROWS`` rows (int8 label, float64 continuous score, float64
weight, an int64 segment column of four equal segments, row groups of
``GROUP_ROWS``) is evaluated unweighted and weighted, one score and ``by`` the
segment, at each limit and without one. ``import`` is the peak of a child that only
imports indist_fast and pyarrow, runs its kernels on four rows and opens the file;
``block`` is what the reader adds to it alone: a child that streams the case's
columns through the library's reader in the chunks the evaluation reads, and drops
them (pyarrow decodes a row group whole and its pool keeps what it freed); the
bound is ``import + block + limit``. ``auc ulp`` is how far the AUC of the file (or
of its first segment) is from the in-memory ``evaluate`` of the same rows, in units
in the last place. Linux only; run from outside the checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import numpy as np

GROUP_ROWS = 500_000
SEGMENTS = 4

CHILD = r"""
import json, sys
import pyarrow.parquet as pq
import indist_fast
# the NumPy reference holds whole arrays: a peak measured on it says nothing
if indist_fast.backend() != "cython":
    sys.exit(f"the compiled kernels did not import ({indist_fast.__file__})")
path, weighted, by, limit, mode = sys.argv[1:6]
weighted, by = weighted == "1", by == "1"
pq.ParquetFile(path).metadata
# the library loaded whole: its kernels on a few rows (code, not data)
indist_fast.evaluate([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3], sample_weight=[1, 2, 1, 1])
indist_fast.evaluate_many([0, 1, 1, 0], {"a": [0.1, 0.9, 0.4, 0.3]}, groups=[0, 0, 1, 1],
                          sample_weight=[1, 2, 1, 1])
auc = None
if mode == "read":          # the reader alone, in the chunks the evaluation reads
    from indist_fast.io import open_source
    from indist_fast.scale import file_plan, files
    from indist_fast.scale.files import parse_memory
    cols = {"label": "y", "score": "s", "weight": "w" if weighted else None}
    n = parse_memory(limit)
    if by:
        cols["by#0"] = "g"
        rows = n // 4 // (file_plan._PARK_BYTES_PER_ROW + 16 + 8)
    elif weighted and hasattr(files, "_WEIGHTED_CHUNK_BYTES_PER_ROW"):
        rows = n // 4 // files._WEIGHTED_CHUNK_BYTES_PER_ROW
    else:
        rows = n // files._CHUNK_BYTES_PER_ROW
    for chunk in open_source(path, cols).chunks(max(10_000, rows)):
        del chunk
elif mode == "evaluate":
    got = indist_fast.evaluate_file(path, label="y", score="s",
                                    weight="w" if weighted else None,
                                    by="g" if by else None,
                                    memory_limit=None if limit == "none" else limit,
                                    progress=False)
    auc = float(got.auc if not by else got.columns["auc"][0])
with open("/proc/self/status") as fh:
    hwm = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmHWM"))
print(json.dumps({"peak": hwm, "auc": auc}))
"""


def make_file(folder: str, n: int) -> tuple[str, dict[tuple[bool, bool], float]]:
    """The Parquet file and the in-memory AUC of the file and of its first segment,
    unweighted and weighted."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    import indist_fast
    rng = np.random.default_rng(7)
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = rng.normal(size=n) + y
    w = rng.uniform(0.5, 2.0, n)
    g = np.repeat(np.arange(SEGMENTS, dtype=np.int64), -(-n // SEGMENTS))[:n]
    path = os.path.join(folder, "rows.parquet")
    pq.write_table(pa.table({"y": y, "s": s, "w": w, "g": g}), path,
                   row_group_size=GROUP_ROWS)
    first = g == 0
    aucs = {(False, False): indist_fast.evaluate(y, s).auc,
            (True, False): indist_fast.evaluate(y, s, sample_weight=w).auc,
            (False, True): indist_fast.evaluate(y[first], s[first]).auc,
            (True, True): indist_fast.evaluate(y[first], s[first],
                                               sample_weight=w[first]).auc}
    return path, aucs


def peak(path: str, weighted: bool, by: bool, limit: str, mode: str = "evaluate") -> dict:
    # `python -c` puts its working directory first on sys.path: run in the file's
    # folder, so a checkout without built kernels is never the package measured
    out = subprocess.run([sys.executable, "-c", CHILD, path, "1" if weighted else "0",
                          "1" if by else "0", limit, mode], capture_output=True, text=True,
                         cwd=os.path.dirname(path))
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(n: int, limits: list[str], folder: str, unlimited: bool = True):
    """Yield ``(case, limit, peak, block, bound, ulp)`` per case (bytes; block and
    bound None without a limit, measured with ``unlimited``), after
    ``("import", base)``."""
    from indist_fast.scale.files import parse_memory
    path, aucs = make_file(folder, n)
    base = peak(path, False, False, "", "import")["peak"]
    yield "import", base
    for weighted in (False, True):
        for by in (False, True):
            case = ("weighted" if weighted else "unweighted") + (", by" if by else "")
            for limit in [*limits, "none"][:len(limits) + unlimited]:
                got = peak(path, weighted, by, limit)
                want = aucs[weighted, by]
                ulp = abs(got["auc"] - want) / np.spacing(want)
                if limit == "none":
                    yield case, limit, got["peak"], None, None, ulp
                else:
                    read = peak(path, weighted, by, limit, "read")["peak"]
                    yield (case, limit, got["peak"], read - base, read + parse_memory(limit),
                           ulp)


def main() -> None:
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 5_000_000
    limits = sys.argv[2:] or ["20MB", "100MB"]
    mb = 1e6
    with tempfile.TemporaryDirectory() as folder:
        rows = measure(n, limits, folder)
        base = next(rows)[1]
        print(f"{n:,} rows; import {base / mb:.0f} MB (indist_fast, pyarrow, the file "
              "opened); block: the reader's own peak above that, streaming the case's "
              "columns in the chunks the evaluation reads")
        print(f"{'case':>18} {'limit':>6} {'peak MB':>8} {'block MB':>9} {'bound MB':>9} "
              f"{'holds':>6} {'auc ulp':>8}")
        for case, limit, got, block, bound, ulp in rows:
            held = "" if bound is None else ("yes" if got <= bound else "NO")
            print(f"{case:>18} {limit:>6} {got / mb:8.0f} "
                  f"{'' if block is None else f'{block / mb:.0f}':>9} "
                  f"{'' if bound is None else f'{bound / mb:.0f}':>9} {held:>6} "
                  f"{ulp:8.0f}", flush=True)


if __name__ == "__main__":
    main()
