"""one helper per idea across the facade.

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
from indist_fast.inference import sampling as pairs
from indist_fast.metrics.resolving_power import Binormal

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


# --- operating_rates: one precision / lift / rates / F1 formula -------------------------

W = np.array([1.0, 2.0, 0.5, 1.5, 3.0, 1.0, 0.25, 2.0])


def _brute_rates(y, s, w, t):
    """The rates of the rule ``score >= t``, counted row by row."""
    on = s >= t
    tp, fp = w[on & (y == 1)].sum(), w[on & (y == 0)].sum()
    wp, wn = w[y == 1].sum(), w[y == 0].sum()
    precision = tp / (tp + fp)
    return {"precision": precision, "lift": precision / (wp / (wp + wn)), "tpr": tp / wp,
            "fpr": fp / wn, "f1": 2 * tp / (tp + fp + wp)}


def test_operating_rates_matches_row_counts_on_scalars_and_arrays():
    from indist_fast._core.rates import operating_rates
    wp, wn = W[Y == 1].sum(), W[Y == 0].sum()
    thresholds = np.sort(S)[::-1]
    tp = np.array([W[(S >= t) & (Y == 1)].sum() for t in thresholds])
    fp = np.array([W[(S >= t) & (Y == 0)].sum() for t in thresholds])
    arrays = operating_rates(tp, fp, wp, wn)
    for j, t in enumerate(thresholds):
        scalar = operating_rates(float(tp[j]), float(fp[j]), float(wp), float(wn))
        for name, want in _brute_rates(Y, S, W, t).items():
            assert type(getattr(scalar, name)) is float
            assert getattr(scalar, name) == pytest.approx(want, rel=1e-15)
            assert getattr(arrays, name)[j] == getattr(scalar, name)


def test_operating_rates_clamps_and_never_raises_on_empty_classes():
    from indist_fast._core.rates import operating_rates
    r = operating_rates(np.array([0.0, 1.0 + 1e-16, 2.0]), np.array([0.0, 0.0, 0.0]), 1.0, 0.0)
    assert np.isnan(r.precision[0]) and r.precision[1] == 1.0 and r.tpr[2] == 1.0
    assert np.isnan(r.fpr).all()
    one = operating_rates(0.0, 0.0, 0.0, 0.0)
    assert all(math.isnan(v) for v in one)


def test_operating_rates_scalar_path_is_the_array_path_to_the_bit():
    import itertools
    from indist_fast._core.rates import operating_rates
    edge = [0.0, -0.0, 1.0, 2.5, 1e308, 5e-324, math.inf, math.nan]
    for args in itertools.product(edge, repeat=4):
        scalar = operating_rates(*args)
        array = operating_rates(*(np.array([v]) for v in args))
        for name, x, a in zip(scalar._fields, scalar, array):
            assert type(x) is float
            assert x == a[0] or (math.isnan(x) and math.isnan(a[0])), (args, name)


def test_report_curves_and_bootstrap_read_the_same_rates(backend):
    report = indist_fast.evaluate(Y, S, sample_weight=W)
    curves = indist_fast.curves(Y, S, sample_weight=W)
    at = int(np.flatnonzero(curves.thresholds == report.threshold)[0])
    boot = indist_fast.bootstrap(Y, S, sample_weight=W, n_boot=3, seed=0,
                                 metrics=("precision", "lift", "tpr", "fpr", "f1"))
    want = _brute_rates(Y, S, W, report.threshold)
    for name, value in want.items():
        assert getattr(report, name) == pytest.approx(value, rel=1e-15)
        assert boot[name].estimate == getattr(report, name)
        if name != "lift":
            assert getattr(curves, name)[at] == getattr(report, name)


# --- one metrics-argument reader ----------------------------------------------------------

@pytest.mark.parametrize("metrics, error, match", [
    (5, TypeError, "^metrics must be a metric name, a callable"),
    ([5], TypeError, "^metrics: '5' must be a metric name or a callable, got int"),
    ({"x": 1.5}, TypeError, "^metrics: 'x' must be a metric name or a callable, got float"),
    (["gini"], ValueError, "^metrics: unknown metric 'gini'; built-in metrics are "),
])
def test_bootstrap_and_resolving_power_read_metrics_alike(backend, metrics, error, match):
    from indist_fast.metrics.resolving_power import Empirical, noise
    with pytest.raises(error, match=match):
        indist_fast.bootstrap(Y, S, n_boot=3, metrics=metrics)
    with pytest.raises(error, match=match):
        noise(Empirical(Y, S), metrics, n_rep=3)


def test_resolving_power_offers_only_the_binormal_metrics(backend):
    from indist_fast.metrics.resolving_power import METRICS, Empirical, noise
    from indist_fast.inference.bootstrap import METRICS as BOOTSTRAP_METRICS
    assert set(METRICS) < set(BOOTSTRAP_METRICS)
    with pytest.raises(ValueError, match="unknown metric 'lift'; built-in metrics are auc, "
                                         "average_precision, precision,"):
        noise(Empirical(Y, S), ["lift"], n_rep=3)
    with pytest.raises(ValueError, match="at least one metric"):
        indist_fast.bootstrap(Y, S, n_boot=3, metrics=[])
    assert list(noise(Empirical(Y, S), [], n_rep=3, seed=0).values) == ["auc"]


# --- record_dict: one to_dict --------------------------------------------------------------

def _oracle_plain(value):
    """JSON's view of a value, independent of the library's helpers."""
    import dataclasses
    if isinstance(value, (tuple, list, np.ndarray)):
        return [_oracle_plain(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, (np.integer, np.bool_)):
        return value.item()
    if dataclasses.is_dataclass(value):
        return {f.name: _oracle_plain(getattr(value, f.name))
                for f in dataclasses.fields(value)}
    return value


@pytest.mark.slow
def test_every_record_to_dict_is_its_fields_as_json(backend):
    import json
    from indist_fast.metrics.resolving_power import Binormal, compare_metrics
    report = indist_fast.evaluate(Y, S)
    boot = indist_fast.bootstrap(Y, S, n_boot=5, seed=0)
    table = compare_metrics(Binormal.for_auc(0.8), n=200, prevalence=0.3, n_rep=20, seed=0)
    records = [report.at[0.5], indist_fast.curves(Y, S), indist_fast.delong(Y, S),
               indist_fast.delong_test(Y, S, S[::-1]), pairs.sample_auc(Y, S, 50, seed=0),
               boot["auc"], table.rows[1]]
    for record in records:
        got = record.to_dict()
        want = _oracle_plain(record)
        want.pop("replicates", None)
        assert got == want and list(got) == list(want), type(record).__name__
        assert json.loads(json.dumps(got)) == got
    d = report.to_dict()
    assert list(d)[-2:] == ["at", "intervals"] and d["at"]["0.5"] == report.at[0.5].to_dict()
    assert boot.to_dict()["intervals"]["auc"] == boot["auc"].to_dict()
    t = table.to_dict()
    assert list(t) == ["model", "auc", "n", "prevalence", "n_rep", "rows"]
    assert t["rows"] == [r.to_dict() for r in table.rows]


# --- check_columns: one "column ... is not in" --------------------------------------------

def test_missing_columns_read_alike_in_files_and_tables(tmp_path):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"y": Y, "p": S})
    path = tmp_path / "rows.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"^score: column 'q' is not in the table; "
                                         r"available columns: 'y', 'p'\.$"):
        indist_fast.evaluate(frame, label="y", score="q")
    with pytest.raises(ValueError, match=rf"^weight: column 'w' is not in {path}; "
                                         r"available columns: 'y', 'p'\.$"):
        indist_fast.evaluate_file(str(path), label="y", score="p", weight="w")


# --- Noise reads its replicates through Interval -------------------------------------------

def test_noise_interval_is_the_bootstrap_interval_of_its_replicates():
    from indist_fast.inference.bootstrap import Interval
    from indist_fast.metrics.resolving_power import Noise
    values = np.array([0.3, np.nan, 0.1, 0.7, 0.5, 0.2])
    noise_ = Noise({"m": values})
    low, high = noise_.interval("m", 0.8)
    ok = values[~np.isnan(values)]
    assert (low, high) == (float(np.quantile(ok, 0.1)), float(np.quantile(ok, 0.9)))
    assert noise_.std_error("m") == float(np.std(ok, ddof=1))
    assert values.flags.writeable          # the caller's array is not frozen
    iv = Interval.from_replicates("m", 0.4, values, 0.8)
    assert values.flags.writeable and not iv.replicates.flags.writeable
    with pytest.raises(ValueError, match="m is undefined"):
        Noise({"m": np.array([np.nan])}).interval("m")
