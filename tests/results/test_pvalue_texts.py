"""p-values that underflow print as a bound, never as ``p = 0``."""

from __future__ import annotations

import numpy as np

import indist_fast

rng = np.random.default_rng(1)
N = 200_000
Y = rng.random(N) < 0.2
P = np.round(1 / (1 + np.exp(-(rng.normal(size=N) + 3 * Y - 1.5))), 3)


def test_hosmer_lemeshow_and_ks_underflow_print_as_bounds():
    cal = indist_fast.calibration(Y, P)
    assert cal.hosmer_lemeshow_pvalue == 0.0
    assert "on 8 df, p < 1e-300" in str(cal) and "p = 0" not in str(cal)
    ks = indist_fast.ks(Y, P)
    assert ks.pvalue == 0.0 and "p-value < 1e-300" in str(ks)
    small = indist_fast.calibration(Y[:300], P[:300])
    assert 0 < small.hosmer_lemeshow_pvalue and f"p = {small.hosmer_lemeshow_pvalue:.4g}" in str(small)
