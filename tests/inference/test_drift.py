"""The drift tests' parts: DeLong's AUC and variance per segment equal ``delong`` on
each segment's rows (both of its paths: counted without weights, grouped with them),
and the two-sample z statistic's edge cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

import indist_fast
from indist_fast._core.validation import prepare_rows
from indist_fast.inference.drift import segment_delong, two_sample_z


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("ties", [False, True])
def test_each_segment_is_delong_on_its_rows(backend, weights, ties):
    rng = np.random.default_rng(5)
    n = 900
    codes = rng.integers(0, 4, n)
    y = rng.integers(0, 2, n)
    s = y * 0.8 + rng.normal(size=n)
    s = np.round(s, 1) if ties else s
    w = rng.integers(0, 3, n).astype(float) if weights else None
    y[codes == 3] = 1                                    # a segment of one class
    auc, variance = segment_delong(prepare_rows(y, s, w), codes, 5)
    for g in range(3):
        inside = codes == g
        want = indist_fast.delong(y[inside], s[inside],
                                  sample_weight=None if w is None else w[inside])
        assert auc[g] == pytest.approx(want.auc, rel=1e-13)
        assert variance[g] == pytest.approx(want.variance, rel=1e-12)
    assert np.isnan(auc[3]) and np.isnan(variance[3])   # one class
    assert np.isnan(auc[4]) and np.isnan(variance[4])   # no rows


def test_one_copy_of_a_class_has_an_auc_but_no_variance(backend):
    auc, variance = segment_delong(prepare_rows([0, 1, 0, 0], [.1, .9, .2, .3]),
                                   np.zeros(4, dtype=np.int64), 1)
    assert auc[0] == 1.0 and np.isnan(variance[0])


def test_two_sample_z_edges():
    value = np.array([0.7, 0.8, 0.8, 0.9, np.nan])
    variance = np.array([0.0, 0.0, 1e-4, np.nan, 1e-4])
    diff, z, p = two_sample_z(value, variance, 0.8, 0.0, np.array([0, 1, 0, 0, 0], bool))
    assert z[0] == -math.inf and p[0] == 0.0            # a difference with no variance
    assert np.isnan(z[1]) and np.isnan(diff[1])          # the reference's own
    assert z[2] == 0.0 and p[2] == 1.0
    assert np.isnan(z[3]) and np.isnan(z[4])             # undefined variance or value
    d, z, p = two_sample_z(np.array([0.75]), np.array([1e-4]), 0.8, 3e-4,
                           np.array([False]))
    assert z[0] == pytest.approx(-0.05 / 0.02) and p[0] == pytest.approx(
        math.erfc(2.5 / math.sqrt(2)))
