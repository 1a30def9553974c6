"""Out of core without leftovers or surprises: killed runs leave no files, tmp_dir is
checked before reading, a full disk says where and how much, memory_limit bounds the
readers (measured in child processes)."""

from __future__ import annotations

import errno
import gc
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning, evaluate_file
from children import CHILD_CWD, child_env
from procfs import HAS_PROC, held_files_in
from reports import assert_reports_equal

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="needs Linux /proc")

N = 150_000
LIMIT = "600kB"              # about 12 chunks: two dozen runs
rng = np.random.default_rng(11)
Y = (rng.random(N) < 0.3).astype(np.int8)
S = np.round(rng.normal(size=N) + Y, 3).astype(np.float32)


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*a, **k)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    path = tmp_path_factory.mktemp("data") / "d.npz"
    np.savez(path, y=Y, s=S)
    return path


# --- killed runs --------------------------------------------------------------------------------

HANG = textwrap.dedent("""
    import sys, tempfile, time
    from indist_fast import evaluate_file
    from indist_fast._core import _runs
    data, runs, ready, o_tmpfile = sys.argv[1:5]
    if o_tmpfile == "0":      # as on file systems without O_TMPFILE: mkstemp, then unlink
        tempfile._O_TMPFILE_WORKS = False

    def hang(*args, **kwargs):
        open(ready, "w").close()
        time.sleep(300)

    _runs.summarize_runs = hang
    evaluate_file(data, label="y", score="s", memory_limit="%s", tmp_dir=runs,
                  progress=False)
""" % LIMIT)


