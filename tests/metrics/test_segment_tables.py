"""``segment_tables``: a ReportTable from per-segment score tables, or from tables of
disjoint segments, equals ``evaluate_many`` on the rows, bit for bit."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import indist_fast
from indist_fast import IndistFastWarning
from indist_fast.metrics.segment_tables import concat_tables, from_score_tables
from indist_fast.table.score_table import ScoreTable


def assert_tables_equal(want, got):
    assert list(want.columns) == list(got.columns)
    for name in want.columns:
        a, b = want.columns[name], got.columns[name]
        if a.dtype == object:
            assert a.tolist() == b.tolist(), name
        else:
            np.testing.assert_array_equal(a, b, err_msg=name)


def _quiet(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return f(*args, **kwargs)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 300), n_groups=st.integers(1, 8),
       weighted=st.booleans(), exclude_self=st.booleans())
def test_tables_give_evaluate_many(backend, seed, n, n_groups, weighted, exclude_self):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s1 = np.round(rng.normal(size=n), 1)             # ties within and across segments
    s2 = np.round(rng.normal(size=n) + y, 1)
    g = rng.integers(0, n_groups, n)
    w = rng.integers(0, 3, n).astype(float) if weighted else None
    want = _quiet(indist_fast.evaluate_many, y, {"a": s1, "b": s2}, groups=g, sample_weight=w,
                  exclude_self=exclude_self)
    segs = np.unique(g)
    tabs = [[ScoreTable.from_arrays(y[g == k], s[g == k],
                                    sample_weight=None if w is None else w[g == k])
             for k in segs] for s in (s1, s2)]
    got = _quiet(from_score_tables, ["group"], {"group": segs}, ["a", "b"], tabs,
                 exclude_self=exclude_self)
    assert_tables_equal(want, got)
    for i in range(len(got)):
        if not got.columns["one_class"][i]:
            a = _quiet(want.report, model=want.columns["model"][i], group=want.columns["group"][i])
            b = _quiet(got.report, model=got.columns["model"][i], group=got.columns["group"][i])
            assert a == b
    half = len(segs) // 2
    if half:
        parts = [_quiet(from_score_tables, ["group"], {"group": part}, ["a", "b"],
                        [t[sl] for t in tabs], exclude_self=exclude_self)
                 for part, sl in ((segs[:half], slice(None, half)), (segs[half:], slice(half, None)))]
        assert_tables_equal(want, concat_tables(parts))


def test_bad_pieces_are_named():
    t = ScoreTable.from_arrays([0, 1], [0.2, 0.7])
    with pytest.raises(ValueError, match="tables: one list per model"):
        from_score_tables(["g"], {"g": [1]}, ["a", "b"], [[t]])
    with pytest.raises(ValueError, match=r"segments\['g'\]"):
        from_score_tables(["g"], {"g": [1, 2]}, ["a"], [[t]])
    with pytest.raises(ValueError, match=r"tables\[1\]"):
        from_score_tables(["g"], {"g": [1]}, ["a", "b"], [[t], [t, t]])
    with pytest.raises(ValueError, match="levels"):
        from_score_tables(["g"], {"g": [1]}, ["a"], [[t]], levels=(2.0,))
    with pytest.raises(ValueError, match="tables: nothing"):
        concat_tables([])
    a = from_score_tables(["g"], {"g": [1]}, ["a"], [[t]])
    b = from_score_tables(["g"], {"g": [2]}, ["a"], [[t]], levels=(0.5,))
    with pytest.raises(ValueError, match="tables: the tables differ"):
        concat_tables([a, b])
