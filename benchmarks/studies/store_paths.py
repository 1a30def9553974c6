"""Local files keep their speed now that ``evaluate_file`` reads URIs: this checkout
against a baseline checkout (before object stores), paired, on the same local files;
and, for scale, the same folder read from a local S3-compatible server (moto).
``--this`` another copy of the baseline gives the A/A ratios: the noise of the host.

    python benchmarks/studies/store_paths.py --base /tmp/base [--rows 2e6] [--rep 5] [--s3]
    python benchmarks/studies/store_paths.py --base /tmp/base --this /tmp/base2   (A/A)

``--base`` is a checkout of the baseline whose compiled kernels are in place (e.g.
``git archive <commit> indist_fast | tar -x -C /tmp/base`` and a copy of
``indist_fast/_core/*.so``). The data are written once: a hive folder of Parquet files
(``day=K/``, 8 files), one Parquet file and one ``.csv.gz``. Each timing is a fresh
child process (``evaluate_file`` alone, progress off), baseline and this checkout
alternated ``--rep`` times; the printed ratio is the median of the paired ratios
(this / baseline: 1.00 is no change). With ``--s3`` the folder is also copied to a
moto server on 127.0.0.1 and read as ``s3://...`` by this checkout (a local server on
a shared machine: no network, so the ratio to disk is the overhead of the S3 protocol
and HTTP, not of a real store's latency or bandwidth).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CHILD = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")
import indist_fast
path, by = sys.argv[1], sys.argv[2]
kw = dict(label="y", score=["p"], by=by) if by != "-" else dict(label="y", score="p")
t0 = time.perf_counter()
r = indist_fast.evaluate_file(path, progress=False, **kw)
dt = time.perf_counter() - t0
auc = r.auc if by == "-" else float(r.columns["auc"].sum())
print(json.dumps({"seconds": dt, "auc": auc, "module": indist_fast.__file__}))
"""


def write(folder: str, rows: int) -> dict[str, tuple[str, str]]:
    import pyarrow as pa
    import pyarrow.csv as pcsv
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, rows).astype(np.int8)
    table = pa.table({"y": y, "p": (0.3 * y + rng.random(rows)).astype(np.float32),
                      "day": rng.integers(1, 9, rows).astype(np.int32)})
    ds.write_dataset(table, os.path.join(folder, "logs"), format="parquet",
                     partitioning=["day"], partitioning_flavor="hive")
    pq.write_table(table, os.path.join(folder, "one.parquet"), row_group_size=1 << 18)
    with pa.CompressedOutputStream(os.path.join(folder, "one.csv.gz"), "gzip") as f:
        pcsv.write_csv(table.slice(0, rows // 4), f)
    return {"hive folder, by=day": (os.path.join(folder, "logs"), "day"),
            "one .parquet": (os.path.join(folder, "one.parquet"), "-"),
            "one .csv.gz (rows/4)": (os.path.join(folder, "one.csv.gz"), "-")}


def run(root: str, path: str, by: str, env: dict[str, str] | None = None) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, path, by], capture_output=True,
                         text=True, check=True, cwd=tempfile.gettempdir(),
                         env={**os.environ, **(env or {}), "PYTHONPATH": root})
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True, help="baseline checkout (kernels in place)")
    ap.add_argument("--this", default=HERE, help="the checkout measured (default: this one)")
    ap.add_argument("--rows", type=float, default=2e6)
    ap.add_argument("--rep", type=int, default=5)
    ap.add_argument("--s3", action="store_true", help="also read the folder from moto")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cases = write(folder, int(args.rows))
        print(f"rows {int(args.rows):,}; median of {args.rep} paired runs, fresh processes")
        print(f"{'case':<24} {'baseline s':>11} {'this s':>8} {'this/base':>10}")
        for name, (path, by) in cases.items():
            base, new, ratios = [], [], []
            for _ in range(args.rep):
                a, b = run(args.base, path, by), run(args.this, path, by)
                assert a["auc"] == b["auc"], (a, b)
                assert a["module"].startswith(args.base) and b["module"].startswith(args.this)
                base.append(a["seconds"])
                new.append(b["seconds"])
                ratios.append(b["seconds"] / a["seconds"])
            print(f"{name:<24} {statistics.median(base):>11.3f} {statistics.median(new):>8.3f} "
                  f"{statistics.median(ratios):>10.2f}")
        if args.s3:
            s3(folder, cases["hive folder, by=day"][0], args.rep)


def s3(folder: str, logs: str, rep: int) -> None:
    import logging
    import boto3
    import pyarrow.fs as pafs
    from moto.server import ThreadedMotoServer
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    srv = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    srv.start()
    try:
        host, port = srv.get_host_and_port()
        endpoint = f"http://{host}:{port}"
        env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
               "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": endpoint,
               "AWS_EC2_METADATA_DISABLED": "true"}
        boto3.client("s3", endpoint_url=endpoint, aws_access_key_id="testing",
                     aws_secret_access_key="testing",
                     region_name="us-east-1").create_bucket(Bucket="bench-logs")
        fs = pafs.S3FileSystem(access_key="testing", secret_key="testing", scheme="http",
                               endpoint_override=f"{host}:{port}", region="us-east-1")
        pafs.copy_files(logs, "bench-logs/logs", destination_filesystem=fs)
        disk, store, ratios = [], [], []
        for _ in range(rep):
            a = run(HERE, logs, "day")
            b = run(HERE, "s3://bench-logs/logs/", "day", env)
            assert a["auc"] == b["auc"], (a, b)
            disk.append(a["seconds"])
            store.append(b["seconds"])
            ratios.append(b["seconds"] / a["seconds"])
        print(f"{'hive folder, s3:// moto':<24} {statistics.median(disk):>11.3f} "
              f"{statistics.median(store):>8.3f} {statistics.median(ratios):>10.2f}"
              "   (baseline column: the same folder on disk, this checkout)")
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