@pytest.mark.parametrize("o_tmpfile", [True, False])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_killed_run_leaves_no_file(data, tmp_path, sig, o_tmpfile):
    runs, ready = tmp_path / "runs", tmp_path / "ready"
    runs.mkdir()
    proc = subprocess.Popen([sys.executable, "-c", HANG, str(data), str(runs), str(ready),
                             "1" if o_tmpfile else "0"], env=child_env(), cwd=CHILD_CWD,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not ready.exists():
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "the child never reached the merge"
            time.sleep(0.05)
        held = held_files_in(runs, proc.pid)
        assert held and all(h.endswith("(deleted)") for h in held)   # runs on disk there,
        assert os.listdir(runs) == []                                # but never named
        os.kill(proc.pid, sig)
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    assert proc.returncode == -sig
    assert os.listdir(runs) == []
    got = quiet(evaluate_file, data, label="y", score="s", memory_limit=LIMIT,
                tmp_dir=runs, progress=False)                        # the next run
    assert_reports_equal(got, quiet(indist_fast.evaluate, Y, S))
    assert os.listdir(runs) == [] and held_files_in(runs) == []


# --- tmp_dir and a full disk ------------------------------------------------------------------

@pytest.mark.parametrize("make, error, message", [
    (lambda p: p / "missing", ValueError, "tmp_dir: no such folder"),
    (lambda p: (p / "file").write_text("x") and p / "file", ValueError,
     "tmp_dir: .* is not a folder"),
    (lambda p: 3, TypeError, "tmp_dir must be a folder name"),
])
def test_tmp_dir_is_checked_before_reading(data, tmp_path, monkeypatch, make, error, message):
    bad = make(tmp_path)
    for limit in (None, LIMIT):                   # data that fit in memory, and not
        with pytest.raises(error, match=message):
            evaluate_file(data, label="y", score="s", tmp_dir=bad, memory_limit=limit)

    def no_reading(*args, **kwargs):
        raise AssertionError("the file was opened before tmp_dir was checked")

    monkeypatch.setattr(indist_fast.scale.files, "open_source", no_reading)
    with pytest.raises(error, match=message):
        evaluate_file(data, label="y", score="s", tmp_dir=bad)


def test_a_full_disk_names_the_folder_and_the_bytes(data, tmp_path, monkeypatch):
    real_write, room = os.write, [100_003]      # a few runs fit, one only in part

    def filling(fd, chunk):
        if room[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = real_write(fd, memoryview(chunk)[:room[0]])
        room[0] -= n
        return n

    need = N * S.itemsize                         # one float32 score a row, on disk
    with monkeypatch.context() as m:
        m.setattr(os, "write", filling)
        with pytest.raises(ValueError, match=rf"tmp_dir: no space left in "
                                             rf"{re.escape(str(tmp_path))} .*100,003 bytes "
                                             rf"written.* need about {need:,} bytes"):
            evaluate_file(data, label="y", score="s", memory_limit=LIMIT, tmp_dir=tmp_path,
                          progress=False)
    gc.collect()
    assert os.listdir(tmp_path) == [] and held_files_in(tmp_path) == []


def test_too_little_space_is_found_before_writing(data, tmp_path, monkeypatch):
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage._replace(free=1000))

    def no_writing(*args):
        raise AssertionError("a run was written")

    monkeypatch.setattr(os, "write", no_writing)
    with pytest.raises(ValueError, match=rf"tmp_dir: {re.escape(str(tmp_path))} has 1,000 "
                                         rf"bytes free; the sorted runs need {N * 4:,}"):
        evaluate_file(data, label="y", score="s", memory_limit=LIMIT, tmp_dir=tmp_path,
                      progress=False)


# --- memory_limit bounds the readers --------------------------------------------------------------

PEAK = textwrap.dedent("""
    import sys, warnings
    import numpy, pyarrow, pyarrow.csv, pyarrow.compute, pyarrow.parquet
    from indist_fast import evaluate_file
    from indist_fast._core import _runs
    from procfs import no_huge_pages, peak_rss_bytes
    no_huge_pages()
    warnings.simplefilter("ignore")
    small, big, limit = sys.argv[1:4]
    # A first run loads what every run loads (thread pools, kernels, the readers'
    # buffers), then the peak is reset to the current resident set: what is left is the
    # run's own memory. (A quarter of the limit: the small file too goes out of core,
    # as the big one does; within the limit a Parquet file is decoded whole.)
    evaluate_file(small, label="y", score="s", memory_limit=int(limit) // 4,
                  progress=False)
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
    base = peak_rss_bytes()
    merge, reading = _runs.summarize_runs, []

    def measured(*args, **kwargs):          # every chunk has been read and sorted
        reading.append(peak_rss_bytes() - base)
        return merge(*args, **kwargs)

    _runs.summarize_runs = measured
    evaluate_file(big, label="y", score="s", memory_limit=limit, progress=False)
    print(reading[0], peak_rss_bytes() - base)
""")


def write_log(path, n, seed):
    pa = pytest.importorskip("pyarrow")
    r = np.random.default_rng(seed)
    y = r.random(n) < 0.3
    table = pa.table({"y": y.astype(np.int8), "s": np.round(r.normal(size=n) + y, 6),
                      "w": np.ones(n)})
    if path.suffix == ".csv":
        import pyarrow.csv as pcsv
        pcsv.write_csv(table, path)
    elif path.suffix == ".parquet":
        import pyarrow.parquet as pq
        pq.write_table(table, path, row_group_size=n)        # one row group: all of it
    else:
        np.savez_compressed(path, y=table["y"].to_numpy(), s=table["s"].to_numpy())


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".csv", ".parquet", ".npz"])
def test_memory_limit_bounds_the_readers(tmp_path, suffix):
    n = 2_300_000                     # 16 bytes a row in memory: 37 MB; as CSV, 30 MB
    small, big = tmp_path / f"small{suffix}", tmp_path / f"big{suffix}"
    write_log(small, 300_000, 1)
    write_log(big, n, 2)
    if suffix == ".csv":
        assert big.stat().st_size > 30e6
    limit = 10_000_000
    out = subprocess.run([sys.executable, "-c", PEAK, str(small), str(big), str(limit)],
                         env=child_env(), cwd=CHILD_CWD, capture_output=True, text=True,
                         timeout=600)
    if "clear_refs" in out.stderr:
        pytest.skip("cannot reset the peak resident set (/proc/self/clear_refs)")
    assert out.returncode == 0, out.stderr
    reading, peak = map(int, out.stdout.split()[-2:])
    # Reading and sorting every chunk into runs. Measured: CSV 4.5 MB, Parquet 11 MB,
    # compressed .npz 7 MB; before the readers were bounded 86, 34 and 24 MB.
    assert reading < 2 * limit, f"{suffix}: {reading / 1e6:.1f} MB while reading"
    # The merge maps the run files (8 bytes a row) and keeps the pages it has read
    # resident, up to 4 MB a run: here all of them.
    assert peak < 2 * limit + 8 * n, f"{suffix}: {peak / 1e6:.1f} MB in all"
