"""power_roc_test against pROC's power.roc.test (pinned and live), its internal
consistency (solving back for what was given) and bad input."""
from __future__ import annotations

import pytest

import indist_fast
from proc_pinned_power import CASES, PINNED
from rproc import r_numbers

FIELD = {"power": "power", "n_cases": "n_cases", "sig_level": "sig_level", "auc": "auc"}


@pytest.mark.parametrize("case, value", list(zip(CASES, PINNED)), ids=range(len(CASES)))
def test_pinned_proc(case, value):
    kwargs, field, _ = case
    assert getattr(indist_fast.power_roc_test(**kwargs), field) == pytest.approx(
        value, rel=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=range(len(CASES)))
def test_live_proc(case):
    kwargs, field, expr = case
    value = r_numbers(f'cat(sprintf("%.17g", {expr}))')[0]
    assert getattr(indist_fast.power_roc_test(**kwargs), field) == pytest.approx(
        value, rel=1e-9)


@pytest.mark.parametrize("kwargs", [case[0] for case in CASES], ids=range(len(CASES)))
def test_solving_back_gives_what_was_given(kwargs):
    """Every solution, given back with another unknown, returns the given value."""
    first = indist_fast.power_roc_test(**kwargs)
    base = {k: v for k, v in kwargs.items()
            if k not in ("n_cases", "n_controls", "kappa", "power", "sig_level", "auc")}
    if first.auc2 is None:
        base["auc"] = first.auc
    else:
        base["auc"] = kwargs["auc"]
    sizes = {"n_cases": first.n_cases, "n_controls": first.n_controls}
    again = indist_fast.power_roc_test(**base, **sizes, sig_level=first.sig_level)
    assert again.power == pytest.approx(first.power, rel=1e-9)
    again = indist_fast.power_roc_test(**base, kappa=first.kappa, sig_level=first.sig_level,
                                       power=first.power)
    assert again.n_cases == pytest.approx(first.n_cases, rel=1e-9)
    assert again.n_controls == pytest.approx(first.n_controls, rel=1e-9)


def test_record():
    r = indist_fast.power_roc_test(auc=0.8, power=0.9)
    assert r.solved_for == "n" and r.kappa == 1.0 and r.auc2 is None
    assert r.to_dict()["alternative"] == "two-sided"
    assert "solved for n" in str(r)
    assert indist_fast.power_roc_test(auc=0.8, power=0.9, alternative="two.sided") == r


@pytest.mark.parametrize("kwargs, match", [
    ({"auc": 0.8}, "exactly one"),
    ({"auc": 0.8, "n_cases": 10, "power": 0.8, "sig_level": 0.05}, "exactly one"),
    ({"auc": 1.2, "n_cases": 10}, "auc"),
    ({"auc": 0.8, "n_cases": -1}, "n_cases"),
    ({"auc": 0.8, "n_cases": 10, "n_controls": 10, "kappa": 2.0}, "kappa"),
    ({"auc": 0.8, "n_cases": 10, "power": 1.0, "sig_level": None}, "power"),
    ({"auc": 0.8, "n_cases": 10, "alternative": "less"}, "alternative"),
    ({"auc": 0.8, "n_cases": 10, "slope": 2.0}, "two curves"),
    ({"auc2": 0.7, "n_cases": 10, "power": 0.8}, "both AUCs"),
    ({"auc": 0.7, "auc2": 0.7, "power": 0.8}, "equal"),
    ({"auc": 0.8, "auc2": 0.7, "n_cases": 10, "r_cases": 1.5}, "r_cases"),
    ({"n_cases": 2, "power": 0.99, "sig_level": 0.001}, "no AUC"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        indist_fast.power_roc_test(**kwargs)


def test_type_errors():
    with pytest.raises(TypeError, match="auc"):
        indist_fast.power_roc_test(auc="0.8", n_cases=10)
    with pytest.raises(TypeError):
        indist_fast.power_roc_test(0.8, 10)
