"""Every argument of a public function is checked on every call, whether or not that
call uses it: ``evaluate(y, s, confidence=7)`` without ``n_boot`` is as wrong as with
it, and a script that works today must not start failing when someone adds ``n_boot``.
Each case passes one bad value for an argument the rest of the call leaves unused
(or uses only after something else would have failed) and expects its name in the
error."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import indist_fast
from indist_fast import population
from indist_fast.html import report_html

Y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
S = np.array([0.1, 0.9, 0.3, 0.7, 0.6, 0.2, 0.8, 0.5])
S2 = S[::-1].copy()
G = np.array([1, 1, 1, 1, 2, 2, 2, 2])

# (id, call, the argument its message must name)
CASES: list[tuple[str, Callable[[], Any], str]] = []


def case(name: str, argument: str, call: Callable[[], Any]) -> None:
    CASES.append((name, call, argument))


BAD = {"confidence": 7, "seed": "x", "progress": "x", "stratified": "x", "level": 7,
       "n_boot": 1}

# without n_boot: confidence, seed and progress serve only the bootstrap
for arg in ("confidence", "seed", "progress"):
    case(f"evaluate-{arg}", arg, lambda arg=arg: indist_fast.evaluate(Y, S, **{arg: BAD[arg]}))
    case(f"evaluate_many-{arg}", arg, lambda arg=arg: indist_fast.evaluate_many(
        Y, S, groups=Y, **{arg: BAD[arg]}))
    case(f"report_html-{arg}", arg, lambda arg=arg: report_html(Y, S, **{arg: BAD[arg]}))
    case(f"compare_delong-{arg}", arg, lambda arg=arg: indist_fast.compare(
        Y, S, S2, **{arg: BAD[arg]}))
for arg in ("seed", "progress", "stratified"):
    case(f"operating_point_intervals-{arg}", arg, lambda arg=arg: (
        indist_fast.operating_point_intervals(Y, S, 0.5, **{arg: BAD[arg]})))
for arg in ("stratified", "level"):
    case(f"compare_delong-{arg}", arg, lambda arg=arg: indist_fast.compare(
        Y, S, S2, **{arg: BAD[arg]}))
case("compare_delong-n_boot", "n_boot", lambda: indist_fast.compare(Y, S, S2, n_boot=1))
case("report_html-n_boot", "n_boot", lambda: report_html(Y, S, n_boot=1))
case("report_html-log", "log", lambda: report_html(Y, S, log="x"))
case("compare_bootstrap-correction", "correction", lambda: indist_fast.compare(
    Y, S, S2, method="bootstrap", n_boot=5, correction="x"))
case("bootstrap_auc-level", "level", lambda: indist_fast.bootstrap(
    Y, S, n_boot=5, metrics=("auc",), level=7))
case("bootstrap_auc-exclude_self", "exclude_self", lambda: indist_fast.bootstrap(
    Y, S, n_boot=5, metrics=("auc",), exclude_self="x"))
case("roc_auc-standardized", "standardized", lambda: indist_fast.roc_auc(
    Y, S, standardized="x"))
case("evaluate_file-seed", "seed", lambda: indist_fast.evaluate_file(
    "no-such-file.csv", label="y", score="s", seed="x"))
case("evaluate_file-confidence", "confidence", lambda: indist_fast.evaluate_file(
    "no-such-file.csv", label="y", score="s", confidence=7))
# an empty accumulator: the levels are wrong before the rows are missing
case("Accumulator.result-levels", "levels", lambda: indist_fast.Accumulator().result(
    levels=[7]))
case("Accumulator.result-exclude_self", "exclude_self", lambda: (
    indist_fast.Accumulator().result(exclude_self="x")))
# a Binormal has no prevalence of its own: the level is wrong whatever the prevalence
case("Binormal.threshold-level", "level", lambda: (
    population.Binormal(1.0).indistinguishability_threshold(level=7)))
case("Binormal.precision-level", "level", lambda: (
    population.Binormal(1.0).precision_at_indistinguishability(level=7)))


@pytest.mark.parametrize("call,argument", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_bad_argument_is_refused_by_name_even_when_unused(call, argument):
    with pytest.raises((ValueError, TypeError), match=rf"\b{argument}\b"):
        call()


def test_the_confidence_message_gives_the_allowed_range():
    with pytest.raises(ValueError, match=r"confidence .*\(0, 1\)|confidence.*between"):
        indist_fast.evaluate(Y, S, confidence=7)


def test_a_good_seed_without_n_boot_is_accepted_and_changes_nothing():
    assert indist_fast.evaluate(Y, S, seed=1) == indist_fast.evaluate(Y, S)
    plain = indist_fast.evaluate_many(Y, S, groups=G)
    seeded = indist_fast.evaluate_many(Y, S, groups=G, seed=1, confidence=0.9)
    np.testing.assert_array_equal(plain.columns["auc"], seeded.columns["auc"])
    got = indist_fast.operating_point_intervals(Y, S, 0.5, seed=np.random.SeedSequence(4))
    assert np.isnan(got.tpr.bootstrap_low)

