"""Arrays the engine returns are read by field name: a crossing row and a bootstrap
replicate row name their columns, and the names read what the engine wrote there."""

from __future__ import annotations

import numpy as np

from indist_fast._core.engine import engine
from indist_fast._core.records import (CROSSING_WIDTH, REPLICATE_HEAD, REPLICATE_POINT,
                                       Crossing, crossing_fields, replicate_fields)
from indist_fast.table.score_table import ScoreTable

Y = np.array([0, 0, 1, 1, 0, 1, 1, 0, 1, 0])
S = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.7, 0.55, 0.6, 0.3])


def test_a_crossing_names_the_operating_point(backend):
    levels = np.array([0.5, 0.6])
    result = engine().summarize(Y, S, None, 1.0, 0.0, levels, True)
    assert result.crossings.shape == (2, CROSSING_WIDTH)
    curves = ScoreTable.from_arrays(Y, S).curves()
    for k, level in enumerate(levels):
        point = crossing_fields(result.crossings[k])
        j = int(point.index)
        assert j == int(np.flatnonzero(curves.b >= level)[0])   # the first reaching it
        assert point.threshold == curves.thresholds[j]
        assert (point.tp, point.fp) == (curves.tp[j], curves.fp[j])
        assert point.b == curves.b[j]


def test_the_crossing_order_is_the_one_reports_unpack():
    # OperatingPoint unpacks a row positionally on the service-call path (no NamedTuple)
    assert Crossing._fields == ("index", "threshold", "tp", "fp", "b")


def test_crossing_fields_are_views_along_the_last_axis():
    rows = np.arange(2 * 3 * CROSSING_WIDTH, dtype=np.float64).reshape(2, 3, CROSSING_WIDTH)
    point = crossing_fields(rows)
    assert point.threshold.shape == (2, 3)
    np.testing.assert_array_equal(point.b, rows[..., Crossing._fields.index("b")])
    assert np.shares_memory(point.tp, rows)


def test_a_replicate_row_names_its_columns():
    rows = np.arange(3 * (REPLICATE_HEAD + 2 * REPLICATE_POINT),
                     dtype=np.float64).reshape(3, -1)
    second = replicate_fields(rows, level=1)
    np.testing.assert_array_equal(second.auc, rows[:, 2])
    np.testing.assert_array_equal(second.threshold, rows[:, REPLICATE_HEAD + REPLICATE_POINT])
    np.testing.assert_array_equal(second.b, rows[:, -1])
