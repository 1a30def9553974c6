"""direction: the spellings, pROC's median rule for "auto", and its warning."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from indist_fast._core.direction import check_direction, orient_rows, weighted_median
from indist_fast._core.validation import prepare_rows
from indist_fast.errors import DirectionWarning


def test_spellings():
    assert [check_direction(d) for d in ("higher", "<", "lower", ">", "auto")] == [
        "higher", "higher", "lower", "lower", "auto"]
    for bad in ("up", None, 1):
        with pytest.raises(ValueError, match="direction"):
            check_direction(bad)


def test_weighted_median_is_r_median_for_unit_weights():
    rng = np.random.default_rng(0)
    for n in (1, 2, 7, 10):
        x = rng.normal(size=n)
        assert weighted_median(x, np.ones(n)) == pytest.approx(np.median(x))
        assert weighted_median(x, None) == np.median(x)
    assert weighted_median(np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, 5.0])) == 3.0


def test_auto_follows_the_medians_as_proc():
    rows = prepare_rows([0, 0, 1, 1], [0.9, 0.8, 0.1, 0.95])   # medians 0.85 and 0.525
    with pytest.warns(DirectionWarning, match="lower"):
        out, flipped = orient_rows(rows, "auto")
    assert flipped and out.s.tolist() == [-0.9, -0.8, -0.1, -0.95]
    assert rows.s.tolist() == [0.9, 0.8, 0.1, 0.95]             # the input kept
    rows = prepare_rows([0, 0, 1, 1], [0.5, 0.2, 0.3, 0.4])     # equal medians: higher
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out, flipped = orient_rows(rows, "auto")
    assert not flipped and out is rows
    out, flipped = orient_rows(rows, "lower")
    assert flipped and out.s.tolist() == [-0.5, -0.2, -0.3, -0.4]
