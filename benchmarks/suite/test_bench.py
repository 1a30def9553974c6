"""pytest-benchmark suite: ``python -m pytest benchmarks/suite --benchmark-enable``.

Each benchmark times the function in its name; inputs are built once per parameter,
outside the timed call. Compare groups (same n and variant) to read ratios against
np.sort and scikit-learn measured in the same run.
"""

from __future__ import annotations

import os
import sys
import warnings

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _inputs import SIZES, VARIANTS, make  # noqa: E402

import indist_fast  # noqa: E402

CASES = [(n, v) for n in SIZES for v in VARIANTS]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]:.0e}-{c[1]}")
def data(request):
    n, variant = request.param
    return (n, variant) + make(n, variant)


def _group(benchmark, n, variant):
    benchmark.group = f"n={n:.0e} {variant}"


def test_np_sort(benchmark, data):
    n, variant, y, s, w = data
    _group(benchmark, n, variant)
    benchmark(np.sort, s)


def test_evaluate(benchmark, data):
    n, variant, y, s, w = data
    _group(benchmark, n, variant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", indist_fast.IndistFastWarning)
        benchmark(indist_fast.evaluate, y, s, sample_weight=w)


def test_roc_auc(benchmark, data):
    n, variant, y, s, w = data
    _group(benchmark, n, variant)
    benchmark(indist_fast.roc_auc, y, s, sample_weight=w)


def test_sklearn_roc_auc_score(benchmark, data):
    metrics = pytest.importorskip("sklearn.metrics")
    n, variant, y, s, w = data
    _group(benchmark, n, variant)
    if n >= 10**7:
        benchmark.pedantic(metrics.roc_auc_score, args=(y, s), kwargs={"sample_weight": w},
                           rounds=1, iterations=1)
    else:
        benchmark(metrics.roc_auc_score, y, s, sample_weight=w)


@pytest.fixture(scope="module")
def rows_1e5():
    return make(100_000, "continuous")[:2]


@pytest.fixture(scope="module")
def rows_1e6():
    return make(1_000_000, "continuous")[:2]


def test_bootstrap_1000(benchmark, rows_1e5):
    benchmark.group = "bootstrap n=1e5"
    benchmark.pedantic(indist_fast.bootstrap, args=rows_1e5,
                       kwargs={"n_boot": 1000, "seed": 0, "metrics": ("auc", "precision")},
                       rounds=3, iterations=1)


def test_delong(benchmark, rows_1e6):
    benchmark.group = "delong n=1e6"
    benchmark(indist_fast.delong, *rows_1e6)


def test_evaluate_1e6(benchmark, rows_1e6):
    benchmark.group = "delong n=1e6"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", indist_fast.IndistFastWarning)
        benchmark(indist_fast.evaluate, *rows_1e6)


def test_compare_defaults_1e6(benchmark, rows_1e6):
    """``compare(y, a, b)`` as called bare: the AUC by DeLong, at most about 3x
    ``test_evaluate_1e6`` per score (benchmarks/studies/compare_defaults.py)."""
    benchmark.group = "delong n=1e6"
    y, a = rows_1e6
    b = a + np.random.default_rng(1).normal(size=len(a))
    benchmark(indist_fast.compare, y, a, b, progress=False)


@pytest.fixture(scope="module")
def probabilities_1e7():
    y, s, _ = make(10_000_000, "continuous")
    return y, 1.0 / (1.0 + np.exp(-s))


def test_compare_methods_1e7(benchmark, probabilities_1e7):
    from indist_fast.metrics.threshold_choice import compare_methods
    benchmark.group = "threshold choice n=1e7"
    benchmark.pedantic(compare_methods, args=probabilities_1e7, rounds=3, iterations=1)


def test_evaluate_probabilities_1e7(benchmark, probabilities_1e7):
    benchmark.group = "threshold choice n=1e7"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", indist_fast.IndistFastWarning)
        benchmark.pedantic(indist_fast.evaluate, args=probabilities_1e7, rounds=3,
                           iterations=1)
