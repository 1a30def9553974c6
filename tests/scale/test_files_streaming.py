"""Files, accumulator and out-of-core: every path equals in-memory ``evaluate``."""

from __future__ import annotations

import gc
import os
import pickle
import threading
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cases import rows
from procfs import HAS_PROC, held_files_in
import indist_fast
from reports import assert_reports_equal
from indist_fast import Accumulator, IndistFastWarning, evaluate_file
from indist_fast.scale.files import parse_memory

rng = np.random.default_rng(3)
N = 120_000
Y = (rng.random(N) < 0.25).astype(np.uint8)
S = np.round(rng.normal(size=N) + Y, 2).astype(np.float32)     # ties across chunks
W = rng.integers(0, 4, N).astype(np.float64)


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*a, **k)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("data")
    out = {}
    np.savez(out.setdefault("npz", d / "d.npz"), y=Y, s=S, w=W)
    np.savez_compressed(out.setdefault("npz_compressed", d / "c.npz"), y=Y, s=S, w=W)
    rec = np.zeros(N, dtype=[("y", "u1"), ("s", "f4"), ("w", "f8")])
    rec["y"], rec["s"], rec["w"] = Y, S, W
    np.save(out.setdefault("npy", d / "d.npy"), rec)
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.table({"y": Y, "s": S, "w": W}), out.setdefault("parquet", d / "d.parquet"),
                   row_group_size=17_000)
    with open(out.setdefault("csv", d / "d.csv"), "w") as fh:
        fh.write("y,s,w\n" + "".join(f"{a},{b!r},{c!r}\n" for a, b, c in
                                     zip(Y.tolist(), S.astype(float).tolist(), W.tolist())))
    return out


KINDS = ["npz", "npz_compressed", "npy", "parquet", "csv"]


@pytest.mark.slow
@pytest.mark.parametrize("limit", [None, "600kB"])       # in memory / many runs on disk
@pytest.mark.parametrize("kind", KINDS)
def test_file_equals_in_memory(files, kind, limit):
    got = quiet(evaluate_file, files[kind], label="y", score="s", memory_limit=limit,
                progress=False)
    assert_reports_equal(got, quiet(indist_fast.evaluate, Y, S))
    assert got.n_rows == N


@pytest.mark.parametrize("limit", [None, "600kB"])
@pytest.mark.parametrize("kind", KINDS)
def test_weighted_file_equals_in_memory(files, kind, limit):
    got = quiet(evaluate_file, files[kind], label="y", score="s", weight="w",
                memory_limit=limit, progress=False)
    assert_reports_equal(got, quiet(indist_fast.evaluate, Y, S, sample_weight=W))


def test_out_of_core_on_the_numpy_backend(files, backend):
    got = quiet(evaluate_file, files["npz"], label="y", score="s", memory_limit="600kB",
                progress=False)
    assert_reports_equal(got, quiet(indist_fast.evaluate, Y, S))


@pytest.mark.skipif(not HAS_PROC, reason="needs Linux /proc")
def test_runs_are_removed_after_success_and_failure(files, tmp_path, monkeypatch):
    quiet(evaluate_file, files["npy"], label="y", score="s", memory_limit="600kB",
          tmp_dir=str(tmp_path), progress=False)
    assert os.listdir(tmp_path) == [] and held_files_in(tmp_path) == []
    from indist_fast._core import _runs

    def broken(runs, *args, **kwargs):
        assert len(runs) > 2                            # many runs, all on disk in tmp_dir,
        assert held_files_in(tmp_path) != []           # mapped while merging
        assert os.listdir(tmp_path) == []               # yet never named there
        raise RuntimeError("injected failure")

    monkeypatch.setattr(_runs, "summarize_runs", broken)
    with pytest.raises(RuntimeError, match="injected failure"):
        evaluate_file(files["npy"], label="y", score="s", memory_limit="600kB",
                      tmp_dir=str(tmp_path), progress=False)
    gc.collect()                                        # the failing mock's frame held them
    assert os.listdir(tmp_path) == [] and held_files_in(tmp_path) == []


