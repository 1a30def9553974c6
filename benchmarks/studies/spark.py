"""Spark in local mode: indist_fast.spark against MLlib's BinaryClassificationEvaluator
and against collecting the rows to the driver, on the same Parquet rows, in one run.

    python benchmarks/studies/spark.py --rows 1e7 [--segments 30] [--data-dir /tmp]

Question: is the exact evaluation on the executors (validation, one sort per partition,
score tables merged through Spark's shuffle, score ranges swept in parallel) at least as
fast as MLlib's binned AUC, with the driver's memory bounded, and how far is MLlib's AUC
from the exact value? Rows: a label, two models' scores (float64, all distinct) and an
int segment column (``--segments`` values), written once as Parquet files of 5e6 rows.

Reported per phase: wall time, and the peak resident memory (VmHWM, reset before each
phase through /proc/PID/clear_refs) of the driver's Python process and of the JVM (in
local mode the JVM is the driver and the executors at once; the executors' Python workers
are separate processes, not counted). The phases run in this order: a warm-up read of
every column (the page cache), indist_fast on one score, MLlib (default 1,000 bins, then
numBins=0), indist_fast on 2 models x the segments, then collecting the rows to the
driver (toArrow and ``evaluate_many``), skipped above ``--collect-max`` rows. ``--quick``
keeps indist_fast's phases and MLlib's default AUC; ``--mllib-timeout-ratio`` cancels
an MLlib phase that takes that many times indist_fast's one-score time (a lower bound).

Answer (docs/guides/spark.rst has the table): exact at every size (at 1e8 equal to
``evaluate_file`` on the same files); MLlib's default AUC took 1.5x indist_fast's time at
1e6 and had not finished at 4x at 1e7 nor at 1x at 1e8 (cancelled); the driver's Python
stayed at 142 MB; MLlib's binned AUC was 1.2e-6 off.

Needs pyspark (``pip install ".[spark]"``) and Java 17; PYSPARK_PYTHON is set to this
interpreter so that the executors import the same indist_fast.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
import warnings


def write_rows(directory: str, rows: int, segments: int, chunk: int = 5_000_000) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq
    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(2024)
    base = rng.uniform(0.05, 0.3, segments)          # a base rate per segment
    for k, start in enumerate(range(0, rows, chunk)):
        n = min(chunk, rows - start)
        seg = rng.integers(0, segments, n).astype(np.int32)
        y = (rng.random(n) < base[seg]).astype(np.int32)
        m1 = rng.normal(size=n) + 1.0 * y
        m2 = rng.normal(size=n) + 0.6 * y + 0.02 * seg
        pq.write_table(pa.table({"y": y, "m1": m1, "m2": m2, "seg": seg}),
                       os.path.join(directory, f"part-{k:04d}.parquet"), row_group_size=1 << 20)


def reset_peak(pid: int) -> None:
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")


def peak_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--segments", type=int, default=30)
    parser.add_argument("--data-dir", default="/tmp")
    parser.add_argument("--driver-memory", default="6g", help="the JVM's heap (local mode)")
    parser.add_argument("--collect-max", type=float, default=1e8,
                        help="skip collecting to the driver above this many rows")
    parser.add_argument("--timeout", type=float, default=None,
                        help="cancel a phase's Spark jobs after this many seconds (its time "
                             "is then a lower bound)")
    parser.add_argument("--mllib-timeout-ratio", type=float, default=None,
                        help="cancel each MLlib phase once it took this many times the "
                             "indist_fast one-score phase (the ratio is then a lower bound)")
    parser.add_argument("--no-segments", action="store_true",
                        help="leave out the segments x models phase")
    parser.add_argument("--quick", action="store_true",
                        help="only indist_fast (one score, then segments) and MLlib's AUC "
                             "with its default bins: the phases that fit a long run")
    args = parser.parse_args()
    rows = int(args.rows)
    directory = os.path.join(args.data_dir, f"indist_fast_spark_{rows}_{args.segments}")
    if not os.path.exists(os.path.join(directory, "_done")):
        t0 = time.perf_counter()
        write_rows(directory, rows, args.segments)
        open(os.path.join(directory, "_done"), "w").close()
        print(f"wrote {rows:,} rows as Parquet in {time.perf_counter() - t0:.0f} s")

    os.environ["PYSPARK_PYTHON"] = sys.executable
    warnings.simplefilter("ignore")
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import SparkSession
    import indist_fast
    import indist_fast.spark

    t0 = time.perf_counter()
    spark = (SparkSession.builder.master("local[2]").appName("indist_fast benchmark")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.memory", args.driver_memory)
             .config("spark.driver.maxResultSize", "0")
             .config("spark.executorEnv.PYTHONPATH", os.environ.get("PYTHONPATH", ""))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    print(f"session started in {time.perf_counter() - t0:.1f} s (pyspark "
          f"{spark.version}, Python {sys.version.split()[0]})")
    jvm = int(spark.sparkContext._jvm.ProcessHandle.current().pid())
    me = os.getpid()
    df = spark.read.parquet(directory)
    print(f"{rows:,} rows, {args.segments} segments, {df.rdd.getNumPartitions()} partitions")

    results = []

    def phase(name, f, timeout=None):
        for pid in (me, jvm):
            reset_peak(pid)
        t = time.perf_counter()
        box: list = []

        def run():
            try:
                box.append(f())
            except Exception as exc:            # reported, not hidden: e.g. out of memory
                box.append(exc)
        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        limit = timeout or args.timeout
        worker.join(limit)
        if worker.is_alive():
            spark.sparkContext.cancelAllJobs()
            worker.join()
            box[:] = [TimeoutError(f"cancelled after {limit:.0f} s")]
        out = box[0]
        seconds = time.perf_counter() - t
        results.append((name, seconds, peak_mb(me), peak_mb(jvm)))
        shown = f"{type(out).__name__}: {str(out)[:200]}" if isinstance(out, Exception) else ""
        print(f"{name:<58} {seconds:8.1f} s  driver Python {results[-1][2]:7.0f} MB  "
              f"JVM {results[-1][3]:7.0f} MB {shown}", flush=True)
        return out

    if not args.quick:
        phase("warm-up: read every column once",
              lambda: df.selectExpr("sum(y)", "sum(m1)", "sum(m2)", "sum(seg)").collect())
    exact = phase("indist_fast.spark.evaluate, one score (m1)",
                  lambda: indist_fast.spark.evaluate(df, label="y", score="m1"))
    one_seconds = results[-1][1]
    mllib = {}
    for bins in (1000,) if args.quick else (1000, 0):
        for metric in ("areaUnderROC",) if args.quick else ("areaUnderROC", "areaUnderPR"):
            ev = BinaryClassificationEvaluator(rawPredictionCol="m1", labelCol="y",
                                               metricName=metric, numBins=bins)
            limit = None if args.mllib_timeout_ratio is None else \
                args.mllib_timeout_ratio * one_seconds
            mllib[bins, metric] = got = phase(f"MLlib {metric}, numBins={bins}, m1",
                                              lambda: ev.evaluate(df), limit)
            if not isinstance(got, Exception) and not isinstance(exact, Exception):
                want = exact.auc if metric == "areaUnderROC" else exact.average_precision
                print(f"    {got:.12f}, minus the exact value {want:.12f}: {got - want:+.3e}",
                      flush=True)
    table = None if args.no_segments else phase(
        f"indist_fast.spark.evaluate, 2 models x {args.segments} segments",
        lambda: indist_fast.spark.evaluate(df, label="y", score=["m1", "m2"], by="seg"))
    if rows <= args.collect_max and not args.quick:
        def collect():
            rows_here = df.toArrow()
            return indist_fast.evaluate_many(rows_here, label="y", score=["m1", "m2"],
                                             by="seg")
        collected = phase("collect to the driver (toArrow) + evaluate_many", collect)
    else:
        collected = None
    spark.stop()

    print()
    if not isinstance(exact, Exception):
        for (bins, metric), got in mllib.items():
            if isinstance(got, Exception):
                continue
            want = exact.auc if metric == "areaUnderROC" else exact.average_precision
            print(f"MLlib numBins={bins} {metric}: {got:.12f}, minus the exact "
                  f"{'AUC' if metric == 'areaUnderROC' else 'average precision'}: "
                  f"{got - want:+.3e}")
        print(f"exact (indist_fast): AUC {exact.auc:.12f}, threshold r_b {exact.threshold:.6f}, "
              f"precision C(r_b) {exact.precision:.6f}")
    if collected is not None and not isinstance(collected, Exception) \
            and table is not None and not isinstance(table, Exception):
        diff = max(abs(a - b) for a, b in zip(table.columns["auc"], collected.columns["auc"]))
        print(f"segments table against evaluate_many on the collected rows: max |AUC diff| "
              f"{diff:.1e}")
    ours = {name: s for name, s, _, _ in results}
    one = ours["indist_fast.spark.evaluate, one score (m1)"]
    for bins in (1000,) if args.quick else (1000, 0):
        name = f"MLlib areaUnderROC, numBins={bins}, m1"
        bound = ">= " if isinstance(mllib[bins, "areaUnderROC"], TimeoutError) else ""
        print(f"ratio MLlib AUC (numBins={bins}) / indist_fast one score: "
              f"{bound}{ours[name] / one:.2f}")


if __name__ == "__main__":
    main()
