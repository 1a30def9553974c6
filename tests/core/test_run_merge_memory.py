"""The out-of-core merge (``_runs.summarize_runs``) gives back the pages of the runs
it has read: a run used up keeps none, so many small runs no longer stay resident."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import indist_fast
from indist_fast.table.score_table import with_main_level
from reports import assert_reports_equal
from indist_fast.results.report import Report

_runs = pytest.importorskip("indist_fast._core._runs")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc/self/smaps")

N_RUNS, RUN_LEN = 64, 32_768          # 64 runs of 256 KB: each far below the old 4 MB step


def _resident_bytes(path):
    """Resident bytes of this process's mappings of ``path`` (/proc/self/smaps)."""
    total, inside = 0, False
    with open("/proc/self/smaps") as fh:
        for line in fh:
            head = line.split()
            if head and "-" in head[0] and len(head) >= 5:       # a mapping's first line
                inside = len(head) >= 6 and head[-1] == str(path)
            elif inside and head[0] == "Rss:":
                total += int(head[1]) * 1024
    return total


@pytest.fixture
def runs(tmp_path):
    rng = np.random.default_rng(5)
    path = tmp_path / "runs.bin"
    positive = (np.arange(N_RUNS) % 3 == 0)[:, None]
    data = np.sort(np.round(rng.normal(size=(N_RUNS, RUN_LEN)) + positive, 3), axis=1)
    data.tofile(path)
    mapped = np.memmap(path, dtype=np.float64, mode="r", shape=(N_RUNS, RUN_LEN))
    yield path, data, [(mapped[k], k % 3 == 0) for k in range(N_RUNS)]
    del mapped


def test_used_up_runs_keep_no_pages(runs):
    path, data, mapped = runs
    for scores, _ in mapped:
        scores.sum()                                   # every page resident
    assert _resident_bytes(path) >= data.nbytes // 2
    levels = with_main_level((0.4, 0.5, 0.6))
    got = _runs.summarize_runs(mapped, levels, True)
    # At most the two partial pages at the ends of each run stay mapped.
    assert _resident_bytes(path) <= N_RUNS * 2 * os.sysconf("SC_PAGESIZE")
    y = np.repeat([k % 3 == 0 for k in range(N_RUNS)], RUN_LEN)
    want = indist_fast.evaluate(y, data.ravel())
    assert_reports_equal(Report.from_sweep(got, (0.4, 0.5, 0.6), len(y), True), want)


@pytest.mark.parametrize("held_bytes", [0, 4096, 1 << 20, 1 << 30])
def test_release_step_does_not_change_the_result(runs, held_bytes):
    _, data, mapped = runs
    levels = with_main_level((0.5,))
    base = _runs.summarize_runs(mapped, levels, True)
    got = _runs.summarize_runs(mapped, levels, True, held_bytes=held_bytes)
    assert got._replace(crossings=None) == base._replace(crossings=None)
    np.testing.assert_array_equal(got.crossings, base.crossings)
