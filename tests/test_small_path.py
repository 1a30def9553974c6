"""The one-call path of few unweighted rows (``fast.summarize`` up to ``SMALL_ROWS``)
gives what the general path and the NumPy reference give, and leaves bad rows and one
class to the general path."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cases import rows
from indist_fast._core import _kernels, fast as _fast, reference as _reference
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
    assert _kernels.summarize_small(y, s, 1.0, 0.0, LEVELS, True) is not None
    nan = s.copy()
    nan[2] = np.nan
    third = np.array([0, 1, 2, 0], np.uint8)
    one = np.ones(4, np.uint8)
    for yy, ss in ((y, nan), (third, s), (one, s), (y[:3], s)):
        assert _kernels.summarize_small(yy, ss, 1.0, 0.0, LEVELS, True) is None
    # no negative label seen at all (neg_value NaN): one class
    assert _kernels.summarize_small(one, s, 1.0, np.nan, LEVELS, True) is None
