"""Integer labels of every NumPy width reach the kernels with their values intact.

The kernels are compiled for uint8, int8, int32, int64, float32 and float64 labels
(``_core/types.pxd``); the validation brings the other widths there without changing a
value, and sends integers beyond 2**53 (where float64, in which labels are matched,
would merge neighbours) down the exact path of Python ints.
"""

from __future__ import annotations

import numpy as np
import pytest

import indist_fast
from indist_fast._core.validation import _LABEL_DTYPES, prepare_rows

RNG = np.random.default_rng(11)
N = 300
CLASS = RNG.integers(0, 2, N).astype(bool)
S = np.round(RNG.normal(CLASS * 0.8, 1.0), 2)       # rounded: ties
WANT = indist_fast.evaluate(CLASS, S)

INTEGER_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
                  np.uint64]


def _coded(dtype, neg, pos):
    return np.where(CLASS, pos, neg).astype(dtype)


def _same(report):
    assert report.auc == WANT.auc
    assert report.threshold == WANT.threshold
    assert report.precision == WANT.precision


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
@pytest.mark.parametrize("order", ["<", ">"])
def test_every_integer_width_gives_the_same_report(backend, dtype, order):
    info = np.iinfo(dtype)
    for neg, pos in [(0, 1), (info.min, info.max), (info.max - 1, info.max)]:
        y = _coded(np.dtype(dtype).newbyteorder(order), neg, pos)
        rows = prepare_rows(y, S, None, pos if (neg, pos) != (0, 1) else None)
        assert rows.y.dtype in _LABEL_DTYPES or rows.y.dtype == np.uint8
        if abs(int(neg)) <= 2**53 and abs(int(pos)) <= 2**53:
            # the same values, only a wider or signed dtype
            np.testing.assert_array_equal(rows.y.astype(object), y.astype(object))
        _same(indist_fast.evaluate(y, S, pos_label=None if (neg, pos) == (0, 1) else pos))


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_labels_beyond_2_53_are_told_apart(backend, dtype):
    # As float64 both labels are 2**60: matched there, every row would be positive.
    neg, pos = 2**60, 2**60 + 1
    y = _coded(dtype, neg, pos)
    _same(indist_fast.evaluate(y, S, pos_label=pos))
    flipped = indist_fast.roc_auc(y, S, pos_label=neg)
    assert flipped == pytest.approx(1.0 - WANT.auc, abs=1e-12)


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_a_third_label_is_shown_with_its_own_value(backend, dtype):
    info = np.iinfo(dtype)
    pos = int(min(info.max, 2**60))
    y = _coded(dtype, 0, pos)
    y[37] = pos - 1                     # between the two classes: found in the rows' pass
    with pytest.raises(ValueError, match=rf"y_true .*{pos - 1}"):
        indist_fast.evaluate(y, S, pos_label=pos)


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_a_foreign_pos_label_is_shown_exactly(backend, dtype):
    big = int(np.iinfo(dtype).max)
    y = _coded(dtype, 0, big)
    with pytest.raises(ValueError, match=rf"pos_label=1 is not .*\b{big}\b"):
        indist_fast.evaluate(y, S, pos_label=1)
