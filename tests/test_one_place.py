"""Issue 11: one helper per idea across the facade.

``check_real`` is the one scalar checker; these tests pin its edge cases directly and
through the public functions that call it (on both backends, which must refuse alike).
"""

from __future__ import annotations

from fractions import Fraction
import math

import numpy as np
import pytest

import indist_fast
from indist_fast._core.validation import check_level, check_real
from indist_fast.inference import pairs
from indist_fast.resolving_power import Binormal

Y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
S = np.array([0.1, 0.9, 0.3, 0.6, 0.4, 0.5, 0.8, 0.2])


# --- check_real ---------------------------------------------------------------------------

@pytest.mark.parametrize("value", [True, False, np.bool_(True), "0.5", None, 1j,
                                   np.complex128(1), [0.5], np.array([0.5])])
def test_check_real_refuses_non_reals_naming_the_argument(value):
    with pytest.raises(TypeError, match="^width must be a real number, got "):
        check_real(value, "width")


@pytest.mark.parametrize("value", [3, np.int8(3), np.uint64(3), np.float32(3.0),
                                   np.float64(3.0), Fraction(3), 3.0])
def test_check_real_accepts_every_real_type_as_a_plain_float(value):
    out = check_real(value, "width")
    assert type(out) is float and out == float(value)


@pytest.mark.parametrize("value", [math.nan, np.float32("nan")])
@pytest.mark.parametrize("finite", [True, False])
def test_check_real_always_refuses_nan(value, finite):
    with pytest.raises(ValueError, match="^width must "):
        check_real(value, "width", finite=finite)


@pytest.mark.parametrize("value", [math.inf, -math.inf, 10**400, -(10**400)],
                         ids=["inf", "-inf", "huge", "-huge"])
def test_check_real_infinity_only_when_asked(value):
    with pytest.raises(ValueError, match="^width must be finite"):
        check_real(value, "width")
    assert check_real(value, "width", finite=False) == (math.inf if value > 0 else -math.inf)


@pytest.mark.parametrize("kw, inside, outside", [
    ({"low": 0.0}, [0.0, 5.0], [-1e-300]),
    ({"low": 0.0, "low_open": True}, [1e-300], [0.0, -1.0]),
    ({"high": 1.0}, [1.0, -5.0], [np.nextafter(1.0, 2.0)]),
    ({"high": 1.0, "high_open": True}, [np.nextafter(1.0, 0.0)], [1.0]),
    ({"low": 0.0, "high": 1.0}, [0.0, 1.0, 0.5], [-0.1, 1.1]),
    ({"low": 0.0, "high": 1.0, "low_open": True, "high_open": True}, [0.5], [0.0, 1.0]),
])
def test_check_real_bounds_match_a_plain_comparison(kw, inside, outside):
    for v in inside:
        assert check_real(v, "x", **kw) == v
    for v in outside:
        with pytest.raises(ValueError, match=r"^x must (lie|be) .*got "):
            check_real(v, "x", **kw)


def test_check_real_words_its_range_and_takes_callers_words():
    with pytest.raises(ValueError, match=r"^x must lie strictly between 0 and 1, got 1\.0\.$"):
        check_real(1.0, "x", low=0, high=1, low_open=True, high_open=True)
    with pytest.raises(ValueError, match=r"^x must lie in \(0, 1\], got 0\.$"):
        check_real(0, "x", low=0, high=1, low_open=True)
    with pytest.raises(ValueError, match=r"^x must be >= 2 and finite, got inf\.$"):
        check_real(math.inf, "x", low=2)
    with pytest.raises(ValueError, match=r"^x must not be NaN, got nan\.$"):
        check_real(math.nan, "x", finite=False)
    with pytest.raises(ValueError, match=r"^x must be a count, got -1\.$"):
        check_real(-1, "x", low=0, must="be a count")
    with pytest.raises(TypeError, match=r"^x must hold numbers, got 'a'\.$"):
        check_real("a", "x", kind="hold numbers")


def test_check_real_leaves_its_input_alone():
    value = np.float64(0.25)
    check_real(value, "x", low=0, high=1)
    assert value == 0.25 and type(value) is np.float64


@pytest.mark.parametrize("value", [0.0, 1.0, math.nan, -math.inf])
def test_check_level_is_check_real_on_the_open_unit_interval(value):
    with pytest.raises(ValueError, match="^level must lie strictly between 0 and 1"):
        check_level(value)
    assert check_level(np.float32(0.5)) == 0.5


# --- the callers: same refusals on both backends ----------------------------------------

@pytest.mark.parametrize("call, error, match", [
    (lambda: indist_fast.evaluate(Y, S, levels=[True]), TypeError, "levels must be a real"),
    (lambda: indist_fast.evaluate(Y, S, levels=[math.nan]), ValueError, "levels must lie"),
    (lambda: indist_fast.bootstrap(Y, S, n_boot=10, confidence=np.bool_(True)), TypeError,
     "confidence must be a real"),
    (lambda: indist_fast.bootstrap(Y, S, n_boot=10, confidence=math.inf), ValueError,
     "confidence must lie"),
    (lambda: pairs.sample_b(Y, S, math.nan, 10), ValueError, "threshold must not be NaN"),
    (lambda: pairs.sample_b(Y, S, True, 10), TypeError, "threshold must be a real"),
    (lambda: pairs.sample_b_curve(Y, S, [0.1, "x"], 10), TypeError,
     "thresholds must hold real numbers"),
    (lambda: indist_fast.hanley_mcneil_se(0.8, 10**400, 10), ValueError,
     "n_pos must be a finite count"),
    (lambda: indist_fast.hanley_mcneil_se(math.nan, 10, 10), ValueError, "auc must lie in"),
    (lambda: Binormal(10**400), ValueError, "mu must be finite"),
    (lambda: Binormal(1.0, np.bool_(True)), TypeError, "sigma must be a real number"),
    (lambda: Binormal(1.0).precision(math.nan, 0.5), ValueError, "r must be a threshold"),
    (lambda: Binormal.for_auc(Fraction(1)), ValueError, "auc must lie strictly between"),
])
def test_callers_refuse_through_check_real(backend, call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_callers_accept_what_check_real_accepts(backend):
    assert Binormal.for_auc(Fraction(3, 4)).auc == pytest.approx(0.75, abs=1e-12)
    assert pairs.sample_b(Y, S, np.float32(0.5), 20, seed=0).n_pairs == 20
    assert pairs.sample_b(Y, S, -math.inf, 20, seed=0).n_pairs == 20
    se = indist_fast.hanley_mcneil_se(np.float32(0.75), np.int64(40), Fraction(60))
    a = 0.75
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    want = math.sqrt((a * (1 - a) + 39 * (q1 - a * a) + 59 * (q2 - a * a)) / 2400)
    assert se == pytest.approx(want, rel=1e-15)
