"""The one-call path of few unweighted rows (``fast.summarize`` up to ``SMALL_ROWS``)
gives what the general path and the NumPy reference give, and leaves bad rows and one
class to the general path."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cases import rows
from indist_fast._core import _sorted, fast as _fast, reference as _reference
from indist_fast._core.validation import prepare_rows
from test_kernels import assert_sweeps_equal

LEVELS = np.array([0.4, 0.5, 0.6])


def _summaries(r, exclude_self, monkeypatch):
    args = (r.y, r.s, None, r.pos_value, r.neg_value, LEVELS, exclude_self)
    small = _fast.summarize(*args)
    with monkeypatch.context() as m:
        m.setattr(_fast, "SMALL_ROWS", 0)
        general = _fast.summarize(*args)
    return small, general, _reference.summarize(*args)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(case=rows(weighted=False), exclude_self=st.booleans())
def test_small_path_equals_the_general_path_and_the_reference(case, exclude_self):
    y, s, _ = case
    r = prepare_rows(y, s)
    with pytest.MonkeyPatch.context() as mp:
        small, general, ref = _summaries(r, exclude_self, mp)
    assert_sweeps_equal(small, general)
    assert_sweeps_equal(small, ref)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_small_kernel_declines_bad_rows_and_one_class(dtype):
    y = np.array([0, 1, 1, 0], np.uint8)
    s = np.array([0.1, 0.9, -0.0, 0.0], dtype)
    assert _sorted.summarize_small(y, s, 1.0, 0.0, LEVELS, True) is not None
    nan = s.copy()
    nan[2] = np.nan
    third = np.array([0, 1, 2, 0], np.uint8)
    one = np.ones(4, np.uint8)
    for yy, ss in ((y, nan), (third, s), (one, s), (y[:3], s)):
        assert _sorted.summarize_small(yy, ss, 1.0, 0.0, LEVELS, True) is None
    # no negative label seen at all (neg_value NaN): one class
    assert _sorted.summarize_small(one, s, 1.0, np.nan, LEVELS, True) is None


# --- the facade's plain path: arrays reach the kernel unscanned ------------------------------

PLAIN_LABELS = [
    lambda y: y.astype(bool), lambda y: y.astype(np.int64), lambda y: y.astype(np.uint8),
    lambda y: y.astype(np.float64), lambda y: np.where(y == 1, 1, -1),      # {-1, 1}: long way
    lambda y: y.astype(np.int16),                                           # not a kernel dtype
]


@pytest.mark.parametrize("make_y", PLAIN_LABELS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_plain_calls_equal_the_long_way(backend, make_y, dtype):
    import indist_fast
    from indist_fast._core import validation
    rng = np.random.default_rng(7)
    y01 = rng.integers(0, 2, 500)
    y, s = make_y(y01), np.round(rng.normal(y01 * 1.2, 1.0), 2).astype(dtype)
    y_before, s_before = y.copy(), s.copy()
    got = (indist_fast.evaluate(y, s), indist_fast.roc_auc(y, s),
           indist_fast.average_precision(y, s), indist_fast.precision_at_indistinguishability(y, s))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(validation, "PLAIN_ROWS", 0)         # every call the long way
        # (metrics imported the function, not the constant: it reads it at call time)
        want = (indist_fast.evaluate(y, s), indist_fast.roc_auc(y, s),
                indist_fast.average_precision(y, s),
                indist_fast.precision_at_indistinguishability(y, s))
    assert got[0] == want[0] and got[1:] == want[1:]
    np.testing.assert_array_equal(y, y_before)
    np.testing.assert_array_equal(s, s_before)


@pytest.mark.parametrize("y, s, match", [
    (np.ones(5, np.int64), np.arange(5.0), "only positives"),
    (np.zeros(5, bool), np.arange(5.0), "only negatives"),
    (np.array([0, 1, 2, 1]), np.arange(4.0), "third label 2 at row 2 "),
    (np.array([0, 1, 0, 1]), np.array([0.1, np.nan, 0.2, 0.3]), r"NaN \(first at row 1\)"),
    (np.array([0.0, 1.0, np.nan, 1.0]), np.arange(4.0), "y_true contains NaN"),
])
def test_plain_calls_with_bad_rows_raise_as_the_long_way(backend, y, s, match):
    import indist_fast
    for fn in (indist_fast.evaluate, indist_fast.roc_auc):
        with pytest.raises(ValueError, match=match):
            fn(y, s)


def test_plain_rows_takes_only_what_the_kernel_reads():
    from indist_fast._core.validation import PLAIN_ROWS, plain_rows
    y, s = np.array([0, 1, 1, 0]), np.array([0.1, 0.2, 0.3, 0.4])
    assert plain_rows(y, s) is not None
    assert plain_rows(y, s).y is y and plain_rows(y, s).s is s       # views, no copies
    assert plain_rows(y.astype(bool), s).y.base is not None
    for args in ((y, s, np.ones(4)), (y, s, None, 1), (list(y), s), (y, list(s)),
                 (y[::2], s[::2].copy()), (y, s.astype(">f8")), (y, s.astype(np.int64)),
                 (y[:3], s), (y.reshape(2, 2), s.reshape(2, 2)), (y[:0], s[:0]),
                 (np.zeros(PLAIN_ROWS + 1, np.int64), np.zeros(PLAIN_ROWS + 1))):
        assert plain_rows(*args) is None, args


def test_reports_built_without_init_are_whole(backend):
    # Report.from_sweep builds its records without the dataclass __init__ (speed):
    # every field is set and the records equal those the constructor makes.
    import dataclasses
    import indist_fast
    from indist_fast.results.report import OperatingPoint, Report
    r = indist_fast.evaluate([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    for record, cls in [(r, Report)] + [(p, OperatingPoint) for p in r.at.values()]:
        fields = {f.name: getattr(record, f.name) for f in dataclasses.fields(cls)}
        assert set(vars(record)) == set(fields)
        assert cls(**fields) == record
    assert r.intervals is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.auc = 0.5


def test_a_service_call_report_is_the_dataclass_its_fields_build():
    """Reports and their points are built from dict literals, not their ``__init__``:
    they must hold exactly the fields, in order, and equal, hash, copy and pickle as
    the dataclasses built from the same values do."""
    import copy
    import dataclasses
    import pickle

    import indist_fast
    from indist_fast.results.report import OperatingPoint, Report

    rng = np.random.default_rng(3)
    y = rng.random(1000) < 0.1
    s = rng.normal(size=1000) + 1.5 * y
    with pytest.warns(indist_fast.LevelNotReachedWarning):
        r = indist_fast.evaluate(y, s, levels=(0.3, 0.5, 0.99))      # 0.99: not reached
    for record, cls in [(r, Report)] + [(p, OperatingPoint) for p in r.at.values()]:
        names = [f.name for f in dataclasses.fields(cls)]
        assert list(vars(record)) == names
        rebuilt = cls(**{name: getattr(record, name) for name in names})
        assert repr(rebuilt) == repr(record)
        # (NaN fields of the point not reached compare unequal once copied, as they
        # would in any dataclass: compare their text there)
        assert repr(pickle.loads(pickle.dumps(record))) == repr(record)
        assert repr(copy.deepcopy(record)) == repr(record)
        with pytest.raises(dataclasses.FrozenInstanceError):
            record.level = 0.1          # type: ignore[misc]
    reached = indist_fast.evaluate(y, s)             # no NaN field
    assert pickle.loads(pickle.dumps(reached)) == reached
    assert copy.deepcopy(reached) == reached
    point = r.at[0.5]
    assert hash(point) == hash(OperatingPoint(**vars(point)))
    assert dataclasses.replace(r, n_rows=5).n_rows == 5 and r.n_rows == 1000