@pytest.mark.parametrize("kind", ["npz", "npy", "parquet"])
def test_truncated_files_are_clear_errors(files, kind, tmp_path):
    data = files[kind].read_bytes()
    bad = tmp_path / f"bad{files[kind].suffix}"
    bad.write_bytes(data[: len(data) * 2 // 3])
    with pytest.raises(ValueError, match="truncated|could not be read|corrupt"):
        evaluate_file(bad, label="y", score="s", progress=False)


def test_missing_column_and_bad_limit(files):
    with pytest.raises(ValueError, match="score: column 'p' is not in"):
        evaluate_file(files["npz"], label="y", score="p")
    with pytest.raises(ValueError, match="memory_limit must be bytes"):
        evaluate_file(files["npz"], label="y", score="s", memory_limit="lots")
    assert parse_memory("1GB") == 10**9 and parse_memory("2 MiB") == 2 * 2**20
    assert parse_memory(None) > 0


@pytest.mark.slow
@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=rows(max_n=60), cuts=st.lists(st.integers(0, 60), max_size=6),
       order=st.randoms(use_true_random=False))
def test_accumulator_any_chunking_any_order(backend, case, cuts, order):
    y, s, w = case
    bounds = sorted({0, len(s), *[c for c in cuts if c < len(s)]})
    chunks = [(y[a:b], s[a:b], None if w is None else w[a:b])
              for a, b in zip(bounds[:-1], bounds[1:])]
    order.shuffle(chunks)
    halves = [Accumulator(), Accumulator()]
    for i, chunk in enumerate(chunks):
        halves[i % 2].update(*chunk)
    acc = halves[0].merge(halves[1])
    assert acc.n_rows == len(s)
    assert_reports_equal(quiet(acc.result), quiet(indist_fast.evaluate, y, s, sample_weight=w))


def test_accumulator_pickles_and_reads_from_threads():
    acc = Accumulator()
    for i in range(0, N, 10_000):
        acc.update(Y[i:i + 10_000], S[i:i + 10_000])
    again = pickle.loads(pickle.dumps(acc))
    assert_reports_equal(quiet(again.result), quiet(indist_fast.evaluate, Y, S))
    results = []
    threads = [threading.Thread(target=lambda: results.append(acc.result(levels=(0.5,)).auc))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(results)) == 1
    with pytest.raises(TypeError, match="must be an Accumulator"):
        acc.merge(3)


def test_cli_evaluate_uses_the_file_path(files, capsys):
    from indist_fast.cli import main
    assert main(["evaluate", str(files["npy"]), "--label", "y", "--score", "s",
                 "--memory-limit", "600kB", "--no-progress", "--json"]) == 0
    import json
    got = json.loads(capsys.readouterr().out)
    assert got["auc"] == pytest.approx(quiet(indist_fast.evaluate, Y, S).auc, rel=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("limit", [None, "600kB"])
def test_bad_rows_are_named_by_their_row_in_the_file(backend, tmp_path, limit, weighted):
    # Out of core the rows are checked chunk by chunk; the error must still name the
    # file's row, exactly as evaluate on the whole arrays does.
    cases = {"nan": (Y, np.where(np.arange(N) == 77_777, np.nan, S), W),
             "weight": (Y, S, np.where(np.arange(N) == 88_888, -1.0, W)),
             "label": (np.where(np.arange(N) == 99_999, 0.5, Y), S, W)}
    # The file's error is the in-memory one under the role, column and file at fault.
    columns = {"nan": "score: column 's'", "weight": "weight: column 'w'",
               "label": "label: column 'y'"}
    for name, (y, s, w) in cases.items():
        if name == "weight" and not weighted:
            continue
        path = tmp_path / f"{name}.npz"
        np.savez(path, y=y, s=s, w=w)
        with pytest.raises(ValueError) as in_memory:
            indist_fast.evaluate(y, s, sample_weight=w if weighted else None)
        with pytest.raises(ValueError) as from_file:
            evaluate_file(path, label="y", score="s", weight="w" if weighted else None,
                          memory_limit=limit, progress=False)
        assert str(from_file.value) == f"{columns[name]} of {path}: {in_memory.value}"
        assert "at row" in str(from_file.value)
